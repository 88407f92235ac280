/* perception/axscan.c — a fast scanner for Accessibility.getFullAXTree JSON.
 *
 * The AX tree is the biggest thing eous reads per step and most of it (name
 * "sources", "ignoredReasons", "chromeRole") is never used, so instead of
 * building a cJSON tree it walks the text once, keeps the fields perception
 * needs and skips everything else without allocating.  Strings without
 * escapes are copied once into the observation's arena; escaped ones are
 * decoded there.  Accepts {"nodes": [...]}, a WebDriver body
 * {"value": {"nodes": [...]}} or a CDP message {"id": N, "result": {"nodes": [...]}}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"

typedef struct scan {
    const char *p, *end;
    const char *base;
    eous_arena *a;
    int bad;            /* set on the first syntax error */
    const char *bad_at;
} scan;

static void fail(scan *s)
{
    if (!s->bad) {
        s->bad = 1;
        s->bad_at = s->p;
    }
    s->p = s->end;
}

static char peek(const scan *s)
{
    return s->p < s->end ? *s->p : '\0';
}

static void ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
        s->p++;
}

static int eat(scan *s, char c)
{
    ws(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return 1;
    }
    return 0;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* Reads a string at s->p (which must be at '"'); returns its start and length
 * in the input and whether it had escapes. */
static int raw_string(scan *s, const char **start, size_t *len, int *escaped)
{
    ws(s);
    if (s->p >= s->end || *s->p != '"') {
        fail(s);
        return 0;
    }
    const char *q = ++s->p;
    *escaped = 0;
    for (;;) {
        const char *hit = memchr(q, '"', (size_t)(s->end - q));
        if (!hit) {
            fail(s);
            return 0;
        }
        /* count backslashes before the quote */
        const char *b = hit;
        while (b > q && b[-1] == '\\')
            b--;
        if (((hit - b) & 1) == 0) {
            if (memchr(q, '\\', (size_t)(hit - q)) || memchr(s->p, '\\', (size_t)(hit - s->p)))
                *escaped = 1;
            *start = s->p;
            *len = (size_t)(hit - s->p);
            s->p = hit + 1;
            return 1;
        }
        q = hit + 1;
    }
}

static void put_utf8(char **w, unsigned cp)
{
    char *o = *w;
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | (cp >> 6));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | (cp >> 12));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (cp >> 18));
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    *w = o;
}

/* A string value copied (and unescaped) into the arena. */
static const char *string(scan *s)
{
    const char *start;
    size_t len;
    int esc;
    if (!raw_string(s, &start, &len, &esc))
        return NULL;
    if (!esc)
        return eous_arena_strndup(s->a, start, len);
    char *out = eous_arena_alloc(s->a, len + 1);
    if (!out)
        return NULL;
    char *w = out;
    for (size_t i = 0; i < len; i++) {
        char c = start[i];
        if (c != '\\') {
            *w++ = c;
            continue;
        }
        if (++i >= len)
            break;
        switch (start[i]) {
        case 'n': *w++ = '\n'; break;
        case 't': *w++ = '\t'; break;
        case 'r': *w++ = '\r'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'u': {
            unsigned cp;
            if (i + 4 >= len + 0 || hex4(start + i + 1, &cp)) {
                fail(s);
                return NULL;
            }
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < len && start[i + 1] == '\\' && start[i + 2] == 'u') {
                unsigned lo;
                if (!hex4(start + i + 3, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
            }
            put_utf8(&w, cp);
            break;
        }
        default: *w++ = start[i]; /* \" \\ \/ */
        }
    }
    *w = '\0';
    return out;
}

static int key_is(const char *start, size_t len, const char *k)
{
    return strlen(k) == len && !memcmp(start, k, len);
}

static void skip_value(scan *s)
{
    ws(s);
    if (s->p >= s->end) {
        fail(s);
        return;
    }
    char c = *s->p;
    if (c == '"') {
        const char *st;
        size_t l;
        int e;
        raw_string(s, &st, &l, &e);
        return;
    }
    if (c == '{' || c == '[') {
        int depth = 0;
        while (s->p < s->end) {
            c = *s->p;
            if (c == '"') {
                const char *st;
                size_t l;
                int e;
                if (!raw_string(s, &st, &l, &e))
                    return;
                continue;
            }
            s->p++;
            if (c == '{' || c == '[')
                depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return;
            }
        }
        fail(s);
        return;
    }
    /* number, true, false, null */
    while (s->p < s->end && !strchr(",}] \n\r\t", *s->p))
        s->p++;
}

