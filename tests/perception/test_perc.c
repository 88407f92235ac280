/* tests/perception/test_perc.c — perception against real headless Chromium: views,
 * triplet folding, page marks, hostile registries. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokenize.h"
#include "perception/perc.h"
#include "support/browser.h"
#include "lines_same.h"

static ts_browser B;

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, NULL), 0, "browser start failed");
}

static void teardown(void)
{
    ts_browser_stop(&B);
}

TestSuite(perc, .init = setup, .fini = teardown, .timeout = 120);

static perc_obs *observe(const char *path, perc_mode mode)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    o.provider_timeout_ms = 500;
    /* these tests are about registries: the native provider (tests/perception/test_native.c) stays out of the counts */
    o.provider_set = PERC_PROVIDER_CI4A | PERC_PROVIDER_WEBMCP | PERC_PROVIDER_BRIDGE;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    char why[512];
    cr_assert(ls_obs_lines_same(obs, why, sizeof why), "%s on %s: %s", perc_mode_name(mode), path, why);
    return obs;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

Test(perc, atomic_view_follows_webarena_format)
{
    perc_obs *obs = observe("/form.html", PERC_MODE_ATOMIC);
    const char *t = perc_obs_text(obs);
    cr_assert(!strncmp(t, "Tab 0 (current): Form fixture\n\n", 31), "tab header: %.60s", t);
    cr_assert(strstr(t, "] RootWebArea 'Form fixture' focused: True"), "%s", t);
    cr_assert(strstr(t, "] textbox 'Full name' required: False"), "ignored props dropped: %s", t);
    cr_assert_null(strstr(t, "focusable"), "focusable is an ignored property");
    cr_assert(strstr(t, "\t\t["), "children are tab-indented");
    /* ids resolve back to DOM nodes */
    const char *p = strstr(t, "] button 'Send'");
    cr_assert(p);
    const char *open = p;
    while (open > t && *open != '[')
        open--;
    char id[32];
    snprintf(id, sizeof id, "%.*s", (int)(p - open - 1), open + 1);
    int backend = 0;
    eous_err err;
    cr_assert_eq(perc_obs_resolve_id(obs, id, &backend, &err), EOUS_OK, "%s", err.msg);
    cr_assert_gt(backend, 0);
    cr_assert_eq(perc_obs_resolve_id(obs, "999999", &backend, &err), EOUS_E_NOT_FOUND);
    int b2 = 0;
    cr_assert_eq(perc_obs_find_role_name(obs, "button", "Send", 1, &b2, &err), EOUS_OK);
    cr_assert_eq(b2, backend);
    perc_obs_free(obs);
}

Test(perc, hybrid_folds_component_and_portal_into_one_triplet)
{
    perc_obs *obs = observe("/ci4a.html", PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    cr_assert_eq(perc_obs_n_components(obs), 1);
    cr_assert_eq(count(t, "[c1] datepicker 'Check-in'"), 1, "%s", t);
    cr_assert(strstr(t, "value: '2025-12-30'"), "%s", t);
    cr_assert(strstr(t, "setValue(date: YYYY-MM-DD, 2025-01-01..2026-12-31, not 2025-12-25)"), "%s", t);
    cr_assert_null(strstr(t, "CalendarCellLeak"), "component subtree leaked: %s", t);
    cr_assert_null(strstr(t, "PortalOptionLeak"), "portal leaked: %s", t);
    cr_assert(strstr(t, "Outside text stays"), "page skeleton kept: %s", t);
    cr_assert(strstr(t, "button ["), "atomic elements keep ids: %s", t);
    const perc_component *c = perc_obs_find_component(obs, "c1");
    cr_assert(c);
    cr_assert_str_eq(c->key, "datepicker-checkin");
    cr_assert_gt(c->backend_id, 0);
    cr_assert_eq(perc_obs_find_component(obs, "datepicker-checkin"), c);
    perc_obs_free(obs);
}

Test(perc, ci4a_off_gives_no_triplet)
{
    perc_obs *obs = observe("/ci4a.html?ci4a=off", PERC_MODE_HYBRID);
    cr_assert_eq(perc_obs_n_components(obs), 0);
    cr_assert_null(strstr(perc_obs_text(obs), "[c1]"));
    cr_assert(strstr(perc_obs_text(obs), "CalendarCellLeak1"), "without CI4A the widget is shown atomically");
    perc_obs_free(obs);
}

Test(perc, hidden_and_secret_marks_hold_in_every_view)
{
    perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID, PERC_MODE_HTML};
    for (int i = 0; i < 4; i++) {
        perc_obs *obs = observe("/ci4a.html", modes[i]);
        const char *t = perc_obs_text(obs);
        cr_assert_null(strstr(t, "HiddenTextLeak"), "%s: hidden text shown", perc_mode_name(modes[i]));
        cr_assert_null(strstr(t, "HiddenButton"), "%s: hidden button shown", perc_mode_name(modes[i]));
        cr_assert_null(strstr(t, "SecretTokenValue123"), "%s: secret region shown: %s", perc_mode_name(modes[i]), t);
        cr_assert_null(strstr(t, "hunter2secret"), "%s: password value shown", perc_mode_name(modes[i]));
        char *j = perc_obs_json(obs);
        cr_assert_null(strstr(j, "SecretTokenValue123"));
        /* the size is the exact o200k count and says so (it was "tokens_est") */
        cJSON *jo = cJSON_Parse(j);
        const cJSON *tk = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(jo, "sizes"), "tokens_o200k");
        cr_assert(cJSON_IsNumber(tk), "%s: sizes.tokens_o200k missing: %s", perc_mode_name(modes[i]), j);
        cr_assert_eq((size_t)tk->valuedouble, eous_tok_count_o200k(t, perc_obs_text_len(obs)));
        cJSON_Delete(jo);
        free(j);
        int b = 0;
        eous_err err;
        cr_assert_eq(perc_obs_find_role_name(obs, "button", "HiddenButton", 1, &b, &err), EOUS_E_NOT_FOUND);
        perc_obs_free(obs);
    }
}

