/* tests/support/page_js.h — a page script's answer as text, for Criterion
 * tests that read the page (header-only: it asserts, and the support library
 * stays free of Criterion because benchmarks link it).  A string answer is
 * returned as it is, anything else as JSON; the caller frees. */
#ifndef EOUS_TS_PAGE_JS_H
#define EOUS_TS_PAGE_JS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "webdriver/wd.h"

static inline char *ts_page_js(wd_session *s, const char *script)
{
    cJSON *v = NULL;
    eous_err err;
    cr_assert_eq(wd_execute(s, script, NULL, &v, &err), EOUS_OK, "%s: %s", script, err.msg);
    char *out = cJSON_IsString(v) ? strdup(v->valuestring) : eous_json_print(v);
    cJSON_Delete(v);
    cr_assert_not_null(out, "out of memory reading the answer of %s", script);
    return out;
}

/* JSON.stringify(expr) in the page, as compact JSON text; "undefined" when expr is (caller frees). */
static inline char *ts_page_json(wd_session *s, const char *expr)
{
    char script[1024];
    snprintf(script, sizeof script, "const v = JSON.stringify(%s); return v === undefined ? 'undefined' : v;", expr);
    return ts_page_js(s, script);
}

/* Waits in the page until expr is truthy (checked every animation frame, one
 * round trip), or fails naming expr when the page's script timeout ends the
 * wait first: a test waits for the condition, never for a duration. */
static inline void ts_page_wait(wd_session *s, const char *expr)
{
    char script[1024];
    snprintf(script, sizeof script,
             "const done = arguments[arguments.length - 1];"
             "const poll = () => { let ok = false; try { ok = !!(%s); } catch (e) {} "
             "ok ? done(true) : requestAnimationFrame(poll); }; poll();",
             expr);
    cJSON *v = NULL;
    eous_err err;
    eous_rc rc = wd_execute_async(s, script, NULL, &v, &err);
    cJSON_Delete(v);
    cr_assert_eq(rc, EOUS_OK, "waiting for %s: %s", expr, err.msg);
}

/* The page's JSON for expr is want, or the test fails naming both. */
#define TS_EXPECT_PAGE_JSON(session, expr, want)                                                               \
    do {                                                                                                       \
        char *got_ = ts_page_json((session), (expr));                                                          \
        cr_assert_str_eq(got_, want, "%s: got %s", expr, got_);                                                \
        free(got_);                                                                                            \
    } while (0)

#endif
