/* agent/grounding.c — the grounding check of scripted steps (see grounding.h).
 *
 * Matching is on normalised text: ASCII case folded, no-break spaces (raw or
 * as the views' "\xa0" escape) and whitespace runs made one space, and a
 * needle that starts or ends with a word character must sit on a word
 * boundary ("u01" is not found in "u011"). */
#define _GNU_SOURCE
#include "agent/grounding.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "actions/exec.h"
#include "perception/perc.h"

static const char *const mode_names[] = {[AGENT_GROUND_OFF] = "off", [AGENT_GROUND_REPORT] = "report",
                                          [AGENT_GROUND_STRICT] = "strict"};
static const char *const verdict_names[] = {[AGENT_GROUND_GROUNDED] = "grounded", [AGENT_GROUND_COMPUTED] = "computed",
                                            [AGENT_GROUND_ADDRESSING] = "ungrounded_addressing",
                                            [AGENT_GROUND_UNGROUNDED] = "ungrounded"};

int agent_ground_mode_parse(const char *s, agent_ground_mode *out)
{
    int i = eous_name_find(mode_names, EOUS_NAMES_N(mode_names), s);
    if (i < 0)
        return -1;
    *out = (agent_ground_mode)i;
    return 0;
}

const char *agent_ground_mode_name(agent_ground_mode m)
{
    return eous_name_of(mode_names, EOUS_NAMES_N(mode_names), (int)m, "off");
}

const char *agent_ground_verdict_name(agent_ground_verdict v)
{
    return eous_name_of(verdict_names, EOUS_NAMES_N(verdict_names), (int)v, "ungrounded");
}

/* ---- normalised text: matching as the views print ------------------------ */
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
    /* a value looked up in what the page shows (normalised, ids out): content, not the view's marks */
    for (const char *p = hay; (p = strstr(p, nd)); p++) {
        if (wb_start && p > hay && word_byte((unsigned char)p[-1]))
            continue;
        if (wb_end && word_byte((unsigned char)p[n]))
            continue;
        return 1;
    }
    return 0;
}

/* The normalised text of lines with the views' element ids ("[12]", "[c5]")
 * taken out where perception read them: values are looked up there, so an
 * answer "7" is not found in an id "[7]". */
static char *without_ids(const perc_lines *l)
{
    char *raw = perc_lines_without_ids(l);
    char *o = raw ? norm(raw) : NULL;
    free(raw);
    return o;
}

/* The same for any text (a needle, an earlier view, an action result). */
static char *norm_without_ids(const char *text)
{
    perc_lines *l;
    if (perc_lines_read(text ? text : "", text ? strlen(text) : 0, &l, NULL) != EOUS_OK)
        return NULL;
    char *o = without_ids(l);
    perc_lines_free(l);
    return o;
}

/* The texts one check searches, each normalised once. */
typedef struct ground_ctx {
    const agent_ground_input *in;
    perc_lines *lines;   /* the view as perception reads it: targets, rows, tools are looked up here */
    char *vals;          /* normalised view without ids: values are looked up here */
    char *intent;        /* normalised intent, NULL when none */
} ground_ctx;

typedef enum where { IN_VIEW = 1, IN_INTENT = 2, IN_SEEN = 4 } where;

static int found_in(const ground_ctx *g, const char *needle, int places)
{
    char *nd = norm_without_ids(needle);
    if (!nd)
        return 0;
    int found = ((places & IN_VIEW) && find_norm(g->vals, nd)) ||
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
    return n > 11 && !strncmp(s, "{{secret:", 9) && !strcmp(s + n - 2, "}}"); /* a step's value, not view text */
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

/* ---- the view's lines (perception/view_lines.c reads them) ---------------- */

static char *norm_n(const char *s, size_t n)
{
    char *c = strndup(s, n);
    char *o = c ? norm(c) : NULL;
    free(c);
    return o;
}

/* 1 when a name matches b[0..n) as the views print names: case and runs of
 * spaces aside. */
static int same_name(const char *name, const char *b, size_t n)
{
    char *x = norm(name), *y = norm_n(b ? b : "", b ? n : 0);
    int same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* 1 when the span holds name as the views print names (NULL span: no). */
static int span_names(perc_span sp, const char *name)
{
    return sp.s && same_name(name, sp.s, sp.len);
}

#define N_LINES(g) perc_lines_count((g)->lines)
#define LINE(g, i) perc_lines_at((g)->lines, (i))

/* The line that prints component view_id ("[c5] table 'Users' …"), or NULL. */
static const perc_line *component_line(const ground_ctx *g, const char *view_id)
{
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        if ((l->kind == PERC_LINE_COMPONENT || l->kind == PERC_LINE_PAGE_TOOL) &&
            perc_span_is(l->id, view_id, strlen(view_id)))
            return l;
    }
    return NULL;
}

/* 1 when the line's role is r (exact, as the views print roles). */
static int role_is(const perc_line *l, const char *r)
{
    return perc_span_is(l->role, r, strlen(r));
}

/* 1 when one of the elements the line names (its own, a row's controls) is named name. */
static int line_names(const perc_line *l, const char *name)
{
    for (size_t k = 0; k < l->n_items; k++)
        if (span_names(l->items[k].name, name))
            return 1;
    return 0;
}

/* The tool of a component line named name, or NULL. */
static const perc_line_tool *line_tool(const perc_line *l, const char *name)
{
    for (size_t t = 0; l && t < l->n_tools; t++)
        if (span_names(l->tools[t].name, name))
            return &l->tools[t];
    return NULL;
}

/* The value of the state key (or property) key on the line, NULL span when none. */
static perc_span line_state(const perc_line *l, const char *key)
{
    for (size_t k = 0; l && k < l->n_state; k++)
        if (perc_span_is(l->state[k].key, key, strlen(key)))
            return l->state[k].value;
    return (perc_span){0};
}

/* 1 when the span holds the bytes w somewhere (a row's "No data": what the page wrote, not a mark). */
static int span_has(perc_span sp, const char *w)
{
    return sp.s && memmem(sp.s, sp.len, w, strlen(w)) != NULL;
}

/* ---- the rules a step may state ("from") -------------------------------- */

typedef enum rule_kind {
    RULE_ROWS = 1, RULE_OPTIONS, RULE_SUM, RULE_MIN, RULE_MAX, RULE_DATE, RULE_MATCHES, RULE_PLACEHOLDER
} rule_kind;

typedef struct rule {
    rule_kind kind;
    int ok;          /* the rule is one of the vocabulary and gave a value */
    char value[64];  /* what it gives: a count, a number, a date */
    char why[240];   /* when !ok: why, one line */
} rule;

static const char RULES[] = "count of rows shown…, count of options listed for '<label>', sum|min|max of column "
                            "'<name>', date 'YYYY-MM-DD' plus|minus N days, count of matches in the last result, "
                            "placeholder";

/* s starts with word (any case) followed by the end or a space */
static const char *after_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(s, word, n))
        return NULL;
    return s + n;
}