/* A scalar rendered as Python's str() would (WebArena formats with f-strings);
 * lists and objects give NULL (skipped, as WebArena's KeyError path does). */
static const char *scalar_text(scan *s)
{
    ws(s);
    if (s->p >= s->end) {
        fail(s);
        return NULL;
    }
    char c = *s->p;
    if (c == '"')
        return string(s);
    if (c == '{' || c == '[') {
        skip_value(s);
        return NULL;
    }
    if (s->end - s->p >= 4 && !strncmp(s->p, "true", 4)) {
        s->p += 4;
        return "True";
    }
    if (s->end - s->p >= 5 && !strncmp(s->p, "false", 5)) {
        s->p += 5;
        return "False";
    }
    if (s->end - s->p >= 4 && !strncmp(s->p, "null", 4)) {
        s->p += 4;
        return "None";
    }
    char num[64];
    size_t n = 0;
    while (s->p + n < s->end && n < sizeof num - 1 && s->p[n] && strchr("+-.0123456789eE", s->p[n]))
        n++;
    memcpy(num, s->p, n);
    num[n] = '\0';
    char *end;
    double d = strtod(num, &end);
    if (end == num) {
        fail(s);
        return NULL;
    }
    s->p += end - num;
    char b[EOUS_NUMBER_STR_MAX];
    return eous_arena_strdup(s->a, eous_number_str(d, b));
}

/* {"type": ..., "value": X, ...} → text of X (or NULL) */
static const char *axvalue(scan *s, int *present)
{
    const char *out = NULL;
    *present = 0;
    if (!eat(s, '{')) {
        skip_value(s);
        return NULL;
    }
    if (eat(s, '}'))
        return NULL;
    do {
        const char *k;
        size_t kl;
        int e;
        if (!raw_string(s, &k, &kl, &e) || !eat(s, ':')) {
            fail(s);
            return NULL;
        }
        if (key_is(k, kl, "value")) {
            out = scalar_text(s);
            *present = 1;
        } else
            skip_value(s);
    } while (eat(s, ','));
    if (!eat(s, '}'))
        fail(s);
    return out;
}

static long number(scan *s)
{
    ws(s);
    char num[32];
    size_t n = 0;
    while (s->p + n < s->end && n < sizeof num - 1 && s->p[n] && strchr("+-0123456789", s->p[n]))
        n++;
    memcpy(num, s->p, n);
    num[n] = '\0';
    char *end;
    long v = strtol(num, &end, 10);
    if (end == num) {
        skip_value(s);
        return 0;
    }
    s->p += end - num;
    if (s->p < s->end && (*s->p == '.' || *s->p == 'e' || *s->p == 'E'))
        skip_value(s);
    return v;
}

/* childIds of every node, flat; node i's are [kid_start[i], kid_start[i+1]). */
typedef struct kid_list {
    const char **ids;
    size_t n, cap;
} kid_list;

static int kid_push(kid_list *k, const char *id)
{
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 1024;
        const char **g = realloc(k->ids, cap * sizeof *g);
        if (!g)
            return -1;
        k->ids = g;
        k->cap = cap;
    }
    k->ids[k->n++] = id;
    return 0;
}

/* Moves s to the "nodes" array: at the top, or inside "value" or "result". */
static int find_nodes_array(scan *s)
{
    int found = 0;
    for (int level = 0; level < 2 && !found; level++) {
        if (!eat(s, '{'))
            break;
        int descended = 0;
        do {
            const char *k;
            size_t kl;
            int e;
            if (!raw_string(s, &k, &kl, &e) || !eat(s, ':'))
                break;
            if (key_is(k, kl, "nodes")) {
                found = 1;
                break;
            }
            if (key_is(k, kl, "value") || key_is(k, kl, "result")) { /* a driver's body, a CDP message */
                descended = 1;
                break;
            }
            skip_value(s);
        } while (eat(s, ','));
        if (!descended)
            break;
    }
    return found && eat(s, '[');
}

/* "childIds": [...]; -1 out of memory. */
static int parse_child_ids(scan *s, kid_list *kids)
{
    if (!eat(s, '[')) {
        fail(s);
        return 0;
    }
    if (eat(s, ']'))
        return 0;
    do {
        ws(s);
        const char *id = peek(s) == '"' ? string(s) : scalar_text(s);
        if (id && kid_push(kids, id))
            return -1;
    } while (eat(s, ','));
    if (!eat(s, ']'))
        fail(s);
    return 0;
}