Test(perc, hostile_registries_give_warnings_not_failures)
{
    const char *cases[] = {"/ci4a.html?hostile=throws", "/ci4a.html?hostile=hangs", "/ci4a.html?hostile=cyclic",
                           "/ci4a.html?hostile=garbage"};
    const char *expect[] = {"registry exploded", "timed out", "cycle", "expected an object"};
    for (int i = 0; i < 4; i++) {
        perc_obs *obs = observe(cases[i], PERC_MODE_HYBRID);
        /* a cycle is cut (issue 15): what is left of the entry is still a component */
        cr_assert_eq(perc_obs_n_components(obs), i == 2 ? 1u : 0u, "%s", cases[i]);
        cr_assert_geq(perc_obs_n_warnings(obs), 1, "%s warns", cases[i]);
        int found = 0;
        for (size_t w = 0; w < perc_obs_n_warnings(obs); w++)
            found |= strstr(perc_obs_warning(obs, w), expect[i]) != NULL;
        cr_assert(found, "%s: warning mentions '%s' (got '%s')", cases[i], expect[i], perc_obs_warning(obs, 0));
        cr_assert(strstr(perc_obs_text(obs), "Outside text stays"), "page still perceived");
        perc_obs_free(obs);
    }
}

Test(perc, html_view_has_ids_that_resolve)
{
    perc_obs *obs = observe("/form.html", PERC_MODE_HTML);
    const char *t = perc_obs_text(obs);
    cr_assert(strstr(t, "<button id=\""), "%s", t);
    cr_assert_null(strstr(t, "<script"), "scripts removed");
    cr_assert_null(strstr(t, "addEventListener"), "script text removed");
    int b = 0;
    eous_err err;
    cr_assert_eq(perc_obs_resolve_id(obs, "1", &b, &err), EOUS_OK, "%s", err.msg);
    cr_assert_gt(b, 0);
    perc_obs_free(obs);
}

Test(perc, pruned_is_smaller_than_atomic_and_version_tracks_changes)
{
    perc_obs *a = observe("/form.html", PERC_MODE_ATOMIC);
    perc_obs *p = observe("/form.html", PERC_MODE_PRUNED);
    cr_assert_lt(perc_obs_text_len(p), perc_obs_text_len(a));
    char v1[17];
    snprintf(v1, sizeof v1, "%s", perc_obs_version(p));
    eous_err err;
    cJSON *r = NULL;
    wd_execute(B.session, "document.getElementById('out').textContent = 'Changed text'; return 1;", NULL, &r, &err);
    cJSON_Delete(r);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_PRUNED;
    perc_obs *p2 = NULL;
    cr_assert_eq(perc_observe(B.session, &o, &p2, &err), EOUS_OK);
    cr_assert_str_neq(perc_obs_version(p2), v1);
    perc_obs_free(a);
    perc_obs_free(p);
    perc_obs_free(p2);
}
