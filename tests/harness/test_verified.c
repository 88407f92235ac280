/* tests/harness/test_verified.c — WebArena-Verified's evaluators in C (no browser):
 * parity with its own retrieval test cases and demo logs
 * (tests/fixtures/verified/, see its README), every normaliser, every
 * status, alternatives, and the network evaluator over HAR files. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webarena/task.h"
#include "webarena/verified.h"
#include "webarena/verified_int.h"

#define FIX EOUS_SOURCE_DIR "/tests/fixtures/verified"

static cJSON *load(const char *path)
{
    eous_err err;
    eous_err_clear(&err);
    cJSON *j = eous_json_parse_file(path, 0, &err);
    cr_assert_not_null(j, "%s", err.msg);
    return j;
}

static cJSON *task_by_id(const cJSON *tasks, int id)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, tasks) if (eous_json_int(t, "task_id", -1) == id) return (cJSON *)t;
    cr_assert_fail("no task %d in the fixtures", id);
    return NULL;
}

/* ---- parity with their own tests and demo logs ---- */

Test(verified_parity, their_retrieval_cases_every_one)
{
    cJSON *tasks = load(FIX "/tasks.json");
    FILE *f = fopen(FIX "/retrieval_cases.jsonl", "r");
    cr_assert_not_null(f);
    char *line = NULL;
    size_t cap = 0;
    int n = 0, ok1 = 0, ok0 = 0, bad = 0;
    char first_bad[600] = "";
    while (getline(&line, &cap, f) > 0) {
        cJSON *c = cJSON_Parse(line);
        cr_assert_not_null(c);
        const cJSON *task = task_by_id(tasks, eous_json_int(c, "task_id", -1));
        cJSON *r = vf_score_task(task, cJSON_GetObjectItemCaseSensitive(c, "response"), NULL);
        int want = eous_json_int(c, "expect", -1);
        double got = eous_json_num(r, "score", -1);
        const char *st = eous_json_str(r, "status");
        /* a valid variation scores 1; an invalid one is a failure, not an error */
        int okc = want ? got == 1 : (got == 0 && !strcmp(st, "failure"));
        if (okc)
            want ? ok1++ : ok0++;
        else if (!bad++)
            snprintf(first_bad, sizeof first_bad, "task %d %s: want %d got %g (%s) for %.200s",
                     eous_json_int(c, "task_id", -1), eous_json_str(c, "name"), want, got, st,
                     eous_json_str(c, "response"));
        n++;
        cJSON_Delete(r);
        cJSON_Delete(c);
    }
    free(line);
    fclose(f);
    cJSON_Delete(tasks);
    cr_assert_gt(n, 4000, "the generated cases are all there");
    cr_assert_eq(bad, 0, "%d of %d cases differ from WebArena-Verified; first: %s", bad, n, first_bad);
    cr_assert_gt(ok1, 2000);
    cr_assert_gt(ok0, 2000);
}

static cJSON *demo(int id)
{
    cJSON *tasks = load(FIX "/tasks.json");
    char p[512];
    snprintf(p, sizeof p, FIX "/demo/%d/agent_response.json", id);
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(eous_read_file(p, 0, &text, &len, NULL), EOUS_OK);
    cJSON *resp = cJSON_CreateString(text); /* as their CLI reads it: the file's text */
    free(text);
    vf_har har;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(vf_har_load(FIX "/demo/network.har", &har, &err), EOUS_OK, "%s", err.msg);
    cJSON *r = vf_score_task(task_by_id(tasks, id), resp, &har);
    vf_har_free(&har);
    cJSON_Delete(resp);
    cJSON_Delete(tasks);
    return r;
}

static int has_assertion(const cJSON *ev, const char *name)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, eous_json_arr(ev, "assertions")) {
        const char *n = eous_json_str(a, "assertion_name");
        if (n && !strcmp(n, name))
            return 1;
    }
    return 0;
}

Test(verified_parity, demo_107_fails_as_their_eval_result)
{
    cJSON *r = demo(107);
    cJSON *want = load(FIX "/demo/107/eval_result.json");
    cr_assert_eq(eous_json_num(r, "score", -1), eous_json_num(want, "score", -2));
    cr_assert_str_eq(eous_json_str(r, "status"), eous_json_str(want, "status"));
    const cJSON *ev = cJSON_GetArrayItem(eous_json_arr(r, "evaluators"), 0);
    const cJSON *wev = cJSON_GetArrayItem(eous_json_arr(want, "evaluators_results"), 0);
    const cJSON *a;
    int n = 0;
    cJSON_ArrayForEach(a, eous_json_arr(wev, "assertions")) {
        cr_assert(has_assertion(ev, eous_json_str(a, "assertion_name")), "missing %s", eous_json_str(a, "assertion_name"));
        n++;
    }
    cr_assert_eq(cJSON_GetArraySize(eous_json_arr(ev, "assertions")), n, "no assertion theirs does not make");
    cr_assert_str_eq(eous_json_str(eous_json_obj(ev, "actual_normalized"), "task_type"), "navigate");
    cJSON_Delete(want);
    cJSON_Delete(r);
}

Test(verified_parity, demo_108_passes_with_their_normalised_months)
{
    cJSON *r = demo(108);
    cJSON *want = load(FIX "/demo/108/eval_result.json");
    cr_assert_eq(eous_json_num(r, "score", -1), 1);
    cr_assert_str_eq(eous_json_str(r, "status"), eous_json_str(want, "status"));
    const cJSON *ev = cJSON_GetArrayItem(eous_json_arr(r, "evaluators"), 0);
    const cJSON *wev = cJSON_GetArrayItem(eous_json_arr(want, "evaluators_results"), 0);
    /* normalised actual equals theirs item by item (months as full names, counts as numbers) */
    const cJSON *got = eous_json_arr(eous_json_obj(ev, "actual_normalized"), "retrieved_data");
    const cJSON *exp = eous_json_arr(eous_json_obj(wev, "actual_normalized"), "retrieved_data");
    cr_assert(cJSON_Compare(got, exp, 1), "%s", cJSON_PrintUnformatted(got));
    cJSON_Delete(want);
    cJSON_Delete(r);
}

/* ---- normalisers, one by one ---- */

