/* agent/batch.c — batches of actions (see batch.h): the stale rule, the
 * navigation check, and how the script planner groups its steps. */
#include <stdio.h>
#include <string.h>

#include "actions/exec.h"
#include "agent/batch.h"

void agent_batch_init(agent_batch *b)
{
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < AGENT_MAX_BATCH; i++)
        act_action_init(&b->a[i]);
}

void agent_batch_clear(agent_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        act_action_clear(&b->a[i]);
    b->n = 0;
    b->dropped = 0;
}

static int same_str(const char *x, const char *y)
{
    return !strcmp(x ? x : "", y ? y : "");
}

int agent_batch_stale(const perc_obs *plan, const perc_obs *now, const act_action *a, char *why, size_t n)
{
    const perc_component *pc = NULL, *nc = NULL;
    int pb = 0, nb = 0;
    if (act_locate(plan, a, &pc, &pb, NULL) || (!pc && !pb))
        return 0; /* not shown when planned: the executor's error says so */
    if (pc) {
        /* a view id (c3) may now name another component: compare by key */
        nc = perc_obs_find_component(now, pc->key);
        if (!nc) {
            snprintf(why, n, "component %s (%s '%s') is gone", pc->key, pc->kind, pc->label ? pc->label : "");
            return 1;
        }
        if (!same_str(pc->kind, nc->kind) || !same_str(pc->label, nc->label)) {
            snprintf(why, n, "component %s changed from %s '%s' to %s '%s'", pc->key, pc->kind,
                     pc->label ? pc->label : "", nc->kind, nc->label ? nc->label : "");
            return 1;
        }
        return 0;
    }
    const perc_node *pn = perc_obs_node_by_backend(plan, pb);
    const perc_node *nn = perc_obs_node_by_backend(now, pb);
    if (!nn) {
        snprintf(why, n, "%s '%s' is gone", pn && pn->role ? pn->role : "target",
                 pn && pn->name ? pn->name : "");
        return 1;
    }
    if (pn && (!same_str(pn->role, nn->role) || !same_str(pn->name, nn->name))) {
        snprintf(why, n, "%s '%s' is now %s '%s'", pn->role ? pn->role : "", pn->name ? pn->name : "",
                 nn->role ? nn->role : "", nn->name ? nn->name : "");
        return 1;
    }
    /* the action runs on the new view: its target must resolve to the same node there */
    if (act_locate(now, a, &nc, &nb, NULL) || nb != pb) {
        snprintf(why, n, "%s now names another element", a->target ? a->target : "the target");
        return 1;
    }
    return 0;
}

int agent_batch_navigated(const perc_obs *plan, const perc_obs *now, char *why, size_t n)
{
    if (!strcmp(perc_obs_url(plan), perc_obs_url(now)))
        return 0;
    snprintf(why, n, "the page moved to %.300s", perc_obs_url(now));
    return 1;
}

/* Actions a model could plan together with what came before on one view. */
static int joinable(const act_action *a, const perc_obs *obs)
{
    if (a->kind == ACT_PRESS)
        return 1;
    if (!act_kind_has_target(a->kind))
        return 0;
    const perc_component *c = NULL;
    int b = 0;
    return act_locate(obs, a, &c, &b, NULL) == EOUS_OK && (c || b);
}

static eous_rc parse_step(const cJSON *step, int entry, int sub, agent_batch *out, eous_err *err)
{
    act_action *a = &out->a[out->n];
    if (act_parse_script_step(step, a, err)) {
        if (sub >= 0)
            return eous_err_prefix(err, "script step %d, action %d", entry + 1, sub + 1);
        return eous_err_prefix(err, "script step %d", entry + 1);
    }
    out->entry[out->n] = entry;
    out->sub[out->n] = sub < 0 ? 0 : sub;
    out->n++;
    return EOUS_OK;
}

eous_rc agent_batch_from_script(const cJSON *steps, int start, int sub, const perc_obs *obs, int max,
                                agent_batch *out, eous_err *err)
{
    agent_batch_clear(out);
    if (max < 1)
        max = 1;
    if (max > AGENT_MAX_BATCH)
        max = AGENT_MAX_BATCH;
    const cJSON *first = cJSON_GetArrayItem(steps, start);
    if (!first)
        return EOUS_OK;
    eous_rc rc;
    if (cJSON_IsArray(first)) {
        int n = cJSON_GetArraySize(first);
        if (n == 0)
            return eous_err_set(err, EOUS_E_INVALID, "script step %d: an empty batch []; expected step objects",
                                start + 1);
        for (int i = sub; i < n && (int)out->n < max; i++) {
            const cJSON *s = cJSON_GetArrayItem(first, i);
            if (cJSON_IsArray(s))
                return eous_err_set(err, EOUS_E_INVALID,
                                    "script step %d, action %d: a batch inside a batch; expected a step object",
                                    start + 1, i + 1);
            if ((rc = parse_step(s, start, i, out, err)))
                return rc;
        }
        return EOUS_OK;
    }
    if ((rc = parse_step(first, start, -1, out, err)))
        return rc;
    /* navigation, tabs, scroll and stop change or end the view: they only start a batch */
    act_kind k0 = out->a[0].kind;
    if (!act_kind_has_target(k0) && k0 != ACT_PRESS)
        return EOUS_OK;
    for (int i = start + 1; (int)out->n < max; i++) {
        const cJSON *s = cJSON_GetArrayItem(steps, i);
        if (!s || cJSON_IsArray(s))
            break;
        /* parsed in place once; a step that cannot join stays for the next plan */
        if (parse_step(s, i, -1, out, NULL) != EOUS_OK)
            break;
        if (!joinable(&out->a[out->n - 1], obs)) {
            act_action_clear(&out->a[--out->n]);
            break;
        }
    }
    return EOUS_OK;
}
