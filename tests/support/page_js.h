/* tests/support/page_js.h — a page script's answer as text, for Criterion
 * tests that read the page (header-only: it asserts, and the support library
 * stays free of Criterion because benchmarks link it).  A string answer is
 * returned as it is, anything else as JSON; the caller frees. */
#ifndef EOUS_TS_PAGE_JS_H
#define EOUS_TS_PAGE_JS_H

#include <criterion/criterion.h>
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

#endif
