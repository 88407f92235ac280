/* tests/perception/test_meta.c — perception/meta.c: a tool's metadata M read once, and
 * the promise it exists for: every limit the validator (actions/validate.c)
 * enforces is printed on the hybrid view's tools line (perception/view_hybrid.c).
 * For each kind of limit: an M with it, a value past it that the validator
 * refuses, a value inside it that passes, and the text the tools line shows.
 * Views are built from recorded data (perc_build), no browser. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/validate.h"
#include "perception/meta.h"
#include "perception/perc.h"

/* One generic element carrying data-cid="k", so component k is on screen
 * and its tools line is printed whole. */
static const char AX[] =
    "{\"nodes\":[{\"nodeId\":\"1\",\"ignored\":false,\"role\":{\"type\":\"role\",\"value\":\"RootWebArea\"},"
    "\"name\":{\"type\":\"computedString\",\"value\":\"T\"},\"childIds\":[\"2\"],\"backendDOMNodeId\":1},"
    "{\"nodeId\":\"2\",\"ignored\":false,\"role\":{\"type\":\"role\",\"value\":\"generic\"},"
    "\"name\":{\"type\":\"computedString\",\"value\":\"\"},\"childIds\":[],\"backendDOMNodeId\":2}]}";
static const char DOM[] = "{\"strings\":[\"#document\",\"DIV\",\"data-cid\",\"k\"],"
                          "\"documents\":[{\"nodes\":{\"parentIndex\":[-1,0],\"backendNodeId\":[1,2],"
                          "\"nodeName\":[0,1],\"attributes\":[[],[2,3]]}}]}";

/* The tools line of a component whose tool "t" has metadata tool_meta (JSON
 * text): what follows " → " on its line (caller frees). */
static char *tools_line(const char *tool_meta)
{
    char reg[8192];
    snprintf(reg, sizeof reg,
             "{\"k\":{\"kind\":\"field\",\"label\":\"F\",\"state\":{},\"tools\":[\"t\"],\"metadata\":{\"t\":%s}}}",
             tool_meta);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_HYBRID;
    perc_obs *obs = NULL;
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(perc_build(AX, strlen(AX), DOM, strlen(DOM), reg, strlen(reg), "http://t.test/", &o, &obs, &err),
                 EOUS_OK, "%s", err.msg);
    const char *text = perc_obs_text(obs);
    const char *arrow = strstr(text, "[c1] field 'F' → ");
    cr_assert_not_null(arrow, "no tools line for %s in:\n%s", tool_meta, text);
    arrow += strlen("[c1] field 'F' → ");
    char *line = strndup(arrow, strcspn(arrow, "\n"));
    perc_obs_free(obs);
    return line;
}

static eous_rc validate(const char *tool_meta, const char *params, eous_err *err)
{
    char md[8192];
    snprintf(md, sizeof md, "{\"t\":%s}", tool_meta);
    cJSON *m = cJSON_Parse(md), *p = cJSON_Parse(params);
    cr_assert_not_null(m, "bad test M: %s", md);
    cr_assert_not_null(p, "bad test params: %s", params);
    eous_err_clear(err);
    eous_rc rc = act_validate_meta(NULL, m, "t", p, err);
    cJSON_Delete(m);
    cJSON_Delete(p);
    return rc;
}

/* Which perc_limits members a case exercises, to check none is left out. */
#define LIM(f) {offsetof(perc_limits, f), sizeof(((perc_limits *)0)->f)}
typedef struct { size_t off, size; } member;

typedef struct limit_case {
    const char *what;
    const char *meta;  /* M[t] */
    const char *bad;   /* params the validator refuses */
    const char *good;  /* params it accepts */
    const char *shown; /* what the tools line prints for the limit */
    member covers[3];
} limit_case;