/* "'text'" at s, the whole of what is left (or followed by tail): text → out */
static const char *quoted(const char *s, char *out, size_t n)
{
    if (*s != '\'')
        return NULL;
    const char *e = strchr(s + 1, '\'');
    if (!e || (size_t)(e - s - 1) >= n)
        return NULL;
    snprintf(out, n, "%.*s", (int)(e - s - 1), s + 1);
    return e + 1;
}

/* Data rows of the tables in the view: hybrid "| ... |" lines after each
 * header line; atomic "row" nodes whose next line is not a column header. */
static long count_rows(const ground_ctx *g)
{
    long rows = 0;
    int in_table = 0;
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i), *next = LINE(g, i + 1);
        if (l->kind == PERC_LINE_ROW) {
            /* the first line of a block is its header; antd's empty-table placeholder holds no data */
            rows += in_table && !(l->n_cells && perc_span_is(l->cells[0], "No data", 7));
            in_table = 1;
            continue;
        }
        in_table = 0;
        /* a header row, or antd's empty-table placeholder row, holds no data */
        if (l->kind == PERC_LINE_ELEMENT && l->id_first && role_is(l, "row") &&
            !(next && (role_is(next, "columnheader") || span_has(next->name, "No data"))))
            rows++;
    }
    return rows;
}

static int is_item_role(const perc_line *l)
{
    return l->role.s && perc_role_is_item(l->role.s, l->role.len);
}

/* The hybrid component line "[cN] kind 'label' …": its options state
 * ("options: a | b") or its tools' first listed values ("value: a|b|c"). */
static int hybrid_options(const perc_line *l, long *n, char *why, size_t wn)
{
    perc_span list = {0};
    int cut = 0;
    for (size_t k = 0; k < l->n_state && !list.s; k++)
        if (perc_span_is(l->state[k].key, "options", 7))
            list = l->state[k].value, cut = l->state[k].cut;
    for (size_t t = 0; !list.s && t < l->n_tools; t++)
        for (size_t k = 0; !list.s && k < l->tools[t].n_params; k++) {
            const perc_line_param *pm = &l->tools[t].params[k];
            if (pm->type.s && memchr(pm->type.s, '|', pm->type.len))
                list = pm->type, cut = pm->cut;
        }
    if (!list.s) {
        snprintf(why, wn, "the view lists no options for it");
        return -1;
    }
    if (cut) {
        snprintf(why, wn, "the view does not list its options whole");
        return -1;
    }
    *n = 1;
    for (size_t i = 0; i < list.len; i++)
        *n += list.s[i] == '|';
    return 0;
}

/* count of options listed for 'label': hybrid, the component so labelled;
 * atomic/pruned, the item lines of the first list (listbox, menu, tree)
 * after the element named 'label' (a combobox's popup, a cascader's next
 * column). */
static int count_options(const ground_ctx *g, const char *label, long *n, char *why, size_t wn)
{
    int rc = -1, after = 0, list_depth = -1;
    *n = 0;
    snprintf(why, wn, "the view shows nothing named '%.100s'", label);
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        if (!after && l->kind == PERC_LINE_COMPONENT) {
            if (span_names(l->name, label)) {
                rc = hybrid_options(l, n, why, wn);
                break;
            }
            continue;
        }
        if (!after) {
            after = l->role.s && line_names(l, label);
            if (after)
                snprintf(why, wn, "no list follows '%.100s' in the view", label);
        } else if (list_depth < 0) {
            if (role_is(l, "listbox") || role_is(l, "menu") || role_is(l, "tree"))
                list_depth = l->depth;
        } else if (l->depth <= list_depth) {
            break;
        } else if (l->role.s && is_item_role(l)) {
            ++*n;
        }
    }
    if (list_depth >= 0)
        rc = 0;
    return rc;
}