static cJSON *norm(const char *type, const char *json)
{
    vf_ctx c = {0};
    cJSON *v = cJSON_Parse(json);
    cr_assert_not_null(v, "%s", json);
    cJSON *n = vf_norm_typed(&c, type, v, 1);
    cr_assert_not_null(n, "%s %s: %s", type, json, c.err);
    cJSON_Delete(v);
    return n;
}

static int same(const char *type, const char *a, const char *b)
{
    cJSON *x = norm(type, a), *y = norm(type, b);
    int r = vf_equal(x, y);
    cJSON_Delete(x), cJSON_Delete(y);
    return r;
}

static void refused(const char *type, const char *json)
{
    vf_ctx c = {0};
    cJSON *v = cJSON_Parse(json);
    cJSON *n = vf_norm_typed(&c, type, v, 1);
    cr_assert_null(n, "%s %s should not normalise", type, json);
    cr_assert(c.err[0]);
    cJSON_Delete(v);
}

static double first_num(const char *type, const char *json)
{
    cJSON *n = norm(type, json);
    cJSON *r = vf_report(n);
    double d = r->valuedouble;
    cJSON_Delete(r), cJSON_Delete(n);
    return d;
}

static char *first_str(const char *type, const char *json)
{
    cJSON *n = norm(type, json);
    cJSON *r = vf_report(n);
    char *s = strdup(cJSON_IsString(r) ? r->valuestring : "?");
    cJSON_Delete(r), cJSON_Delete(n);
    return s;
}

#define STR_IS(type, json, want)                                                                                      \
    do {                                                                                                              \
        char *s_ = first_str(type, json);                                                                             \
        cr_assert_str_eq(s_, want, "%s %s", type, json);                                                              \
        free(s_);                                                                                                     \
    } while (0)

Test(verified_norm, numbers_and_number_words)
{
    cr_assert_eq(first_num("number", "\"1,234\""), 1234);
    cr_assert_eq(first_num("number", "\"1 000\""), 1000);
    cr_assert_eq(first_num("number", "\"twenty-three\""), 23);
    cr_assert_eq(first_num("number", "\"one hundred and five\""), 105);
    cr_assert_eq(first_num("number", "\"about twelve items\""), 12, "word2number ignores other words");
    cr_assert_eq(first_num("integer", "7.0"), 7);
    cr_assert_eq(first_num("number", "true"), 1, "a bool is an int in Python");
    refused("number", "\"$5\"");
    refused("number", "\"0x10\"");
    cr_assert(!same("number", "12", "12.5"));
}

Test(verified_norm, dates)
{
    static const char *forms[] = {"\"2024-01-15\"",     "\"01/15/2024\"",        "\"1/15/2024\"",  "\"15/01/2024\"",
                                  "\"January 15, 2024\"", "\"Jan 15, 2024\"",    "\"Jan 15 2024\"", "\"15th January 2024\"",
                                  "\"Monday, January 15, 2024\"", "\"jan 15,2024\""};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        STR_IS("date", forms[i], "2024-01-15");
    STR_IS("date", "\"05/1/2021\"", "2021-05-01");
    refused("date", "\"not a date\"");
    refused("date", "20240115");
}

Test(verified_norm, durations_with_their_tolerance)
{
    cr_assert_eq(first_num("duration", "\"2h30m\""), 9000);
    cr_assert_eq(first_num("duration", "\"2 hours 30 minutes\""), 9000);
    cr_assert_eq(first_num("duration", "\"2hr 30min\""), 9000);
    cr_assert_eq(first_num("duration", "\"1:35 hours\""), 5700);
    cr_assert_eq(first_num("duration", "\"4:13\""), 253, "clock form is minutes:seconds");
    cr_assert_eq(first_num("duration", "\"1.5 minutes\""), 90);
    refused("duration", "\"45\"");
    refused("duration", "45");
    cr_assert(same("duration", "\"30m\"", "\"32m\""), "within 3 minutes");
    cr_assert(!same("duration", "\"30m\"", "\"34m\""));
    cr_assert(same("duration", "\"5h\"", "\"5h29m\""), "within 10%% of the longer");
    cr_assert(!same("duration", "\"5h\"", "\"5h40m\""));
}

Test(verified_norm, currency)
{
    cr_assert_float_eq(first_num("currency", "\"$1,234.56\""), 1234.56, 1e-9);
    cr_assert_float_eq(first_num("currency", "\"€1.234,56\""), 1234.56, 1e-9);
    cr_assert_float_eq(first_num("currency", "\"-$50.00\""), -50, 1e-9);
    cr_assert_float_eq(first_num("currency", "19.9"), 19.9, 1e-9);
    /* written down in the README: one comma and no dot is a decimal comma to theirs */
    cr_assert_float_eq(first_num("currency", "\"$1,234\""), 1.234, 1e-9);
    cr_assert(same("currency", "\"$10.00\"", "10.1"), "tolerance 0.1");
    cr_assert(!same("currency", "\"$10.00\"", "10.2"));
    /* written down: only the first alternatives are compared */
    cr_assert(!same("currency", "[5, 10]", "10"));
    refused("currency", "\"free\"");
}

Test(verified_norm, months)
{
    STR_IS("month", "\"Jan\"", "January");
    STR_IS("month", "\"SEPT\"", "September");
    STR_IS("month", "\"09\"", "September");
    STR_IS("month", "12", "December");
    STR_IS("month", "\"may 2022\"", "May");
    refused("month", "13");
    refused("month", "\"13\"");
    refused("month", "2.5");
}

Test(verified_norm, distances)
{
    cr_assert_float_eq(first_num("distance", "\"10.5km\""), 10500, 1e-6);
    cr_assert_float_eq(first_num("distance", "\"110k\""), 110000, 1e-6);
    cr_assert_float_eq(first_num("distance", "\"3.5 miles\""), 5632.704, 1e-6);
    cr_assert_float_eq(first_num("distance", "\"300 ft\""), 91.44, 1e-6);
    refused("distance", "\"12\"");
    refused("distance", "\"12 parsecs\"");
    cr_assert(same("distance", "\"1 km\"", "\"1008 m\""), "10 m absolute");
    cr_assert(same("distance", "\"10 km\"", "\"10.19 km\""), "2%% relative");
    cr_assert(!same("distance", "\"10 km\"", "\"10.3 km\""));
}

