/* actions/action.c — the action type: init, clear, copy, format, compare.
 * Parsers live in actions/parse.c, the vocabulary (and act_kind_name) in
 * actions/vocab.c. */
#include "actions/action.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void act_action_init(act_action *a)
{
    memset(a, 0, sizeof *a);
    a->kind = ACT_NONE;
    a->clear = 1;
}

void act_action_clear(act_action *a)
{
    if (!a)
        return;
    free(a->target);
    free(a->tool);
    free(a->text);
    cJSON_Delete(a->params);
    act_action_init(a);
}

eous_rc act_action_copy(act_action *out, const act_action *in, eous_err *err)
{
    act_action_init(out);
    out->kind = in->kind;
    out->enter = in->enter;
    out->clear = in->clear;
    out->index = in->index;
    out->from_script = in->from_script;
    out->retries = in->retries;
    out->timeout_ms = in->timeout_ms;
    out->expect_dialog = in->expect_dialog;
    if ((in->target && !(out->target = strdup(in->target))) ||
        (in->tool && !(out->tool = strdup(in->tool))) ||
        (in->text && !(out->text = strdup(in->text))) ||
        (in->params && !(out->params = cJSON_Duplicate(in->params, 1)))) {
        act_action_clear(out);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory copying an action");
    }
    return EOUS_OK;
}

static int put_arg(eous_buf *b, const char *s)
{
    return eous_buf_puts(b, " [", NULL) || eous_buf_puts(b, s ? s : "", NULL) ||
           eous_buf_putc(b, ']', NULL);
}

char *act_format(const act_action *a)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    int bad = eous_buf_puts(&b, act_kind_name(a->kind), NULL) != EOUS_OK;
    switch (a->kind) {
    case ACT_CALL: {
        char *p = a->params ? eous_json_print(a->params) : NULL;
        bad = bad || (a->params && !p) || put_arg(&b, a->target) || put_arg(&b, a->tool) ||
              put_arg(&b, p ? p : "{}");
        free(p);
        break;
    }
    case ACT_TYPE:
        bad = bad || put_arg(&b, a->target) || put_arg(&b, a->text) ||
              put_arg(&b, a->enter ? "1" : "0");
        break;
    case ACT_SELECT:
        bad = bad || put_arg(&b, a->target) || put_arg(&b, a->text);
        break;
    case ACT_CLICK:
    case ACT_HOVER:
        bad = bad || put_arg(&b, a->target);
        break;
    case ACT_PRESS:
    case ACT_SCROLL:
    case ACT_GOTO:
    case ACT_STOP:
        bad = bad || put_arg(&b, a->text);
        break;
    case ACT_TAB_FOCUS: {
        char num[24];
        snprintf(num, sizeof num, "%d", a->index);
        bad = bad || put_arg(&b, num);
        break;
    }
    case ACT_WAIT:
    case ACT_READ:
    case ACT_EXPECT:
    case ACT_UPLOAD:
    case ACT_DOWNLOAD: {
        /* the target when it has one, then its options as JSON */
        char *p = a->params ? eous_json_print(a->params) : NULL;
        bad = bad || (a->params && !p) || (a->target && put_arg(&b, a->target)) || put_arg(&b, p ? p : "{}");
        free(p);
        break;
    }
    case ACT_NONE:
    case ACT_GO_BACK:
    case ACT_GO_FORWARD:
    case ACT_CLOSE_TAB:
        break;
    }
    if (bad) {
        eous_buf_free(&b);
        return NULL;
    }
    return eous_buf_steal(&b);
}

static int str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return (a ? *a : 0) == (b ? *b : 0) && (!a || !*a) && (!b || !*b);
    return strcmp(a, b) == 0;
}

int act_equal(const act_action *a, const act_action *b)
{
    if (a->kind != b->kind || !str_eq(a->target, b->target) || !str_eq(a->tool, b->tool) ||
        !str_eq(a->text, b->text))
        return 0;
    if (a->kind == ACT_CALL || act_kind_is_rpa(a->kind)) {
        /* absent params and {} mean the same call */
        int ea = !a->params || (cJSON_IsObject(a->params) && !a->params->child);
        int eb = !b->params || (cJSON_IsObject(b->params) && !b->params->child);
        if (ea != eb || (!ea && !cJSON_Compare(a->params, b->params, 1)))
            return 0;
    }
    if (a->kind == ACT_TYPE && (a->enter != b->enter || a->clear != b->clear))
        return 0;
    if (a->kind == ACT_TAB_FOCUS && a->index != b->index)
        return 0;
    return a->retries == b->retries && a->timeout_ms == b->timeout_ms;
}
