/* tests/agent/test_start_page.c — a task's start page (agent_prepare_page) on real
 * chromedriver + headless Chromium: the start origin's cookies, localStorage
 * and sessionStorage are gone before its page loads, whether they were
 * cleared through CDP before one load (the page already on the origin), from
 * another page, or in a fresh tab (one load; the tabs before it close). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/task_job.h"
#include "agent/run.h"
#include "webarena/task.h"
#include "support/browser.h"
#include "support/page_js.h"

static ts_browser B;

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, EOUS_SOURCE_DIR "/tests/fixtures/settle"), 0, "browser start failed");
}

static void teardown(void)
{
    ts_browser_stop(&B);
}

TestSuite(start_page, .init = setup, .fini = teardown, .timeout = 120);

#define EXPECT_JS(expr, want) TS_EXPECT_PAGE_JSON(B.session, expr, want)

/* What the page at load saw of the state a previous task left. */
#define SEEN_AT_LOAD "[window.__seen__.local, window.__seen__.session, window.__seen__.cookie]"

static void leave_state(void)
{
    eous_err err;
    cr_assert_eq(wd_execute(B.session,
                            "localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1');"
                            "document.cookie = 'left=1; path=/'; return true;",
                            NULL, NULL, &err),
                 EOUS_OK, "%s", err.msg);
}

static void prepare(const char *path)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"sites\": [\"fixture\"], \"task_id\": \"start\", \"start_url\": \"%s\", \"intent\": \"look\","
             " \"eval\": {\"eval_types\": [\"string_match\"], \"reference_answers\": {\"must_include\": [\"x\"]}}}",
             ts_browser_url(&B, path));
    wa_task_list l;
    eous_err err;
    cr_assert_eq(wa_tasks_load_text(text, strlen(text), "start.json", &l, &err), EOUS_OK, "%s", err.msg);
    agent_job job;
    bench_task_job(&l.tasks[0], &job);
    cr_assert_eq(agent_prepare_page(B.session, &job, &err), EOUS_OK, "%s", err.msg);
    wa_tasks_free(&l);
}

Test(start_page, the_page_loads_on_a_clean_origin)
{
    eous_err err;
    /* on the origin already: the state is cleared before the one load */
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/members.html"), &err), EOUS_OK, "%s", err.msg);
    leave_state();
    unsigned long r0 = ts_server_requests(B.server);
    prepare("/start.html");
    unsigned long one_load = ts_server_requests(B.server) - r0;
    EXPECT_JS(SEEN_AT_LOAD, "[null,null,\"\"]");
    EXPECT_JS("[localStorage.length, sessionStorage.length, document.cookie]", "[0,0,\"\"]");
    /* from another page: sessionStorage is cleared through the origin's frame when the back-forward
     * cache still holds the page, else from a first load (which of the two is the browser's timing) */
    leave_state();
    cr_assert_eq(wd_navigate(B.session, "about:blank", &err), EOUS_OK, "%s", err.msg);
    prepare("/start.html");
    EXPECT_JS(SEEN_AT_LOAD, "[null,null,\"\"]");
    EXPECT_JS("[localStorage.length, sessionStorage.length, document.cookie]", "[0,0,\"\"]");
    /* a fresh tab (every bench task's) has no sessionStorage and no frame of the origin: one load too */
    leave_state();
    cr_assert_eq(wd_new_window(B.session, "tab", NULL, &err), EOUS_OK, "%s", err.msg); /* a tab the task opened */
    cr_assert_eq(agent_fresh_tab(B.session, &err), EOUS_OK, "%s", err.msg);
    /* the tabs before it close (through CDP, without switching to them: asynchronously) */
    int tabs = 0;
    for (int i = 0; i < 100; i++) {
        cJSON *h = NULL;
        cr_assert_eq(wd_window_handles(B.session, &h, &err), EOUS_OK, "%s", err.msg);
        tabs = cJSON_GetArraySize(h);
        cJSON_Delete(h);
        if (tabs == 1)
            break;
        usleep(20000);
    }
    cr_assert_eq(tabs, 1, "the fresh tab is the only one");
    r0 = ts_server_requests(B.server);
    prepare("/start.html");
    cr_assert_eq(ts_server_requests(B.server) - r0, one_load, "in a fresh tab the start page loaded once");
    EXPECT_JS(SEEN_AT_LOAD, "[null,null,\"\"]");
    EXPECT_JS("[localStorage.length, sessionStorage.length, document.cookie]", "[0,0,\"\"]");
}