Test(verified_norm, coordinates)
{
    cr_assert(same("coordinates", "\"40.7128, -74.0060\"", "[40.7128, -74.006]"));
    cr_assert(same("coordinates", "\"40.7128N, 74.0060W\"", "{\"lat\": 40.7128, \"lng\": -74.006}"));
    cr_assert(same("coordinates", "{\"latitude\": \"40.44\", \"longitude\": -79.94}", "[40.440001, -79.94]"));
    cr_assert(!same("coordinates", "[40.44, -79.94]", "[40.4401, -79.94]"));
    refused("coordinates", "[91, 0]");
    refused("coordinates", "\"somewhere\"");
}

Test(verified_norm, strings_case_space_dashes_quotes_marks)
{
    STR_IS("string", "\"  Quest  Lumaflex\\u2122   Band \"", "quest lumaflex band");
    STR_IS("string", "\"Buffalo-Niagara\"", "buffalo niagara");
    STR_IS("string", "\"Buffalo\\u2014Niagara\"", "buffalo niagara");
    STR_IS("string", "\"412-268-3000\"", "412-268-3000");
    STR_IS("string", "\"Caf\\u00e9 \\u201cNoir\\u201d\"", "cafe \"noir\"");
    STR_IS("string", "\"a\\tb\\nc\"", "a b c");
    STR_IS("string", "42", "42");
    cr_assert(same("string", "\"Hello.\"", "\"'hello'\""), "quotes and punctuation at the ends");
    cr_assert(same("string", "\"^order #\\\\d+$\"", "\"Order #123\""), "a regex on the expected side, any case");
    cr_assert(!same("string", "\"^order #\\\\d+$\"", "\"Order #12a\""));
    cr_assert(!same("string", "\"hello world\"", "\"hello\""));
}

Test(verified_norm, location_names_token_sort)
{
    cr_assert(same("location-name", "\"Apple Store Shadyside\"", "\"Shadyside Apple Store\""));
    cr_assert(same("location-name", "\"Carnegie Mellon University\"", "\"Carnegie Mellon Univ\""));
    cr_assert(!same("location-name", "\"Carnegie Mellon University\"", "\"University of Pittsburgh\""));
}

Test(verified_norm, empties_and_booleans)
{
    cr_assert(same("null", "\"N / A\"", "null"));
    cr_assert(same("null", "\"none\"", "\"\""));
    refused("null", "0");
    refused("null", "\"nothing\"");
    cr_assert(same("boolean", "\"Yes\"", "true"));
    cr_assert(same("boolean", "\"off\"", "0"));
    cr_assert(!same("boolean", "\"y\"", "false"));
    refused("boolean", "\"maybe\"");
}

Test(verified_norm, alternatives_need_two_items)
{
    cr_assert(same("string", "[\"success\", \"ok\"]", "\"OK\""));
    cr_assert(same("number", "[10, 17]", "17"));
    refused("string", "[\"alone\"]");
}

Test(verified_norm, urls_query_order_ports_ignored_params_regex)
{
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080", 1);
    cJSON *sites = cJSON_Parse("[\"playground\"]");
    vf_ctx c = {.sites = sites};
    cJSON *ign = cJSON_Parse("[\"^_ts$\", \"^page\"]");
    vf_url_opts o = {.ignored_patterns = ign};
    cJSON *a = cJSON_CreateString("__PLAYGROUND__/search?sort=price&q=shoes");
    cJSON *b = cJSON_CreateString("HTTP://127.0.0.1:8080/search/?q=Shoes&page=2&sort=price&_ts=99");
    cJSON *na = vf_norm_url(&c, a, &o, 1), *nb = vf_norm_url(&c, b, &o, 0);
    cr_assert_not_null(na, "%s", c.err);
    cr_assert(vf_equal(na, nb), "templates, case, order, trailing slash, ignored names");
    cJSON *rep = vf_report(nb);
    cr_assert_str_eq(eous_json_str(rep, "base_url"), "__PLAYGROUND__/search/", "only a whole URL's last slash goes");
    cJSON_Delete(rep);
    cJSON *d = cJSON_CreateString("http://127.0.0.1:8080/search?q=boots&sort=price");
    cJSON *nd = vf_norm_url(&c, d, &o, 0);
    cr_assert(!vf_equal(na, nd), "a query value differs");
    cr_assert(vf_url_compare_path(na, nd), "the base path alone matches");
    cJSON *r = cJSON_CreateString("^__PLAYGROUND__/orders/\\d+$");
    cJSON *e = cJSON_CreateString("http://127.0.0.1:8080/orders/7");
    cJSON *nr = vf_norm_url(&c, r, &o, 1), *ne = vf_norm_url(&c, e, &o, 0);
    cr_assert(vf_url_compare_path(nr, ne), "a regex base path, rendered");
    cJSON *p80 = cJSON_CreateString("http://Example.com:80/a/./b/../c");
    cJSON *n80 = vf_norm_url(&c, p80, NULL, 1);
    cJSON *r80 = vf_report(n80);
    cr_assert_str_eq(eous_json_str(r80, "base_url"), "http://example.com/a/c");
    cJSON_Delete(r80);
    cJSON_Delete(p80), cJSON_Delete(n80), cJSON_Delete(r), cJSON_Delete(e), cJSON_Delete(nr), cJSON_Delete(ne);
    cJSON_Delete(d), cJSON_Delete(nd), cJSON_Delete(a), cJSON_Delete(b), cJSON_Delete(na), cJSON_Delete(nb);
    cJSON_Delete(ign), cJSON_Delete(sites);
}