/* A number a cell shows: "649.14", "1,250.00 EUR", "'12'" (atomic names). */
static int cell_number(perc_span sp, double *out)
{
    char buf[96];
    size_t w = 0;
    for (const char *p = sp.s; p && p < sp.s + sp.len && w + 1 < sizeof buf; p++)
        if (*p != ',' && *p != '\'')
            buf[w++] = *p;
    buf[w] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end != buf && (*end == '\0' || *end == ' ');
}

/* sum, min or max of the column named col over the rows the view shows:
 * hybrid/pruned pipe tables (header line, then rows), atomic rows of cells
 * under a row of column headers. */
static int column_stat(const ground_ctx *g, const char *col, rule_kind k, double *out, char *why, size_t wn)
{
    int col_at = -1, in_pipe = 0, n = 0, atomic_col = -1, header_depth = -1, row_depth = -1, cell_i = 0;
    int heads = 0;
    double acc = 0, v;
    size_t cl = strlen(col);
    snprintf(why, wn, "the view shows no column '%.100s'", col);
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        if (l->kind == PERC_LINE_ROW && l->n_cells) {
            if (!in_pipe) {
                col_at = -1;
                for (size_t c = 0; c < l->n_cells; c++)
                    if (l->cells[c].len == cl && !strncasecmp(l->cells[c].s, col, cl))
                        col_at = (int)c;
            } else if (col_at >= 0 && (size_t)col_at < l->n_cells) {
                perc_span cell = l->cells[col_at];
                if (!cell_number(cell, &v)) {
                    snprintf(why, wn, "column '%.60s' shows '%.*s', not a number", col,
                             (int)(cell.len < 60 ? cell.len : 60), cell.s);
                    return -1;
                }
                acc = !n ? v : k == RULE_SUM ? acc + v : k == RULE_MIN ? (v < acc ? v : acc) : (v > acc ? v : acc);
                n++;
            }
            in_pipe = 1;
            continue;
        }
        in_pipe = 0;
        if (role_is(l, "columnheader")) {
            if (l->depth != header_depth)
                heads = 0, header_depth = l->depth;
            if (span_names(l->name, col))
                atomic_col = heads;
            heads++;
        } else if (role_is(l, "row")) {
            row_depth = l->depth;
            cell_i = 0;
        } else if (row_depth >= 0 && l->depth == row_depth + 1 && (role_is(l, "cell") || role_is(l, "gridcell"))) {
            if (cell_i++ == atomic_col) {
                if (!l->name.s || !cell_number(l->name, &v)) {
                    snprintf(why, wn, "column '%.60s' shows a cell that is not a number", col);
                    return -1;
                }
                acc = !n ? v : k == RULE_SUM ? acc + v : k == RULE_MIN ? (v < acc ? v : acc) : (v > acc ? v : acc);
                n++;
            }
        } else if (row_depth >= 0 && l->depth <= row_depth) {
            row_depth = -1;
        }
    }
    if (!n) {
        if (col_at >= 0 || atomic_col >= 0)
            snprintf(why, wn, "the view shows no rows under column '%.100s'", col);
        return -1;
    }
    *out = acc;
    return 0;
}

/* The items of the "matches" array in the last result of this run that has one. */
static int count_matches(const agent_ground_log *seen, long *n, char *why, size_t wn)
{
    snprintf(why, wn, "no result of this run lists matches");
    for (size_t i = seen ? seen->n : 0; i-- > 0;) {
        /* an action result's JSON (a component's search tool), not view text */
        const char *p = strstr(seen->texts[i], "\"matches\":[");
        if (!p)
            continue;
        p += 11;
        int depth = 0, instr = 0, items = 0, any = 0;
        for (; *p; p++) {
            if (instr) {
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == '"')
                    instr = 0;
                continue;
            }
            if (*p == '"')
                instr = 1;
            if (*p == '[' || *p == '{')
                depth++;
            else if ((*p == ']' || *p == '}') && depth-- == 0)
                break;
            else if (*p == ',' && depth == 0)
                items++;
            if (*p != ' ' && *p != ']')
                any = 1;
        }
        if (*p != ']') {
            snprintf(why, wn, "the last result's matches are cut short");
            return -1;
        }
        *n = any ? items + 1 : 0;
        return 0;
    }
    return -1;
}

