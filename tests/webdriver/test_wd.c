/* tests/webdriver/test_wd.c — the WebDriver layer against real chromedriver + headless Chromium. */
#include <criterion/criterion.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/browser.h"
#include "support/chromium.h"
#include "support/page_js.h"
#include "support/proc.h"

static ts_browser B;

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, NULL), 0, "browser start failed");
}

static void teardown(void)
{
    ts_browser_stop(&B);
}

/* for a test that kills the browser: one of its own, not the binary's shared one (Criterion runs
 * the suite's setup first, so its session is let go) */
static void setup_own_browser(void)
{
    ts_browser_stop(&B);
    cr_assert_eq(ts_browser_launch(&B, NULL), 0, "browser start failed");
}

TestSuite(wd, .init = setup, .fini = teardown, .timeout = 120);

Test(wd, navigates_and_reads_url_and_title)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err), EOUS_OK, "%s", err.msg);
    char *url = NULL, *title = NULL;
    cr_assert_eq(wd_get_url(B.session, &url, &err), EOUS_OK);
    cr_assert_str_eq(url, ts_browser_url(&B, "/form.html"));
    cr_assert_eq(wd_get_title(B.session, &title, &err), EOUS_OK);
    cr_assert_str_eq(title, "Form fixture");
    free(url);
    free(title);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/next.html"), &err), EOUS_OK);
    cr_assert_eq(wd_back(B.session, &err), EOUS_OK);
    cr_assert_eq(wd_get_title(B.session, &title, &err), EOUS_OK);
    cr_assert_str_eq(title, "Form fixture");
    free(title);
    cr_assert_eq(wd_forward(B.session, &err), EOUS_OK);
    cr_assert_eq(wd_get_title(B.session, &title, &err), EOUS_OK);
    cr_assert_str_eq(title, "Next fixture");
    free(title);
    cr_assert_eq(wd_refresh(B.session, &err), EOUS_OK);
}

