/* tests/actions/test_act_validate.c — params against interaction metadata M, in C. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "actions/act_int.h"
#include "actions/validate.h"

static cJSON *J(const char *s)
{
    cJSON *j = cJSON_Parse(s);
    cr_assert(j, "bad test JSON: %s", s);
    return j;
}

/* A component whose T/M come from JSON text; freed by comp_free. */
typedef struct tcomp {
    perc_component c;
    cJSON *state, *tools, *meta;
} tcomp;

static void comp_init(tcomp *t, const char *tools, const char *meta)
{
    memset(t, 0, sizeof *t);
    t->state = cJSON_CreateObject();
    t->tools = J(tools);
    t->meta = J(meta);
    t->c.key = "datepicker-checkin";
    t->c.kind = "datepicker";
    t->c.label = "Check-in";
    t->c.provider = "ci4a";
    t->c.provider_bit = PERC_PROVIDER_CI4A;
    t->c.state = t->state;
    t->c.tools = t->tools;
    t->c.metadata = t->meta;
    t->c.visible = 1;
}

static void comp_free(tcomp *t)
{
    cJSON_Delete(t->state);
    cJSON_Delete(t->tools);
    cJSON_Delete(t->meta);
}

/* Validates params text; returns rc and leaves the message in err. */
static eous_rc run(const perc_component *c, const char *tool, const char *params, eous_err *err)
{
    cJSON *p = params ? J(params) : NULL;
    eous_err_clear(err);
    eous_rc rc = act_validate(c, tool, p, err);
    cJSON_Delete(p);
    return rc;
}

static const char *DATE_META =
    "{\"setValue\": {\"description\": \"Set the date\","
    "  \"params\": {\"date\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD\", \"required\": true,"
    "               \"min\": \"2025-01-01\", \"max\": \"2026-12-31\", \"disabled\": [\"2025-12-25\"]}}},"
    " \"clear\": {\"params\": {}}}";

Test(act_validate, accepts_a_valid_date)
{
    tcomp t;
    comp_init(&t, "[\"setValue\", \"clear\"]", DATE_META);
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-12-31\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "clear", NULL, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "clear", "{}", &err), EOUS_OK, "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, disabled_date_message_lists_constraints)
{
    tcomp t;
    comp_init(&t, "[\"setValue\", \"clear\"]", DATE_META);
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-12-25\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "setValue: date must be YYYY-MM-DD within 2025-01-01..2026-12-31, not 2025-12-25 "
                              "(got \"2025-12-25\": disabled)");
    comp_free(&t);
}

Test(act_validate, date_bounds_calendar_and_shape)
{
    tcomp t;
    comp_init(&t, "[\"setValue\"]", DATE_META);
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2024-12-31\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "within 2025-01-01..2026-12-31"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2027-01-01\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-02-30\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "no such date"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-02-29\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-13-01\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-04-31\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"31/12/2025\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "(got \"31/12/2025\")"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-1-5\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-12-31 \"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": 20251231}", &err), EOUS_E_REJECTED);
    /* leap day in a leap year */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(t.meta, "setValue"),
                                                                      "params"), "date"),
                              "max", cJSON_CreateString("2028-12-31"));
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2028-02-29\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2100-02-29\"}", &err), EOUS_E_REJECTED);
    comp_free(&t);
}

