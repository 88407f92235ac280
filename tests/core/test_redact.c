/* tests/core/test_redact.c — the secret redactor finds a value in every encoding a
 * page, a URL or a JSON writer gives it back in (core/redact.c), and changes
 * nothing else. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/log.h"

#define SECRET "pa ss!@<&\"w0rd"

static void setup(void)
{
    eous_redact_clear();
    cr_assert_eq(eous_redact_add(SECRET), 0);
}

static void teardown(void)
{
    eous_redact_clear();
}

static void expect_redacted(const char *in, const char *want)
{
    char *r = eous_redact(in);
    cr_assert_not_null(r);
    cr_expect_str_eq(r, want, "redacting %s", in);
    free(r);
}

TestSuite(core_redact, .init = setup, .fini = teardown);

Test(core_redact, a_get_forms_url_encoding_is_redacted)
{
    /* what Chromium puts in the URL after a GET form submits the value */
    expect_redacted("url: http://127.0.0.1:8080/s?q=pa+ss%21%40%3C%26%22w0rd&go=1",
                    "url: http://127.0.0.1:8080/s?q=[redacted]&go=1");
}

Test(core_redact, percent_encoding_in_either_case_every_byte_or_only_reserved_ones)
{
    expect_redacted("/p/pa%20ss%21%40%3c%26%22w0rd/", "/p/[redacted]/");
    expect_redacted("#pa%20ss!@%3C&%22w0rd", "#[redacted]");
    expect_redacted("x=%70%61%20%73%73%21%40%3C%26%22%77%30%72%64;", "x=[redacted];");
    /* a URL inside a URL: each % doubly encoded */
    expect_redacted("next=pa%2520ss%2521%2540%253C%2526%2522w0rd", "next=[redacted]");
}

Test(core_redact, json_and_html_escapes_are_redacted)
{
    expect_redacted("{\"v\":\"pa ss!@<&\\\"w0rd\"}", "{\"v\":\"[redacted]\"}");
    expect_redacted("{\"v\":\"pa ss!@\\u003c\\u0026\\\"w0rd\"}", "{\"v\":\"[redacted]\"}");
    expect_redacted("<input value=\"pa ss!@&lt;&amp;&quot;w0rd\">", "<input value=\"[redacted]\">");
    expect_redacted("<p>pa&#32;ss&#x21;@&#60;&#38;&#34;w0rd</p>", "<p>[redacted]</p>");
}

Test(core_redact, non_ascii_secrets_in_utf8_and_escapes)
{
    cr_assert_eq(eous_redact_add("caf\xc3\xa9-\xf0\x9f\x94\x91"), 0);
    expect_redacted("a caf\xc3\xa9-\xf0\x9f\x94\x91 b", "a [redacted] b");
    expect_redacted("a caf%C3%A9-%F0%9F%94%91 b", "a [redacted] b");
    expect_redacted("\"caf\\u00e9-\\ud83d\\udd11\"", "\"[redacted]\"");
    expect_redacted("caf&#233;-&#x1F511;", "[redacted]");
}

Test(core_redact, a_credential_parameter_redacted_twice_stays_as_once)
{
    /* eous mcp redacts a URL where it is printed and the whole answer again before it is sent */
    const char *once = "GET http://127.0.0.1/data.json?token=[redacted]&page=2";
    expect_redacted("GET http://127.0.0.1/data.json?token=tok-9c1e5a77&page=2", once);
    expect_redacted(once, once);
}

Test(core_redact, nothing_else_changes)
{
    const char *plain = "pa ss!@<& w0rd %21 \\u0021 &#33; + + & &amp; ok";
    expect_redacted(plain, plain);
    cr_expect_eq(eous_redact_contains(plain), 0);
    cr_expect_eq(eous_redact_contains("..pa+ss%21@<&\"w0rd.."), 1);
}

Test(core_redact, backtracking_is_bounded)
{
    eous_redact_clear();
    cr_assert_eq(eous_redact_add("%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%x"), 0);
    char text[20001];
    for (size_t i = 0; i < sizeof text - 1; i++)
        text[i] = i % 3 ? '%' : '2';
    text[sizeof text - 1] = '\0';
    char *r = eous_redact(text);
    cr_assert_not_null(r);
    cr_expect_str_eq(r, text);
    free(r);
}
