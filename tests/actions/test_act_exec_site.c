/* tests/actions/test_act_exec_site.c — the executor on real antd widgets of the
 * Playground (benchmarks/grounds/playground/dist).  Skipped with a message when the site is
 * not built. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "support/browser.h"

static ts_browser B;
static act_exec *X;
static act_policy *P;

static void setup(void)
{
    if (!ts_site_root())
        return;
    cr_assert_eq(ts_browser_start(&B, ts_site_root()), 0, "browser start failed");
    cr_assert_eq(ts_exec_start(&B, 0, &X, &P), 0);
}

static void teardown(void)
{
    ts_exec_stop(&X, &P);
    if (ts_site_root())
        ts_browser_stop(&B);
}

TestSuite(act_site, .init = setup, .fini = teardown, .timeout = 240);

#define NEED_SITE()                                                                                            \
    do {                                                                                                       \
        if (!ts_site_root())                                                                                   \
            cr_skip_test("the Playground is not built (benchmarks/grounds/playground/dist); build it to run antd tests");     \
    } while (0)

/* Atomic steps run on the atomic view (as atomic_script plans do), calls on the hybrid one. */
static perc_obs *observe(perc_mode mode)
{
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    perc_obs *obs = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

static eous_rc step(const char *json, act_result *r, eous_err *err)
{
    perc_obs *obs = observe(strstr(json, "\"call\"") ? PERC_MODE_HYBRID : PERC_MODE_ATOMIC);
    cJSON *j = cJSON_Parse(json);
    cr_assert(j, "bad step JSON %s", json);
    act_action a;
    act_action_init(&a);
    cr_assert_eq(act_parse_script_step(j, &a, err), EOUS_OK, "%s: %s", json, err->msg);
    cJSON_Delete(j);
    eous_err_clear(err);
    eous_rc rc = act_execute(X, obs, &a, r, err);
    if (rc)
        cr_log_info("%s failed: %s\nview:\n%s", json, err->msg, perc_obs_text(obs));
    act_action_clear(&a);
    perc_obs_free(obs);
    return rc;
}

/* A component's state member as JSON text (caller frees), read from the registry. */
static char *state_of(const char *key, const char *member)
{
    char script[512];
    snprintf(script, sizeof script,
             "const s = window.__ci4a__.getStatus(arguments[0]); const e = s[arguments[0]] || s;"
             " return JSON.stringify(e.state[arguments[1]]);");
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, cJSON_CreateString(key));
    cJSON_AddItemToArray(args, cJSON_CreateString(member));
    eous_err err;
    cr_assert_eq(wd_execute(B.session, script, args, &v, &err), EOUS_OK, "%s", err.msg);
    cJSON_Delete(args);
    char *out = strdup(cJSON_IsString(v) ? v->valuestring : "undefined");
    cJSON_Delete(v);
    return out;
}

static void open_booking(void)
{
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/booking"), &err), EOUS_OK, "%s", err.msg);
    double ms;
    act_settle(X, &ms, &err);
}

Test(act_site, antd_select_cascader_and_form_typing)
{
    NEED_SITE();
    open_booking();
    act_result r;
    eous_err err;
    cr_assert_eq(step("{\"type\": \"textbox '* Guest name'\", \"text\": \"Ada Lovelace\"}", &r, &err), EOUS_OK, "%s",
                 err.msg);
    act_result_clear(&r);
    char *v = state_of("input-guest-name", "value");
    cr_assert_str_eq(v, "\"Ada Lovelace\"");
    free(v);

    cr_assert_eq(step("{\"select\": \"combobox '* Room type'\", \"option\": \"Deluxe\"}", &r, &err), EOUS_OK, "%s",
                 err.msg);
    act_result_clear(&r);
    v = state_of("select-room-type", "value");
    cr_assert_str_eq(v, "\"deluxe\"");
    free(v);
    cr_assert_eq(step("{\"select\": \"combobox '* Room type'\", \"option\": \"Igloo\"}", &r, &err), EOUS_E_NOT_FOUND);
    cr_assert(strstr(err.msg, "'Standard'"), "options listed: %s", err.msg);
    act_result_clear(&r);

    cr_assert_eq(step("{\"select\": \"combobox '* Destination'\", \"option\": \"Italy / Venice\"}", &r, &err), EOUS_OK,
                 "%s", err.msg);
    act_result_clear(&r);
    v = state_of("cascader-destination", "value");
    cr_assert_str_eq(v, "[\"Italy\",\"Venice\"]");
    free(v);
}

