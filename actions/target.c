/* actions/target.c — what an atomic action acts on: a script target
 * ("role 'name'", css=SELECTOR) or an observation id resolved to a backend
 * node, that node to a live element with facts about it (prepare.js), and the
 * policy rules and confirm marks over it. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/prepare_hit_js.h"
#include "actions/prepare_js.h"
#include "actions/prepare_node_js.h"
#include "actions/stash_js.h"

void act_target_free(act_target *t)
{
    free(t->elem);
    free(t->type_elem);
    free(t->ref);
    memset(t, 0, sizeof *t);
}


/* Where s's " under 'X'" starts (its text in *ub..*ue), or NULL when s ends in none. */
static const char *under_at(const char *s, const char **ub, const char **ue)
{
    size_t len = strlen(s);
    char q = len ? s[len - 1] : '\0';
    if (q != '\'' && q != '"')
        return NULL;
    char key[9] = " under ";
    key[7] = q;
    const char *at = NULL;
    for (const char *p = strstr(s, key); p; p = strstr(p + 1, key))
        if (!memchr(p + 8, q, (size_t)(s + len - 1 - (p + 8)))) /* the last quote closes it */
            at = p;
    if (at) {
        *ub = at + 8;
        *ue = s + len - 1;
    }
    return at;
}

int act_target_under(const char *s, char *under, size_t n)
{
    const char *ub, *ue;
    if (!s || !under_at(s, &ub, &ue) || ue == ub || (size_t)(ue - ub) >= n)
        return 0;
    memcpy(under, ub, (size_t)(ue - ub));
    under[ue - ub] = '\0';
    return 1;
}

static int parse_role_name(const char *s, char *role, size_t rn, char *name, size_t nn, int *nth);

int act_parse_role_name(const char *s, char *role, size_t rn, char *name, size_t nn, int *nth)
{
    const char *ub, *ue, *at = s ? under_at(s, &ub, &ue) : NULL;
    if (!at)
        return s ? parse_role_name(s, role, rn, name, nn, nth) : -1;
    char *head = strndup(s, (size_t)(at - s));
    int rc = head ? parse_role_name(head, role, rn, name, nn, nth) : -1;
    free(head);
    return rc;
}

static int parse_role_name(const char *s, char *role, size_t rn, char *name, size_t nn, int *nth)
{
    while (*s == ' ')
        s++;
    size_t i = 0;
    while (s[i] && s[i] != ' ' && s[i] != '\'' && s[i] != '"')
        i++;
    if (!i || i >= rn)
        return -1;
    memcpy(role, s, i);
    role[i] = '\0';
    s += i;
    while (*s == ' ')
        s++;
    char q = *s;
    if (q != '\'' && q != '"')
        return -1;
    const char *end = strrchr(s + 1, q);
    if (!end)
        return -1;
    size_t n = (size_t)(end - s - 1);
    if (n >= nn)
        return -1;
    memcpy(name, s + 1, n);
    name[n] = '\0';
    s = end + 1;
    while (*s == ' ')
        s++;
    *nth = 1;
    if (*s == '#') {
        char *e = NULL;
        long v = strtol(s + 1, &e, 10);
        if (v < 1 || *e)
            return -1;
        *nth = (int)v;
    } else if (*s) {
        return -1;
    }
    return 0;
}

static void describe_node(char *out, size_t n, const char *id, const perc_node *node)
{
    if (node)
        snprintf(out, n, "[%s] %s '%s'", id, node->role ? node->role : "node", node->name ? node->name : "");
    else
        snprintf(out, n, "[%s]", id);
}

/* ---- script targets: what either view prints, or a label alone ---------------- */

/* Roles of text a label or heading shows, not of a control the text names. */
static int text_role(const char *r)
{
    static const char *const text[] = {"StaticText", "InlineTextBox", "LabelText", "generic", "none",
                                       "paragraph",  "RootWebArea",   "heading",   "text"};
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        if (!strcmp(r, text[i]))
            return 1;
    return 0;
}

/* The hybrid view's field kinds (perception/native.js) that are no AX role of the same control. */
static int field_kind(const char *kind)
{
    static const char *const kinds[] = {"file", "select", "radiogroup", "calendar", "listbox", "slider"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(kind, kinds[i]))
            return 1;
    return 0;
}

