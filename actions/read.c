/* actions/read.c — the read step: {"read": <target or component>, "as":
 * <name>, "what": "rows" | "value" | "text" | "state"} puts data from the page
 * into the task's output (actions/rpa.h).  A model calls it as the read tool.
 *
 * rows: the table at, around or inside the target (or the component's root),
 * as objects keyed by its column headers; value: a field's value (a
 * component's state.value); text: the element's text; state: a component's
 * state S.  Hidden regions are never read, secret fields never give a value. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/read_js.h"
#include "actions/rpa.h"
#include "actions/rpa_int.h"

static const char *const whats[] = {"rows", "value", "text", "state"};

eous_rc act_read_set(const char *as, const char *what, const char *ctx, act_action *out, eous_err *err)
{
    size_t n = strlen(as);
    if (!n || n > 64)
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"as\" must be a name of 1 to 64 characters", ctx);
    for (const char *p = as; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return eous_err_set(err, EOUS_E_INVALID, "%s, \"as\" must be letters, digits, _ - or ., got \"%.64s\"",
                                ctx, as);
    size_t i = 0;
    while (i < 4 && strcmp(whats[i], what))
        i++;
    if (i == 4)
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"what\" must be rows, value, text or state, got \"%.32s\"",
                            ctx, what);
    cJSON_Delete(out->params);
    if (!(out->params = cJSON_CreateObject()) || !cJSON_AddStringToObject(out->params, "as", as) ||
        !cJSON_AddStringToObject(out->params, "what", whats[i]))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

static eous_rc set_from_json(const cJSON *obj, const char *ctx, act_action *out, eous_err *err)
{
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(obj, "as");
    const cJSON *what = cJSON_GetObjectItemCaseSensitive(obj, "what");
    if (!cJSON_IsString(as))
        return eous_err_set(err, EOUS_E_INVALID, "%s, %s \"as\" (the output's name)", ctx, as ? "bad" : "missing");
    if (what && !cJSON_IsString(what))
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"what\" must be rows, value, text or state", ctx);
    return act_read_set(as->valuestring, what ? what->valuestring : "text", ctx, out, err);
}

eous_rc act_read_parse(const cJSON *val, const cJSON *step, const char *ctx, act_action *out, eous_err *err)
{
    if (!cJSON_IsString(val) || !val->valuestring[0])
        return eous_err_set(err, EOUS_E_INVALID, "%s, the target must be a non-empty string, got a %s", ctx,
                            cJSON_IsString(val) ? "empty string" : eous_json_type_name(val));
    if (!(out->target = strdup(val->valuestring)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return set_from_json(step, ctx, out, err);
}

eous_rc act_read_tool_args(const cJSON *args, const char *ctx, act_action *out, eous_err *err)
{
    eous_rc rc = set_from_json(args, ctx, out, err);
    /* a model's answer that does not fit is told why and asked again */
    return rc == EOUS_E_INVALID ? eous_err_remap(err, EOUS_E_PARSE) : rc;
}

/* The component a names, when it names one (no message when not). */
static const perc_component *component_of(const perc_obs *obs, const act_action *a)
{
    const perc_component *c = NULL;
    if (!obs || !a->target || !strncmp(a->target, "css=", 4))
        return NULL;
    if (act_find_component(obs, a, &c, NULL) != EOUS_OK || !c || c->agent_hidden)
        return NULL;
    return c;
}

/* read.js's {headers, rows: [[cell, ...]]} as objects keyed by header, in column order. */
static cJSON *keyed_rows(const cJSON *t)
{
    const cJSON *headers = eous_json_arr(t, "headers"), *row;
    cJSON *out = cJSON_CreateArray();
    cJSON_ArrayForEach(row, eous_json_arr(t, "rows")) {
        cJSON *o = cJSON_CreateObject();
        int i = 0;
        for (const cJSON *c = row->child; c; c = c->next, i++) {
            const cJSON *h = cJSON_GetArrayItem(headers, i);
            if (cJSON_IsString(h) && !cJSON_GetObjectItemCaseSensitive(o, h->valuestring))
                cJSON_AddItemToObject(o, h->valuestring, cJSON_Duplicate(c, 1));
        }
        cJSON_AddItemToArray(out, o);
    }
    return out;
}

