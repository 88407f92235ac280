/* tests/perception/test_view_site.c — what the hybrid view tells a person's steps of the
 * Playground's components (issue 52's distilled jobs), read back from the view's lines
 * (perc_obs_lines): a range picker's two fields by the names the atomic view gives them, and
 * the tab whose hidden panel holds a component listed under "not on screen:". */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc.h"
#include "support/browser.h"
#include "support/page_js.h"
#include "support/workdir.h"
#include "support/site.h"
#include "lines_same.h"

static ts_browser S;

static void setup(void)
{
    if (ts_site_root())
        cr_assert_eq(ts_browser_start(&S, ts_site_root()), 0, "browser start failed");
}

static void teardown(void)
{
    if (ts_site_root())
        ts_browser_stop(&S);
}

TestSuite(view_site, .init = setup, .fini = teardown, .timeout = 180);

/* The page at path (NULL: the one open) in mode, its written lines checked against its text. */
static perc_obs *observe(const char *path, perc_mode mode)
{
    eous_err err;
    eous_err_clear(&err);
    if (path) {
        cr_assert_eq(wd_navigate(S.session, ts_browser_url(&S, path), &err), EOUS_OK, "%s", err.msg);
        ts_page_wait(S.session, "window.__ci4a__ && document.querySelector('h1, h2, h3, h4')");
    }
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(S.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    char why[512];
    cr_assert(ls_obs_lines_same(obs, why, sizeof why), "%s on %s: %s", perc_mode_name(mode), path, why);
    return obs;
}

/* The component line of this kind and label, or NULL. */
static const perc_line *component_line(const perc_obs *obs, const char *kind, const char *label)
{
    size_t n;
    const perc_line *l = perc_obs_lines(obs, &n);
    for (size_t i = 0; i < n; i++)
        if (l[i].kind == PERC_LINE_COMPONENT && perc_span_is(l[i].role, kind, strlen(kind)) &&
            perc_span_is(l[i].name, label, strlen(label)))
            return &l[i];
    return NULL;
}

static int has_textbox(const char *atomic, const char *name)
{
    char want[128];
    snprintf(want, sizeof want, "] textbox '%s'", name);
    return strstr(atomic, want) != NULL;
}

/* Orders' `Order dates`: antd's RangePicker, two inputs named by their placeholders; the
 * hybrid line names both (what the atomic view calls them), and the line reader gives them
 * as the line's fields, not as state. */
Test(view_site, a_range_pickers_line_names_its_two_fields)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    perc_obs *obs = observe("/orders", PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    const perc_line *l = component_line(obs, "rangepicker", "Order dates");
    cr_assert(l, "no rangepicker 'Order dates' line: %s", t);
    cr_assert(strstr(t, "[c2] rangepicker 'Order dates' fields 'From date', 'To date' → setValue("), "%s", t);
    cr_assert_eq(l->n_fields, 2, "%.*s", (int)l->whole.len, l->whole.s);
    cr_assert(perc_span_is(l->fields[0], "From date", 9), "%.*s", (int)l->fields[0].len, l->fields[0].s);
    cr_assert(perc_span_is(l->fields[1], "To date", 7), "%.*s", (int)l->fields[1].len, l->fields[1].s);
    for (size_t i = 0; i < l->n_state; i++)
        cr_assert(!perc_span_is(l->state[i].key, "fields", 6), "fields read as state");
    cr_assert_eq(l->n_tools, 2);
    cr_assert(perc_span_is(l->tools[0].name, "setValue", 8));
    /* no other line of the page names fields (a one-field component's says nothing more) */
    size_t n, with = 0;
    const perc_line *ls = perc_obs_lines(obs, &n);
    for (size_t i = 0; i < n; i++)
        with += ls[i].n_fields > 0;
    cr_assert_eq(with, 1, "%s", t);
    perc_obs_free(obs);
    /* the names are the atomic view's */
    obs = observe("/orders", PERC_MODE_ATOMIC);
    cr_assert(has_textbox(perc_obs_text(obs), "From date") && has_textbox(perc_obs_text(obs), "To date"), "%s",
              perc_obs_text(obs));
    perc_obs_free(obs);
}

/* Settings' `Members` tab holds the `Members` and `Tags` selects, rendered in a hidden tab panel:
 * under "not on screen:" each says which tab holds it; the General tab's own components do not. */
Test(view_site, a_component_not_on_screen_says_which_tab_holds_it)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    perc_obs *obs = observe("/settings", PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    const char *off = strstr(t, "\nnot on screen:\n");
    cr_assert(off, "%s", t);
    cr_assert(strstr(off, "] select 'Members' in tab 'Members' mode: 'multiple' value: "), "%s", t);
    cr_assert(strstr(off, "] select 'Tags' in tab 'Members' mode: 'tags' value: "), "%s", t);
    const char *names[] = {"Members", "Tags"};
    for (size_t i = 0; i < 2; i++) {
        const perc_line *l = component_line(obs, "select", names[i]);
        cr_assert(l, "no select '%s' line: %s", names[i], t);
        cr_assert(perc_span_is(l->tab, "Members", 7), "%s: tab '%.*s'", names[i], (int)l->tab.len,
                  l->tab.s ? l->tab.s : "");
        cr_assert_eq(l->depth, 1);
        cr_assert(l->n_state >= 2 && perc_span_is(l->state[0].key, "mode", 4), "the state reads after the tab");
    }
    /* on screen, no tab is named */
    size_t n, i = 1;
    const perc_line *ls = perc_obs_lines(obs, &n);
    for (; i < n && !(ls[i].kind == PERC_LINE_HEADER && perc_span_is(ls[i].whole, "not on screen:", 14)); i++)
        cr_assert_null(ls[i].tab.s, "%.*s", (int)ls[i].whole.len, ls[i].whole.s);
    cr_assert_lt(i, n);
    perc_obs_free(obs);
}

/* With the Security tab open, the General tab's radio and checkbox groups, whose inputs the browser
 * keeps in the tree as ignored nodes of the hidden panel, are listed under "not on screen:" in their
 * tab like its other components, not placed in the tree beside the open panel. */
Test(view_site, a_hidden_tabs_groups_are_not_placed_beside_the_open_panel)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    perc_obs_free(observe("/settings", PERC_MODE_HYBRID));
    char *r = ts_page_json(S.session, "window.__ci4a__.callTool('tabs-settings', 'setTab', {key: 'security'}) && 1");
    free(r);
    ts_page_wait(S.session, "document.querySelector('[data-cid=\"input-api-token\"]') && "
                            "document.querySelector('[data-cid=\"input-api-token\"]').checkVisibility()");
    perc_obs *obs = observe(NULL, PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    const char *off = strstr(t, "\nnot on screen:\n");
    cr_assert(off, "%s", t);
    const char *groups[] = {"] radiogroup 'Visibility' in tab 'General'", "] checkboxgroup 'Notifications' in tab 'General'"};
    for (size_t i = 0; i < 2; i++) {
        const char *g = strstr(t, groups[i]);
        cr_assert(g && g > off, "%s is not under 'not on screen:': %s", groups[i], t);
    }
    size_t n, i = 1;
    const perc_line *ls = perc_obs_lines(obs, &n);
    for (; i < n && !(ls[i].kind == PERC_LINE_HEADER && perc_span_is(ls[i].whole, "not on screen:", 14)); i++)
        cr_assert_null(ls[i].tab.s, "%.*s", (int)ls[i].whole.len, ls[i].whole.s);
    perc_obs_free(obs);
}

/* Every Playground screen in the atomic, pruned and hybrid views: the lines the writers built
 * are the lines the text reads back as (observe checks each), and the text is theirs rendered. */
Test(view_site, every_screens_written_lines_are_its_text_read_back)
{
    if (!ts_site_root())
        cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist)");
    static const char *SCREENS[] = {"/booking", "/users", "/settings", "/orders", "/apply"};
    static const perc_mode MODES[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID};
    for (size_t s = 0; s < sizeof SCREENS / sizeof *SCREENS; s++)
        for (size_t m = 0; m < sizeof MODES / sizeof *MODES; m++) {
            perc_obs *obs = observe(m ? NULL : SCREENS[s], MODES[m]);
            size_t n;
            cr_assert(perc_obs_lines(obs, &n) && n > 3, "%s", SCREENS[s]);
            perc_obs_free(obs);
        }
}