/* One {"name": ..., "value": {...}} property; WebArena skips properties
 * without value.value. */
static void parse_property(scan *s, perc_prop *props, size_t max, size_t *n)
{
    const char *pname = NULL, *pval = NULL;
    int present;
    if (!eat(s, '{')) {
        fail(s);
        return;
    }
    if (!eat(s, '}')) {
        do {
            const char *pk;
            size_t pkl;
            int pe;
            if (!raw_string(s, &pk, &pkl, &pe) || !eat(s, ':')) {
                fail(s);
                return;
            }
            if (key_is(pk, pkl, "name")) {
                ws(s);
                pname = peek(s) == '"' ? string(s) : (skip_value(s), NULL);
            } else if (key_is(pk, pkl, "value")) {
                pval = axvalue(s, &present);
            } else {
                skip_value(s);
            }
        } while (eat(s, ','));
        if (!eat(s, '}'))
            fail(s);
    }
    if (pname && pval && *n < max) {
        props[*n].name = pname;
        props[*n].value = pval;
        (*n)++;
    }
}

static void parse_properties(scan *s, perc_prop *props, size_t max, size_t *n)
{
    if (!eat(s, '[')) {
        fail(s);
        return;
    }
    if (eat(s, ']'))
        return;
    do
        parse_property(s, props, max, n);
    while (!s->bad && eat(s, ','));
    if (!s->bad && !eat(s, ']'))
        fail(s);
}

#define MAX_NODE_PROPS 128

/* One AX node object into pn (its childIds appended to kids).  -1 out of memory. */
static int parse_node(scan *s, perc_node *pn, kid_list *kids, eous_arena *a)
{
    perc_prop props[MAX_NODE_PROPS];
    size_t nprops = 0;
    int present;
    if (!eat(s, '{')) {
        fail(s);
        return 0;
    }
    if (!eat(s, '}')) {
        do {
            const char *k;
            size_t kl;
            int e;
            if (!raw_string(s, &k, &kl, &e) || !eat(s, ':')) {
                fail(s);
                break;
            }
            if (key_is(k, kl, "nodeId")) {
                ws(s);
                pn->ax_id = peek(s) == '"' ? string(s) : scalar_text(s);
            } else if (key_is(k, kl, "ignored")) {
                const char *b = scalar_text(s);
                pn->ignored = b && !strcmp(b, "True");
            } else if (key_is(k, kl, "role")) {
                pn->role = axvalue(s, &present);
            } else if (key_is(k, kl, "name")) {
                pn->name = axvalue(s, &present);
            } else if (key_is(k, kl, "value")) {
                pn->value = axvalue(s, &present);
            } else if (key_is(k, kl, "backendDOMNodeId")) {
                pn->backend_id = (int)number(s);
            } else if (key_is(k, kl, "childIds")) {
                if (parse_child_ids(s, kids))
                    return -1;
            } else if (key_is(k, kl, "properties")) {
                parse_properties(s, props, MAX_NODE_PROPS, &nprops);
            } else {
                skip_value(s);
            }
        } while (!s->bad && eat(s, ','));
        if (!s->bad && !eat(s, '}'))
            fail(s);
    }
    if (nprops && !s->bad) {
        pn->props = eous_arena_alloc(a, nprops * sizeof *pn->props);
        if (pn->props) {
            memcpy(pn->props, props, nprops * sizeof *pn->props);
            pn->n_props = nprops;
        }
    }
    return 0;
}

/* Parent/child links by id; dup[i] marks repeated ids (WebArena keeps the
 * first node with an id). */
static eous_rc link_children(perc_obs *obs, size_t base, size_t count, const kid_list *kids,
                             const size_t *kid_start, unsigned char *dup, eous_err *err)
{
    perc_strmap map;
    if (perc_strmap_init(&map, count + 1))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (size_t i = 0; i < count; i++)
        dup[i] = perc_strmap_put(&map, obs->nodes[base + i].ax_id, (int)i) >= 0;
    for (size_t i = 0; i < count; i++) {
        if (dup[i])
            continue;
        perc_node *pn = &obs->nodes[base + i];
        size_t k0 = kid_start[i], k1 = kid_start[i + 1];
        if (k1 <= k0)
            continue;
        pn->children = eous_arena_alloc(obs->arena, (k1 - k0) * sizeof *pn->children);
        if (!pn->children)
            continue;
        for (size_t k = k0; k < k1; k++) {
            int m = perc_strmap_get(&map, kids->ids[k]);
            if (m < 0)
                continue; /* ids not in the tree are skipped, as WebArena does */
            int ki = (int)base + m;
            if ((size_t)ki == base + i || (size_t)ki == base || obs->nodes[ki].parent >= 0)
                continue; /* no self loops, the root stays the root, one parent each */
            obs->nodes[ki].parent = (int)(base + i);
            pn->children[pn->n_children++] = ki;
        }
    }
    perc_strmap_free(&map);
    return EOUS_OK;
}

