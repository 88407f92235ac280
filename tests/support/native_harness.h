/* tests/support/native_harness.h — one page of widgets driven as a model
 * would, in hybrid mode (a native component's tool, "call [id] [tool]
 * [params]") or by a line of the view ("VERB [id] ..." on the element of a
 * role and name, in atomic or hybrid mode), for the native provider's tests
 * (test_native, test_native_libs, test_native_widgets and the widget
 * libraries' suites).  Header-only: it asserts, and the support library stays
 * free of Criterion because benchmarks link it (as page_js.h).  A widget
 * library's published files are linked beside its fixture page in a work
 * directory the suite makes (ts_native_link), so the page loads them from
 * its own origin as an application serves them. */
#ifndef EOUS_TS_NATIVE_HARNESS_H
#define EOUS_TS_NATIVE_HARNESS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions/exec.h"
#include "support/browser.h"
#include "support/page_js.h"
#include "support/workdir.h"

#define TS_NATIVE_FIXTURES EOUS_SOURCE_DIR "/tests/fixtures/native"

/* A suite's browser, executor and (for a library's files) work directory; one per suite, static. */
typedef struct ts_native {
    ts_browser b;
    act_exec *x;
    act_policy *p;
    char dir[256]; /* the served directory ts_native_workdir made, or "" when the suite serves root */
} ts_native;

/* Starts the browser serving root (NULL: the work directory made before) and an executor on it. */
static inline void ts_native_start(ts_native *n, const char *root)
{
    cr_assert_eq(ts_browser_start(&n->b, root ? root : n->dir), 0, "browser start failed");
    cr_assert_eq(ts_exec_start(&n->b, 0, &n->x, &n->p), 0);
}

/* Stops what ts_native_start started and removes the work directory, if any. */
static inline void ts_native_stop(ts_native *n)
{
    ts_exec_stop(&n->x, &n->p);
    ts_browser_stop(&n->b);
    if (n->dir[0])
        ts_workdir_remove(n->dir);
    n->dir[0] = '\0';
}

/* Makes the work directory (named after tag) the suite serves, for ts_native_link. */
static inline void ts_native_workdir(ts_native *n, const char *tag)
{
    ts_workdir_make(n->dir, sizeof n->dir, tag, NULL, NULL, 0);
}

/* dir/name -> target (a fixture page, or a file a package installed: why names what installs it) */
static inline void ts_native_link(ts_native *n, const char *name, const char *target, const char *why)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", n->dir, name);
    cr_assert_eq(access(target, R_OK), 0, "%s is missing: %s", target, why);
    cr_assert_eq(symlink(target, path), 0, "symlink %s -> %s failed", path, target);
}

/* dir/name -> path under a widget library's npm install, tests/fixtures/lib/node_modules/path (a
 * second checkout's tests read the first's by EOUS_TEST_NPM_FIXTURES=CHECKOUT/tests/fixtures: npm ci
 * runs only in the checkout scripts/setup ran in) */
static inline void ts_native_link_npm(ts_native *n, const char *name, const char *lib, const char *path)
{
    const char *root = getenv("EOUS_TEST_NPM_FIXTURES");
    char target[1024], why[256];
    snprintf(target, sizeof target, "%s/%s/node_modules/%s", root && *root ? root : EOUS_SOURCE_DIR "/tests/fixtures",
             lib, path);
    snprintf(why, sizeof why, "scripts/setup runs npm ci in tests/fixtures/%s", lib);
    ts_native_link(n, name, target, why);
}

static inline void ts_native_open(ts_native *n, const char *path)
{
    eous_err err;
    cr_assert_eq(wd_navigate(n->b.session, ts_browser_url(&n->b, path), &err), EOUS_OK, "%s", err.msg);
}

/* A fresh observation of session s (a suite's own, or another browser's) in this mode with these
 * providers (0: all); the caller frees. */
static inline perc_obs *ts_native_observe_on(wd_session *s, perc_mode mode, unsigned providers)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    o.provider_set = providers;
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(s, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

static inline perc_obs *ts_native_observe_with(ts_native *n, perc_mode mode, unsigned providers)
{
    return ts_native_observe_on(n->b.session, mode, providers);
}

static inline perc_obs *ts_native_observe(ts_native *n, perc_mode mode)
{
    return ts_native_observe_with(n, mode, 0);
}

/* The native component of this kind and label, or NULL. */
static inline const perc_component *ts_native_comp(const perc_obs *obs, const char *kind, const char *label)
{
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (!strcmp(c->provider, "native") && !strcmp(c->kind, kind) && c->label && !strcmp(c->label, label))
            return c;
    }
    return NULL;
}