static const limit_case CASES[] = {
    {"min/max", "{\"params\":{\"n\":{\"type\":\"integer\",\"min\":1,\"max\":10,\"required\":true}}}", "{\"n\":11}",
     "{\"n\":10}", "t(n: integer, 1..10)", {LIM(min), LIM(max)}},
    {"minimum/maximum", "{\"params\":{\"x\":{\"type\":\"number\",\"minimum\":0,\"maximum\":1}}}", "{\"x\":-0.5}",
     "{\"x\":0}", "t(x?: number, 0..1)", {LIM(min), LIM(max)}},
    {"exclusiveMinimum", "{\"params\":{\"x\":{\"type\":\"number\",\"exclusiveMinimum\":0}}}", "{\"x\":0}",
     "{\"x\":0.5}", "t(x?: number, >0)", {LIM(xmin)}},
    {"exclusiveMaximum", "{\"params\":{\"x\":{\"type\":\"number\",\"exclusiveMaximum\":100}}}", "{\"x\":100}",
     "{\"x\":99.5}", "t(x?: number, <100)", {LIM(xmax)}},
    {"formatMinimum", "{\"params\":{\"d\":{\"type\":\"string\",\"format\":\"YYYY-MM-DD\",\"formatMinimum\":\"2025-01-01\"}}}",
     "{\"d\":\"2024-12-31\"}", "{\"d\":\"2025-01-01\"}", "t(d?: YYYY-MM-DD, 2025-01-01..)", {LIM(min)}},
    {"formatMaximum", "{\"params\":{\"d\":{\"type\":\"string\",\"format\":\"date\",\"formatMaximum\":\"2026-12-31\"}}}",
     "{\"d\":\"2027-01-01\"}", "{\"d\":\"2026-12-31\"}", "t(d?: date, ..2026-12-31)", {LIM(max)}},
    {"minDate/maxDate", "{\"params\":{\"d\":{\"format\":\"YYYY-MM-DD\",\"minDate\":\"2025-06-01\",\"maxDate\":\"2025-06-30\"}}}",
     "{\"d\":\"2025-07-01\"}", "{\"d\":\"2025-06-30\"}", "t(d?: YYYY-MM-DD, 2025-06-01..2025-06-30)", {LIM(min), LIM(max)}},
    {"dated bounds, no format declared", "{\"params\":{\"d\":{\"type\":\"string\",\"min\":\"09:00\",\"max\":\"17:00\"}}}",
     "{\"d\":\"18:00\"}", "{\"d\":\"09:30\"}", "t(d?, 09:00..17:00)", {LIM(min), LIM(max)}},
    {"step", "{\"params\":{\"n\":{\"type\":\"number\",\"min\":0,\"step\":5}}}", "{\"n\":7}", "{\"n\":10}",
     "t(n?: number, 0.., step 5)", {LIM(step)}},
    {"multipleOf", "{\"params\":{\"n\":{\"type\":\"integer\",\"multipleOf\":3}}}", "{\"n\":4}", "{\"n\":9}",
     "t(n?: integer, step 3)", {LIM(step)}},
    {"minLength", "{\"params\":{\"s\":{\"type\":\"string\",\"minLength\":3}}}", "{\"s\":\"ab\"}", "{\"s\":\"abc\"}",
     "t(s?, ≥3 chars)", {LIM(min_len)}},
    {"maxLength", "{\"params\":{\"s\":{\"type\":\"string\",\"maxLength\":5}}}", "{\"s\":\"abcdef\"}",
     "{\"s\":\"abcde\"}", "t(s?, ≤5 chars)", {LIM(max_len)}},
    {"pattern", "{\"params\":{\"s\":{\"type\":\"string\",\"pattern\":\"^[A-Z]+$\"}}}", "{\"s\":\"abc\"}",
     "{\"s\":\"ABC\"}", "t(s?, /^[A-Z]+$/)", {LIM(pattern)}},
    {"disabled dates", "{\"params\":{\"d\":{\"format\":\"YYYY-MM-DD\",\"disabled\":[\"2025-12-25\"]}}}",
     "{\"d\":\"2025-12-25\"}", "{\"d\":\"2025-12-24\"}", "t(d?: YYYY-MM-DD, not 2025-12-25)", {LIM(disabled)}},
    {"disabledValues", "{\"params\":{\"n\":{\"type\":\"integer\",\"disabledValues\":[13]}}}", "{\"n\":13}",
     "{\"n\":12}", "t(n?: integer, not 13)", {LIM(disabled)}},
    {"minItems/maxItems", "{\"params\":{\"p\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":2,\"maxItems\":2}}}",
     "{\"p\":[\"France\"]}", "{\"p\":[\"France\",\"Paris\"]}", "t(p?: [string], 2 items)",
     {LIM(min_items), LIM(max_items)}},
    {"maxItems", "{\"params\":{\"p\":{\"type\":\"array\",\"maxItems\":3}}}", "{\"p\":[1,2,3,4]}", "{\"p\":[1]}",
     "t(p?: [any], ≤3 items)", {LIM(max_items)}},
    {"uniqueItems", "{\"params\":{\"p\":{\"type\":\"array\",\"uniqueItems\":true}}}", "{\"p\":[\"a\",\"a\"]}",
     "{\"p\":[\"a\",\"b\"]}", "t(p?: [any], no repeats)", {LIM(unique_items)}},
    {"an item's limit", "{\"params\":{\"p\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"max\":5}}}}",
     "{\"p\":[6]}", "{\"p\":[5]}", "t(p?: [integer, ..5])", {LIM(max)}},
    /* the seed DatePicker: flat constraints and disabledDates beside params */
    {"flat constraints (CI4A seed)",
     "{\"params\":{\"date\":{\"type\":\"string\",\"format\":\"YYYY-MM-DD\"}},"
     "\"constraints\":{\"min\":\"2025-01-01\",\"max\":\"2026-12-31\"},\"disabledDates\":[\"2025-12-25\"]}",
     "{\"date\":\"2027-01-01\"}", "{\"date\":\"2026-12-31\"}",
     "t(date?: YYYY-MM-DD, 2025-01-01..2026-12-31, not 2025-12-25)", {LIM(min), LIM(max), LIM(disabled)}},
    {"disabledDates beside params (CI4A seed)",
     "{\"params\":{\"date\":{\"type\":\"string\",\"format\":\"YYYY-MM-DD\"}},"
     "\"constraints\":{\"min\":\"2025-01-01\",\"max\":\"2026-12-31\"},\"disabledDates\":[\"2025-12-25\"]}",
     "{\"date\":\"2025-12-25\"}", "{\"date\":\"2025-12-24\"}",
     "t(date?: YYYY-MM-DD, 2025-01-01..2026-12-31, not 2025-12-25)", {LIM(disabled)}},
    /* a param's own min and its named constraint's max: both hold, both are shown */
    {"named constraints beside a param's own",
     "{\"params\":{\"n\":{\"type\":\"integer\",\"min\":1},\"m\":{\"type\":\"integer\"}},\"constraints\":{\"n\":{\"max\":5}}}",
     "{\"n\":6}", "{\"n\":5}", "t(n?: integer, 1..5; m?: integer)", {LIM(max)}},
    /* a range picker: flat constraints over two dated params, each carrying the range */
    {"flat constraints over dated params",
     "{\"params\":{\"start\":{\"format\":\"YYYY-MM-DD\",\"min\":\"2025-01-01\",\"max\":\"2025-12-31\"},"
     "\"end\":{\"format\":\"YYYY-MM-DD\",\"min\":\"2025-01-01\",\"max\":\"2025-12-31\"}},"
     "\"constraints\":{\"minDate\":\"2025-01-01\",\"maxDate\":\"2025-12-31\",\"disabledDates\":[\"2025-07-04\"]}}",
     "{\"start\":\"2025-07-04\"}", "{\"start\":\"2025-07-05\"}",
     "t(start?: YYYY-MM-DD, 2025-01-01..2025-12-31; end?: YYYY-MM-DD, 2025-01-01..2025-12-31 | not 2025-07-04)",
     {LIM(disabled)}},
    {"disabledDates beside two dated params",
     "{\"params\":{\"start\":{\"format\":\"YYYY-MM-DD\"},\"end\":{\"format\":\"YYYY-MM-DD\"}},"
     "\"disabledDates\":[\"2025-12-25\"]}",
     "{\"end\":\"2025-12-25\"}", "{\"end\":\"2025-12-26\"}",
     "t(start?: YYYY-MM-DD; end?: YYYY-MM-DD | not 2025-12-25)", {LIM(disabled)}},
    /* WebMCP: a JSON Schema, under either name, or params that is one */
    {"inputSchema", "{\"inputSchema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"maxLength\":5}},"
     "\"required\":[\"q\"]}}", "{\"q\":\"abcdef\"}", "{\"q\":\"abc\"}", "t(q, ≤5 chars)", {LIM(max_len)}},
    {"input_schema", "{\"input_schema\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":1}}}}",
     "{\"n\":0}", "{\"n\":1}", "t(n?: integer, 1..)", {LIM(min)}},
    {"params written as a schema", "{\"params\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\","
     "\"exclusiveMaximum\":10}},\"required\":[\"n\"]}}", "{\"n\":10}", "{\"n\":9}", "t(n: integer, <10)", {LIM(xmax)}},
};