/* "date 'YYYY-MM-DD' plus N days": both parts read in this run or the intent */
static int date_rule(const ground_ctx *g, const char *s, char *value, size_t vn, char *why, size_t wn)
{
    char date[32];
    const char *p = quoted(s, date, sizeof date);
    int y, m, d, used = 0;
    if (!p || sscanf(date, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != 10) {
        snprintf(why, wn, "rule '%.120s': expected date 'YYYY-MM-DD' plus|minus N days", g->in->rule);
        return -1;
    }
    int sign;
    if ((p = after_word(p, " plus ")))
        sign = 1;
    else if ((p = after_word(s + 12, " minus ")))
        sign = -1;
    else {
        snprintf(why, wn, "rule '%.120s': expected date 'YYYY-MM-DD' plus|minus N days", g->in->rule);
        return -1;
    }
    char *end;
    long days = strtol(p, &end, 10);
    if (end == p || days < 0 || (strcasecmp(end, " days") && strcasecmp(end, " day"))) {
        snprintf(why, wn, "rule '%.120s': expected date 'YYYY-MM-DD' plus|minus N days", g->in->rule);
        return -1;
    }
    char nstr[24];
    snprintf(nstr, sizeof nstr, "%ld", days);
    const char *unseen = !found_in(g, date, IN_VIEW | IN_INTENT | IN_SEEN) ? date
                         : !found_in(g, nstr, IN_VIEW | IN_INTENT | IN_SEEN) ? nstr
                                                                              : NULL;
    if (unseen) {
        snprintf(why, wn, "rule '%.120s': %s is in no observation of this run nor the intent", g->in->rule, unseen);
        return -1;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = d + sign * (int)days;
    tm.tm_hour = 12;
    time_t t = timegm(&tm);
    struct tm out;
    gmtime_r(&t, &out);
    strftime(value, vn, "%Y-%m-%d", &out);
    return 0;
}

/* Reads the step's rule and works out what it gives on this view. */
static void rule_eval(const ground_ctx *g, rule *r)
{
    memset(r, 0, sizeof *r);
    const char *s = g->in->rule, *p;
    char arg[200];
    long n = 0;
    double v = 0;
    int rc = -1;
    if ((p = after_word(s, "count of rows shown")) && (!*p || *p == ' ' || *p == ',')) {
        r->kind = RULE_ROWS;
        n = count_rows(g);
        rc = 0;
    } else if ((p = after_word(s, "count of options listed for ")) && (p = quoted(p, arg, sizeof arg)) && !*p) {
        r->kind = RULE_OPTIONS;
        rc = count_options(g, arg, &n, r->why, sizeof r->why);
    } else if (((p = after_word(s, "sum of column ")) && (r->kind = RULE_SUM)) ||
               ((p = after_word(s, "min of column ")) && (r->kind = RULE_MIN)) ||
               ((p = after_word(s, "max of column ")) && (r->kind = RULE_MAX))) {
        if ((p = quoted(p, arg, sizeof arg)) && !*p)
            rc = column_stat(g, arg, r->kind, &v, r->why, sizeof r->why);
        else
            snprintf(r->why, sizeof r->why, "rule '%.120s': expected a column name in quotes", s);
        if (!rc)
            snprintf(r->value, sizeof r->value, "%.2f", v);
    } else if ((p = after_word(s, "date ")) && *p == '\'') {
        r->kind = RULE_DATE;
        rc = date_rule(g, p, r->value, sizeof r->value, r->why, sizeof r->why);
    } else if (!strcasecmp(s, "count of matches in the last result")) {
        r->kind = RULE_MATCHES;
        rc = count_matches(g->in->seen, &n, r->why, sizeof r->why);
    } else if (!strcasecmp(s, "placeholder")) {
        r->kind = RULE_PLACEHOLDER;
        rc = 0;
    } else {
        snprintf(r->why, sizeof r->why, "rule '%.100s' is not one of: %s", s, RULES);
        return;
    }
    if (!rc && (r->kind == RULE_ROWS || r->kind == RULE_OPTIONS || r->kind == RULE_MATCHES))
        snprintf(r->value, sizeof r->value, "%ld", n);
    r->ok = rc == 0;
}

/* 1 when the value s is what the rule gives (numbers compared as numbers). */
static int rule_gives(const rule *r, const char *s)
{
    if (r->kind == RULE_PLACEHOLDER)
        return 1;
    if (r->kind == RULE_DATE)
        return !strcmp(s, r->value);
    char *e1, *e2;
    double a = strtod(s, &e1), b = strtod(r->value, &e2);
    return e1 != s && !*e1 && !*e2 && fabs(a - b) < 0.005;
}

/* The verdict on a value (what) not found where it may come from: computed
 * when the stated rule gives it, else ungrounded.  placeholder_ok: filler text. */
static void by_rule(const ground_ctx *g, const rule *r, const char *what, const char *value, int placeholder_ok,
                    const char *nowhere, agent_ground_result *out)
{
    if (!g->in->rule || !g->in->rule[0])
        verdict(out, AGENT_GROUND_UNGROUNDED, "%s '%.150s' %s", what, value, nowhere);
    else if (!r->ok)
        verdict(out, AGENT_GROUND_UNGROUNDED, "%s '%.100s': %s", what, value, r->why);
    else if (r->kind == RULE_PLACEHOLDER && !placeholder_ok)
        verdict(out, AGENT_GROUND_UNGROUNDED, "%s '%.150s': placeholder is only for typed text", what, value);
    else if (!rule_gives(r, value))
        verdict(out, AGENT_GROUND_UNGROUNDED, "%s '%.100s' is not the %s that '%.100s' gives", what, value, r->value,
                g->in->rule);
    else
        verdict(out, AGENT_GROUND_COMPUTED, "%s '%.120s' computed: %.150s", what, value, g->in->rule);
}

/* ---- the checks ------------------------------------------------------------ */

/* A page number shows as a page item: the pruned view's pager line
 * ("1 2 3 4 5") or a "listitem|link|button 'N'" line.  The hybrid view folds
 * the pager into its component, so it shows none. */
static int view_shows_page(const ground_ctx *g, const char *num)
{
    int found = 0;
    for (size_t i = 0; !found && i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        perc_span w = l->whole;
        size_t digits = 0, spaces = 0;
        for (size_t k = 0; k < w.len; k++) {
            digits += isdigit((unsigned char)w.s[k]) != 0;
            spaces += w.s[k] == ' ';
        }
        if (l->kind == PERC_LINE_TEXT && w.len && digits + spaces == w.len && spaces) {
            char *t = norm_n(w.s, w.len);
            found = t && find_norm(t, num);
            free(t);
        } else if (role_is(l, "listitem") || role_is(l, "link") || role_is(l, "button")) {
            found = perc_span_is(l->name, num, strlen(num));
        }
    }
    return found;
}

/* 1 when the component line l shows param name as a boolean: typed so on its
 * tools in any form the view writes ("checked: boolean", "Send news?: true|false")
 * or a state true/false ("checked: false"). */
static int line_shows_boolean(const perc_line *l, const char *name)
{
    for (size_t t = 0; l && t < l->n_tools; t++)
        for (size_t k = 0; k < l->tools[t].n_params; k++) {
            const perc_line_param *pm = &l->tools[t].params[k];
            if (pm->boolean && span_names(pm->name, name))
                return 1;
        }
    for (size_t k = 0; l && k < l->n_state; k++) {
        const perc_line_state *st = &l->state[k];
        if (span_names(st->key, name) && (span_names(st->value, "true") || span_names(st->value, "false")))
            return 1;
    }
    return 0;
}

/* 1 when every non-blank line of text was read in this run or the intent. */
static int lines_found(const ground_ctx *g, const char *text)
{
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        char *line = strndup(p, n);
        char *l = line ? norm(line) : NULL;
        int ok = line && (!l || !l[0] || found_in(g, line, IN_VIEW | IN_INTENT | IN_SEEN));
        free(l);
        free(line);
        if (!ok)
            return 0;
        if (!p[n])
            return 1;
        p += n + 1;
    }
}

typedef struct call_ctx {
    const act_action *a;
    const perc_line *line; /* the component's view line, or NULL */
    const rule *r;
} call_ctx;

/* Every value in params (nested arrays and objects too; strings, numbers,
 * booleans) must be in the view or the intent, or given by the stated rule. */
static void check_params(const ground_ctx *g, const call_ctx *cc, const cJSON *p, const char *name,
                         agent_ground_result *out)
{
    char num[64], what[96];
    snprintf(what, sizeof what, "param %.60s", name);
    if (cJSON_IsString(p)) {
        if (is_secret(p->valuestring) || found_in(g, p->valuestring, IN_VIEW | IN_INTENT))
            return;
        /* a text of several lines (a form's textarea filled whole) is read line by line, as typed text is */
        if (strchr(p->valuestring, '\n') && lines_found(g, p->valuestring))
            return;
        if ((!g->in->rule || !g->in->rule[0]) && g->in->call_page_tool)
            verdict(out, AGENT_GROUND_ADDRESSING,
                    "page-data look-up: param %s '%.200s' is not in the view or the intent", name, p->valuestring);
        else
            by_rule(g, cc->r, what, p->valuestring,
                    !strcmp(name, "text") && cc->a->tool && !strcmp(cc->a->tool, "setValue"),
                    "is not in the view or the intent", out);
        return;
    }
    if (cJSON_IsNumber(p)) {
        double v = p->valuedouble;
        if (v == (double)(long long)v && fabs(v) < 1e15)
            snprintf(num, sizeof num, "%lld", (long long)v);
        else
            snprintf(num, sizeof num, "%.15g", v);
        if (!strcmp(name, "page")) {
            if (view_shows_page(g, num))
                return;
            by_rule(g, cc->r, what, num, 0, "is not a page the view shows", out);
            return;
        }
        if (found_in(g, num, IN_VIEW | IN_INTENT))
            return;
        by_rule(g, cc->r, what, num, 0, "is not in the view or the intent", out);
        return;
    }
    if (cJSON_IsBool(p)) {
        if (!line_shows_boolean(cc->line, name))
            verdict(out, AGENT_GROUND_UNGROUNDED, "param %.60s %s: the view shows no boolean %.60s for '%.80s'", name,
                    cJSON_IsTrue(p) ? "true" : "false", name, cc->a->target ? cc->a->target : "");
        return;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, p) check_params(g, cc, c, c->string ? c->string : name, out);
}

/* An unnamed component ("[c4] textbox ''", DokuWiki's page source) written
 * as "textbox ''": 1 when no other line of the view opens with an id and that
 * kind unnamed, so the plan names one component. */
static int unnamed_as_printed(const ground_ctx *g, const char *k)
{
    const agent_ground_input *in = g->in;
    char want[80];
    snprintf(want, sizeof want, "%s ''", in->call_kind);
    if (strcmp(k, want))
        return 0;
    int n = 0;
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        n += l->id_first && role_is(l, in->call_kind) && l->name.s && !l->name.len;
    }
    return n == 1;
}