/* The controls a script target may mean: distinct elements in document-independent order. */
typedef struct target_hits {
    int backend[8];
    char what[8][160];
    char role[8][64]; /* the AX role, or "" for a component */
    int comp[8];      /* a component hit: its index; else -1 */
    int in[8];        /* a control hit: the index of the component holding it, or -1 */
    int n;            /* how many matched (may exceed the 8 kept) */
} target_hits;

static void hit_add(target_hits *h, int backend_id, const char *kind, const char *name)
{
    for (int i = 0; i < h->n && i < 8; i++)
        if (h->backend[i] == backend_id)
            return;
    if (h->n < 8) {
        h->backend[h->n] = backend_id;
        snprintf(h->what[h->n], sizeof h->what[h->n], "%s '%s'", kind, name);
        h->role[h->n][0] = '\0';
        h->comp[h->n] = h->in[h->n] = -1;
    }
    h->n++;
}

static void hit_drop(target_hits *h, int i)
{
    memmove(&h->backend[i], &h->backend[i + 1], (size_t)(h->n - i - 1) * sizeof *h->backend);
    memmove(&h->what[i], &h->what[i + 1], (size_t)(h->n - i - 1) * sizeof *h->what);
    memmove(&h->role[i], &h->role[i + 1], (size_t)(h->n - i - 1) * sizeof *h->role);
    memmove(&h->comp[i], &h->comp[i + 1], (size_t)(h->n - i - 1) * sizeof *h->comp);
    memmove(&h->in[i], &h->in[i + 1], (size_t)(h->n - i - 1) * sizeof *h->in);
    h->n--;
}

/* Roles of a control that takes typed text or a chosen option. */
static int editable_role(const char *r)
{
    static const char *const roles[] = {"textbox", "searchbox", "combobox", "spinbutton", "listbox"};
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
        if (!strcmp(r, roles[i]))
            return 1;
    return 0;
}

/* A label alone's hits narrowed to what the step means: a component and the control it wraps are
 * one target (the control, which the atomic view prints); a type or select takes the hit that
 * takes text (a component, an editable control) over a column header or button of the same name. */
static void narrow_hits(const act_action *a, target_hits *h)
{
    if (h->n > 8)
        return;
    for (int i = 0; i < h->n; i++)
        for (int j = 0; j < h->n; j++)
            if (h->comp[j] >= 0 && h->in[i] == h->comp[j]) {
                hit_drop(h, j);
                i = -1; /* indices moved: look again */
                break;
            }
    if (h->n < 2 || (a->kind != ACT_TYPE && a->kind != ACT_SELECT))
        return;
    int takes = 0;
    for (int i = 0; i < h->n; i++)
        takes += h->comp[i] >= 0 || editable_role(h->role[i]);
    for (int i = h->n - 1; takes && i >= 0; i--)
        if (h->comp[i] < 0 && !editable_role(h->role[i]))
            hit_drop(h, i);
}

/* Components shown with this label (and kind, unless NULL): the hybrid view's "file 'Attachment'". */
static void find_components(const perc_obs *obs, const char *kind, const char *label, target_hits *h)
{
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (c->agent_hidden || c->backend_id <= 0 || !c->label || strcmp(c->label, label) ||
            (kind && (!c->kind || strcmp(c->kind, kind))))
            continue;
        const perc_node *n = perc_obs_node_by_backend(obs, c->backend_id);
        int k = h->n;
        if (!n || !n->hidden)
            hit_add(h, c->backend_id, c->kind ? c->kind : "component", c->label);
        if (h->n > k && k < 8)
            h->comp[k] = (int)i;
    }
}

/* A name as written loosely: letters and digits lowercased, blanks, marks and no-break spaces left out
 * ("Public\u00a0", "public"; "Backend engineer", "backend-engineer"), into out. */
static void fold_name(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == 0xC2 && (unsigned char)s[1] == 0xA0)
            s++;
        else if (c >= 0x80 || isalnum(c))
            out[k++] = (char)tolower(c);
    }
    out[k] = '\0';
}

/* The length of s without a trailing parenthesized count " (N)" (N digits only); n when it has none. */
static size_t count_cut(const char *s, size_t n)
{
    size_t i = n;
    if (!n || s[n - 1] != ')')
        return n;
    for (i = n - 1; i > 0 && isdigit((unsigned char)s[i - 1]); i--)
        ;
    return i < n - 1 && i >= 3 && s[i - 1] == '(' && s[i - 2] == ' ' ? i - 2 : n;
}

