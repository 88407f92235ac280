/* tests/core/test_schema.c — a task's output_schema (core/schema.h) without a
 * browser: what the subset checks, the path of the first mismatch, and the
 * schemas it refuses whole rather than misread. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/schema.h"

static int check(const char *schema, const char *value, char *why, size_t n)
{
    cJSON *s = cJSON_Parse(schema), *v = cJSON_Parse(value);
    cr_assert(s && v, "test JSON: %s / %s", schema, value);
    int ok = eous_schema_validate(s, v, why, n);
    cJSON_Delete(s);
    cJSON_Delete(v);
    return ok;
}

static void valid(const char *schema, const char *value)
{
    char why[512];
    cr_expect(check(schema, value, why, sizeof why), "%s should accept %s: %s", schema, value, why);
}

static void invalid(const char *schema, const char *value, const char *needle)
{
    char why[512];
    cr_expect(!check(schema, value, why, sizeof why), "%s should refuse %s", schema, value);
    cr_expect(strstr(why, needle), "'%s' lacks '%s'", why, needle);
}

Test(schema, types_and_numbers)
{
    valid("{\"type\":\"object\"}", "{}");
    valid("{\"type\":\"number\"}", "3");
    valid("{\"type\":[\"string\",\"null\"]}", "null");
    invalid("{\"type\":\"integer\"}", "2.5", "at /: expected \"integer\", got number");
    /* whole past long long's range (fuzz_task: casting it was undefined behaviour, UBSan stops there) */
    valid("{\"type\":\"integer\"}", "1e300");
    invalid("{\"type\":\"string\"}", "[1]", "got array");
    valid("{\"minimum\":1,\"maximum\":3}", "3");
    invalid("{\"exclusiveMaximum\":3}", "3", "expected exclusiveMaximum 3, got 3");
    valid("{\"enum\":[\"a\",1]}", "1");
    invalid("{\"enum\":[\"a\",1]}", "\"b\"", "one of the enum values");
    invalid("{\"const\":\"x\"}", "\"y\"", "constant");
}

Test(schema, strings_arrays_objects_and_paths)
{
    valid("{\"pattern\":\"^[0-9]+[.][0-9]{2}$\"}", "\"20.00\"");
    invalid("{\"pattern\":\"^[0-9]+$\"}", "\"20.00\"", "expected text matching ^[0-9]+$, got \"20.00\"");
    invalid("{\"minLength\":3}", "\"éé\"", "of at least 3, got 2");
    invalid("{\"type\":\"array\",\"minItems\":2}", "[1]", "expected at least 2 items, got 1");
    const char *rows = "{\"type\":\"object\",\"required\":[\"orders\"],\"properties\":{\"orders\":{\"type\":\"array\","
                       "\"items\":{\"type\":\"object\",\"required\":[\"Total\"],\"properties\":{\"Total\":"
                       "{\"type\":\"string\",\"pattern\":\"^[0-9]\"}}}}}}";
    valid(rows, "{\"orders\":[{\"Total\":\"1.00\"},{\"Total\":\"2\"}]}");
    invalid(rows, "{\"orders\":[{\"Total\":\"1.00\"},{\"Total\":\"n/a\"}]}", "at /orders/1/Total: expected text");
    invalid(rows, "{\"orders\":[{\"Total\":\"1\"},{}]}", "at /orders/1/Total: expected a required property");
    invalid(rows, "{}", "at /orders: expected a required property, got nothing");
    invalid("{\"properties\":{\"a\":{}},\"additionalProperties\":false}", "{\"a\":1,\"b\":2}",
            "expected no property \"b\"");
    valid("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", "4");
    invalid("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", "true", "no anyOf branch fits");
}

/* A schema eous cannot apply fully is refused whole (bad input at load), with the path of the problem. */
Test(schema, unsupported_or_broken_schemas_are_refused)
{
    const char *bad[][2] = {
        {"{\"type\":\"objekt\"}", "output_schema at /type: expected a type name"},
        {"{\"properties\":{\"x\":{\"$ref\":\"#/a\"}}}", "output_schema at /properties/x/$ref: unsupported keyword"},
        {"{\"pattern\":\"(\"}", "output_schema at /pattern: expected a regular expression that compiles"},
        {"{\"minItems\":-1}", "output_schema at /minItems: expected a whole number from 0"},
        {"{\"minItems\":2.5}", "output_schema at /minItems: expected a whole number from 0"},
        {"{\"maxLength\":1e999}", "output_schema at /maxLength: expected a whole number from 0"},
        {"{\"required\":[1]}", "output_schema at /required: expected a list of property names"},
        {"[1]", "output_schema at /: expected a schema object or a boolean"},
        {"{\"items\":{\"oneOf\":[]}}", "output_schema at /items/oneOf: unsupported keyword"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cJSON *s = cJSON_Parse(bad[i][0]);
        eous_err e;
        eous_err_clear(&e);
        cr_expect_eq(eous_schema_check(s, &e), EOUS_E_INVALID, "%s", bad[i][0]);
        cr_expect(strstr(e.msg, bad[i][1]), "'%s' lacks '%s'", e.msg, bad[i][1]);
        cJSON_Delete(s);
    }
    /* a bound past long long's range is a whole number all the same */
    {
        cJSON *big = cJSON_Parse("{\"minItems\":2.7e77}");
        eous_err e;
        eous_err_clear(&e);
        cr_expect_eq(eous_schema_check(big, &e), EOUS_OK, "%s", e.msg);
        cJSON_Delete(big);
    }
    /* nesting deeper than a task file needs is refused, not followed down the stack */
    char deep[4096] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "{\"items\":");
    strcat(deep, "{}");
    for (int i = 0; i < 40; i++)
        strcat(deep, "}");
    cJSON *s = cJSON_Parse(deep);
    eous_err e;
    cr_expect_eq(eous_schema_check(s, &e), EOUS_E_INVALID);
    cr_expect(strstr(e.msg, "nested too deep"), "%s", e.msg);
    cJSON_Delete(s);
}
