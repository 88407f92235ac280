/* tests/perception/test_native_wiki.c — the native provider on a real application
 * nobody here wrote: DokuWiki (Debian's package, served by scripts/wiki on a
 * loopback port, as test_wiki_site does).  Its login, search and edit forms
 * become native form components in the hybrid view; each is filled and
 * submitted with native tools, and the wiki's own pages read back. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "actions/secrets.h"
#include "support/browser.h"
#include "support/cli.h"
#include "support/page_js.h"
#include "support/workdir.h"
#include "support/site.h"

#define WIKI EOUS_SOURCE_DIR "/scripts/wiki"

static char tmpdir[256], wikidir[300], secrets_path[300], wiki_url[256];
static ts_browser B;
static act_exec *X;
static act_policy *P;
static act_secrets *S;

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "native-wiki", NULL, NULL, 0);
    snprintf(wikidir, sizeof wikidir, "%s/wiki", tmpdir);
    snprintf(secrets_path, sizeof secrets_path, "%s/secrets.env", tmpdir);
    cr_assert_eq(ts_site_start(WIKI, "DOKUWIKI", wikidir, secrets_path), 0, "scripts/wiki started (its stderr says why not)");
    snprintf(wiki_url, sizeof wiki_url, "%s", getenv("EOUS_SITE_DOKUWIKI"));
    cr_assert_eq(ts_browser_start(&B, EOUS_SOURCE_DIR "/tests/fixtures/native"), 0, "browser start failed");
    cr_assert_eq(ts_exec_start(&B, 5000, &X, &P), 0);
    eous_err err;
    cr_assert_eq(act_policy_allow_origin(P, wiki_url, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_secrets_new(&S, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_secrets_load_file(S, secrets_path, &err), EOUS_OK, "%s", err.msg);
    act_exec_set_secrets(X, S);
}

static void teardown(void)
{
    ts_exec_stop(&X, &P);
    act_secrets_free(S);
    S = NULL;
    ts_browser_stop(&B);
    ts_site_stop(WIKI, wikidir);
    ts_workdir_remove(tmpdir);
}

TestSuite(native_wiki, .init = setup, .fini = teardown, .timeout = 600);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(B.session, expr, want)

static void open_wiki(const char *path)
{
    char url[600];
    snprintf(url, sizeof url, "%s%s", wiki_url, path);
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, url, &err), EOUS_OK, "%s", err.msg);
}

/* The native component of this kind whose view line holds `needle`, on obs. */
static const perc_component *find(const perc_obs *obs, const char *kind, const char *needle)
{
    const char *v = perc_obs_text(obs);
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (strcmp(c->provider, "native") || strcmp(c->kind, kind) || !c->view_id[0])
            continue;
        char head[64];
        snprintf(head, sizeof head, "[%s] ", c->view_id);
        const char *line = strstr(v, head), *end = line ? strchr(line, '\n') : NULL;
        const char *hit = line ? strstr(line, needle) : NULL;
        if (hit && (!end || hit < end))
            return c;
    }
    return NULL;
}

/* call [cN] [tool] [params] on a fresh hybrid view, cN the component of this kind whose line holds needle. */
static eous_rc call_kind(const char *kind, const char *needle, const char *tool, const char *params, act_result *r,
                         eous_err *err)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_HYBRID;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(B.session, &o, &obs, err), EOUS_OK, "%s", err->msg);
    const perc_component *c = find(obs, kind, needle);
    cr_assert(c, "no native %s with '%s' in:\n%s", kind, needle, perc_obs_text(obs));
    char text[2048];
    snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id, tool, params);
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
    memset(r, 0, sizeof *r);
    eous_err_clear(err);
    eous_rc rc = act_execute(X, obs, &a, r, err);
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

static eous_rc call_form(const char *needle, const char *tool, const char *params, act_result *r, eous_err *err)
{
    return call_kind("form", needle, tool, params, r, err);
}

#define CALL_OK(needle, tool, params)                                                                          \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(call_form(needle, tool, params, &r_, &e_), EOUS_OK, "%s.%s: %s", needle, tool, e_.msg);   \
        cr_assert_eq(r_.path, ACT_PATH_SEMANTIC, "%s", r_.message);                                               \
        act_result_clear(&r_);                                                                                 \
    } while (0)