int act_name_counted(const char *name, size_t n, const char *want)
{
    size_t w = strlen(want), cut = count_cut(name, n);
    if (cut == n || count_cut(want, w) != w)
        return 0;
    char pre[512], a[512], b[512];
    snprintf(pre, sizeof pre, "%.*s", (int)cut, name);
    fold_name(pre, a, sizeof a);
    fold_name(want, b, sizeof b);
    return a[0] && !strcmp(a, b);
}

/* 1 when name is label, or label with the view's required mark ("* Full name"). */
static int names_label(const char *name, const char *label)
{
    return !strcmp(name, label) || (!strncmp(name, "* ", 2) && !strcmp(name + 2, label));
}

/* Controls (not text) whose accessible name is label: a label alone names its control. */
static void find_labelled(const perc_obs *obs, const char *label, target_hits *h)
{
    for (size_t i = 0; i < perc_obs_n_nodes(obs); i++) {
        const perc_node *n = perc_obs_node(obs, i);
        if (!n->ignored && !n->hidden && n->backend_id > 0 && n->role && n->name && !text_role(n->role) &&
            names_label(n->name, label)) {
            int k = h->n;
            hit_add(h, n->backend_id, n->role, n->name);
            if (h->n > k && k < 8) {
                snprintf(h->role[k], sizeof h->role[k], "%s", n->role);
                h->in[k] = n->component;
            }
        }
    }
}

/* 1 when a and b are close (case aside): one holds the other, or a few edits apart (a typo). */
static int close_to(const char *a, const char *b)
{
    if (!*a || !*b)
        return 0;
    if (strcasestr(a, b) || strcasestr(b, a))
        return 1;
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return 0;
    int row[65], most = (int)(na > nb ? na : nb) / 4 + 1;
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j], cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb] <= (most < 2 ? 2 : most);
}

/* "; close: a 'b', c 'd'" of the controls and components whose name is close to name, into out;
 * "" when none. */
static void close_names(const perc_obs *obs, const char *name, char *out, size_t size)
{
    target_hits h = {.n = 0};
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (!c->agent_hidden && c->label && close_to(c->label, name))
            hit_add(&h, -(int)i - 1, c->kind ? c->kind : "component", c->label);
    }
    for (size_t i = 0; i < perc_obs_n_nodes(obs); i++) {
        const perc_node *n = perc_obs_node(obs, i);
        if (!n->ignored && !n->hidden && n->backend_id > 0 && n->role && n->name && !text_role(n->role) &&
            close_to(n->name, name))
            hit_add(&h, n->backend_id, n->role, n->name);
    }
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < h.n && i < 8 && k < size; i++) {
        int shown = 0; /* a component and its own control print alike: once */
        for (int j = 0; j < i; j++)
            shown |= !strcmp(h.what[j], h.what[i]);
        if (!shown)
            k += (size_t)snprintf(out + k, size - k, "%s%s", k ? ", " : "; close: ", h.what[i]);
    }
}

/* The one control (of role, unless NULL) whose name is name written loosely (fold_name): a value a
 * component's tool took ("public") as the option a person clicks ("Public"); none when several are.
 * Failing that, the controls named name with a count (act_name_counted): 1 when those are what h holds. */
static int find_loose(const perc_obs *obs, const char *role, const char *name, target_hits *h)
{
    char want[512], got[512];
    fold_name(name, want, sizeof want);
    if (!want[0])
        return 0;
    target_hits loose = {.n = 0}, counted = {.n = 0};
    for (size_t i = 0; i < perc_obs_n_nodes(obs); i++) {
        const perc_node *n = perc_obs_node(obs, i);
        if (n->ignored || n->hidden || n->backend_id <= 0 || !n->role || !n->name || text_role(n->role) ||
            (role && strcmp(n->role, role)))
            continue;
        fold_name(n->name, got, sizeof got);
        if (!strcmp(got, want))
            hit_add(&loose, n->backend_id, n->role, n->name);
        else if (act_name_counted(n->name, strlen(n->name), name))
            hit_add(&counted, n->backend_id, n->role, n->name);
    }
    if (loose.n == 1)
        *h = loose;
    /* a live count ("Deactivate selected (2)") changes run to run; a job names the button without it */
    if (loose.n || !counted.n)
        return 0;
    *h = counted;
    return 1;
}