Test(verified_norm, a_url_on_any_copy_of_a_pooled_site_reads_as_its_template)
{
    /* two copies of the site (webarena/site_pool.h): a task ran on one of them, either matches */
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080 http://127.0.0.1:8081", 1);
    cJSON *sites = cJSON_Parse("[\"playground\"]");
    vf_ctx c = {.sites = sites};
    cJSON *want = cJSON_CreateString("__PLAYGROUND__/orders/7");
    cJSON *first = cJSON_CreateString("http://127.0.0.1:8080/orders/7");
    cJSON *second = cJSON_CreateString("http://127.0.0.1:8081/orders/7");
    cJSON *nw = vf_norm_url(&c, want, NULL, 1), *n1 = vf_norm_url(&c, first, NULL, 0), *n2 = vf_norm_url(&c, second, NULL, 0);
    cr_assert_not_null(nw, "%s", c.err);
    cr_expect(vf_equal(nw, n1), "the first copy's URL");
    cr_expect(vf_equal(nw, n2), "the second copy's URL");
    cJSON *rep = vf_report(n2);
    cr_expect_str_eq(eous_json_str(rep, "base_url"), "__PLAYGROUND__/orders/7");
    cJSON_Delete(rep);
    cJSON_Delete(want), cJSON_Delete(first), cJSON_Delete(second), cJSON_Delete(nw), cJSON_Delete(n1), cJSON_Delete(n2);
    cJSON_Delete(sites);
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080", 1);
}

/* ---- the agent response: statuses, answers that are not JSON ---- */

static cJSON *mk_agent_task(const char *tt, const char *status, const char *rd, const char *schema)
{
    char *s = NULL;
    cr_assert(asprintf(&s,
                       "{\"task_id\": 1, \"sites\": [\"playground\"], \"eval\": [{\"evaluator\": "
                       "\"AgentResponseEvaluator\", \"results_schema\": %s, \"expected\": {\"task_type\": \"%s\", "
                       "\"status\": \"%s\", \"retrieved_data\": %s}}]}",
                       schema, tt, status, rd) > 0);
    cJSON *t = cJSON_Parse(s);
    free(s);
    cr_assert_not_null(t);
    return t;
}

static double score_text(const cJSON *task, const char *answer)
{
    cJSON *a = cJSON_CreateString(answer);
    cJSON *r = vf_score_task(task, a, NULL);
    double s = eous_json_num(r, "score", -1);
    cJSON_Delete(r), cJSON_Delete(a);
    return s;
}

Test(verified_agent, every_status_and_task_type)
{
    static const char *statuses[] = {"SUCCESS", "NOT_FOUND_ERROR", "ACTION_NOT_ALLOWED_ERROR", "PERMISSION_DENIED_ERROR",
                                     "DATA_VALIDATION_ERROR", "UNKNOWN_ERROR"};
    static const char *types[] = {"mutate", "navigate"};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < 6; i++) {
            cJSON *task = mk_agent_task(types[t], statuses[i], "null", "{\"type\": \"null\"}");
            char ans[200];
            snprintf(ans, sizeof ans, "{\"task_type\": \"%s\", \"status\": \"%s\"}", types[t], statuses[i]);
            cr_assert_eq(score_text(task, ans), 1, "%s", ans);
            snprintf(ans, sizeof ans, "{\"task_type\": \"%s\", \"status\": \"%s\"}", types[t],
                     statuses[(i + 1) % 6]);
            cr_assert_eq(score_text(task, ans), 0, "%s", ans);
            snprintf(ans, sizeof ans, "{\"performed_operation\": \"%s\", \"status\": \"%s\", \"retrieved_data\": [1]}",
                     types[t], statuses[i]);
            cr_assert_eq(score_text(task, ans), 1, "legacy key; data ignored off retrieve tasks: %s", ans);
            cJSON_Delete(task);
        }
    }
}

Test(verified_agent, unparsable_answer_is_kept_and_fails_as_theirs)
{
    cJSON *task = mk_agent_task("retrieve", "SUCCESS", "[\"Sprite\"]", "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}");
    cJSON *a = cJSON_CreateString("the answer is Sprite");
    cJSON *r = vf_score_task(task, a, NULL);
    const cJSON *ev = cJSON_GetArrayItem(eous_json_arr(r, "evaluators"), 0);
    cr_assert_str_eq(eous_json_str(r, "status"), "failure", "a failure, not an error");
    cr_assert(has_assertion(ev, "agent_response_invalid_format"));
    cr_assert_str_eq(eous_json_str(ev, "actual"), "the answer is Sprite", "kept verbatim");
    cJSON_Delete(r), cJSON_Delete(a);
    cr_assert_eq(score_text(task, "Here you go:\n```json\n{\"task_type\": \"RETRIEVE\", \"status\": \"success\", "
                                  "\"retrieved_data\": [\"sprite\"]}\n```"),
                 1, "a fenced JSON block inside prose");
    cr_assert_eq(score_text(task, ""), 0);
    cJSON *obj = cJSON_Parse("{\"task_type\": \"retrieve\", \"status\": \"SUCCESS\", \"retrieved_data\": [\"Sprite\"]}");
    r = vf_score_task(task, obj, NULL);
    cr_assert_eq(eous_json_num(r, "score", -1), 1, "an object answer as it is");
    cJSON_Delete(r), cJSON_Delete(obj);
    /* written down: a non-string status is an evaluator error in theirs (.strip() on it) */
    obj = cJSON_Parse("{\"task_type\": \"retrieve\", \"status\": null, \"retrieved_data\": [\"Sprite\"]}");
    r = vf_score_task(task, obj, NULL);
    cr_assert_str_eq(eous_json_str(r, "status"), "error");
    cJSON_Delete(r), cJSON_Delete(obj);
    cJSON_Delete(task);
}

Test(verified_agent, ordered_and_unordered_lists)
{
    cJSON *task = mk_agent_task("retrieve", "SUCCESS", "[\"a\", \"b\", [\"c\", \"see\"]]",
                             "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}");
    cr_assert_eq(score_text(task, "{\"task_type\":\"retrieve\",\"status\":\"SUCCESS\",\"retrieved_data\":[\"see\",\"B\",\"a\"]}"), 1);
    cr_assert_eq(score_text(task, "{\"task_type\":\"retrieve\",\"status\":\"SUCCESS\",\"retrieved_data\":[\"a\",\"b\"]}"), 0);
    cr_assert_eq(score_text(task, "{\"task_type\":\"retrieve\",\"status\":\"SUCCESS\",\"retrieved_data\":[\"a\",\"b\",\"c\",\"c\"]}"), 0);
    cJSON_Delete(task);
    task = cJSON_Parse("{\"task_id\": 2, \"eval\": [{\"evaluator\": \"AgentResponseEvaluator\", \"ordered\": true, "
                       "\"results_schema\": {\"type\": \"array\", \"items\": {\"type\": \"number\"}}, \"expected\": "
                       "{\"task_type\": \"retrieve\", \"status\": \"SUCCESS\", \"retrieved_data\": [1, 2, 3]}}]}");
    cr_assert_eq(score_text(task, "{\"task_type\":\"retrieve\",\"status\":\"SUCCESS\",\"retrieved_data\":[\"one\",2,\"3\"]}"), 1);
    cr_assert_eq(score_text(task, "{\"task_type\":\"retrieve\",\"status\":\"SUCCESS\",\"retrieved_data\":[3,2,1]}"), 0);
    cJSON_Delete(task);
}

