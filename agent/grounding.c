/* agent/grounding.c — the grounding check of scripted steps (see grounding.h).
 *
 * Matching is on normalised text: ASCII case folded, no-break spaces (raw or
 * as the views' "\xa0" escape) and whitespace runs made one space, and a
 * needle that starts or ends with a word character must sit on a word
 * boundary ("u01" is not found in "u011"). */
#define _GNU_SOURCE
#include "agent/grounding.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perception/perc.h"

int agent_ground_mode_parse(const char *s, agent_ground_mode *out)
{
    if (!s)
        return -1;
    if (!strcmp(s, "strict"))
        *out = AGENT_GROUND_STRICT;
    else if (!strcmp(s, "report"))
        *out = AGENT_GROUND_REPORT;
    else if (!strcmp(s, "off"))
        *out = AGENT_GROUND_OFF;
    else
        return -1;
    return 0;
}

const char *agent_ground_mode_name(agent_ground_mode m)
{
    return m == AGENT_GROUND_STRICT ? "strict" : m == AGENT_GROUND_REPORT ? "report" : "off";
}

const char *agent_ground_verdict_name(agent_ground_verdict v)
{
    switch (v) {
    case AGENT_GROUND_GROUNDED:
        return "grounded";
    case AGENT_GROUND_COMPUTED:
        return "computed";
    case AGENT_GROUND_ADDRESSING:
        return "ungrounded_addressing";
    default:
        return "ungrounded";
    }
}

/* word characters: ASCII letters and digits, and any non-ASCII byte (accented names) */
static int word_byte(unsigned char c)
{
    return isalnum(c) || c >= 0x80;
}

/* The normalised copy of s (caller frees), or NULL when out of memory. */
static char *norm(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *o = malloc(n + 1), *w = o;
    if (!o)
        return NULL;
    int space = 1; /* drops leading spaces */
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        int ws = 0;
        if (p[0] == 0xc2 && p[1] == 0xa0) {
            ws = 2;
        } else if (p[0] == '\\' && p[1] == 'x' && p[2] == 'a' && p[3] == '0') {
            ws = 4;
        } else if (isspace(*p)) {
            ws = 1;
        }
        if (ws) {
            if (!space)
                *w++ = ' ';
            space = 1;
            p += ws;
            continue;
        }
        *w++ = (char)tolower(*p++);
        space = 0;
    }
    if (w > o && w[-1] == ' ')
        w--;
    *w = '\0';
    return o;
}

/* 1 when normalised needle nd occurs in normalised hay on word boundaries. */
static int find_norm(const char *hay, const char *nd)
{
    size_t n = strlen(nd);
    if (!n)
        return 1;
    int wb_start = word_byte((unsigned char)nd[0]), wb_end = word_byte((unsigned char)nd[n - 1]);
    for (const char *p = hay; (p = strstr(p, nd)); p++) {
        if (wb_start && p > hay && word_byte((unsigned char)p[-1]))
            continue;
        if (wb_end && word_byte((unsigned char)p[n]))
            continue;
        return 1;
    }
    return 0;
}

/* The texts one check searches, each normalised once. */
typedef struct ground_ctx {
    const agent_ground_input *in;
    char *view, *intent; /* normalised copies (NULL intent: none) */
} ground_ctx;

/* 1 when needle occurs in the normalised text. */
static int norm_has(const char *text, const char *needle)
{
    char *nd = norm(needle);
    int found = text && nd && find_norm(text, nd);
    free(nd);
    return found;
}

typedef enum where { IN_VIEW = 1, IN_INTENT = 2, IN_SEEN = 4 } where;

static int found_in(const ground_ctx *g, const char *needle, int places)
{
    char *nd = norm(needle);
    if (!nd)
        return 0;
    int found = ((places & IN_VIEW) && find_norm(g->view, nd)) ||
                ((places & IN_INTENT) && g->intent && find_norm(g->intent, nd));
    const agent_ground_log *seen = g->in->seen;
    for (size_t i = 0; !found && (places & IN_SEEN) && seen && i < seen->n; i++)
        found = find_norm(seen->texts[i], nd);
    free(nd);
    return found;
}