/* A script target that is not an AX role and name: the component the hybrid
 * view prints as "kind 'label'", or (role NULL) the one control or component
 * a label alone names.  EOUS_E_NOT_FOUND, or EOUS_E_INVALID when a label
 * names several, each listing what is close. */
static eous_rc resolve_script_other(const perc_obs *obs, const act_action *a, const char *role, const char *name,
                                    int nth, act_target *t, eous_err *err)
{
    target_hits h = {.n = 0};
    find_components(obs, role, name, &h);
    /* a label alone, or a field kind the hybrid view prints in a view without components (atomic):
     * the control the label names */
    if (!role || (!h.n && field_kind(role)))
        find_labelled(obs, name, &h);
    if (!role)
        narrow_hits(a, &h);
    int counted = 0;
    if (!h.n)
        counted = find_loose(obs, role, name, &h);
    char close[600];
    if (h.n >= nth && (role || h.n == 1) && !(counted && h.n > 1)) {
        t->backend_id = h.backend[nth - 1 < 8 ? nth - 1 : 7];
        snprintf(t->what, sizeof t->what, "%s", h.what[nth - 1 < 8 ? nth - 1 : 7]);
        return EOUS_OK;
    }
    if (h.n > 1) {
        size_t k = 0;
        close[0] = '\0';
        for (int i = 0; i < h.n && i < 5; i++)
            k += (size_t)snprintf(close + k, sizeof close - k, "%s%s", i ? ", " : "", h.what[i]);
        return eous_err_set(err, EOUS_E_INVALID, "%s: '%s' names %d controls (%s); name one as role 'name' or css=",
                            act_kind_name(a->kind), name, h.n, close);
    }
    close_names(obs, name, close, sizeof close);
    if (role)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no %s '%s'%s%.0d on the page%s", act_kind_name(a->kind),
                            role, name, nth > 1 ? " #" : "", nth > 1 ? nth : 0, close);
    return eous_err_set(err, EOUS_E_NOT_FOUND,
                        "%s: no [%s] in the view and no control labelled '%s'%s (script targets are \"role 'name'\", "
                        "a label, or css=SELECTOR)",
                        act_kind_name(a->kind), name, name, close);
}

/* 1 when node i has an ancestor (a form, region, group, dialog...) named under. */
static int ancestor_named(const perc_obs *obs, int i, const char *under)
{
    for (int p = perc_obs_node(obs, (size_t)i)->parent, hops = 0; p >= 0 && hops < 64; hops++) {
        const perc_node *n = perc_obs_node(obs, (size_t)p);
        if (n->name && n->role && !text_role(n->role) && !strcmp(n->name, under))
            return 1;
        p = n->parent;
    }
    return 0;
}

/* The nth role 'name' standing under the heading under (the last heading before it in document
 * order, as the views print them) or inside a form, region or group named under. */
static eous_rc find_under(const perc_obs *obs, const act_action *a, const char *role, const char *name,
                          const char *under, int nth, int *backend_id, eous_err *err)
{
    size_t n = perc_obs_n_nodes(obs);
    int *stack = malloc((n + 1) * sizeof *stack), sp = 0, seen = 0;
    if (!stack)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    const char *heading = "";
    if (n)
        stack[sp++] = 0;
    while (sp) { /* document order: depth-first from the root */
        int i = stack[--sp];
        const perc_node *node = perc_obs_node(obs, (size_t)i);
        if (node->hidden)
            continue;
        if (!node->ignored && node->role && node->name && !strcmp(node->role, "heading"))
            heading = node->name;
        if (!node->ignored && node->role && node->name && node->backend_id > 0 && !strcmp(node->role, role) &&
            !strcmp(node->name, name) && (!strcmp(heading, under) || ancestor_named(obs, i, under)) &&
            ++seen == nth) {
            *backend_id = node->backend_id;
            free(stack);
            return EOUS_OK;
        }
        for (size_t k = node->n_children; k-- > 0;)
            if (sp < (int)n)
                stack[sp++] = node->children[k];
    }
    free(stack);
    return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no %s '%s'%s%.0d under '%s' on the page",
                        act_kind_name(a->kind), role, name, nth > 1 ? " #" : "", nth > 1 ? nth : 0, under);
}