/* The target as the view prints the component: its id ("c5", "[c5]"), its
 * label ("Users"), "kind 'label'" (table 'Users'), or a page tool's name. */
static int target_as_printed(const ground_ctx *g, const char *k, const perc_line *line)
{
    const agent_ground_input *in = g->in;
    const char *id = in->call_view_id;
    size_t kn = strlen(k);
    /* the plan's target against the resolved id, not view text */
    if (!strcmp(k, id) || (kn == strlen(id) + 2 && k[0] == '[' && !strncmp(k + 1, id, kn - 2) && k[kn - 1] == ']'))
        return 1;
    if (in->call_page_tool && in->call_key && !strcmp(k, in->call_key))
        return line->kind == PERC_LINE_PAGE_TOOL && line->n_tools && span_names(line->tools[0].name, in->call_key);
    if (!in->call_kind || !in->call_label)
        return 0;
    if (!in->call_label[0])
        return unnamed_as_printed(g, k);
    /* the line prints the component as kind 'label'; the two ways a plan may write it */
    if (line->kind != PERC_LINE_COMPONENT || !span_names(line->role, in->call_kind) ||
        !span_names(line->name, in->call_label))
        return 0;
    char buf[600], role[64], name[512];
    int nth;
    snprintf(buf, sizeof buf, "%s '%s'", in->call_kind, in->call_label);
    char *nk = norm(k), *label = norm(in->call_label), *kind_label = norm(buf);
    int ok = nk && label && kind_label && (!strcmp(nk, label) || !strcmp(nk, kind_label));
    if (!ok && act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0 && nth == 1)
        ok = same_name(role, in->call_kind, strlen(in->call_kind)) && same_name(name, in->call_label,
                                                                                  strlen(in->call_label));
    free(nk);
    free(label);
    free(kind_label);
    return ok;
}