/* {{secret:NAME}}: a credential from the secrets file, never on the page */
static int is_secret(const char *s)
{
    size_t n = strlen(s);
    return n > 11 && !strncmp(s, "{{secret:", 9) && !strcmp(s + n - 2, "}}");
}

__attribute__((format(printf, 3, 4))) static void verdict(agent_ground_result *out, agent_ground_verdict v,
                                                          const char *fmt, ...)
{
    if (v <= out->verdict)
        return; /* the worst item decides; its message is the one kept */
    out->verdict = v;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->missing, sizeof out->missing, fmt, ap);
    va_end(ap);
}

/* Every string in params (nested arrays and objects too) must be in the view or
 * the intent; a page-level tool's look-up is counted as addressing instead. */
static void check_params(const ground_ctx *g, const cJSON *p, const char *name, agent_ground_result *out)
{
    if (cJSON_IsString(p)) {
        if (is_secret(p->valuestring) || found_in(g, p->valuestring, IN_VIEW | IN_INTENT))
            return;
        if (g->in->rule && g->in->rule[0])
            verdict(out, AGENT_GROUND_COMPUTED, "param %s '%.200s' computed: %.200s", name, p->valuestring,
                    g->in->rule);
        else if (g->in->call_page_tool)
            verdict(out, AGENT_GROUND_ADDRESSING, "page-data look-up: param %s '%.200s' is not in the view or the intent",
                    name, p->valuestring);
        else
            verdict(out, AGENT_GROUND_UNGROUNDED, "param %s '%.200s' is not in the view or the intent", name,
                    p->valuestring);
        return;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, p) check_params(g, c, c->string ? c->string : name, out);
}

static void check_call(const ground_ctx *g, const act_action *a, agent_ground_result *out)
{
    const char *k = a->target ? a->target : "";
    char id[80];
    snprintf(id, sizeof id, "[%.70s]", k);
    int shown = norm_has(g->view, id) || norm_has(g->view, k);
    if (!shown && g->in->call_view_id && g->in->call_view_id[0]) {
        snprintf(id, sizeof id, "[%.70s]", g->in->call_view_id);
        shown = norm_has(g->view, id);
    }
    if (!shown)
        verdict(out, AGENT_GROUND_UNGROUNDED, "call target '%.200s' is not in the view", k);
    else if (a->tool && !norm_has(g->view, a->tool))
        verdict(out, AGENT_GROUND_UNGROUNDED, "tool '%.200s' of '%.80s' is not in the view", a->tool, k);
    check_params(g, a->params, "value", out);
}

/* 1 when the normalised view h shows a node "role 'name'" — as the atomic view writes it
 * ("[12] role 'name'") or the pruned one ("role [12] 'name'"). */
static int view_has_role_name(const char *h, const char *role, const char *name)
{
    char *raw = NULL;
    if (asprintf(&raw, "'%s'", name) < 0)
        return 0;
    /* quoted before normalising: spaces at the name's ends are part of it */
    char *r = norm(role), *quoted = norm(raw);
    free(raw);
    int found = 0;
    size_t rl = r ? strlen(r) : 0;
    if (h && r && quoted) {
        for (const char *p = h; !found && (p = strstr(p, quoted)); p++) {
            const char *q = p;
            if (q > h && q[-1] == ' ')
                q--;
            if (q > h && q[-1] == ']') { /* skip the pruned view's " [id]" */
                while (q > h && q[-1] != '[')
                    q--;
                if (q > h)
                    q--;
                if (q > h && q[-1] == ' ')
                    q--;
            }
            found = (size_t)(q - h) >= rl && !strncmp(q - rl, r, rl) &&
                    (q - rl == h || !word_byte((unsigned char)q[-(long)rl - 1]));
        }
        /* the pruned view leaves an empty name out: "textbox [10] value: ..." */
        char *open = NULL;
        if (!found && !strcmp(quoted, "''") && asprintf(&open, "%s [", r) >= 0) {
            for (const char *p = h; !found && (p = strstr(p, open)); p++) {
                const char *close = strchr(p, ']');
                found = (p == h || !word_byte((unsigned char)p[-1])) && close && strncmp(close + 1, " '", 2);
            }
        }
        free(open);
    }
    free(quoted);
    free(r);
    return found;
}