/* Resolves a.target to a backend id (or, for css=, an element id). */
eous_rc act_resolve_target(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t, eous_err *err)
{
    const char *k = a->target;
    if (!k || !*k)
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected a target id like [12]", act_kind_name(a->kind));
    if (a->from_script && !strncmp(k, "css=", 4)) {
        eous_rc rc = wd_find(x->s, "css selector", k + 4, &t->elem, err);
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no element matches %s", act_kind_name(a->kind), k);
        if (rc == EOUS_E_INVALID)
            return eous_err_set(err, EOUS_E_INVALID, "%s: '%s' is not a valid CSS selector", act_kind_name(a->kind),
                                k + 4);
        snprintf(t->what, sizeof t->what, "%s", k);
        return rc;
    }
    if (!obs)
        return eous_err_set(err, EOUS_E_INVALID, "%s %s: needs an observation to resolve the target",
                            act_kind_name(a->kind), k);
    eous_rc rc;
    char role[64], name[512];
    int nth = 1;
    char under[256];
    if (a->from_script && act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0 &&
        act_target_under(k, under, sizeof under)) {
        if ((rc = find_under(obs, a, role, name, under, nth, &t->backend_id, err)))
            return rc;
        snprintf(t->what, sizeof t->what, "%s", k);
    } else if (a->from_script && act_parse_role_name(k, role, sizeof role, name, sizeof name, &nth) == 0) {
        rc = perc_obs_find_role_name(obs, role, name, nth, &t->backend_id, err);
        /* not an AX role and name: a component kind the hybrid view prints ("file 'Attachment'") */
        if (rc == EOUS_E_NOT_FOUND)
            rc = resolve_script_other(obs, a, role, name, nth, t, err);
        if (rc)
            return rc;
        if (!t->what[0])
            snprintf(t->what, sizeof t->what, "%s", k);
    } else {
        rc = perc_obs_resolve_id(obs, k, &t->backend_id, err);
        /* a native component's view id ("c4", "[c4]"): its element (the hybrid
         * view folds a field's own line into the triplet, so an atomic action
         * names the triplet) */
        char cid[32];
        snprintf(cid, sizeof cid, "%s", k[0] == '[' ? k + 1 : k);
        cid[strcspn(cid, "]")] = '\0';
        const perc_component *nc = rc == EOUS_E_NOT_FOUND ? perc_obs_find_component(obs, cid) : NULL;
        if (nc && nc->provider_bit == PERC_PROVIDER_NATIVE && nc->backend_id > 0) {
            t->backend_id = nc->backend_id;
            t->node = perc_obs_node_by_backend(obs, t->backend_id);
            snprintf(t->what, sizeof t->what, "[%s] %s '%s'", cid, nc->kind, nc->label ? nc->label : "");
            rc = EOUS_OK;
            goto found;
        }
        /* a script's label alone: the one control or component it names */
        if (rc == EOUS_E_NOT_FOUND && a->from_script && k[0] != '[') {
            if ((rc = resolve_script_other(obs, a, NULL, k, 1, t, err)))
                return rc;
            goto found;
        }
        if (rc == EOUS_E_NOT_FOUND)
            return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: there is no [%s] in the current observation%s",
                                act_kind_name(a->kind), k,
                                a->from_script ? " (script targets are \"role 'name'\", a label, or css=SELECTOR)"
                                               : "");
        if (rc)
            return rc;
        t->node = perc_obs_node_by_backend(obs, t->backend_id);
        char id[64];
        snprintf(id, sizeof id, "%s", k[0] == '[' ? k + 1 : k);
        id[strcspn(id, "]")] = '\0';
        describe_node(t->what, sizeof t->what, id, t->node);
    }
