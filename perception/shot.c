/* perception/shot.c — see shot.h. */
#include "perception/shot.h"

#include <stdlib.h>

#include "perception/mask_js.h" /* generated from mask.js: PERC_MASK_JS */

eous_rc perc_mask(wd_session *s, int on, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    if (!args)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON_AddItemToArray(args, cJSON_CreateBool(on));
    eous_rc rc = wd_execute(s, PERC_MASK_JS, args, &v, err);
    if (!rc && !cJSON_IsTrue(v))
        rc = eous_err_set(err, EOUS_E_INFRA, "screenshot mask: the page did not answer");
    cJSON_Delete(v);
    cJSON_Delete(args);
    return rc;
}

eous_rc perc_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err)
{
    *png = NULL;
    *len = 0;
    eous_rc rc = perc_mask(s, 1, err);
    if (rc) {
        eous_err_prefix(err, "screenshot not taken (secret fields could not be masked)");
        return rc;
    }
    rc = wd_screenshot(s, png, len, err);
    /* the mask goes even when the capture failed; a page that keeps it would
     * look different to the next perception's styles */
    eous_err uerr;
    eous_err_clear(&uerr);
    eous_rc urc = perc_mask(s, 0, &uerr);
    if (!rc && urc) {
        free(*png);
        *png = NULL;
        *len = 0;
        if (err)
            *err = uerr;
        rc = urc;
    }
    return rc;
}