/* An atomic target: css= is addressing; "role 'name'" (" #N" dropped) and
 * view ids ("12", "[12]") must be in the view. */
static void check_target(const ground_ctx *g, const act_action *a, agent_ground_result *out)
{
    const char *k = a->target ? a->target : "";
    if (!strncmp(k, "css=", 4)) {
        verdict(out, AGENT_GROUND_ADDRESSING, "css target '%.250s'", k);
        return;
    }
    char needle[600], role[64], name[512];
    int nth, shown;
    if (act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0) {
        snprintf(needle, sizeof needle, "%s '%s'", role, name);
        shown = view_has_role_name(g->view, role, name);
    } else {
        snprintf(needle, sizeof needle, "[%.*s]", (int)strcspn(k + (k[0] == '['), "]"), k + (k[0] == '['));
        shown = norm_has(g->view, needle);
    }
    if (!shown)
        verdict(out, AGENT_GROUND_UNGROUNDED, "target %.250s is not in the view", needle);
}

/* Data rows of the tables in the view: hybrid "| ... |" lines after each
 * header line; atomic "row" nodes whose next line is not a column header. */
static long count_rows(const char *view)
{
    long rows = 0;
    int in_table = 0;
    for (const char *line = view; line && *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        const char *t = line + strspn(line, " \t");
        if (*t == '|') {
            rows += in_table; /* the first line of a block is its header */
            in_table = 1;
        } else {
            in_table = 0;
            const char *r = memmem(line, len, "] row ", 6);
            const char *next = eol ? eol + 1 : NULL;
            const char *next_eol = next ? strchr(next, '\n') : NULL;
            size_t nlen = next ? (next_eol ? (size_t)(next_eol - next) : strlen(next)) : 0;
            /* a header row, or antd's empty-table placeholder row, holds no data */
            if (r && !(next && (memmem(next, nlen, "columnheader", 12) || memmem(next, nlen, "No data", 7))))
                rows++;
        }
        line = eol ? eol + 1 : NULL;
    }
    return rows;
}

/* The rules the check can verify; others are taken as stated. */
static void check_rule(const ground_ctx *g, const char *answer, agent_ground_result *out)
{
    if (strncasecmp(g->in->rule, "count of rows", 13))
        return;
    char *end;
    long want = strtol(answer, &end, 10);
    long have = count_rows(g->in->view);
    if (end == answer || *end || want != have) {
        char got[32];
        snprintf(got, sizeof got, "%ld", have);
        verdict(out, AGENT_GROUND_UNGROUNDED, "answer '%.200s' is not the %s rows the view shows", answer, got);
    }
}

/* Every word and number of the answer was read in this run or the intent,
 * or the plan says how it was computed. */