static void check_call(const ground_ctx *g, const rule *r, const act_action *a, agent_ground_result *out)
{
    const agent_ground_input *in = g->in;
    const char *k = a->target ? a->target : "";
    const perc_line *line = in->call_view_id && in->call_view_id[0] ? component_line(g, in->call_view_id) : NULL;
    if (!line) {
        verdict(out, AGENT_GROUND_UNGROUNDED, "call target '%.200s' names no component the view shows", k);
    } else if (!target_as_printed(g, k, line)) {
        char shown[240];
        if (in->call_page_tool)
            snprintf(shown, sizeof shown, "[%s] %s(…)", in->call_view_id, in->call_key ? in->call_key : "");
        else
            snprintf(shown, sizeof shown, "[%s] %s '%.150s'", in->call_view_id, in->call_kind ? in->call_kind : "",
                     in->call_label ? in->call_label : "");
        if (in->call_key && !strcmp(k, in->call_key))
            verdict(out, AGENT_GROUND_UNGROUNDED,
                    "call target '%.100s' is a component key the view does not print; it shows %s", k, shown);
        else
            verdict(out, AGENT_GROUND_UNGROUNDED,
                    "call target '%.100s' is not how the view prints %s (its id, label or kind 'label')", k, shown);
    } else if (a->tool && !line_tool(line, a->tool)) {
        /* the tool must be one of the component's own line */
        verdict(out, AGENT_GROUND_UNGROUNDED, "tool '%.200s' of '%.80s' is not in the view", a->tool, k);
    }
    call_ctx cc = {.a = a, .line = line, .r = r};
    check_params(g, &cc, a->params, "value", out);
}

/* ---- atomic targets, typed text and answers ------------------------------ */
/* 1 when the view shows a node "role 'name'" — as the atomic view writes it
 * ("[12] role 'name'"), the pruned one ("role [12] 'name'", an empty name left
 * out: "textbox [10] value: …"), a table cell's control, or a component's
 * "kind 'label'". */
static int view_has_role_name(const ground_ctx *g, const char *role, const char *name)
{
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        for (size_t k = 0; k < l->n_items; k++) {
            const perc_line_item *it = &l->items[k];
            if (!span_names(it->role, role))
                continue;
            if (it->name.s ? same_name(name, it->name.s, it->name.len) && (name[0] || !it->name.len)
                           : !name[0] && it->id.s)
                return 1;
            /* the resolver's rule: a name the page prints with a live count ("Deactivate selected (2)") */
            if (it->name.s && act_name_counted(it->name.s, it->name.len, name))
                return 1;
        }
    }
    return 0;
}

/* A field or submit button a native form's line stands for: the hybrid view
 * folds a form's fields and its submit button into one line,
 * "[c1] form 'Sign in' submit: 'Go' → fill(Username?; Age: number?) submit(…)",
 * so a script step that types into "textbox 'Username'" or clicks
 * "button 'Go'" acts on what that line shows.  1 when a form line of the
 * view names it: a field as one of fill()'s parameters, a button as the
 * form's submit state or, when that is not printed, the form's own name. */
static int form_line_names(const ground_ctx *g, const char *role, const char *name)
{
    int button = !strcmp(role, "button");
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        const perc_line_tool *fill = l->kind == PERC_LINE_COMPONENT && role_is(l, "form") ? line_tool(l, "fill") : NULL;
        if (!fill)
            continue;
        if (button) {
            perc_span sub = line_state(l, "submit");
            if (span_names(sub.s ? sub : l->name, name))
                return 1;
            continue;
        }
        for (size_t k = 0; k < fill->n_params; k++)
            if (span_names(fill->params[k].name, name))
                return 1;
    }
    return 0;
}

/* A link a group of links lists: the hybrid view folds a navigation or list of links into one line,
 * "[c2] links 'Page Tools' → open(link: Show pagesource [v]|Old revisions [o])", so a script step that
 * clicks "link 'Old revisions [o]'" acts on what that line shows.  1 when such a line of the view
 * lists the name. */
