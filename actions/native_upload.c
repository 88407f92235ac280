/* actions/native_upload.c — a native file input's upload(files) (perception/
 * native.js inferred it and stamped it data-eous-nk=K): the files come only
 * from --files DIR and reach the input as an upload step's do (actions/
 * files.c: act_files_resolve, then WebDriver's send keys, which gives the
 * input its files and its change event), so the page sees a person's upload.
 * Called by call.c after the params were validated and the policy passed. */
#include <stdio.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/rpa_int.h"

eous_rc act_native_upload(act_exec *x, const perc_obs *obs, const perc_component *c, const act_action *a,
                          const char *who, act_result *res, eous_err *err)
{
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(a->params, "files");
    if (!cJSON_IsArray(files) || !cJSON_GetArraySize(files))
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected files: [names in the files folder]", who);
    char sel[300];
    snprintf(sel, sizeof sel, "css=[data-eous-nk=\"%s\"]", c->key);
    act_action ua;
    act_action_init(&ua);
    ua.kind = ACT_UPLOAD;
    ua.target = sel;
    ua.from_script = 1; /* a css target the executor made, not the model's */
    ua.params = a->params; /* borrowed: ua is never cleared */
    eous_rc rc = act_run_upload(x, obs, &ua, res, err);
    if (rc)
        return eous_err_prefix(err, "%s", who);
    res->path = ACT_PATH_SEMANTIC;
    return EOUS_OK;
}
