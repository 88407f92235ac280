/* actions/locate.c — what an action acts on in a given view, without touching
 * the page (act_locate, see exec.h): the batch executor compares it between
 * the view a batch was planned on and the view before each later action. */
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"

eous_rc act_locate(const perc_obs *obs, const act_action *a, const perc_component **comp, int *backend_id,
                   eous_err *err)
{
    *comp = NULL;
    *backend_id = 0;
    if (!act_kind_has_target(a->kind) || !obs)
        return EOUS_OK;
    if (a->kind == ACT_CALL) {
        eous_rc rc = act_find_component(obs, a, comp, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "call: no component %s in the view", a->target);
        return rc;
    }
    if (!a->target || (a->from_script && !strncmp(a->target, "css=", 4)))
        return EOUS_OK;
    act_target t;
    memset(&t, 0, sizeof t);
    /* the executor is only needed for css= targets, excluded above */
    eous_rc rc = act_resolve_target(NULL, obs, a, &t, err);
    if (!rc)
        *backend_id = t.backend_id;
    act_target_free(&t);
    return rc;
}

void act_exec_note_not_run(act_exec *x, const act_action *a, const char *reason)
{
    if (!x->audit)
        return;
    char *text = act_format(a);
    act_audit_entry ae = {.url = x->url, .action = text ? text : act_kind_name(a->kind), .path = ACT_PATH_NONE,
                          .message = reason, .result_name = "not_run"};
    eous_err e;
    if (act_audit_write(x->audit, &ae, &e) != EOUS_OK)
        EOUS_WARN("actions", "%s", e.msg);
    free(text);
}