static int link_group_names(const ground_ctx *g, const char *role, const char *name)
{
    if (strcmp(role, "link"))
        return 0;
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        const perc_line_tool *open = l->kind == PERC_LINE_COMPONENT && role_is(l, "links") ? line_tool(l, "open") : NULL;
        if (!open || !open->n_params || !perc_span_is(open->params[0].name, "link", 4) || !open->params[0].type.s)
            continue;
        /* the names, '|' between them, up to the args' end (a name may hold ", ") */
        const char *p = open->params[0].type.s, *end = open->args.s + open->args.len;
        while (p < end) {
            const char *bar = memchr(p, '|', (size_t)(end - p));
            size_t n = (size_t)((bar ? bar : end) - p);
            if (same_name(name, p, n))
                return 1;
            p = bar ? bar + 1 : end;
        }
    }
    return 0;
}

/* 1 when some element or component of the view has the view id id ("12", "c5"). */
static int view_has_id(const ground_ctx *g, const char *id, size_t n)
{
    for (size_t i = 0; i < N_LINES(g); i++) {
        const perc_line *l = LINE(g, i);
        if (perc_span_is(l->id, id, n))
            return 1;
        for (size_t k = 0; k < l->n_items; k++)
            if (perc_span_is(l->items[k].id, id, n))
                return 1;
    }
    return 0;
}

/* 1 when some element or component of the view is named name (any role). */
static int view_has_name(const ground_ctx *g, const char *name)
{
    for (size_t i = 0; i < N_LINES(g); i++)
        if (line_names(LINE(g, i), name))
            return 1;
    return 0;
}

/* 1 when k is a view id: "12", "[12]", "c3", "[c3]". */
static int is_view_id(const char *k)
{
    const char *p = k + (*k == '[');
    p += *p == 'c';
    size_t d = strspn(p, "0123456789");
    return d && (!p[d] || (*k == '[' && p[d] == ']' && !p[d + 1]));
}

/* An atomic target: css= is addressing; "role 'name'" (" #N" dropped), a
 * label alone and view ids ("12", "[12]") must be in the view. */
static void check_target(const ground_ctx *g, const act_action *a, agent_ground_result *out)
{
    const char *k = a->target ? a->target : "";
    if (!strncmp(k, "css=", 4)) { /* the plan's target, not view text */
        verdict(out, AGENT_GROUND_ADDRESSING, "css target '%.250s'", k);
        return;
    }
    char needle[600], role[64], name[512];
    int nth, shown;
    if (act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0) {
        char marked[600]; /* a required field's name holds the atomic view's mark, as a label alone's may */
        snprintf(needle, sizeof needle, "%s '%s'", role, name);
        snprintf(marked, sizeof marked, "* %s", name);
        shown = view_has_role_name(g, role, name) || view_has_role_name(g, role, marked) ||
                form_line_names(g, role, name) || link_group_names(g, role, name);
    } else if (is_view_id(k)) {
        const char *id = k + (k[0] == '[');
        size_t n = strcspn(id, "]");
        snprintf(needle, sizeof needle, "[%.*s]", (int)n, id);
        shown = view_has_id(g, id, n);
    } else { /* a label alone (actions/target.c): a name the view prints, or with its required mark "* " */
        char marked[600];
        snprintf(needle, sizeof needle, "'%s'", k);
        snprintf(marked, sizeof marked, "* %s", k);
        shown = view_has_name(g, k) || view_has_name(g, marked) || form_line_names(g, "textbox", k);
    }
    if (!shown)
        verdict(out, AGENT_GROUND_UNGROUNDED, "target %.250s is not in the view", needle);
}

/* Typed text: each of its lines was read in this run or the intent (a
 * textarea's text shows one line per node), or the rule gives it. */
static void check_typed(const ground_ctx *g, const rule *r, const char *text, agent_ground_result *out)
{
    if (is_secret(text))
        return;
    const char *missing = NULL;
    size_t mlen = 0;
    for (const char *p = text; !missing;) {
        size_t n = strcspn(p, "\n");
        char *line = strndup(p, n);
        char *l = line ? norm(line) : NULL;
        if (l && l[0] && !found_in(g, line, IN_VIEW | IN_INTENT | IN_SEEN))
            missing = p, mlen = n;
        free(l);
        free(line);
        if (!p[n])
            break;
        p += n + 1;
    }
    if (!missing)
        return;
    char v[220];
    snprintf(v, sizeof v, "%.*s", (int)(strlen(text) < 200 ? strlen(text) : 200), text);
    if (g->in->rule && g->in->rule[0]) {
        by_rule(g, r, "typed text", v, 1, "", out);
        return;
    }
    verdict(out, AGENT_GROUND_UNGROUNDED, "typed text '%.*s' is in no observation of this run nor the intent",
            (int)(mlen < 200 ? mlen : 200), missing);
}

/* Every word and number of the answer was read in this run or the intent,
 * or the stated rule gives the answer (then it must). */
static void answer_values(const cJSON *v, eous_buf *b);

static void check_answer(const ground_ctx *g, const rule *r, const char *answer, agent_ground_result *out)
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
    if (g->in->rule && g->in->rule[0]) {
        if (r->ok && r->kind == RULE_PLACEHOLDER)
            verdict(out, AGENT_GROUND_UNGROUNDED, "a stop answer cannot be a placeholder");
        else if (!r->ok)
            verdict(out, AGENT_GROUND_UNGROUNDED, "answer '%.100s': %s", answer, r->why);
        else if (!rule_gives(r, answer))
            verdict(out, AGENT_GROUND_UNGROUNDED, "answer '%.100s' is not the %s that '%.100s' gives", answer,
                    r->value, g->in->rule);
        else if (missing)
            verdict(out, AGENT_GROUND_COMPUTED, "answer computed: %.250s", g->in->rule);
    } else if (missing) {
        char tok[256];
        snprintf(tok, sizeof tok, "%.*s", (int)(missing_len < 200 ? missing_len : 200), missing);
        verdict(out, AGENT_GROUND_UNGROUNDED, "answer '%s' appears in no observation of this run nor the intent", tok);
    }
}