/* Parses text (the model's text form) and runs it on obs; r is the caller's to clear. */
static inline eous_rc ts_native_exec(ts_native *n, const perc_obs *obs, const char *text, act_result *r,
                                     eous_err *err)
{
    act_action a;
    act_action_init(&a);
    eous_err perr;
    cr_assert_eq(act_parse_text(text, &a, &perr), EOUS_OK, "%s: %s", text, perr.msg);
    eous_err_clear(err);
    memset(r, 0, sizeof *r);
    eous_rc rc = act_execute(n->x, obs, &a, r, err);
    act_action_clear(&a);
    return rc;
}

/* "call [id] [tool] [params]" on a fresh hybrid view, as a model writes it (a field folded into its
 * form's line has no view id: a script reaches it by the component's key); r is the caller's to clear */
static inline eous_rc ts_native_call(ts_native *n, const char *kind, const char *label, const char *tool,
                                     const char *params, act_result *r, eous_err *err)
{
    perc_obs *obs = ts_native_observe(n, PERC_MODE_HYBRID);
    const perc_component *c = ts_native_comp(obs, kind, label);
    cr_assert(c, "no native %s '%s' in:\n%s", kind, label, perc_obs_text(obs));
    char text[2048];
    snprintf(text, sizeof text, "call [%s] [%s] [%s]", c->view_id[0] ? c->view_id : c->key, tool, params);
    eous_rc rc = ts_native_exec(n, obs, text, r, err);
    perc_obs_free(obs);
    return rc;
}

/* "VERB [id]REST" on a fresh view of this mode, the id that of the nth node of this role and name
 * there, as a model reads it; r is the caller's to clear */
static inline eous_rc ts_native_act(ts_native *n, perc_mode mode, const char *verb, const char *role,
                                    const char *name, int nth, const char *rest, act_result *r, eous_err *err)
{
    perc_obs *obs = ts_native_observe(n, mode);
    int bid = 0;
    cr_assert_eq(perc_obs_find_role_name(obs, role, name, nth, &bid, NULL), EOUS_OK, "no %s '%s' in\n%s", role,
                 name, perc_obs_text(obs));
    const char *vid = perc_obs_view_id_of(obs, bid);
    cr_assert(vid, "%s '%s' has no id in\n%s", role, name, perc_obs_text(obs));
    char text[512];
    snprintf(text, sizeof text, "%s [%s]%s", verb, vid, rest);
    eous_rc rc = ts_native_exec(n, obs, text, r, err);
    perc_obs_free(obs);
    return rc;
}

#define TS_NATIVE_CALL_OK(n, kind, label, tool, params)                                                        \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(ts_native_call(n, kind, label, tool, params, &r_, &e_), EOUS_OK, "%s '%s'.%s %s: %s",     \
                     kind, label, tool, params, e_.msg);                                                       \
        act_result_clear(&r_);                                                                                 \
    } while (0)

#define TS_NATIVE_ACT_OK(n, mode, verb, role, name, rest)                                                      \
    do {                                                                                                       \
        act_result r_;                                                                                         \
        eous_err e_;                                                                                           \
        cr_assert_eq(ts_native_act(n, mode, verb, role, name, 1, rest, &r_, &e_), EOUS_OK, "%s %s '%s'%s: %s", \
                     verb, role, name, rest, e_.msg);                                                          \
        act_result_clear(&r_);                                                                                 \
    } while (0)

/* The view of this mode holds want, or the test fails showing it. */
static inline void ts_native_expect_view(ts_native *n, perc_mode mode, const char *want)
{
    perc_obs *obs = ts_native_observe(n, mode);
    cr_assert(strstr(perc_obs_text(obs), want), "no \"%s\" in the view:\n%s", want, perc_obs_text(obs));
    perc_obs_free(obs);
}

/* Once the page is path, its URL holds want (a GET form's fields) and not not_want (NULL: anything). */
static inline void ts_native_expect_url(ts_native *n, const char *path, const char *want, const char *not_want)
{
    char cond[256];
    snprintf(cond, sizeof cond, "document.readyState === 'complete' && location.pathname === '%s'", path);
    ts_page_wait(n->b.session, cond);
    char *url = NULL;
    eous_err err;
    cr_assert_eq(wd_get_url(n->b.session, &url, &err), EOUS_OK, "%s", err.msg);
    cr_assert(strstr(url, want), "submitted %s, expected %s in it", url, want);
    cr_assert_null(not_want ? strstr(url, not_want) : NULL, "submitted %s: %s should not be in it", url,
                   not_want ? not_want : "");
    free(url);
}

#endif