found:
    if (!t->node)
        t->node = perc_obs_node_by_backend(obs, t->backend_id);
    if (t->node && t->node->hidden)
        return act_policy_hidden(t->what, err);
    if (t->node && t->node->frame > 0)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: %s is inside a frame; eous acts on the main frame only",
                            act_kind_name(a->kind), t->what);
    /* the element's id without asking the driver: the view's prefix and the backend id */
    const char *prefix = x && t->backend_id > 0 && wd_session_has_cdp(x->s) ? perc_obs_element_prefix(obs) : NULL;
    if (prefix) {
        size_t n = strlen(prefix) + 16;
        if (!(t->ref = malloc(n)))
            return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        snprintf(t->ref, n, "%s%d", prefix, t->backend_id);
    }
    return EOUS_OK;
}

static eous_rc stale(const act_target *t, eous_err *err)
{
    return eous_err_set(err, EOUS_E_STALE, "stale: %s is gone since the observation; observe again", t->what);
}

/* The script's element (and field) ids into t; EOUS_E_PAGE when it handed back none. */
static eous_rc take_elements(act_target *t, const cJSON *v, eous_err *err)
{
    const char *id = wd_element_id_of(cJSON_GetObjectItem(v, "el"));
    if (!id)
        return eous_err_set(err, EOUS_E_PAGE, "%s: the page did not hand back the element", t->what);
    if (!t->elem && !(t->elem = strdup(id)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    const char *tid = wd_element_id_of(cJSON_GetObjectItem(v, "typeEl"));
    if (tid && !t->type_elem && !(t->type_elem = strdup(tid)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* What prepare_el.js said about the target, into t. */
static void take_facts(act_target *t, const cJSON *v)
{
    t->x = eous_json_num(v, "x", 0);
    t->y = eous_json_num(v, "y", 0);
    t->w = eous_json_num(v, "w", 0);
    t->h = eous_json_num(v, "h", 0);
    snprintf(t->role, sizeof t->role, "%s", eous_json_str(v, "role") ? eous_json_str(v, "role") : "");
    snprintf(t->name, sizeof t->name, "%s", eous_json_str(v, "name") ? eous_json_str(v, "name") : "");
    snprintf(t->cid, sizeof t->cid, "%s", eous_json_str(v, "cid") ? eous_json_str(v, "cid") : "");
    snprintf(t->tag, sizeof t->tag, "%s", eous_json_str(v, "tag") ? eous_json_str(v, "tag") : "");
    snprintf(t->input_type, sizeof t->input_type, "%s", eous_json_str(v, "type") ? eous_json_str(v, "type") : "");
    t->combobox = eous_json_bool(v, "combobox", 0);
    t->editable = eous_json_bool(v, "editable", 0);
    t->disabled = eous_json_bool(v, "disabled", 0);
    t->type_disabled = eous_json_bool(v, "typeDisabled", 0);
    t->empty = eous_json_bool(v, "empty", 0);
    const char *conf = eous_json_str(v, "confirm");
    t->has_confirm = conf != NULL;
    snprintf(t->confirm, sizeof t->confirm, "%s", conf ? conf : "");
}

/* What prepare.js / prepare_node.js said of the target: the URL it saw, and
 * an error when the element is gone (stale) or hidden from agents. */
static eous_rc take_prepared(act_exec *x, const act_target *t, const cJSON *v, eous_err *err)
{
    act_remember_url(x, v);
    if (cJSON_IsTrue(cJSON_GetObjectItem(v, "gone")))
        return stale(t, err);
    if (cJSON_IsTrue(cJSON_GetObjectItem(v, "hidden")))
        return act_policy_hidden(t->what, err);
    return EOUS_OK;
}

/* Backend id → element: CDP resolveNode + callFunctionOn park the node on
 * window under a random name; ACT_PREPARE_JS picks it up, checks marks, scrolls
 * and returns the W3C element reference with facts about it. */
eous_rc act_acquire(act_exec *x, act_target *t, int want_type, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    cJSON *p = NULL, *res = NULL, *args = NULL, *v = NULL;
    char token[64] = "";
    if (t->backend_id > 0 && wd_session_has_cdp(x->s) && !t->ref) {
        p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "backendNodeId", t->backend_id);
        cJSON_AddStringToObject(p, "objectGroup", "eous-act");
        eous_err e2;
        eous_err_clear(&e2);
        rc = wd_cdp(x->s, "DOM.resolveNode", p, &res, &e2);
        cJSON_Delete(p);
        p = NULL;
        if (rc) {
            if (eous_rc_is_infra(rc)) {
                if (err)
                    *err = e2;
                goto done;
            }
            rc = stale(t, err);
            goto done;
        }
        const char *oid = eous_json_str(eous_json_obj(res, "object"), "objectId");
        if (!oid) {
            rc = stale(t, err);
            goto done;
        }
        snprintf(token, sizeof token, "__eous_t%lx_%lu", (unsigned long)rand_r(&x->seed), ++x->n_stash);
        p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "objectId", oid);
        cJSON_AddStringToObject(p, "functionDeclaration", ACT_STASH_JS);
        cJSON *fa = cJSON_AddArrayToObject(p, "arguments");
        cJSON *a0 = cJSON_CreateObject();
        cJSON_AddStringToObject(a0, "value", token);
        cJSON_AddItemToArray(fa, a0);
        cJSON_AddTrueToObject(p, "returnByValue");
        cJSON_Delete(res);
        res = NULL;
        rc = wd_cdp(x->s, "Runtime.callFunctionOn", p, &res, err);
        if (rc)
            goto done;
        if (!cJSON_IsTrue(eous_json_obj(res, "result") ? cJSON_GetObjectItem(eous_json_obj(res, "result"), "value")
                                                      : NULL)) {
            rc = eous_err_set(err, EOUS_E_STALE, "stale: %s is no longer in the page since the observation; "
                                                 "observe again",
                              t->what);
            goto done;
        }
    }
    args = cJSON_CreateArray();
    if (t->backend_id > 0 && !wd_session_has_cdp(x->s)) {
        /* no CDP: the in-page tree's own ids find the element in one call */
        cJSON *bid = cJSON_CreateObject();
        cJSON_AddNumberToObject(bid, "bid", t->backend_id);
        cJSON_AddItemToArray(args, bid);
    } else {
        cJSON_AddItemToArray(args, token[0] ? cJSON_CreateString(token) : cJSON_CreateNull());
    }
    const char *elem = t->elem ? t->elem : t->ref;
    cJSON_AddItemToArray(args, elem ? wd_element_ref(elem) : cJSON_CreateNull());
    cJSON_AddItemToArray(args, cJSON_CreateTrue());
    cJSON_AddItemToArray(args, cJSON_CreateBool(want_type));
    rc = wd_execute(x->s, ACT_PREPARE_JS, args, &v, err);
    if (rc == EOUS_E_STALE && !t->elem && t->ref) {
        rc = stale(t, err); /* the driver found no such node in the view's document */
        goto done;
    }
    if (rc)
        goto done;
    if ((rc = take_prepared(x, t, v, err)) || (rc = take_elements(t, v, err)))
        goto done;
    take_facts(t, v);
    rc = EOUS_OK;
done:
    cJSON_Delete(p);
    cJSON_Delete(res);
    cJSON_Delete(args);
    cJSON_Delete(v);
    return rc;
}


/* With the element's id built from the view (t->ref): prepare_hit.js, one
 * request for what act_acquire and the hit test took three. */
static eous_rc acquire_by_ref(act_exec *x, act_target *t, int want_type, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, wd_element_ref(t->ref));
    cJSON_AddItemToArray(args, cJSON_CreateBool(want_type));
    /* reads (the scroll into view aside): on eous mcp's own connection when it has one */
    eous_rc rc = act_execute_read(x, ACT_PREPARE_HIT_JS, args, &v, err);
    cJSON_Delete(args);
    if (rc == EOUS_E_STALE)
        rc = stale(t, err);
    if (rc || (rc = take_prepared(x, t, v, err)) || (rc = take_elements(t, v, err)))
        goto done;
    take_facts(t, v);
    t->prepared = 1;
    t->hx = eous_json_num(v, "hx", t->x);
    t->hy = eous_json_num(v, "hy", t->y);
    /* an <option> has no box of its own to point at; a file input opens a chooser */
    t->hit = eous_json_bool(v, "hit", 0) && strcmp(t->tag, "option") && strcmp(t->tag, "select") &&
             strcmp(t->input_type, "file");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, "block");
    if (eous_json_bool(b, "blocked", 0)) {
        t->blocked = 1;
        snprintf(t->block_msg, sizeof t->block_msg, "field '%s': %s",
                 eous_json_str(b, "label") ? eous_json_str(b, "label") : "",
                 eous_json_str(b, "message") ? eous_json_str(b, "message") : "invalid");
    }
done:
    cJSON_Delete(v);
    return rc;
}

/* A click's target in one CDP call after the node's lookup: prepare_node.js
 * checks its marks, scrolls it into view and tests whether a pointer at its
 * centre reaches it (t->hit), by value, with no element reference, no stash and
 * no W3C script.  t->hit 0 (no CDP, no backend node, covered, off screen, an
 * <option>...) leaves the caller to act_acquire's way. */
eous_rc act_acquire_click(act_exec *x, act_target *t, int want_type, eous_err *err)
{
    t->hit = 0;
    if (t->ref && !t->elem)
        return acquire_by_ref(x, t, want_type, err);
    if (want_type || t->backend_id <= 0 || t->elem || !wd_session_has_cdp(x->s))
        return EOUS_OK;
    eous_rc rc;
    cJSON *p = cJSON_CreateObject(), *res = NULL;
    cJSON_AddNumberToObject(p, "backendNodeId", t->backend_id);
    cJSON_AddStringToObject(p, "objectGroup", "eous-act");
    eous_err e2;
    eous_err_clear(&e2);
    rc = wd_cdp(x->s, "DOM.resolveNode", p, &res, &e2);
    cJSON_Delete(p);
    p = NULL;
    const char *oid = rc ? NULL : eous_json_str(eous_json_obj(res, "object"), "objectId");
    if (rc && eous_rc_is_infra(rc)) {
        if (err)
            *err = e2;
        goto done;
    }
    if (!oid) {
        rc = stale(t, err);
        goto done;
    }
    p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "objectId", oid);
    cJSON_AddStringToObject(p, "functionDeclaration", ACT_PREPARE_NODE_JS);
    cJSON *fa = cJSON_AddArrayToObject(p, "arguments"), *a0 = cJSON_CreateObject();
    cJSON_AddTrueToObject(a0, "value");
    cJSON_AddItemToArray(fa, a0);
    cJSON_AddTrueToObject(p, "returnByValue");
    cJSON_Delete(res);
    res = NULL;
    if ((rc = wd_cdp(x->s, "Runtime.callFunctionOn", p, &res, err)))
        goto done;
    const cJSON *v = eous_json_obj(eous_json_obj(res, "result"), "value");
    if (!v || eous_json_obj(res, "exceptionDetails"))
        goto done; /* the script failed on this page: the W3C way */
    if ((rc = take_prepared(x, t, v, err)))
        goto done;
    take_facts(t, v);
    t->hx = t->x;
    t->hy = t->y;
    /* an <option> has no box of its own to point at; a file input opens a chooser */
    t->hit = eous_json_bool(v, "hit", 0) && strcmp(t->tag, "option") && strcmp(t->tag, "select") &&
             strcmp(t->input_type, "file");
done:
    cJSON_Delete(p);
    cJSON_Delete(res);
    return rc;
}