/* The verdict on one action, the texts normalised once for all its items. */
static void check_action(const ground_ctx *g, const act_action *a, agent_ground_result *out)
{
    rule r;
    memset(&r, 0, sizeof r);
    if (g->in->rule && g->in->rule[0]) {
        rule_eval(g, &r);
        if (!r.ok) { /* not in the vocabulary, or it does not hold on this view: ungrounded */
            if (!strncmp(r.why, "rule '", 6)) /* our own message */
                verdict(out, AGENT_GROUND_UNGROUNDED, "%s", r.why);
            else
                verdict(out, AGENT_GROUND_UNGROUNDED, "rule '%.100s': %s", g->in->rule, r.why);
            return;
        }
        if (r.kind == RULE_PLACEHOLDER && a->kind != ACT_TYPE &&
            !(a->kind == ACT_CALL && a->tool && !strcmp(a->tool, "setValue") &&
              cJSON_IsString(cJSON_GetObjectItemCaseSensitive(a->params, "text")))) {
            const char *what = a->kind == ACT_STOP     ? "a stop answer"
                               : a->kind == ACT_SELECT ? "an option"
                                                       : act_kind_name(a->kind);
            verdict(out, AGENT_GROUND_UNGROUNDED, "placeholder is only for typed text or a setValue text param, not %s",
                    what);
            return;
        }
    }
    switch (a->kind) {
    case ACT_CALL:
        check_call(g, &r, a, out);
        break;
    case ACT_CLICK:
    case ACT_HOVER:
        check_target(g, a, out);
        break;
    case ACT_TYPE:
        check_target(g, a, out);
        if (a->text)
            check_typed(g, &r, a->text, out);
        break;
    case ACT_SELECT:
        check_target(g, a, out);
        if (a->text && !found_in(g, a->text, IN_VIEW | IN_INTENT))
            by_rule(g, &r, "option", a->text, 0, "is not in the view or the intent", out);
        break;
    case ACT_GOTO:
        if (a->text && !found_in(g, a->text, IN_VIEW | IN_INTENT | IN_SEEN))
            verdict(out, AGENT_GROUND_ADDRESSING, "goto '%.250s' is a URL no observation showed", a->text);
        break;
    case ACT_STOP: {
        /* a WebArena-Verified answer object: only its retrieved data names what the page showed */
        cJSON *j = a->text && a->text[0] == '{' ? cJSON_Parse(a->text) : NULL;
        const cJSON *rd = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "retrieved_data") : NULL;
        if (cJSON_IsObject(j)) {
            eous_buf vb;
            eous_buf_init(&vb, 0);
            answer_values(rd, &vb);
            char *data = eous_buf_steal(&vb);
            if (data && data[strspn(data, " ")])
                check_answer(g, &r, data, out);
            free(data);
        } else {
            check_answer(g, &r, a->text ? a->text : "", out);
        }
        cJSON_Delete(j);
        break;
    }
    default: /* press, scroll, history and tab moves name nothing on the page */
        break;
    }
}

/* The values (not the keys) of an answer's retrieved data, space-separated. */
static void answer_values(const cJSON *v, eous_buf *b)
{
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        const cJSON *c;
        cJSON_ArrayForEach(c, v) answer_values(c, b);
    } else if (cJSON_IsString(v)) {
        eous_buf_printf(b, NULL, "%s ", v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        char *t = eous_json_print(v);
        eous_buf_printf(b, NULL, "%s ", t ? t : "");
        free(t);
    }
}

/* ---- the API: one step, the log of what was seen ------------------------- */
void agent_ground_check(const agent_ground_input *in, const act_action *a, agent_ground_result *out)
{
    memset(out, 0, sizeof *out);
    ground_ctx g = {.in = in, .intent = in->intent ? norm(in->intent) : NULL};
    const char *view = in->view ? in->view : "";
    if (perc_lines_read(view, strlen(view), &g.lines, NULL) == EOUS_OK)
        g.vals = without_ids(g.lines);
    if (!g.lines || !g.vals || (in->intent && !g.intent))
        verdict(out, AGENT_GROUND_UNGROUNDED, "out of memory checking the step");
    else
        check_action(&g, a, out);
    perc_lines_free(g.lines);
    free(g.vals);
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
    if (!(log->texts[log->n] = norm_without_ids(text)))
        return -1;
    log->n++;
    return 0;
}

void agent_ground_log_free(agent_ground_log *log)
{
    if (!log)
        return;
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
        /* the component the executor would call: by id, key, label or kind 'label' */
        const perc_component *c = NULL;
        int backend_id;
        eous_err err;
        if (act_locate(obs, a, &c, &backend_id, &err) == EOUS_OK && c) {
            in.call_view_id = c->view_id;
            in.call_page_tool = c->backend_id == 0;
            in.call_key = c->key;
            in.call_kind = c->kind;
            in.call_label = c->label;
        }
    }
    in.rule = eous_json_str(step, "from");
    agent_ground_check(&in, a, out);
}