/* ---- the network evaluator ---- */

static cJSON *net_task(const char *task_type, const char *cfg_extra, const char *expected)
{
    char *s = NULL;
    cr_assert(asprintf(&s,
                       "{\"task_id\": 3, \"sites\": [\"playground\"], \"eval\": [{\"evaluator\": "
                       "\"AgentResponseEvaluator\", \"results_schema\": {\"type\": \"null\"}, \"expected\": "
                       "{\"task_type\": \"%s\", \"status\": \"SUCCESS\", \"retrieved_data\": null}}, {\"evaluator\": "
                       "\"NetworkEventEvaluator\"%s%s, \"expected\": %s}]}",
                       task_type, *cfg_extra ? ", " : "", cfg_extra, expected) > 0);
    cJSON *t = cJSON_Parse(s);
    cr_assert_not_null(t, "%s", s);
    free(s);
    return t;
}

static const cJSON *net_result(const char *task_type, const char *cfg_extra, const char *expected, cJSON **keep)
{
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080", 1);
    cJSON *task = net_task(task_type, cfg_extra, expected);
    vf_har har;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(vf_har_load(FIX "/small.har", &har, &err), EOUS_OK, "%s", err.msg);
    char ans[160];
    snprintf(ans, sizeof ans, "{\"task_type\": \"%s\", \"status\": \"SUCCESS\"}", task_type);
    cJSON *a = cJSON_CreateString(ans);
    *keep = vf_score_task(task, a, &har);
    vf_har_free(&har);
    cJSON_Delete(a), cJSON_Delete(task);
    return cJSON_GetArrayItem(eous_json_arr(*keep, "evaluators"), 1);
}

static double net_score(const char *task_type, const char *cfg_extra, const char *expected)
{
    cJSON *keep;
    const cJSON *ev = net_result(task_type, cfg_extra, expected, &keep);
    double s = eous_json_num(ev, "score", -1);
    cJSON_Delete(keep);
    return s;
}

Test(verified_network, navigate_is_the_last_navigation)
{
    cr_assert_eq(net_score("navigate", "", "{\"url\": \"__PLAYGROUND__/orders/7\"}"), 1);
    cr_assert_eq(net_score("navigate", "", "{\"url\": \"__PLAYGROUND__/orders\"}"), 0, "an earlier page is not the last");
    cr_assert_eq(net_score("navigate", "", "{\"url\": [\"__PLAYGROUND__/orders\", \"__PLAYGROUND__/orders/7\"]}"), 1,
                 "alternatives");
    cr_assert_eq(net_score("navigate", "", "{\"url\": \"^__PLAYGROUND__/orders/\\\\d+$\"}"), 1, "a regex URL");
}

Test(verified_network, mutate_from_json_post_data_and_jsonpath)
{
    const char *exp = "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\", "
                      "\"post_data\": {\"status\": \"shipped\", \"$.note.text\": \"left at door\"}}";
    cr_assert_eq(net_score("mutate", "", exp), 1);
    cr_assert_eq(net_score("mutate", "",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\", "
                           "\"post_data\": {\"status\": \"Delivered\"}}"),
                 0);
    cr_assert_eq(net_score("mutate", "",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\", "
                           "\"response_content\": {\"$.order.status\": \"shipped\", \"ok\": true}}"),
                 1, "response content by JSONPath, not normalised");
    cr_assert_eq(net_score("mutate", "",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\", "
                           "\"headers\": {\"referer\": \"__PLAYGROUND__/orders/7\", \"Content-Type\": \"application/json\"}}"),
                 1, "headers by name, any case; the referer as a URL");
    cr_assert_eq(net_score("mutate", "",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\", "
                           "\"response_status\": 201}"),
                 0);
}

Test(verified_network, form_post_data_last_or_any_event)
{
    const char *first = "{\"url\": \"__PLAYGROUND__/doku.php?id=start&do=edit\", \"http_method\": \"POST\", \"response_status\": 302, "
                        "\"post_data\": {\"wikitext\": \"Hello World!\", \"do[save]\": \"Save\"}}";
    cr_assert_eq(net_score("mutate", "", first), 0, "last_event_only is the default: the last POST is another");
    cr_assert_eq(net_score("mutate", "\"last_event_only\": false", first), 1, "any matching event");
    cr_assert_eq(net_score("mutate", "\"last_event_only\": false, \"ignored_post_data_params_patterns\": [\"^sectok$\"]",
                           "{\"url\": \"__PLAYGROUND__/doku.php?id=start&do=edit\", \"http_method\": \"POST\", \"post_data\": "
                           "{\"sectok\": \"other\"}}"),
                 0, "an ignored name is gone from the actual side");
    cr_assert_eq(net_score("mutate", "",
                           "{\"url\": \"__PLAYGROUND__/upload\", \"http_method\": \"POST\", \"post_data\": "
                           "{\"title\": \"quarterly report\"}}"),
                 1, "multipart fields");
    cr_assert_eq(net_score("mutate", "\"last_event_only\": false",
                           "{\"url\": \"__PLAYGROUND__/doku.php?id=start&do=edit\", \"http_method\": \"POST\", \"response_status\": 302, "
                           "\"response_cookies\": {\"flash\": \"^page saved$\"}}"),
                 1, "response cookies decoded, as strings");
}