/* ---- every fixture page ---------------------------------------------------------- */

static ts_browser F;

static void fixtures_setup(void)
{
    cr_assert_eq(ts_browser_start(&F, EOUS_SOURCE_DIR "/tests/fixtures"), 0, "browser start failed");
}

static void fixtures_teardown(void)
{
    ts_browser_stop(&F);
}

TestSuite(view_fixtures, .init = fixtures_setup, .fini = fixtures_teardown, .timeout = 300);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every page of tests/fixtures/pages and tests/fixtures/native, every provider on, in the atomic,
 * pruned and hybrid views: the lines the writers built are the lines the text reads back as (a
 * native form's state key "fields: 600" once read as a range picker's fields). */
Test(view_fixtures, every_fixture_pages_written_lines_are_its_text_read_back)
{
    static const char *DIRS[] = {"pages", "native"};
    static const perc_mode MODES[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID};
    size_t pages = 0;
    for (size_t d = 0; d < 2; d++) {
        char dir[1024], *names[128];
        size_t n = 0;
        snprintf(dir, sizeof dir, EOUS_SOURCE_DIR "/tests/fixtures/%s", DIRS[d]);
        DIR *dh = opendir(dir);
        cr_assert(dh, "%s", dir);
        for (struct dirent *e; (e = readdir(dh)) && n < 128;) {
            size_t l = strlen(e->d_name);
            if (l > 5 && !strcmp(e->d_name + l - 5, ".html"))
                names[n++] = strdup(e->d_name);
        }
        closedir(dh);
        qsort(names, n, sizeof *names, by_name);
        for (size_t i = 0; i < n; i++, pages++) {
            char path[512];
            snprintf(path, sizeof path, "/%s/%s", DIRS[d], names[i]);
            eous_err err;
            eous_err_clear(&err);
            cr_assert_eq(wd_navigate(F.session, ts_browser_url(&F, path), &err), EOUS_OK, "%s", err.msg);
            /* big.html (5000 form fields) costs 10 s an observation: its hybrid view alone (a native
             * form's line, the one view where its fields differ) */
            for (size_t m = strcmp(names[i], "big.html") ? 0 : 2; m < 3; m++) {
                perc_opts o;
                perc_opts_init(&o);
                o.mode = MODES[m];
                perc_obs *obs = NULL;
                cr_assert_eq(perc_observe(F.session, &o, &obs, &err), EOUS_OK, "%s: %s", path, err.msg);
                char why[512];
                cr_assert(ls_obs_lines_same(obs, why, sizeof why), "%s on %s: %s", perc_mode_name(MODES[m]), path,
                          why);
                perc_obs_free(obs);
            }
            free(names[i]);
        }
    }
    cr_assert_geq(pages, 20);
}