/* What values may be, beside limits: type, enum, const, format, required. */
static const limit_case SHAPES[] = {
    {"type", "{\"params\":{\"n\":{\"type\":\"integer\"}}}", "{\"n\":\"x\"}", "{\"n\":3}", "t(n?: integer)", {{0, 0}}},
    {"enum", "{\"params\":{\"s\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]}}}", "{\"s\":\"c\"}", "{\"s\":\"a\"}",
     "t(s?: a|b)", {{0, 0}}},
    {"const", "{\"params\":{\"s\":{\"type\":\"string\",\"const\":\"yes\"}}}", "{\"s\":\"no\"}", "{\"s\":\"yes\"}",
     "t(s?: yes)", {{0, 0}}},
    {"email", "{\"params\":{\"e\":{\"type\":\"string\",\"format\":\"email\"}}}", "{\"e\":\"nobody\"}",
     "{\"e\":\"a@b.c\"}", "t(e?: email)", {{0, 0}}},
    {"dated format", "{\"params\":{\"d\":{\"type\":\"string\",\"format\":\"DD/MM/YYYY\"}}}", "{\"d\":\"2025-12-31\"}",
     "{\"d\":\"31/12/2025\"}", "t(d?: DD/MM/YYYY)", {{0, 0}}},
    {"required", "{\"params\":{\"s\":{\"type\":\"string\",\"required\":true}}}", "{}", "{\"s\":\"x\"}", "t(s)",
     {{0, 0}}},
    {"required by a named constraint", "{\"params\":{\"s\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\"}},"
     "\"constraints\":{\"s\":{\"required\":true}}}", "{\"n\":1}", "{\"s\":\"x\"}", "t(s; n?: integer)", {{0, 0}}},
    {"unknown param", "{\"params\":{\"s\":{\"type\":\"string\"}}}", "{\"z\":1}", "{}", "t(s?)", {{0, 0}}},
};