/* Rules over the element, then over the component holding it; then the
 * rule's or the page's confirm sentence goes to a person. */
eous_rc act_check_target_policy(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t, eous_err *err)
{
    const char *action = act_kind_name(a->kind);
    const char *kind = t->node && t->node->role ? t->node->role : (t->role[0] ? t->role : t->tag);
    const char *label = t->node && t->node->name ? t->node->name : t->name;
    const char *confirm = NULL, *c2 = NULL;
    eous_rc rc = act_policy_check_action(x->policy, kind, label, action, NULL, x->url, &confirm, err);
    if (rc)
        return rc;
    const perc_component *c = NULL;
    if (obs && t->node && t->node->component >= 0)
        c = perc_obs_component(obs, (size_t)t->node->component);
    if (!c && obs && t->cid[0])
        c = perc_obs_find_component(obs, t->cid);
    if (c) {
        if ((rc = act_policy_check_action(x->policy, c->kind, c->label, action, NULL, x->url, &c2, err)))
            return rc;
        if (!confirm)
            confirm = c2;
    }
    char what[512];
    snprintf(what, sizeof what, "%s %s", action, t->what);
    if (t->has_confirm && (rc = act_ask(x, t->confirm, what, err)))
        return rc;
    if (confirm && !(t->has_confirm && !strcmp(confirm, t->confirm)) && (rc = act_ask(x, confirm, what, err)))
        return rc;
    return EOUS_OK;
}