/* Drops the nodes marked in dup by compacting; returns the new count. */
static size_t drop_repeats(perc_obs *obs, size_t base, size_t count, const unsigned char *dup)
{
    int any_dup = 0;
    for (size_t i = 0; i < count; i++)
        any_dup |= dup[i];
    if (!any_dup)
        return count;
    int *remap = malloc((count + 1) * sizeof *remap);
    if (!remap)
        return count;
    size_t w = 0;
    for (size_t i = 0; i < count; i++)
        remap[i] = dup[i] ? -1 : (int)(base + w++);
    for (size_t i = 0; i < count; i++)
        if (!dup[i] && remap[i] != (int)(base + i))
            obs->nodes[remap[i]] = obs->nodes[base + i];
    for (size_t i = base; i < base + w; i++) {
        perc_node *pn = &obs->nodes[i];
        if (pn->parent >= (int)base)
            pn->parent = remap[pn->parent - (int)base];
        for (size_t k = 0; k < pn->n_children; k++)
            pn->children[k] = remap[pn->children[k] - (int)base];
    }
    free(remap);
    return w;
}

/* Grows the node array (and kid_start beside it) to hold cap nodes after base. */
static int grow_nodes(perc_obs *obs, size_t base, size_t cap, size_t **kid_start)
{
    perc_node *g = realloc(obs->nodes, (base + cap + 1) * sizeof *g);
    if (g)
        obs->nodes = g;
    size_t *gk = realloc(*kid_start, (cap + 1) * sizeof *gk);
    if (gk)
        *kid_start = gk;
    return g && gk ? 0 : -1;
}

eous_rc perc_parse_ax_text(perc_obs *obs, const char *json, size_t len, int frame, eous_err *err)
{
    scan s = {json, json + len, json, obs->arena, 0, NULL};
    if (!find_nodes_array(&s))
        return eous_err_set(err, EOUS_E_PARSE, "accessibility tree: expected {\"nodes\": [...]} (offset %zu)",
                            (size_t)(s.p - json));
    size_t base = obs->n_nodes, cap = 256, count = 0;
    kid_list kids = {0};
    size_t *kid_start = NULL;
    unsigned char *dup = NULL;
    eous_rc rc = EOUS_OK;
    if (grow_nodes(obs, base, cap, &kid_start)) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory parsing the accessibility tree");
        goto done;
    }
    if (!eat(&s, ']')) {
        do {
            if (count == cap && grow_nodes(obs, base, cap *= 2, &kid_start)) {
                rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory parsing the accessibility tree");
                goto done;
            }
            perc_node *pn = &obs->nodes[base + count];
            memset(pn, 0, sizeof *pn);
            pn->parent = -1;
            pn->frame = frame;
            pn->component = -1;
            kid_start[count] = kids.n;
            if (parse_node(&s, pn, &kids, obs->arena)) {
                rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
                goto done;
            }
            if (s.bad)
                break;
            /* InlineTextBox nodes are dropped (see ax.c); nodes without id too */
            if (!pn->ax_id || (pn->role && !strcmp(pn->role, "InlineTextBox"))) {
                kids.n = kid_start[count];
                continue;
            }
            count++;
        } while (eat(&s, ','));
        if (!s.bad && !eat(&s, ']'))
            fail(&s);
    }
    if (s.bad) {
        rc = eous_err_set(err, EOUS_E_PARSE, "accessibility tree: invalid JSON at offset %zu",
                          (size_t)(s.bad_at - json));
        goto done;
    }
    kid_start[count] = kids.n;
    if (!(dup = calloc(count + 1, 1))) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    if ((rc = link_children(obs, base, count, &kids, kid_start, dup, err)))
        goto done;
    obs->n_nodes = base + drop_repeats(obs, base, count, dup);
done:
    free(dup);
    free(kids.ids);
    free(kid_start);
    return rc;
}