TestSuite(meta, .timeout = 60);

static void check_case(const limit_case *k)
{
    eous_err err;
    cr_assert_eq(validate(k->meta, k->bad, &err), EOUS_E_REJECTED, "%s: the validator let %s through", k->what,
                 k->bad);
    cr_assert_eq(validate(k->meta, k->good, &err), EOUS_OK, "%s: the validator refused %s: %s", k->what, k->good,
                 err.msg);
    char *line = tools_line(k->meta);
    cr_expect_str_eq(line, k->shown, "%s: the tools line does not show the limit the validator enforces", k->what);
    free(line);
}

Test(meta, every_limit_the_validator_enforces_is_on_the_tools_line)
{
    unsigned char covered[sizeof(perc_limits)] = {0};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        check_case(&CASES[i]);
        for (size_t j = 0; j < 3; j++)
            memset(covered + CASES[i].covers[j].off, 1, CASES[i].covers[j].size);
    }
    /* every kind of limit meta.h knows has a case above (a new one needs its own) */
    static const member ALL[] = {LIM(min), LIM(max), LIM(xmin), LIM(xmax), LIM(step), LIM(min_len), LIM(max_len),
                                 LIM(pattern), LIM(disabled), LIM(min_items), LIM(max_items), LIM(unique_items)};
    size_t bytes = 0;
    for (size_t i = 0; i < sizeof ALL / sizeof *ALL; i++) {
        bytes += ALL[i].size;
        for (size_t b = 0; b < ALL[i].size; b++)
            cr_assert(covered[ALL[i].off + b], "perc_limits member at offset %zu has no case", ALL[i].off);
    }
    /* and ALL names every member: only padding is left over */
    cr_assert_leq(sizeof(perc_limits) - bytes, sizeof(void *), "perc_limits has a member this test does not list");
}