/* ---- DokuWiki ---------------------------------------------------------------------- */

static char wtmp[256], wdir[300], wurl[256];
static ts_browser W;

static void wiki_setup(void)
{
    ts_workdir_make(wtmp, sizeof wtmp, "view-wiki", NULL, NULL, 0);
    snprintf(wdir, sizeof wdir, "%s/wiki", wtmp);
    char secrets[300];
    snprintf(secrets, sizeof secrets, "%s/secrets.env", wtmp);
    cr_assert_eq(ts_site_start(EOUS_SOURCE_DIR "/scripts/wiki", "DOKUWIKI", wdir, secrets), 0,
                 "scripts/wiki started (its stderr says why not)");
    snprintf(wurl, sizeof wurl, "%s", getenv("EOUS_SITE_DOKUWIKI"));
    cr_assert_eq(ts_browser_start(&W, NULL), 0, "browser start failed");
}

static void wiki_teardown(void)
{
    ts_browser_stop(&W);
    ts_site_stop(EOUS_SOURCE_DIR "/scripts/wiki", wdir);
    ts_workdir_remove(wtmp);
}

TestSuite(view_wiki, .init = wiki_setup, .fini = wiki_teardown, .timeout = 300);

/* DokuWiki's pages (its start page, login, search, an editor, recent changes, the index) in the
 * atomic, pruned and hybrid views: the written lines are the text read back, as on the Playground. */
Test(view_wiki, every_wiki_screens_written_lines_are_its_text_read_back)
{
    static const char *PAGES[] = {"/doku.php?id=start", "/doku.php?id=start&do=login",
                                  "/doku.php?id=start&do=search&q=cirrus", "/doku.php?id=projects:cirrus&do=edit",
                                  "/doku.php?id=start&do=recent", "/doku.php?id=start&do=index"};
    static const perc_mode MODES[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID};
    for (size_t i = 0; i < sizeof PAGES / sizeof *PAGES; i++) {
        char url[600];
        snprintf(url, sizeof url, "%s%s", wurl, PAGES[i]);
        eous_err err;
        eous_err_clear(&err);
        cr_assert_eq(wd_navigate(W.session, url, &err), EOUS_OK, "%s", err.msg);
        for (size_t m = 0; m < 3; m++) {
            perc_opts o;
            perc_opts_init(&o);
            o.mode = MODES[m];
            perc_obs *obs = NULL;
            cr_assert_eq(perc_observe(W.session, &o, &obs, &err), EOUS_OK, "%s: %s", PAGES[i], err.msg);
            size_t n;
            char why[512];
            cr_assert(perc_obs_lines(obs, &n) && n > 5, "%s: %s", PAGES[i], perc_obs_text(obs));
            cr_assert(ls_obs_lines_same(obs, why, sizeof why), "%s on %s: %s", perc_mode_name(MODES[m]), PAGES[i],
                      why);
            perc_obs_free(obs);
        }
    }
}