Test(verified_network, query_params_and_ignored_patterns)
{
    const char *exp = "{\"url\": \"__PLAYGROUND__/search?q=shoes&sort=price\", \"headers\": {\"referer\": \"__PLAYGROUND__/orders\"}}";
    cr_assert_eq(net_score("retrieve", "", exp), 0, "page and _ts are compared too");
    cr_assert_eq(net_score("retrieve", "\"ignored_query_params_patterns\": [\"^_\", \"^page$\"]", exp), 1);
    cr_assert_eq(net_score("retrieve", "\"ignored_query_params\": [\"_ts\", \"page\"]", exp), 1);
    cr_assert_eq(net_score("retrieve", "\"ignored_query_params_patterns\": [\"^(?!q$|sort$).*$\"]", exp), 1,
                 "their negative look-ahead form");
    cr_assert_eq(net_score("retrieve", "\"ignored_query_params_patterns\": [\"^(?!q$|sort$).*$\"]",
                           "{\"url\": \"__PLAYGROUND__/search\", \"query_params\": {\"q\": [\"^sho.*$\"], \"sort\": [\"price\"]}}"),
                 1, "query_params given apart, a regex value");
}

Test(verified_network, should_not_exist_and_missing_har)
{
    cr_assert_eq(net_score("mutate", "\"should_not_exist\": true",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/delete\", \"http_method\": \"POST\"}"),
                 1);
    cr_assert_eq(net_score("mutate", "\"should_not_exist\": true",
                           "{\"url\": \"__PLAYGROUND__/api/orders/7/status\", \"http_method\": \"POST\"}"),
                 0);
    cJSON *task = net_task("mutate", "", "{\"url\": \"__PLAYGROUND__/x\"}");
    cJSON *r = vf_score_task(task, NULL, NULL);
    cr_assert_str_eq(eous_json_str(r, "status"), "error", "no HAR: the network evaluator could not run");
    cJSON_Delete(r), cJSON_Delete(task);
}

Test(verified_network, malformed_har_is_one_clear_line)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"not json", "invalid JSON"},
        {"{\"log\": {}}", "expected {\"log\": {\"entries\""},
        {"{\"log\": {\"entries\": []}}", "no entries"},
        {"{\"log\": {\"entries\": [{\"request\": {\"url\": \"x\", \"method\": \"GET\", \"headers\": []}}]}}",
         "entry #0: expected a \"response\""},
        {"{\"log\": {\"entries\": [{\"request\": {\"url\": \"x\", \"method\": \"GET\"}, \"response\": {\"status\": 200}}]}}",
         "request.headers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        vf_har h;
        eous_err err;
        eous_err_clear(&err);
        cr_assert_neq(vf_har_parse(cases[i].text, strlen(cases[i].text), "t.har", &h, &err), EOUS_OK);
        cr_assert(strstr(err.msg, cases[i].want), "%s -> %s", cases[i].text, err.msg);
        cr_assert_null(strchr(err.msg, '\n'), "one line");
    }
}

/* A HAR read for the evaluators keeps, per entry, exactly what the whole parse has under the fields they
 * read (first occurrence, as a lookup finds it), on their demo HAR, an eous HAR and ours. */
Test(verified_har, the_evaluators_fields_read_as_the_whole_parse_has_them)
{
    static const char *files[] = {FIX "/demo/network.har", FIX "/eous_dokuwiki.har", FIX "/small.har"};
    static const char *rq_keys[] = {"url", "method", "headers", "postData"}, *rs_keys[] = {"status", "content", "cookies"};
    for (size_t f = 0; f < 3; f++) {
        char *text = NULL;
        size_t len = 0;
        cr_assert_eq(eous_read_file(files[f], 0, &text, &len, NULL), EOUS_OK);
        cJSON *pruned = vf_har_prune(text, len), *all = cJSON_ParseWithLength(text, len);
        cr_assert(pruned && all, "%s", files[f]);
        const cJSON *pe = eous_json_arr(eous_json_obj(pruned, "log"), "entries")->child;
        const cJSON *ae;
        int n = 0;
        cJSON_ArrayForEach(ae, eous_json_arr(eous_json_obj(all, "log"), "entries")) {
            cr_assert_not_null(pe, "%s: entry %d kept", files[f], n);
            for (int part = 0; part < 2; part++) {
                const char *pn = part ? "response" : "request";
                const cJSON *pa = eous_json_obj(ae, pn), *pp = eous_json_obj(pe, pn);
                for (int k = 0; k < (part ? 3 : 4); k++) {
                    const char *key = part ? rs_keys[k] : rq_keys[k];
                    const cJSON *x = cJSON_GetObjectItemCaseSensitive(pa, key), *y = cJSON_GetObjectItemCaseSensitive(pp, key);
                    cr_assert(x ? y && cJSON_Compare(x, y, 1) : !y, "%s entry %d %s.%s", files[f], n, pn, key);
                }
                cr_assert_null(cJSON_GetObjectItemCaseSensitive(pp, part ? "headers" : "httpVersion"),
                               "what no evaluator reads is left out");
            }
            pe = pe->next;
            n++;
        }
        cr_assert_null(pe, "no extra entries");
        cr_assert_gt(n, 0);
        cJSON_Delete(pruned), cJSON_Delete(all);
        free(text);
    }
}

/* What the fast reader does not take exactly as cJSON does is read whole, so it reads as before: a lone
 * surrogate cJSON refuses (in a field no evaluator reads), an escaped key, trailing bytes, a duplicate key. */