/* read.js on the target's element (or the component's root). */
static eous_rc read_element(act_exec *x, const perc_obs *obs, const act_action *a, const perc_component *c,
                            const char *what, cJSON **out, eous_err *err)
{
    act_target t;
    memset(&t, 0, sizeof t);
    eous_rc rc;
    if (c) {
        t.backend_id = c->backend_id;
        snprintf(t.what, sizeof t.what, "%s '%s'", c->kind, c->label ? c->label : c->key);
        rc = c->backend_id ? EOUS_OK
                           : eous_err_set(err, EOUS_E_NOT_FOUND, "read: %s has no element on the page", t.what);
    } else {
        rc = act_resolve_target(x, obs, a, &t, err);
    }
    if (!rc)
        rc = act_acquire(x, &t, 0, err);
    cJSON *args = NULL, *v = NULL;
    if (!rc) {
        args = cJSON_CreateArray();
        cJSON_AddItemToArray(args, wd_element_ref(t.elem));
        cJSON_AddItemToArray(args, cJSON_CreateString(what));
        rc = wd_execute(x->s, ACT_READ_JS, args, &v, err);
    }
    const char *why = rc ? NULL : eous_json_str(v, "refused");
    if (why)
        rc = eous_err_set(err, !strcmp(why, "secret") || !strcmp(why, "hidden") ? EOUS_E_POLICY : EOUS_E_NOT_FOUND,
                          "read: %s %s", t.what,
                          !strcmp(why, "secret")     ? "is a secret field: its value is never read"
                          : !strcmp(why, "hidden")   ? "is in a region hidden from the agent"
                          : !strcmp(why, "no table") ? "holds no table to read rows from"
                                                     : "is gone since the observation");
    if (!rc && !(*out = cJSON_DetachItemFromObjectCaseSensitive(v, "value")))
        rc = eous_err_set(err, EOUS_E_PAGE, "read: %s gave nothing", t.what);
    if (!rc && eous_json_bool(v, "table", 0)) {
        cJSON *rows = keyed_rows(*out);
        cJSON_Delete(*out);
        if (!(*out = rows))
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    cJSON_Delete(args);
    cJSON_Delete(v);
    act_target_free(&t);
    return rc;
}

eous_rc act_read_value(act_exec *x, const perc_obs *obs, const act_action *a, const char *what, cJSON **out,
                       eous_err *err)
{
    *out = NULL;
    const perc_component *c = component_of(obs, a);
    if (!strcmp(what, "state") || (c && !strcmp(what, "value") && cJSON_GetObjectItem(c->state, "value"))) {
        if (!c)
            return eous_err_set(err, EOUS_E_NOT_FOUND,
                                "read: no component %.200s in the view (state is read from a component)",
                                a->target ? a->target : "");
        const cJSON *v = !strcmp(what, "state") ? c->state : cJSON_GetObjectItem(c->state, "value");
        if (!(*out = cJSON_Duplicate(v, 1)))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        return EOUS_OK;
    }
    return read_element(x, obs, a, c, what, out, err);
}

eous_rc act_run_read(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    const char *as = eous_json_str(a->params, "as"), *what = eous_json_str(a->params, "what");
    if (!as || !what)
        return eous_err_set(err, EOUS_E_INVALID, "read: expected \"as\" and \"what\"");
    cJSON *v = NULL;
    eous_rc rc = act_read_value(x, obs, a, what, &v, err);
    if (rc)
        return rc;
    if (!x->output && !(x->output = cJSON_CreateObject())) {
        cJSON_Delete(v);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    cJSON *had = cJSON_GetObjectItemCaseSensitive(x->output, as);
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (!strcmp(what, "rows") && cJSON_IsArray(had)) {
        /* a pager read page by page: the rows add up */
        cJSON *row;
        while ((row = cJSON_DetachItemFromArray(v, 0)))
            cJSON_AddItemToArray(had, row);
        cJSON_Delete(v);
        act_res_msg(res, "read %d rows into %s (%d in all)", n, as, cJSON_GetArraySize(had));
        return EOUS_OK;
    }
    char *shown = n < 0 ? eous_json_print(v) : NULL;
    if (had)
        cJSON_ReplaceItemInObjectCaseSensitive(x->output, as, v);
    else
        cJSON_AddItemToObject(x->output, as, v);
    if (n >= 0)
        act_res_msg(res, "read %d %s into %s", n, !strcmp(what, "rows") ? "rows" : "items", as);
    else
        act_res_msg(res, "read %s into %s: %.300s", what, as, shown ? shown : "");
    free(shown);
    return EOUS_OK;
}

const cJSON *act_exec_output(const act_exec *x)
{
    return x ? x->output : NULL;
}

const cJSON *act_exec_downloads(const act_exec *x)
{
    return x ? x->downloads : NULL;
}