static void check_answer(const ground_ctx *g, const char *answer, agent_ground_result *out)
{
    const char *missing = NULL;
    size_t missing_len = 0;
    for (const char *p = answer; *p && !missing;) {
        if (!word_byte((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *s = p;
        while (*p && (word_byte((unsigned char)*p) ||
                      (strchr(".,'-/:@_+", *p) && word_byte((unsigned char)p[1]))))
            p++;
        char tok[256];
        snprintf(tok, sizeof tok, "%.*s", (int)(p - s), s);
        if (!found_in(g, tok, IN_VIEW | IN_INTENT | IN_SEEN))
            missing = s, missing_len = (size_t)(p - s);
    }
    if (missing && g->in->rule && g->in->rule[0]) {
        verdict(out, AGENT_GROUND_COMPUTED, "answer computed: %.250s", g->in->rule);
    } else if (missing) {
        char tok[256];
        snprintf(tok, sizeof tok, "%.*s", (int)(missing_len < 200 ? missing_len : 200), missing);
        verdict(out, AGENT_GROUND_UNGROUNDED, "answer '%s' appears in no observation of this run nor the intent", tok);
    }
    if (g->in->rule && g->in->rule[0])
        check_rule(g, answer, out);
}

/* The verdict on one action, the texts normalised once for all its items. */
static void check_action(const ground_ctx *g, const act_action *a, agent_ground_result *out)
{
    switch (a->kind) {
    case ACT_CALL:
        check_call(g, a, out);
        break;
    case ACT_CLICK:
    case ACT_HOVER:
        check_target(g, a, out);
        break;
    case ACT_TYPE:
        check_target(g, a, out);
        if (a->text && !is_secret(a->text) && !found_in(g, a->text, IN_VIEW | IN_INTENT | IN_SEEN)) {
            if (g->in->rule && g->in->rule[0])
                verdict(out, AGENT_GROUND_COMPUTED, "typed text '%.200s' computed: %.200s", a->text, g->in->rule);
            else
                verdict(out, AGENT_GROUND_UNGROUNDED,
                        "typed text '%.200s' is in no observation of this run nor the intent", a->text);
        }
        break;
    case ACT_SELECT:
        check_target(g, a, out);
        if (a->text && !found_in(g, a->text, IN_VIEW | IN_INTENT)) {
            if (g->in->rule && g->in->rule[0])
                verdict(out, AGENT_GROUND_COMPUTED, "option '%.200s' chosen: %.200s", a->text, g->in->rule);
            else
                verdict(out, AGENT_GROUND_UNGROUNDED, "option '%.200s' is not in the view or the intent", a->text);
        }
        break;
    case ACT_GOTO:
        if (a->text && !found_in(g, a->text, IN_VIEW | IN_INTENT | IN_SEEN))
            verdict(out, AGENT_GROUND_ADDRESSING, "goto '%.250s' is a URL no observation showed", a->text);
        break;
    case ACT_STOP:
        check_answer(g, a->text ? a->text : "", out);
        break;
    default: /* press, scroll, history and tab moves name nothing on the page */
        break;
    }
}

void agent_ground_check(const agent_ground_input *in, const act_action *a, agent_ground_result *out)
{
    memset(out, 0, sizeof *out);
    ground_ctx g = {.in = in, .view = norm(in->view), .intent = in->intent ? norm(in->intent) : NULL};
    if (!g.view || (in->intent && !g.intent))
        verdict(out, AGENT_GROUND_UNGROUNDED, "out of memory checking the step");
    else
        check_action(&g, a, out);
    free(g.view);
    free(g.intent);
}

int agent_ground_log_add(agent_ground_log *log, const char *text)
{
    if (!text || !*text)
        return 0;
    if (log->n == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 16;
        char **t = realloc(log->texts, cap * sizeof *t);
        if (!t)
            return -1;
        log->texts = t;
        log->cap = cap;
    }
    if (!(log->texts[log->n] = norm(text)))
        return -1;
    log->n++;
    return 0;
}

void agent_ground_log_free(agent_ground_log *log)
{
    for (size_t i = 0; i < log->n; i++)
        free(log->texts[i]);
    free(log->texts);
    memset(log, 0, sizeof *log);
}

void agent_ground_step(const struct perc_obs *obs, const char *intent, const agent_ground_log *seen,
                       const cJSON *step, const act_action *a, agent_ground_result *out)
{
    agent_ground_input in;
    memset(&in, 0, sizeof in);
    in.view = perc_obs_text(obs);
    in.intent = intent;
    in.seen = seen;
    if (a->kind == ACT_CALL && a->target) {
        const perc_component *c = perc_obs_find_component(obs, a->target);
        if (c) {
            in.call_view_id = c->view_id;
            in.call_page_tool = c->backend_id == 0;
        }
    }
    in.rule = eous_json_str(step, "from");
    agent_ground_check(&in, a, out);
}
