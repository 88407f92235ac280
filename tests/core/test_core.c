/* tests/core/test_core.c — core helpers without a browser: base64 both ways
 * (RFC 4648's test vectors, every padding case, and a round trip of all
 * byte values); a buffer's first failed append stays failed; http(s) URLs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

Test(core_base64, encodes_rfc4648_vectors_with_padding)
{
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
        char *got = eous_base64_encode((const unsigned char *)in[i], strlen(in[i]));
        cr_assert_not_null(got);
        cr_expect_str_eq(got, want[i], "base64('%s')", in[i]);
        free(got);
    }
}

Test(core_base64, decode_inverts_encode_on_every_byte_value)
{
    unsigned char bytes[256 + 2];
    for (int i = 0; i < 258; i++)
        bytes[i] = (unsigned char)(i * 7 + 3);
    for (size_t n = 255; n <= 258; n++) { /* all three tail lengths */
        char *text = eous_base64_encode(bytes, n);
        cr_assert_not_null(text);
        unsigned char *back = NULL;
        size_t len = 0;
        eous_err err;
        cr_assert_eq(eous_base64_decode(text, &back, &len, &err), EOUS_OK, "%s", err.msg);
        cr_expect_eq(len, n);
        cr_expect_eq(memcmp(back, bytes, n), 0, "round trip of %zu bytes", n);
        free(back);
        free(text);
    }
}

/* The first failed append is sticky: a smaller append after it fails too, so
 * no text is built around a hole; reset forgets it. */
Test(core_buf, a_failed_append_fails_every_later_one_until_reset)
{
    eous_buf b;
    eous_buf_init(&b, 8);
    eous_err err = {0};
    cr_assert_eq(eous_buf_puts(&b, "abc", &err), EOUS_OK);
    cr_assert_eq(eous_buf_puts(&b, "defghijk", &err), EOUS_E_LIMIT, "past max");
    cr_expect_str_eq(b.data, "abc", "the failed append left the buffer unchanged");
    cr_expect_eq(eous_buf_putc(&b, 'd', &err), EOUS_E_LIMIT, "a later append that would fit fails too");
    cr_expect_eq(eous_buf_printf(&b, &err, "%d", 1), EOUS_E_LIMIT);
    cr_expect_str_eq(b.data, "abc");
    cr_expect_eq(b.failed, EOUS_E_LIMIT, "the failure is kept for a caller that checks once");
    eous_buf_reset(&b);
    cr_expect_eq(b.failed, EOUS_OK);
    cr_expect_eq(eous_buf_puts(&b, "xyz", &err), EOUS_OK);
    cr_expect_str_eq(b.data, "xyz");
    eous_buf_free(&b);
}

Test(core_text, http_urls_are_the_two_schemes_and_nothing_else)
{
    cr_assert(eous_is_http_url("http://127.0.0.1:8080/"));
    cr_assert(eous_is_http_url("https://example.test"));
    cr_assert_not(eous_is_http_url("chrome-error://chromewebdata/"));
    cr_assert_not(eous_is_http_url("file:///etc/passwd"));
    cr_assert_not(eous_is_http_url("httpx://a"));
    cr_assert_not(eous_is_http_url("HTTP:/x"));
    cr_assert_not(eous_is_http_url(""));
}

Test(core_redact, credential_query_parameters_are_redacted_wherever_a_url_is_printed)
{
    /* a Redmine Atom link carries the user's feed key; signed URLs carry a signature */
    char *r = eous_redact("[41] link 'Atom' url: http://127.0.0.1:3000/issues.atom?key=3f9a0c77e1&page=2");
    cr_expect_str_eq(r, "[41] link 'Atom' url: http://127.0.0.1:3000/issues.atom?key=[redacted]&page=2");
    free(r);
    r = eous_redact("{\"url\":\"https://x.test/a?q=cats&Access_Token=abc.def-9#top\"} and ?sig=zz) and ?api_key=k1 end");
    cr_expect_str_eq(r, "{\"url\":\"https://x.test/a?q=cats&Access_Token=[redacted]#top\"} and ?sig=[redacted]) and "
                        "?api_key=[redacted] end");
    free(r);
    /* other parameters, names that only start alike, and empty values stay */
    r = eous_redact("/search?keyword=ada&monkey=1&token= &page=3");
    cr_expect_str_eq(r, "/search?keyword=ada&monkey=1&token= &page=3");
    free(r);
}

Test(core, enum_names_through_one_table)
{
    static const char *const names[] = {[0] = "off", [2] = "strict"}; /* 1 is a gap */
    cr_expect_eq(eous_name_find(names, EOUS_NAMES_N(names), "strict"), 2);
    cr_expect_eq(eous_name_find(names, EOUS_NAMES_N(names), "off"), 0);
    cr_expect_eq(eous_name_find(names, EOUS_NAMES_N(names), "Strict"), -1, "names are matched exactly");
    cr_expect_eq(eous_name_find(names, EOUS_NAMES_N(names), ""), -1);
    cr_expect_eq(eous_name_find(names, EOUS_NAMES_N(names), NULL), -1);
    cr_expect_str_eq(eous_name_of(names, EOUS_NAMES_N(names), 2, "?"), "strict");
    cr_expect_str_eq(eous_name_of(names, EOUS_NAMES_N(names), 1, "?"), "?", "a gap gives the fallback");
    cr_expect_str_eq(eous_name_of(names, EOUS_NAMES_N(names), 3, "?"), "?");
    cr_expect_str_eq(eous_name_of(names, EOUS_NAMES_N(names), -1, "?"), "?");
}