Test(verified_har, anything_odd_is_read_as_the_whole_parse_reads_it)
{
#define ENTRY(rq) "{\"request\": " rq ", \"response\": {\"status\": 200}}"
#define REQ "{\"url\": \"http://a/x\", \"method\": \"GET\", \"headers\": []}"
    static const char *refused[] = {
        "{\"log\": {\"entries\": [" ENTRY(REQ) "], \"comment\": \"\\udc00\"}}",
        "{\"log\": {\"entries\": [" ENTRY(REQ) "], \"comment\": \"\\ud800x\"}}",
        "{\"log\": {\"entries\": [" ENTRY(REQ) "]}} x",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        cr_assert_null(vf_har_prune(refused[i], strlen(refused[i])), "%s", refused[i]);
        vf_har h;
        eous_err err;
        eous_err_clear(&err);
        cr_assert_neq(vf_har_parse(refused[i], strlen(refused[i]), "t.har", &h, &err), EOUS_OK, "%s", refused[i]);
        cr_assert(strstr(err.msg, "invalid JSON"), "%s", err.msg);
    }
    /* "ur\u006c" is "url": read whole, the URL is found */
    const char *escaped = "{\"log\": {\"entries\": [" ENTRY("{\"ur\\u006c\": \"http://a/esc\", \"method\": \"GET\", "
                          "\"headers\": []}") "]}}";
    cr_assert_null(vf_har_prune(escaped, strlen(escaped)));
    vf_har h;
    eous_err err;
    cr_assert_eq(vf_har_parse(escaped, strlen(escaped), "t.har", &h, &err), EOUS_OK, "%s", err.msg);
    cr_assert_str_eq(eous_json_str(eous_json_obj(h.entries->child, "request"), "url"), "http://a/esc");
    vf_har_free(&h);
    /* two "url" keys: the first counts, as in the whole tree */
    const char *dup = "{\"log\": {\"entries\": [" ENTRY("{\"url\": \"http://a/first\", \"url\": \"http://a/second\", "
                      "\"method\": \"GET\", \"headers\": []}") "]}}";
    cJSON *p = vf_har_prune(dup, strlen(dup));
    cr_assert_not_null(p);
    cr_assert_str_eq(eous_json_str(eous_json_obj(eous_json_arr(eous_json_obj(p, "log"), "entries")->child, "request"),
                                   "url"),
                     "http://a/first");
    cJSON_Delete(p);
#undef ENTRY
#undef REQ
}

/* ---- loading ---- */