Test(act_site, antd_datepicker_pick_a_day_and_semantic_submit)
{
    NEED_SITE();
    open_booking();
    act_result r;
    eous_err err;
    /* open the calendar, click the first enabled day shown */
    cr_assert_eq(step("{\"click\": \"css=.ci4a-k-datepicker-checkin input\"}", &r, &err), EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    cr_assert_eq(step("{\"click\": \"css=.ci4a-o-datepicker-checkin td.ant-picker-cell-in-view:not("
                      ".ant-picker-cell-disabled)\"}",
                      &r, &err),
                 EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    char *v = state_of("datepicker-checkin", "value");
    cr_assert(strlen(v) == 12 && v[0] == '"', "a date was picked: %s", v);
    /* the same widget semantically: check-out three days later */
    char d[16];
    snprintf(d, sizeof d, "%.10s", v + 1);
    free(v);
    cJSON *j = NULL;
    char *minv = state_of("datepicker-checkout", "minDate");
    cr_assert(strlen(minv) == 12, "%s", minv);
    char step_json[256];
    snprintf(step_json, sizeof step_json,
             "{\"call\": \"Check-out\", \"tool\": \"setValue\", \"params\": {\"date\": %s}}", minv);
    free(minv);
    cr_assert_eq(step(step_json, &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(r.path, ACT_PATH_SEMANTIC);
    act_result_clear(&r);
    /* a blackout day is refused in C */
    cr_assert_eq(step("{\"call\": \"Check-out\", \"tool\": \"setValue\", \"params\": {\"date\": \"2025-02-30\"}}", &r,
                      &err), EOUS_E_REJECTED);
    act_result_clear(&r);
    (void)j;
    (void)d;
    cr_assert_eq(step("{\"type\": \"textbox '* Guest name'\", \"text\": \"Grace\"}", &r, &err), EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    cr_assert_eq(step("{\"call\": \"Destination\", \"tool\": \"setValue\", \"params\": {\"path\": [\"Japan\", \"Kyoto\"]}}",
                      &r, &err), EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    cr_assert_eq(step("{\"call\": \"Room type\", \"tool\": \"setValue\", \"params\": {\"value\": \"suite\"}}", &r, &err),
                 EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    char *before = state_of("table-bookings", "total");
    cr_assert_eq(step("{\"click\": \"button 'Book'\"}", &r, &err), EOUS_OK, "%s", err.msg);
    act_result_clear(&r);
    char *after = state_of("table-bookings", "total");
    cr_assert_neq(atoi(before), atoi(after), "a booking was added: %s -> %s", before, after);
    free(before);
    free(after);
}

/* The hybrid view prints a table component's rows from its state with their
 * keys, so a planner reading the view can pass a key to selectRows; the
 * table's own checkboxes and header buttons are not repeated. */
Test(act_site, hybrid_table_rows_carry_the_keys_its_tools_take)
{
    NEED_SITE();
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/users"), &err), EOUS_OK, "%s", err.msg);
    double ms;
    act_settle(X, &ms, &err);
    perc_obs *obs = observe(PERC_MODE_HYBRID);
    const char *t = perc_obs_text(obs);
    cr_assert_null(strstr(t, "Select row"), "row checkboxes are covered by selectRows: %s", t);
    cr_assert_null(strstr(t, "columnheader"), "header cells are covered by sort/filter: %s", t);
    const char *hdr = strstr(t, "\t| key | name | email |");
    cr_assert(hdr, "rows carry their keys: %s", t);
    /* the third row's key, read from the view as a model would */
    const char *row = hdr;
    for (int i = 0; i < 3 && row; i++)
        row = strchr(row + 1, '\n');
    cr_assert(row, "%s", t);
    char key[32] = "";
    cr_assert_eq(sscanf(row, "\n\t| %31[^ |] |", key), 1, "%s", row);
    /* WebMCP tools of the page: one line each, id first */
    const char *pt = strstr(t, "] open_order(id) — Open the detail page");
    cr_assert(pt && strstr(t, "\npage tools:\n"), "page tool on one line: %s", t);
    cr_assert_null(strstr(t, "] webmcp '"), "%s", t);
    perc_obs_free(obs);
    char *rows = state_of("table-users", "rows");
    char quoted[48];
    snprintf(quoted, sizeof quoted, "\"key\":\"%s\"", key);
    cr_assert(strstr(rows, quoted), "the view's key %s is a row key of the registry", key);
    free(rows);
    char step_json[256];
    snprintf(step_json, sizeof step_json,
             "{\"call\": \"Users\", \"tool\": \"selectRows\", \"params\": {\"keys\": [\"%s\"]}}", key);
    act_result r;
    cr_assert_eq(step(step_json, &r, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(r.path, ACT_PATH_SEMANTIC);
    act_result_clear(&r);
    char *sel = state_of("table-users", "selectedRowKeys");
    char want[48];
    snprintf(want, sizeof want, "[\"%s\"]", key);
    cr_assert_str_eq(sel, want);
    free(sel);
}

/* On every Playground screen: each registered component is exactly one
 * triplet node, and no element inside a component (subtree or portal) gets
 * an id of its own unless the component is a container that shows its
 * content (form, tabs: their fields are components of their own). */
Test(act_site, every_component_is_one_triplet_and_nothing_leaks_on_every_screen)
{
    NEED_SITE();
    static const char *screens[] = {"/booking", "/users", "/settings", "/orders", "/apply"};
    static const char *containers[] = {"form", "tabs", "modal", "drawer", "card", "collapse", "list", "layout",
                                       "wizard"};
    for (size_t s = 0; s < sizeof screens / sizeof *screens; s++) {
        eous_err err;
        cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, screens[s]), &err), EOUS_OK, "%s", err.msg);
        double ms;
        act_settle(X, &ms, &err);
        perc_obs *obs = observe(PERC_MODE_HYBRID);
        const char *t = perc_obs_text(obs);
        size_t n = perc_obs_n_components(obs);
        cr_assert_gt(n, 3, "%s: components registered", screens[s]);
        for (size_t i = 0; i < n; i++) {
            const perc_component *c = perc_obs_component(obs, i);
            if (c->agent_hidden || !c->visible) {
                /* a closed modal and the like: not on the page, not in the view */
                cr_assert_eq(c->view_id[0], '\0', "%s: %s is not visible but has %s", screens[s], c->key, c->view_id);
                continue;
            }
            char tag[24];
            snprintf(tag, sizeof tag, "[%s] ", c->view_id);
            int count = 0;
            for (const char *p = t; (p = strstr(p, tag)); p += strlen(tag))
                count++;
            cr_assert_eq(count, 1, "%s: %s (%s) appears %d times:\n%s", screens[s], c->key, c->view_id, count, t);
        }
        /* every numeric id printed resolves to a node outside any component,
         * or inside a container that shows its content */
        for (const char *p = t; (p = strchr(p, '[')); p++) {
            if (p[1] < '0' || p[1] > '9')
                continue;
            char id[16];
            if (sscanf(p + 1, "%15[0-9]]", id) != 1)
                continue;
            int backend = 0;
            cr_assert_eq(perc_obs_resolve_id(obs, id, &backend, &err), EOUS_OK, "%s: [%s]", screens[s], id);
            const perc_node *nd = perc_obs_node_by_backend(obs, backend);
            cr_assert(nd, "%s: [%s] has a node", screens[s], id);
            if (nd->component < 0)
                continue;
            const perc_component *owner = perc_obs_component(obs, (size_t)nd->component);
            int is_container = 0;
            for (size_t k = 0; k < sizeof containers / sizeof *containers; k++)
                is_container |= !strcmp(owner->kind, containers[k]);
            cr_assert(is_container, "%s: [%s] %s '%s' leaked out of %s %s:\n%s", screens[s], id, nd->role,
                      nd->name ? nd->name : "", owner->kind, owner->key, t);
        }
        perc_obs_free(obs);
    }
}

/* The facts a model needs on each Playground screen, written down by hand from
 * the screens (labels, values, options, constraints, rows, page tools): each
 * must be on the line of the component it belongs to, so a shorter hybrid
 * view cannot lose one.  A line is found by its anchor (kind and label). */
typedef struct screen_fact {
    const char *screen, *anchor, *facts[12];
} screen_fact;

static const screen_fact FACTS[] = {
    {"/booking", "menu 'Main navigation'", {"selectedKey: 'booking'", "navigateTo(key:", "booking=Travel booking",
                                            "settings=Project settings", "apply=Job application", "users", "orders"}},
    {"/booking", "form 'New booking'", {"submit()", "reset()"}},
    {"/booking", "input 'Guest name'", {"placeholder: 'Full name'", "setValue(text", "clear()"}},
    {"/booking", "cascader 'Destination'", {"levels: 2", "France", "Australia", "Japan", "setValue(path: [",
                                            "options=France: Paris|Lyon", "+11 more (44 values in all)",
                                            "search(query"}},
    {"/booking", "select 'Room type'", {"standard|superior|deluxe|family|junior-suite|suite|studio|penthouse",
                                        "search(query"}},
    {"/booking", "datepicker 'Check-in'", {"YYYY-MM-DD", "2025-06-15..2026-06-14", "2025-07-04", "2025-08-15",
                                           "2025-12-24", "2025-12-25", "2025-12-31", "2026-01-01", "clear()"}},
    {"/booking", "datepicker 'Check-out'", {"YYYY-MM-DD", "2025-06-16..2026-06-14", "not as in c", ".setValue"}},
    {"/booking", "inputnumber 'Guests'", {"value: 2", "integer, 1..8"}},
    {"/booking", "timepicker 'Arrival time'", {"HH:mm", "07:00..22:45", "minuteStep=15"}},
    {"/booking", "checkbox 'Breakfast included'", {"checked: false", "setValue(checked: boolean)", "check()",
                                                   "uncheck()", "toggle()"}},
    {"/booking", "button 'Book'", {"click()"}},
    {"/booking", "table 'My bookings'", {"Booking | Guest | Destination | Check-in | Check-out | Guests | Room",
                                         "Total (EUR)", "total: 0", "goToPage(page: integer, 1..1)",
                                         "setPageSize(pageSize: 10|20|50|100)"}},
    {"/booking", "create_booking(", {"guestName", "country: as in c", ".options", "city", "checkin: date",
                                     "guests?: integer, 1..8", "roomType: as in c", "breakfast?: boolean",
                                     "Create a hotel booking"}},
    {"/booking", "open_order(", {"id", "ORD-1001"}},
    {"/booking", "search_orders(", {"status?: pending|paid|shipped|delivered|cancelled", "customer?"}},
    {"/users", "input 'Search users'", {"setValue(text"}},
    {"/users", "button 'Deactivate selected'", {"disabled"}},
    {"/users", "table 'Users'", {"total: 300", "page: 1", "pageSize: 10", "sort(column: name|created",
                                 "ascend|descend", "filter(column: role|department|active", "Admin|Editor|Viewer",
                                 "goToPage(page: integer, 1..30)", "selectRows(keys: [", "mode?: set|add|remove",
                                 "rowAction(key", "action: edit"}},
    {"/users", "| key | name | email | role | department | created | active |", {"| key |"}},
    {"/users", "| u001 | Annie Boyd |", {"annie.boyd1@example.com", "Editor", "Design", "2022-12-13", "true"}},
    {"/users", "| u010 |", {"Niklaus Hamilton"}},
    {"/users", "300 users, 253 active in total", {"253 active"}},
    {"/settings", "tabs 'Settings sections'", {"activeKey: 'general'", "setTab(key: general|members|security)"}},
    {"/settings", "input 'Project name'", {"value: 'Atlas'", "≤40 chars"}},
    {"/settings", "textarea 'Description'", {"value: 'Customer portal rebuild'", "≤200 chars"}},
    {"/settings", "radiogroup 'Visibility'", {"value: 'private'", "private|internal|public"}},
    {"/settings", "slider 'Retention (days)'", {"value: 30", "integer, 1..365"}},
    {"/settings", "checkboxgroup 'Notifications'", {"value: email", "email|sms|slack|webhook|push", "check(",
                                                     "uncheck("}},
    {"/settings", "treeselect 'Department'", {"value: 'platform'", "Engineering/Platform", "Product/Research",
                                              "platform|frontend|data|security", "search(query"}},
    {"/settings", "select 'Members'", {"mode: 'multiple'", "Annie Boyd | Niklaus Turing | Katherine Hopper",
                                       "optionCount: 60", "select(", "deselect("}},
    {"/settings", "select 'Tags'", {"mode: 'tags'", "web | beta", "optionCount: 40"}},
    {"/settings", "switch 'Allow guests'", {"checked: false", "toggle()"}},
    {"/settings", "input 'API token'", {"[redacted]", "secret: true"}},
    {"/settings", "button 'Delete project'", {"confirm: 'Delete the project and all its data?'", "click()"}},
    {"/orders", "rangepicker 'Order dates'", {"start: YYYY-MM-DD, 2025-01-01..2025-06-15",
                                              "end: YYYY-MM-DD, 2025-01-01..2025-06-15"}},
    {"/orders", "select 'Status'", {"pending|paid|shipped|delivered|cancelled"}},
    {"/orders", "input 'Customer'", {"placeholder: 'Customer name'"}},
    {"/orders", "table 'Orders'", {"total: 20", "rowAction(key", "action: view"}},
    {"/orders", "| key | date | customer | items | total | status |", {"| key |"}},
    {"/orders", "| ORD-1001 |", {"2025-01-22", "Katherine Sutherland", "649.14", "paid"}},
    {"/orders", "400 orders, total 206219.22 EUR", {"206219.22"}},
    {"/apply", "steps 'Application steps'", {"current: 0", "Personal details | Position | Review and submit",
                                             "next()", "prev()", "goToStep(step: integer, 0..2)"}},
    {"/apply", "input 'Full name'", {"setValue(text"}},
    {"/apply", "input 'Email'", {"setValue(text"}},
    {"/apply", "select 'Country of residence'", {"Argentina|Australia", "+43 more", "search(query"}},
    {"/apply", "button 'Next'", {"click()"}},
    {"/apply", "create_booking(", {"country: France|Italy|", "roomType: standard|superior|"}},
};

Test(act_site, hybrid_view_carries_every_fact_on_every_screen)
{
    NEED_SITE();
    const char *at = NULL;
    perc_obs *obs = NULL;
    for (size_t f = 0; f < sizeof FACTS / sizeof *FACTS; f++) {
        const screen_fact *sf = &FACTS[f];
        if (!at || strcmp(at, sf->screen)) {
            perc_obs_free(obs);
            eous_err err;
            cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, sf->screen), &err), EOUS_OK, "%s", err.msg);
            double ms;
            act_settle(X, &ms, &err);
            obs = observe(PERC_MODE_HYBRID);
            at = sf->screen;
        }
        const char *t = perc_obs_text(obs);
        const char *start = strstr(t, sf->anchor);
        cr_assert(start, "%s: no line with %s:\n%s", sf->screen, sf->anchor, t);
        while (start > t && start[-1] != '\n')
            start--;
        const char *end = strchr(start, '\n');
        int len = end ? (int)(end - start) : (int)strlen(start);
        for (size_t k = 0; k < 12 && sf->facts[k]; k++) {
            char *line = strndup(start, (size_t)len);
            cr_assert(strstr(line, sf->facts[k]), "%s: %s lost '%s': %s", sf->screen, sf->anchor, sf->facts[k], line);
            free(line);
        }
    }
    perc_obs_free(obs);
}