Test(act_validate, unknown_tool_lists_tools)
{
    tcomp t;
    comp_init(&t, "[\"setValue\", \"clear\"]", DATE_META);
    eous_err err;
    cr_assert_eq(run(&t.c, "setVal", "{}", &err), EOUS_E_NOT_FOUND);
    cr_assert(strstr(err.msg, "datepicker-checkin"), "%s", err.msg);
    cr_assert(strstr(err.msg, "no tool \"setVal\" (tools: setValue, clear)"), "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, unknown_and_missing_params)
{
    tcomp t;
    comp_init(&t, "[\"setValue\"]", DATE_META);
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-06-01\", \"when\": 1}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "unknown param \"when\" (takes date)"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "setValue: missing date (YYYY-MM-DD within"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "[1]", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "params must be an object"), "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, types)
{
    tcomp t;
    comp_init(&t, "[\"set\"]",
              "{\"set\": {\"params\": {\"s\": {\"type\": \"string\"}, \"n\": {\"type\": \"number\"},"
              " \"i\": {\"type\": \"integer\"}, \"b\": {\"type\": \"boolean\"}, \"a\": {\"type\": \"array\"},"
              " \"o\": {\"type\": \"object\"}, \"sn\": {\"type\": [\"string\", \"null\"]}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "set", "{\"s\": \"x\", \"n\": 1.5, \"i\": 3, \"b\": false, \"a\": [], \"o\": {},"
                                  " \"sn\": null}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "set", "{\"s\": 1}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: s must be a string (got 1)");
    cr_assert_eq(run(&t.c, "set", "{\"n\": \"1\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: n must be a number (got \"1\")");
    cr_assert_eq(run(&t.c, "set", "{\"i\": 2.5}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: i must be an integer (got 2.5)");
    cr_assert_eq(run(&t.c, "set", "{\"b\": \"yes\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: b must be true or false (got \"yes\")");
    cr_assert_eq(run(&t.c, "set", "{\"a\": {}}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "set", "{\"o\": []}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "set", "{\"sn\": 3}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: sn must be a string or null (got 3)");
    /* every failing param is reported at once */
    cr_assert_eq(run(&t.c, "set", "{\"s\": 1, \"b\": 0}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "set: s must be a string (got 1); b must be true or false (got 0)");
    comp_free(&t);
}

Test(act_validate, enum_values_and_labels)
{
    tcomp t;
    comp_init(&t, "[\"select\", \"sort\"]",
              "{\"select\": {\"params\": {\"value\": {\"type\": \"string\", \"required\": true,"
              "   \"enum\": [{\"value\": \"fr\", \"label\": \"France\"}, {\"value\": \"de\", \"label\": \"Germany\"}]}}},"
              " \"sort\": {\"params\": {\"order\": {\"type\": \"string\", \"enum\": [\"ascend\", \"descend\"]}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "select", "{\"value\": \"fr\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "select", "{\"value\": \"France\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "select: value must be one of \"fr\" (France), \"de\" (Germany) (got \"France\")");
    cr_assert_eq(run(&t.c, "sort", "{\"order\": \"up\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "sort: order must be one of \"ascend\", \"descend\" (got \"up\")");
    comp_free(&t);
}

Test(act_validate, number_min_max_step_and_disabled)
{
    tcomp t;
    comp_init(&t, "[\"setValue\", \"goToPage\"]",
              "{\"setValue\": {\"params\": {\"value\": {\"type\": \"number\", \"min\": 1, \"max\": 10, \"step\": 0.5,"
              "   \"disabled\": [7]}}},"
              " \"goToPage\": {\"params\": {\"page\": {\"type\": \"integer\", \"min\": 1, \"max\": 4}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 2.5}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 10}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 11}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "setValue: value must be a number within 1..10 in steps of 0.5 from 1, not 7 (got 11)");
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 0}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 2.25}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": 7}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "disabled"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "goToPage", "{\"page\": 5}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "goToPage: page must be an integer within 1..4 (got 5)");
    comp_free(&t);
}

Test(act_validate, time_and_datetime_formats)
{
    tcomp t;
    comp_init(&t, "[\"at\", \"atsec\", \"when\", \"t\"]",
              "{\"at\": {\"params\": {\"time\": {\"type\": \"string\", \"format\": \"HH:mm\", \"min\": \"09:00\","
              "  \"max\": \"17:30\"}}},"
              " \"atsec\": {\"params\": {\"time\": {\"type\": \"string\", \"format\": \"HH:mm:ss\"}}},"
              " \"when\": {\"params\": {\"at\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD HH:mm\","
              "  \"min\": \"2025-01-01\", \"max\": \"2025-12-31\", \"disabled\": [\"2025-05-01\", \"2025-06-01 12:00\"]}}},"
              " \"t\": {\"params\": {\"t\": {\"type\": \"string\", \"format\": \"time\"}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "at", "{\"time\": \"09:15\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "at", "{\"time\": \"08:59\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "at: time must be HH:mm within 09:00..17:30 (got \"08:59\")");
    cr_assert_eq(run(&t.c, "at", "{\"time\": \"24:00\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "at", "{\"time\": \"9:15\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "atsec", "{\"time\": \"23:59:59\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "atsec", "{\"time\": \"23:59:60\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "atsec", "{\"time\": \"23:59\"}", &err), EOUS_E_REJECTED);
    /* a date-only max covers the whole last day */
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2025-12-31 23:30\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2026-01-01 00:00\"}", &err), EOUS_E_REJECTED);
    /* a disabled day covers its times; a disabled slot only itself */
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2025-05-01 10:00\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2025-06-01 12:00\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2025-06-01 12:30\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "when", "{\"at\": \"2025-06-01\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "must be YYYY-MM-DD HH:mm"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "t", "{\"t\": \"10:00\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "t", "{\"t\": \"10:00:05\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "t", "{\"t\": \"10h\"}", &err), EOUS_E_REJECTED);
    comp_free(&t);
}

Test(act_validate, tool_level_constraints_and_disabled_ranges)
{
    tcomp t;
    /* the seed paper's shape: constraints and disabledDates beside params */
    comp_init(&t, "[\"setValue\"]",
              "{\"setValue\": {\"params\": {\"date\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD\"}},"
              "  \"constraints\": {\"min\": \"2025-01-01\", \"max\": \"2026-12-31\"},"
              "  \"disabledDates\": [\"2025-12-25\", {\"from\": \"2026-02-01\", \"to\": \"2026-02-10\"}]}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-12-24\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2024-12-24\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2025-12-25\"}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2026-02-05\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "not 2025-12-25, 2026-02-01..2026-02-10"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"date\": \"2026-02-11\"}", &err), EOUS_OK, "%s", err.msg);
    comp_free(&t);

    /* constraints keyed by param name */
    comp_init(&t, "[\"book\"]",
              "{\"book\": {\"params\": {\"nights\": {\"type\": \"integer\"}, \"note\": {\"type\": \"string\"}},"
              "  \"constraints\": {\"nights\": {\"min\": 1, \"max\": 14}}}}");
    cr_assert_eq(run(&t.c, "book", "{\"nights\": 15}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "book: nights must be an integer within 1..14 (got 15)");
    cr_assert_eq(run(&t.c, "book", "{\"nights\": 3, \"note\": \"x\"}", &err), EOUS_OK, "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, arrays_items_and_nested_objects)
{
    tcomp t;
    comp_init(&t, "[\"filter\", \"range\"]",
              "{\"filter\": {\"params\": {\"column\": {\"type\": \"string\", \"enum\": [\"status\", \"city\"]},"
              "  \"values\": {\"type\": \"array\", \"minItems\": 1, \"maxItems\": 3,"
              "              \"items\": {\"type\": \"string\", \"enum\": [\"open\", \"closed\", \"held\"]}}}},"
              " \"range\": {\"params\": {\"r\": {\"type\": \"object\", \"properties\": {"
              "   \"from\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD\", \"required\": true},"
              "   \"to\": {\"type\": \"string\", \"format\": \"YYYY-MM-DD\"}}}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "filter", "{\"column\": \"status\", \"values\": [\"open\", \"held\"]}", &err), EOUS_OK,
                 "%s", err.msg);
    cr_assert_eq(run(&t.c, "filter", "{\"values\": []}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "values must be a list of 1..3 items, each one of \"open\", \"closed\", \"held\""),
              "%s", err.msg);
    cr_assert_eq(run(&t.c, "filter", "{\"values\": [\"open\", \"shut\"]}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "filter: values[1] must be one of \"open\", \"closed\", \"held\" (got \"shut\")");
    cr_assert_eq(run(&t.c, "filter", "{\"values\": [1, 2, 3, 4]}", &err), EOUS_E_REJECTED);
    cr_assert_eq(run(&t.c, "range", "{\"r\": {\"from\": \"2025-01-01\"}}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "range", "{\"r\": {\"to\": \"2025-01-01\"}}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "range: missing r.from (YYYY-MM-DD)");
    cr_assert_eq(run(&t.c, "range", "{\"r\": {\"from\": \"2025-01-01\", \"x\": 1}}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "range: unknown param \"r.x\" (takes from, to)");
    cr_assert_eq(run(&t.c, "range", "{\"r\": {\"from\": \"2025-02-31\"}}", &err), EOUS_E_REJECTED);
    comp_free(&t);
}

Test(act_validate, webmcp_json_schema)
{
    tcomp t;
    comp_init(&t, "[\"search_flights\"]",
              "{\"search_flights\": {\"description\": \"Find flights\", \"inputSchema\": {\"type\": \"object\","
              "  \"properties\": {\"from\": {\"type\": \"string\", \"minLength\": 3, \"maxLength\": 3,"
              "                            \"pattern\": \"^[A-Z]+$\"},"
              "                  \"passengers\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 9},"
              "                  \"cabin\": {\"type\": \"string\", \"enum\": [\"economy\", \"business\"]},"
              "                  \"dates\": {\"type\": \"array\", \"items\": {\"type\": \"string\", \"format\": \"date\"}},"
              "                  \"opts\": {\"type\": \"object\", \"properties\": {\"flex\": {\"type\": \"boolean\"}},"
              "                             \"additionalProperties\": false}},"
              "  \"required\": [\"from\", \"passengers\"]}}}");
    t.c.provider = "webmcp";
    t.c.provider_bit = PERC_PROVIDER_WEBMCP;
    t.c.kind = "webmcp";
    eous_err err;
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"CDG\", \"passengers\": 2, \"cabin\": \"economy\","
                                             " \"dates\": [\"2025-03-01\"], \"opts\": {\"flex\": true}}", &err),
                 EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"CDG\"}", &err), EOUS_E_REJECTED);
    cr_assert_str_eq(err.msg, "search_flights: missing passengers (an integer within 1..9)");
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"cdg\", \"passengers\": 0}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "from must be a string of 3..3 characters matching /^[A-Z]+$/ (got \"cdg\")"), "%s",
              err.msg);
    cr_assert(strstr(err.msg, "passengers must be an integer within 1..9 (got 0)"), "%s", err.msg);
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"CDG\", \"passengers\": 1, \"pets\": 1}", &err),
                 EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "unknown param \"pets\""), "%s", err.msg);
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"CDG\", \"passengers\": 1, \"opts\": {\"x\": 1}}", &err),
                 EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "unknown param \"opts.x\""), "%s", err.msg);
    cr_assert_eq(run(&t.c, "search_flights", "{\"from\": \"CDG\", \"passengers\": 1, \"dates\": [\"2025-02-29\"]}",
                     &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "dates[0] must be YYYY-MM-DD"), "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, disabled_component_and_secret_placeholders)
{
    tcomp t;
    comp_init(&t, "[\"setValue\"]",
              "{\"setValue\": {\"params\": {\"value\": {\"type\": \"string\", \"minLength\": 8, \"required\": true}}}}");
    eous_err err;
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": \"{{secret:PIN}}\"}", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": \"short\"}", &err), EOUS_E_REJECTED);
    t.c.disabled = 1;
    cr_assert_eq(run(&t.c, "setValue", "{\"value\": \"long enough\"}", &err), EOUS_E_REJECTED);
    cr_assert(strstr(err.msg, "is disabled"), "%s", err.msg);
    comp_free(&t);
}

Test(act_validate, metadata_without_params_or_tool_entry)
{
    eous_err err;
    cJSON *tools = J("[\"open\", \"close\"]"), *meta = J("{}"), *p = J("{\"anything\": 1}");
    cr_assert_eq(act_validate_meta(tools, meta, "open", p, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_validate_meta(tools, meta, "toggle", p, &err), EOUS_E_NOT_FOUND);
    cr_assert_eq(act_validate_meta(NULL, NULL, "x", NULL, &err), EOUS_E_NOT_FOUND);
    cJSON_Delete(tools);
    cJSON_Delete(meta);
    cJSON_Delete(p);
}

Test(act_validate, describe_spec)
{
    char out[256];
    cJSON *s = J("{\"type\": \"string\", \"format\": \"YYYY-MM-DD\", \"min\": \"2025-01-01\"}");
    act_spec_describe(s, out, sizeof out);
    cr_assert_str_eq(out, "YYYY-MM-DD on or after 2025-01-01");
    cJSON_Delete(s);
    s = J("{\"type\": \"number\", \"max\": 5}");
    act_spec_describe(s, out, sizeof out);
    cr_assert_str_eq(out, "a number <= 5");
    cJSON_Delete(s);
}

Test(act_text, fold_words_glob_url)
{
    char out[64];
    act_fold("Région Straße ÆON", out, sizeof out);
    cr_assert_str_eq(out, "region strasse aeon");
    cr_assert(act_words_match("name", "Display name"));
    cr_assert(!act_words_match("name", "Username"));
    cr_assert(act_words_match("region", "Région"));
    cr_assert(act_words_match("check in", "Check-in date"));
    cr_assert(!act_words_match("", "x"));
    cr_assert(act_glob("Delete*", "délete account"));
    cr_assert(!act_glob("Delete", "Delete account"));
    act_url u;
    cr_assert_eq(act_url_parse(" JaVa\tScript:alert(1)", &u), 0);
    cr_assert_str_eq(u.scheme, "javascript");
    cr_assert_eq(act_url_parse("http://user@127.0.0.1@Evil.COM.:8080/x", &u), 0);
    cr_assert_str_eq(u.host, "evil.com");
    cr_assert_eq(u.port, 8080);
    cr_assert_eq(act_url_parse("https:\\\\evil.com\\@good.com/", &u), 0);
    cr_assert_str_eq(u.host, "evil.com");
    cr_assert_eq(u.port, 443);
    cr_assert_eq(act_url_parse("http://[::1]:99/", &u), 0);
    cr_assert_str_eq(u.host, "[::1]");
    cr_assert_eq(act_url_parse("http://%65vil.com/", &u), -1);
    cr_assert_eq(act_url_parse("", &u), -1);
}

/* The fuzzer's corpus replayed in the ordinary test run (tests/fuzz/corpus/fuzz_validate). */
#include <dirent.h>

#include "fuzz/fuzz_validate.c"

Test(act_validate, fuzz_corpus_replays)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/fuzz_validate", EOUS_SOURCE_DIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "corpus %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = NULL;
        size_t len = 0;
        cr_assert_eq(eous_read_file(path, 0, &text, &len, NULL), EOUS_OK, "%s", path);
        LLVMFuzzerTestOneInput((const uint8_t *)text, len);
        free(text);
        n++;
    }
    closedir(d);
    cr_assert_gt(n, 1);
}