Test(meta, every_shape_the_validator_checks_is_on_the_tools_line)
{
    for (size_t i = 0; i < sizeof SHAPES / sizeof *SHAPES; i++)
        check_case(&SHAPES[i]);
}

Test(meta, a_spec_reads_every_alias)
{
    cJSON *j = cJSON_Parse("{\"type\":\"string\",\"minDate\":\"2025-01-01\",\"formatMaximum\":\"2025-12-31\","
                           "\"multipleOf\":2,\"disabledDates\":[\"2025-06-01\"],\"exclusiveMinimum\":true}");
    perc_spec s;
    perc_spec_read(j, &s);
    cr_assert_str_eq(s.lim.min->valuestring, "2025-01-01");
    cr_assert_str_eq(s.lim.max->valuestring, "2025-12-31");
    cr_assert_eq(s.lim.step->valuedouble, 2);
    cr_assert_str_eq(s.lim.disabled->child->valuestring, "2025-06-01");
    cr_assert_null(s.lim.xmin, "draft-4's boolean exclusiveMinimum is no bound of its own");
    /* no format declared: the bounds' shape is the format */
    cr_assert_str_eq(s.format, "YYYY-MM-DD");
    cr_assert(s.dated);
    cJSON_Delete(j);
}

Test(meta, a_param_takes_the_tool_level_limits_that_concern_it)
{
    cJSON *m = cJSON_Parse("{\"t\":{\"params\":{\"a\":{\"type\":\"integer\",\"min\":1},\"d\":{\"format\":\"HH:mm\"},"
                           "\"s\":{\"type\":\"string\"}},\"constraints\":{\"a\":{\"max\":9},\"max\":\"18:00\"},"
                           "\"disabledDates\":[\"12:00\"]}}");
    perc_tool_meta t;
    perc_tool_meta_read(m, "t", &t);
    cr_assert_eq(t.n_params, 3);
    cr_assert(t.flat);
    perc_param_meta a, d, s;
    perc_param_meta_read(&t, cJSON_GetObjectItemCaseSensitive(t.params, "a"), &a);
    perc_param_meta_read(&t, cJSON_GetObjectItemCaseSensitive(t.params, "d"), &d);
    perc_param_meta_read(&t, cJSON_GetObjectItemCaseSensitive(t.params, "s"), &s);
    /* named: a's own, shown with it */
    cr_assert_eq(a.eff.lim.min->valuedouble, 1);
    cr_assert_eq(a.eff.lim.max->valuedouble, 9);
    cr_assert(a.tool_inline);
    cr_assert_eq(a.shown.max, a.eff.lim.max);
    /* flat, with several params: the dated one's, shown after the params */
    cr_assert_str_eq(d.eff.lim.max->valuestring, "18:00");
    cr_assert_str_eq(d.eff.lim.disabled->child->valuestring, "12:00");
    cr_assert_not(d.tool_inline);
    cr_assert_null(d.shown.max);
    /* and no plain string's */
    cr_assert_null(s.eff.lim.max);
    cr_assert_null(s.eff.lim.disabled);
    cJSON_Delete(m);
}

Test(meta, dated_formats_parse_as_the_validator_reads_them)
{
    perc_dated d;
    cr_assert_eq(perc_meta_parse_dated("YYYY-MM-DD", "2024-02-29", &d), 0);
    cr_assert_eq(perc_meta_parse_dated("YYYY-MM-DD", "2025-02-29", &d), -2);
    cr_assert_eq(perc_meta_parse_dated("YYYY-MM-DD", "2025-2-28", &d), -1);
    cr_assert_eq(perc_meta_parse_dated("time", "09:30", &d), 0);
    cr_assert_eq(perc_meta_parse_dated("time", "09:30:15", &d), 0);
    cr_assert(perc_meta_is_dated("DD/MM/YYYY"));
    cr_assert_not(perc_meta_is_dated("email"));
    cr_assert_str_eq(perc_meta_canonical_format("date"), "YYYY-MM-DD");
}