Test(native_wiki, login_search_and_edit_forms_are_one_call_each)
{
    /* search: the header's search form */
    open_wiki("/doku.php?id=start");
    CALL_OK("fill([F]", "fill", "{\"[F]\": \"Cirrus\"}");
    EXPECT_JS("document.querySelector('#qsearch__in').value", "\"Cirrus\"");
    CALL_OK("fill([F]", "submit", "{}");
    char *q = ts_page_json(B.session, "[location.search, document.body.innerText.includes('Project Cirrus')]");
    cr_assert(strstr(q, "do=search") && strstr(q, "q=Cirrus") && strstr(q, "true]"), "%s", q);
    free(q);

    /* login: the password is a secret, filled in at execution and never shown */
    open_wiki("/doku.php?id=start&do=login");
    CALL_OK("fill(Username", "fill", "{\"Username\": \"mira\", \"Password\": \"{{secret:WIKI_PASSWORD}}\"}");
    perc_opts o;
    perc_opts_init(&o);
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    /* the login form's line says what its fields hold: the password only as filled */
    cr_assert(strstr(perc_obs_text(obs), "form 'Log In' values: Username='mira', Password='filled (secret)' → fill("),
              "%s", perc_obs_text(obs));
    /* its fieldset, named as the form, is no line of its own: the form's line says it */
    cr_assert_null(strstr(perc_obs_text(obs), "group 'Log In'"), "%s", perc_obs_text(obs));
    cr_assert(strstr(perc_obs_text(obs), "\tlink [") && strstr(perc_obs_text(obs), "'Set new password'"), "%s",
              perc_obs_text(obs));
    perc_obs_free(obs);
    CALL_OK("fill(Username", "submit", "{}");
    EXPECT_JS("document.body.innerText.includes('Logged in as: Mira Okafor') || "
              "document.body.innerText.includes('Mira Okafor')", "true");

    /* edit: the page's source in the textarea, the summary, save */
    open_wiki("/doku.php?id=projects:cirrus&do=edit");
    char *src = ts_page_js(B.session, "return document.querySelector('textarea[name=wikitext]').value;");
    cr_assert(strstr(src, "Project Cirrus"), "%s", src);
    cJSON *params = cJSON_CreateObject();
    char *text = NULL;
    cr_assert(asprintf(&text, "%s\nLens cover replaced on 2025-06-20.\n", src) > 0);
    cJSON_AddStringToObject(params, "wikitext", text);
    cJSON_AddStringToObject(params, "Edit summary", "lens cover");
    char *pj = cJSON_PrintUnformatted(params);
    CALL_OK("fill(wikitext", "fill", pj);
    CALL_OK("fill(wikitext", "submit", "{}");
    EXPECT_JS("document.body.innerText.includes('Lens cover replaced on 2025-06-20.') && !location.search.includes('do=edit')",
              "true");
    free(pj);
    free(text);
    free(src);
    cJSON_Delete(params);
}

/* submit(fields): the whole login form in one call, the secret filled in at execution */
Test(native_wiki, login_is_one_submit_with_its_fields)
{
    open_wiki("/doku.php?id=start&do=login");
    act_result r;
    eous_err err;
    cr_assert_eq(call_form("fill(Username", "submit", "{\"Username\": \"mira\", \"Password\": \"{{secret:WIKI_PASSWORD}}\"}",
                           &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "2 fields filled, then submitted"), "%s", r.message);
    act_result_clear(&r);
    EXPECT_JS("document.querySelector('#dokuwiki__usertools li.user')?.textContent.includes('Mira Okafor')", "true");
}

/* replace(find, with) on the page's source: one unique snippet changed, the
 * rest kept as it was; a snippet found twice or not at all changes nothing */
Test(native_wiki, a_textarea_edit_replaces_one_unique_snippet)
{
    open_wiki("/doku.php?id=start&do=login");
    CALL_OK("fill(Username", "submit", "{\"Username\": \"mira\", \"Password\": \"{{secret:WIKI_PASSWORD}}\"}");
    open_wiki("/doku.php?id=projects:cirrus&do=edit");
    char *src = ts_page_js(B.session, "return document.querySelector('textarea[name=wikitext]').value;");
    act_result r;
    eous_err err;
    cr_assert_neq(call_kind("textbox", "replace(find", "replace", "{\"find\": \"| \", \"with\": \"x\"}", &r, &err),
                  EOUS_OK);
    cr_assert(strstr(err.msg, "occurs") && strstr(err.msg, "times in the field"), "%s", err.msg);
    cr_assert_neq(call_kind("textbox", "replace(find", "replace", "{\"find\": \"Status | dormant\", \"with\": \"x\"}", &r,
                            &err), EOUS_OK);
    cr_assert(strstr(err.msg, "the field holds no \"Status | dormant\""), "%s", err.msg);
    char *now = ts_page_js(B.session, "return document.querySelector('textarea[name=wikitext]').value;");
    cr_assert_str_eq(now, src, "a failed replace changed the text");
    free(now);
    cr_assert_eq(call_kind("textbox", "replace(find", "replace", "{\"find\": \"active\", \"with\": \"paused\"}", &r, &err),
                 EOUS_OK, "%s", err.msg);
    cr_assert(strstr(r.message, "\"replaced\":1"), "%s", r.message);
    act_result_clear(&r);
    /* read back: the source is the old one with that word changed, nothing else */
    char *want = strdup(src), *at = strstr(want, "active");
    cr_assert(at);
    memcpy(at, "paused", 6);
    now = ts_page_js(B.session, "return document.querySelector('textarea[name=wikitext]').value;");
    cr_assert_str_eq(now, want);
    free(now);
    CALL_OK("fill(wikitext", "submit", "{}");
    open_wiki("/doku.php?id=projects:cirrus&do=export_xhtml");
    EXPECT_JS("[...document.querySelectorAll('tr')].map(r => r.cells[0].textContent.trim() + '=' + r.cells[1].textContent.trim())"
              ".join(';')",
              "\"Field=Value;Lead=Jonas Weber;Budget=31,200 EUR;Started=2024-02-01;Status=paused\"");
    free(want);
    free(src);
}