Test(verified_task, loads_verified_configs_and_picks_by_id)
{
    setenv("EOUS_SITE_PLAYGROUND", "http://127.0.0.1:8080", 1);
    const char *f = FIX "/tasks.json#107,108";
    wa_task_list l;
    eous_err err;
    eous_err_clear(&err);
    setenv("EOUS_SITE_SHOPPING_ADMIN", "http://127.0.0.1:7780/admin", 1);
    cr_assert_eq(wa_tasks_load(&f, 1, &l, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(l.n, 2);
    cr_assert_str_eq(l.tasks[0].id, "107");
    cr_assert_not_null(l.tasks[0].verified);
    cr_assert_null(l.tasks[0].eval);
    cr_assert_str_eq(l.tasks[0].start_url, "http://127.0.0.1:7780/admin");
    cr_assert_str_eq(l.tasks[0].problem, "");
    wa_tasks_free(&l);
    f = FIX "/tasks.json#99999";
    cr_assert_neq(wa_tasks_load(&f, 1, &l, &err), EOUS_OK);
    cr_assert(strstr(err.msg, "no config has task_id 99999"), "%s", err.msg);
}

/* ---- the answer: stop takes JSON, the model is told the format ---- */

#include "actions/action.h"
#include "bench/verified_run.h"
#include "llm/llm_int.h"

Test(verified_answer, stop_takes_json_in_every_form)
{
    act_action a;
    act_action_init(&a);
    eous_err err;
    eous_err_clear(&err);
    cJSON *step = cJSON_Parse("{\"stop\": {\"task_type\": \"RETRIEVE\", \"status\": \"SUCCESS\", \"retrieved_data\": [7]}}");
    cr_assert_eq(act_parse_script_step(step, &a, &err), EOUS_OK, "%s", err.msg);
    cJSON *j = cJSON_Parse(a.text);
    cr_assert_str_eq(eous_json_str(j, "status"), "SUCCESS", "a script's answer object kept as JSON: %s", a.text);
    cJSON_Delete(j), cJSON_Delete(step);
    act_action_clear(&a);
    cr_assert_eq(act_parse_tool_call("stop", "{\"answer\": {\"task_type\": \"NAVIGATE\", \"status\": \"SUCCESS\"}}", &a, &err),
                 EOUS_OK, "%s", err.msg);
    cr_assert(strstr(a.text, "\"NAVIGATE\""), "%s", a.text);
    act_action_clear(&a);
    cr_assert_eq(act_parse_text("```stop [{\"task_type\": \"MUTATE\", \"status\": \"SUCCESS\"}]```", &a, &err), EOUS_OK,
                 "%s", err.msg);
    j = cJSON_Parse(a.text);
    cr_assert_str_eq(eous_json_str(j, "task_type"), "MUTATE", "WebArena text stop carries JSON: %s", a.text);
    cJSON_Delete(j);
    act_action_clear(&a);
}

Test(verified_answer, the_model_is_told_the_format_and_the_tool_takes_an_object)
{
    cJSON *tasks = load(FIX "/tasks.json");
    wa_task t = {.raw = task_by_id(tasks, 108), .intent = "Get the monthly count"};
    char *objective = NULL;
    cJSON *schema = NULL;
    bench_verified_objective(&t, &objective, &schema);
    cr_assert(strstr(objective, "Get the monthly count\n\n"), "%s", objective);
    cr_assert(strstr(objective, "retrieve here"), "the task type: %s", objective);
    cr_assert(strstr(objective, "\"format\":\"month\""), "the results_schema: %s", objective);
    cJSON *tools = llm_tools_json(LLM_OPENAI, 1, schema);
    const cJSON *tool, *answer = NULL;
    cJSON_ArrayForEach(tool, tools) {
        const cJSON *fn = eous_json_obj(tool, "function");
        if (!strcmp(eous_json_str(fn, "name"), "stop"))
            answer = eous_json_obj(eous_json_obj(eous_json_obj(fn, "parameters"), "properties"), "answer");
    }
    cr_assert_not_null(answer);
    cr_assert_str_eq(eous_json_str(answer, "type"), "object");
    cr_assert_not_null(eous_json_obj(eous_json_obj(eous_json_obj(answer, "properties"), "retrieved_data"), "items"));
    cJSON_Delete(tools);
    tools = llm_tools_json(LLM_OPENAI, 1, NULL);
    cJSON_ArrayForEach(tool, tools) {
        const cJSON *fn = eous_json_obj(tool, "function");
        if (!strcmp(eous_json_str(fn, "name"), "stop"))
            cr_assert_str_eq(eous_json_str(eous_json_obj(eous_json_obj(eous_json_obj(fn, "parameters"), "properties"), "answer"),
                                           "type"),
                             "string", "other tasks keep a string answer");
    }
    cJSON_Delete(tools);
    cJSON_Delete(schema);
    free(objective);
    cJSON_Delete(tasks);
}

/* ---- the HAR writer ---- */

#include "actions/secrets.h"
#include "webarena/har.h"

static cJSON *perf_event(const char *method, const char *params_json)
{
    char *msg = NULL;
    cr_assert(asprintf(&msg, "{\"message\": {\"method\": \"%s\", \"params\": %s}}", method, params_json) > 0);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "message", msg);
    free(msg);
    return e;
}

Test(verified_har, events_become_har_entries_with_secrets_replaced)
{
    /* a {{secret:HARPW}} value, as --secrets or EOUS_SECRET_* register it */
    setenv("EOUS_SECRET_HARPW", "p@ss w0rd!42", 1);
    act_secrets *sec = NULL;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(act_secrets_new(&sec, &err), EOUS_OK, "%s", err.msg);
    cJSON *log = cJSON_CreateArray();
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSent",
        "{\"requestId\": \"1\", \"timestamp\": 5.0, \"wallTime\": 1750000000.25, \"request\": {\"url\": "
        "\"http://127.0.0.1:8080/login?next=%2Fhome\", \"method\": \"POST\", \"headers\": {\"Content-Type\": "
        "\"application/x-www-form-urlencoded\"}, \"postData\": \"u=mira&pw=p%40ss+w0rd%2142&note=keep\", "
        "\"hasPostData\": true}}"));
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSentExtraInfo",
        "{\"requestId\": \"1\", \"headers\": {\"Cookie\": \"sid=abc123\", \"Authorization\": \"Basic eHl6\", "
        "\"Sec-Fetch-Mode\": \"navigate\", \"Content-Type\": \"application/x-www-form-urlencoded\"}}"));
    cJSON_AddItemToArray(log, perf_event("Network.responseReceived",
        "{\"requestId\": \"1\", \"timestamp\": 5.1, \"response\": {\"status\": 302, \"statusText\": \"Found\", "
        "\"headers\": {\"Location\": \"/home\", \"Set-Cookie\": \"sid=def456\"}, \"mimeType\": \"text/html\", "
        "\"protocol\": \"http/1.1\"}}"));
    cJSON_AddItemToArray(log, perf_event("Network.loadingFinished",
        "{\"requestId\": \"1\", \"timestamp\": 5.2, \"encodedDataLength\": 10}"));
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSent",
        "{\"requestId\": \"2\", \"timestamp\": 6.0, \"wallTime\": 1750000001, \"request\": {\"url\": "
        "\"http://127.0.0.1:8080/old\", \"method\": \"GET\", \"headers\": {}}}"));
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSent",
        "{\"requestId\": \"2\", \"timestamp\": 6.1, \"wallTime\": 1750000001.1, \"redirectResponse\": {\"status\": 301, "
        "\"headers\": {\"Location\": \"/new\"}, \"mimeType\": \"\"}, \"request\": {\"url\": "
        "\"http://127.0.0.1:8080/new\", \"method\": \"GET\", \"headers\": {}}}"));
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSent",
        "{\"requestId\": \"3\", \"timestamp\": 7.0, \"request\": {\"url\": \"http://127.0.0.1:8080/api\", \"method\": "
        "\"PUT\", \"headers\": {\"Content-Type\": \"application/json\"}, \"postData\": "
        "\"{\\\"title\\\": \\\"x\\\", \\\"password\\\": \\\"other\\\", \\\"text\\\": \\\"p@ss w0rd!42\\\"}\"}}"));
    cJSON_AddItemToArray(log, perf_event("Network.requestWillBeSent",
        "{\"requestId\": \"4\", \"timestamp\": 8.0, \"request\": {\"url\": \"chrome://newtab/\", \"method\": \"GET\", "
        "\"headers\": {}}}"));
    cJSON *har = wa_har_build(log, NULL);
    char *text = cJSON_PrintUnformatted(har);
    cr_assert_null(strstr(text, "p@ss w0rd!42"), "the secret as it is: %s", text);
    cr_assert_null(strstr(text, "p%40ss+w0rd%2142"), "the secret URL-encoded");
    cr_assert_null(strstr(text, "abc123"), "no cookie value");
    cr_assert_null(strstr(text, "def456"), "no Set-Cookie value");
    cr_assert_null(strstr(text, "eHl6"), "no Authorization value");
    cr_assert_null(strstr(text, "other"), "a password field's value");
    const cJSON *entries = eous_json_arr(eous_json_obj(har, "log"), "entries");
    cr_assert_eq(cJSON_GetArraySize(entries), 4, "login, the redirect's two hops, the PUT; no chrome:// entry");
    const cJSON *login = cJSON_GetArrayItem(entries, 0);
    const cJSON *rq = eous_json_obj(login, "request");
    cr_assert_str_eq(eous_json_str(eous_json_obj(rq, "postData"), "text"), "u=mira&pw=%5Bredacted%5D&note=keep");
    cr_assert_eq(eous_json_num(eous_json_obj(login, "response"), "status", 0), 302);
    cr_assert_str_eq(eous_json_str(eous_json_obj(login, "response"), "redirectURL"), "/home");
    cr_assert_str_eq(eous_json_str(login, "startedDateTime"), "2025-06-15T15:06:40.250Z");
    int sec_fetch = 0;
    const cJSON *h;
    cJSON_ArrayForEach(h, eous_json_arr(rq, "headers")) sec_fetch += !strcmp(eous_json_str(h, "name"), "Sec-Fetch-Mode");
    cr_assert_eq(sec_fetch, 1, "the full headers of the ExtraInfo event");
    cr_assert_str_eq(eous_json_str(cJSON_GetArrayItem(eous_json_arr(rq, "queryString"), 0), "value"), "/home");
    cr_assert_eq(eous_json_num(eous_json_obj(cJSON_GetArrayItem(entries, 1), "response"), "status", 0), 301);
    cr_assert_str_eq(eous_json_str(eous_json_obj(cJSON_GetArrayItem(entries, 2), "request"), "url"),
                     "http://127.0.0.1:8080/new");
    /* what it wrote reads back as a HAR */
    vf_har back;
    cr_assert_eq(vf_har_parse(text, strlen(text), "built", &back, &err), EOUS_OK, "%s", err.msg);
    vf_har_free(&back);
    free(text);
    cJSON_Delete(har);
    cJSON_Delete(log);
    act_secrets_free(sec);
}