Test(wd, script_results_objects_promises_and_errors)
{
    eous_err err;
    eous_err_clear(&err);
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    cJSON *v = NULL;
    cJSON *args = cJSON_Parse("[2, \"x\"]");
    cr_assert_eq(wd_execute(B.session, "return {sum: arguments[0] + 40, s: arguments[1], list: [1, null]};",
                            args, &v, &err), EOUS_OK, "%s", err.msg);
    cJSON_Delete(args);
    cr_assert_eq(eous_json_int(v, "sum", 0), 42);
    cr_assert_str_eq(eous_json_str(v, "s"), "x");
    cJSON_Delete(v);

    cr_assert_eq(wd_execute(B.session, "return new Promise(r => setTimeout(() => r('later'), 50));", NULL, &v, &err),
                 EOUS_OK);
    cr_assert(cJSON_IsString(v));
    cr_assert_str_eq(v->valuestring, "later");
    cJSON_Delete(v);

    cr_assert_eq(wd_execute_async(B.session, "arguments[0](7);", NULL, &v, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(v->valueint, 7);
    cJSON_Delete(v);

    eous_rc rc = wd_execute(B.session, "throw new Error('boom from page');", NULL, &v, &err);
    cr_assert_eq(rc, EOUS_E_PAGE);
    cr_assert_str_eq(err.code, "javascript error");
    cr_assert(strstr(err.msg, "boom from page"), "message kept: %s", err.msg);

    rc = wd_execute(B.session, "return Promise.reject(new Error('rejected here'));", NULL, &v, &err);
    cr_assert_eq(rc, EOUS_E_PAGE);
    cr_assert(strstr(err.msg, "rejected here"), "%s", err.msg);
}

Test(wd, element_click_type_and_properties)
{
    eous_err err;
    eous_err_clear(&err);
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    char *name = NULL, *go = NULL;
    cr_assert_eq(wd_find(B.session, "css selector", "#name", &name, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_element_click(B.session, name, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_element_send_keys(B.session, name, "Ada", &err), EOUS_OK);
    cJSON *val = NULL;
    cr_assert_eq(wd_element_property(B.session, name, "value", &val, &err), EOUS_OK);
    cr_assert_str_eq(val->valuestring, "Ada");
    cJSON_Delete(val);
    cr_assert_eq(wd_element_clear(B.session, name, &err), EOUS_OK);
    cr_assert_eq(wd_element_send_keys(B.session, name, "Grace", &err), EOUS_OK);

    char *attr = NULL;
    cr_assert_eq(wd_element_attribute(B.session, name, "name", &attr, &err), EOUS_OK);
    cr_assert_str_eq(attr, "name");
    free(attr);
    char *role = NULL, *label = NULL;
    cr_assert_eq(wd_element_computed_role(B.session, name, &role, &err), EOUS_OK);
    cr_assert_str_eq(role, "textbox");
    cr_assert_eq(wd_element_computed_label(B.session, name, &label, &err), EOUS_OK);
    cr_assert_str_eq(label, "Full name");
    free(role);
    free(label);
    wd_rect r;
    cr_assert_eq(wd_element_rect(B.session, name, &r, &err), EOUS_OK);
    cr_assert(r.width > 10 && r.height > 5);

    cr_assert_eq(wd_find(B.session, "xpath", "//button[text()='Send']", &go, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_element_click(B.session, go, &err), EOUS_OK);
    char *out = NULL, *out_text = NULL;
    cr_assert_eq(wd_find(B.session, "css selector", "#out", &out, &err), EOUS_OK);
    cr_assert_eq(wd_element_text(B.session, out, &out_text, &err), EOUS_OK);
    cr_assert_str_eq(out_text, "Hello Grace");

    /* element references travel as script arguments */
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, wd_element_ref(out));
    cJSON *v = NULL;
    cr_assert_eq(wd_execute(B.session, "return arguments[0].id;", args, &v, &err), EOUS_OK);
    cr_assert_str_eq(v->valuestring, "out");
    cJSON_Delete(v);
    cJSON_Delete(args);
    cJSON *all = NULL;
    cr_assert_eq(wd_find_all(B.session, "css selector", "option", &all, &err), EOUS_OK);
    cr_assert_eq(cJSON_GetArraySize(all), 3);
    cJSON_Delete(all);
    free(name); free(go); free(out); free(out_text);
}

Test(wd, actions_keys_wheel_and_pointer)
{
    eous_err err;
    eous_err_clear(&err);
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    char *keys = NULL;
    cr_assert_eq(wd_find(B.session, "css selector", "#keys", &keys, &err), EOUS_OK);
    wd_rect r;
    wd_element_rect(B.session, keys, &r, &err);
    cr_assert_eq(wd_click_at(B.session, r.x + r.width / 2, r.y + r.height / 2, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_press_keys(B.session, "Control+a", &err), EOUS_OK, "%s", err.msg);
    cJSON *v = NULL;
    wd_execute(B.session, "return window.lastKey;", NULL, &v, &err);
    cr_assert_str_eq(v->valuestring, "Control+a");
    cJSON_Delete(v);
    cr_assert_eq(wd_press_keys(B.session, "NoSuchKey", &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "NoSuchKey"));
    free(keys);

    wd_navigate(B.session, ts_browser_url(&B, "/next.html"), &err);
    cr_assert_eq(wd_wheel(B.session, 100, 100, 0, 800, &err), EOUS_OK, "%s", err.msg);
    ts_page_wait(B.session, "window.scrollY > 100"); /* a wheel scroll may be smooth: its end is the condition */
}

Test(wd, windows_tabs)
{
    eous_err err;
    eous_err_clear(&err);
    char *first = NULL, *second = NULL;
    cr_assert_eq(wd_window_handle(B.session, &first, &err), EOUS_OK);
    cr_assert_eq(wd_new_window(B.session, "tab", &second, &err), EOUS_OK, "%s", err.msg);
    cJSON *handles = NULL;
    wd_window_handles(B.session, &handles, &err);
    cr_assert_eq(cJSON_GetArraySize(handles), 2);
    cJSON_Delete(handles);
    cr_assert_eq(wd_switch_window(B.session, second, &err), EOUS_OK);
    wd_navigate(B.session, ts_browser_url(&B, "/next.html"), &err);
    cr_assert_eq(wd_close_window(B.session, &err), EOUS_OK);
    cr_assert_eq(wd_switch_window(B.session, first, &err), EOUS_OK);
    cr_assert_eq(wd_switch_window(B.session, "no-such-handle", &err), EOUS_E_NOT_FOUND);
    free(first);
    free(second);
}

Test(wd, cdp_ax_tree_and_screenshot)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert(wd_session_has_cdp(B.session));
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    cJSON *res = NULL;
    cr_assert_eq(wd_cdp(B.session, "Accessibility.getFullAXTree", NULL, &res, &err), EOUS_OK, "%s", err.msg);
    const cJSON *nodes = eous_json_arr(res, "nodes");
    cr_assert(nodes && cJSON_GetArraySize(nodes) > 10);
    int found_button = 0;
    const cJSON *n;
    cJSON_ArrayForEach(n, nodes) {
        const cJSON *role = eous_json_obj(n, "role");
        const cJSON *name = eous_json_obj(n, "name");
        if (role && name && !strcmp(eous_json_str(role, "value") ? eous_json_str(role, "value") : "", "button") &&
            eous_json_str(name, "value") && !strcmp(eous_json_str(name, "value"), "Send"))
            found_button = 1;
    }
    cr_assert(found_button, "AX tree has the Send button");
    cJSON_Delete(res);
    cr_assert_eq(wd_cdp(B.session, "No.suchCommand", NULL, &res, &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "No.suchCommand"), "%s", err.msg);

    unsigned char *png = NULL;
    size_t len = 0;
    cr_assert_eq(wd_screenshot(B.session, &png, &len, &err), EOUS_OK, "%s", err.msg);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    cr_assert(len > 1000);
    cr_assert_arr_eq(png, sig, 8);
    /* IHDR width = 1280 */
    unsigned w = (unsigned)png[16] << 24 | (unsigned)png[17] << 16 | (unsigned)png[18] << 8 | png[19];
    cr_assert_gt(w, 100);
    free(png);
}

Test(wd, error_mapping)
{
    eous_err err;
    eous_err_clear(&err);
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    char *e = NULL;
    cr_assert_eq(wd_find(B.session, "css selector", "#nope", &e, &err), EOUS_E_NOT_FOUND);
    cr_assert_str_eq(err.code, "no such element");
    cr_assert_eq(wd_find(B.session, "css selector", "#name", &e, &err), EOUS_OK);
    wd_navigate(B.session, ts_browser_url(&B, "/next.html"), &err);
    cr_assert_eq(wd_element_click(B.session, e, &err), EOUS_E_STALE, "got %s: %s", eous_rc_name(err.rc), err.msg);
    cr_assert_str_eq(err.code, "stale element reference");
    free(e);
    cr_assert_eq(wd_find(B.session, "css selector", "###", &e, &err), EOUS_E_INVALID);
}

Test(wd, invalid_session_is_infra)
{
    eous_err err;
    eous_err_clear(&err);
    /* A second session on the same driver, deleted behind the client's back. */
    wd_session *s2 = NULL;
    cr_assert_eq(wd_session_new(wd_driver_url(B.driver), NULL, &s2, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_command(s2, "DELETE", "", NULL, NULL, &err), EOUS_OK);
    cr_assert_eq(wd_navigate(s2, ts_browser_url(&B, "/form.html"), &err), EOUS_E_INFRA);
    cr_assert_str_eq(err.code, "invalid session id");
    wd_session_free(s2);
}

Test(wd, browser_death_is_reported_not_hung, .init = setup_own_browser)
{
    eous_err err;
    eous_err_clear(&err);
    wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err);
    /* Kill the browser processes (the driver's group minus the driver itself). */
    pid_t driver = wd_driver_pid(B.driver);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "pgrep -g %d", (int)driver);
    FILE *p = popen(cmd, "r");
    int pid, killed = 0, pids[256];
    while (p && fscanf(p, "%d", &pid) == 1)
        if (pid != driver && kill(pid, SIGKILL) == 0 && killed < 256)
            pids[killed++] = pid;
    if (p)
        pclose(p);
    cr_assert_gt(killed, 0, "browser processes found in the driver's group");
    /* the browser is dead once every killed process is gone or a zombie the driver has yet to reap */
    for (int i = 0; i < killed; i++)
        while (!ts_process_dead(pids[i]))
            sched_yield();
    /* the test's timeout catches a navigate that hangs on the dead browser */
    eous_rc rc = wd_navigate(B.session, ts_browser_url(&B, "/next.html"), &err);
    cr_assert_eq(rc, EOUS_E_INFRA, "got %s: %s", eous_rc_name(rc), err.msg);
}

/* debugger_address: the session drives the browser already running there (a second session on it
 * finds the first one's page), and freeing a session leaves that browser running */
Test(wd, an_attached_session_drives_the_running_browser_and_leaves_it_running)
{
    char profile[] = "/tmp/eous-test-attach-XXXXXX";
    cr_assert_not_null(mkdtemp(profile));
    pid_t pid = 0;
    int port = ts_chromium_launch(profile, &pid);
    cr_assert_gt(port, 0, "chromium did not start");
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.debugger_address = addr;
    eous_err err;
    eous_err_clear(&err);
    wd_session *s1 = NULL, *s2 = NULL;
    cr_assert_eq(wd_session_new(wd_driver_url(B.driver), &o, &s1, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_navigate(s1, ts_browser_url(&B, "/next.html"), &err), EOUS_OK, "%s", err.msg);
    wd_session_free(s1);
    cr_assert(!ts_process_dead(pid), "freeing an attached session stopped the browser");
    cr_assert_eq(wd_session_new(wd_driver_url(B.driver), &o, &s2, &err), EOUS_OK, "%s", err.msg);
    cJSON *handles = NULL;
    cr_assert_eq(wd_window_handles(s2, &handles, &err), EOUS_OK, "%s", err.msg);
    int n = cJSON_GetArraySize(handles), found = 0;
    for (cJSON *h = handles ? handles->child : NULL; h && !found; h = h->next) {
        char *url = NULL;
        if (cJSON_IsString(h) && wd_switch_window(s2, h->valuestring, &err) == EOUS_OK &&
            wd_get_url(s2, &url, &err) == EOUS_OK)
            found = strcmp(url, ts_browser_url(&B, "/next.html")) == 0;
        free(url);
    }
    cJSON_Delete(handles);
    wd_session_free(s2);
    ts_chromium_stop(pid);
    eous_rmtree(profile);
    cr_assert(found, "the second session did not find the first one's page among %d tabs", n);
}

Test(wd, unreachable_remote_fails_within_connect_timeout, .init = NULL, .fini = NULL)
{
    eous_err err;
    eous_err_clear(&err);
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.remote = 1;
    o.connect_timeout_ms = 1000;
    int port = eous_free_port();
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
    wd_session *s = NULL;
    cr_assert_eq(wd_session_new(url, &o, &s, &err), EOUS_E_INFRA);
    cr_assert(strstr(err.msg, url), "names the URL: %s", err.msg);
    cr_assert_null(s);
    cr_assert_eq(wd_session_new("ftp://x", &o, &s, &err), EOUS_E_INVALID);
}

/* A dialog the driver dismissed under a command ("unexpected alert open")
 * gives its text back through wd_alert_text, whatever shape the driver used;
 * any other error is not a dialog. */
Test(wd, dismissed_dialog_text_is_read_from_the_driver_error)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/form.html"), &err), EOUS_OK, "%s", err.msg);
    cJSON *v = NULL;
    cr_assert_eq(wd_execute(B.session, "setTimeout(() => alert('Caf\u00e9 closes at 5 {sharp}'), 0); return 1;", NULL,
                            &v, &err), EOUS_OK, "%s", err.msg);
    cJSON_Delete(v);
    /* commands run until the alert opens; the first one after meets it */
    eous_rc rc;
    do {
        v = NULL;
        rc = wd_execute(B.session, "return 2;", NULL, &v, &err);
        cJSON_Delete(v);
    } while (rc == EOUS_OK);
    cr_assert_eq(rc, EOUS_E_PAGE, "the command that meets the open dialog: %s", err.msg);
    char text[64];
    cr_assert_eq(wd_alert_text(&err, text, sizeof text), 1, "%s", err.msg);
    cr_assert_str_eq(text, "Caf\u00e9 closes at 5 {sharp}");
    char small[5];
    cr_assert_eq(wd_alert_text(&err, small, sizeof small), 1);
    cr_assert_str_eq(small, "Caf", "cut to fit, never inside a character");
    eous_err other;
    eous_err_clear(&other);
    eous_err_set_code(&other, "no such element");
    cr_assert_eq(wd_alert_text(&other, text, sizeof text), 0);
}
