/* tests/mcp/test_mcp_http_corpus.c — replays the libFuzzer corpus of
 * fuzz_mcp_http (raw HTTP requests to `eous mcp --port`) through the fuzz
 * entry point in every ordinary test run, whole and cut off at a few points;
 * and checks that the seeds reach the handler: each gets the status and
 * JSON-RPC answer it should (a corpus the server refused at the door would
 * fuzz nothing). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#define FUZZ_MCP_HTTP_ENTRY fuzz_mcp_http_one
#include "fuzz/fuzz_mcp_http.c"

static char *seed(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fuzz_mcp_http/%s", EOUS_SOURCE_DIR, name);
    char *data = NULL;
    cr_assert_eq(eous_read_file(path, 0, &data, len, NULL), EOUS_OK, "%s", path);
    return data;
}

/* The server's answer to one seed: its status line and body in fuzz_mcp_http_answer. */
static const char *answer(const char *name)
{
    size_t len = 0;
    char *data = seed(name, &len);
    fuzz_mcp_http_one((const uint8_t *)data, len);
    free(data);
    return fuzz_mcp_http_answer;
}

Test(mcp_http_corpus, replays, .timeout = 600)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/fuzz_mcp_http", EOUS_SOURCE_DIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "corpus %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = 0;
        char *data = seed(e->d_name, &len);
        fuzz_mcp_http_one((const uint8_t *)data, len);
        /* cut off: what a client that dies mid-request sends */
        for (size_t cut = 1; cut < len; cut += 1 + len / 4)
            fuzz_mcp_http_one((const uint8_t *)data, cut);
        free(data);
        n++;
    }
    closedir(d);
    cr_expect_geq(n, 15);
    mcp_http_stop(fuzz_mcp_http_server); /* every session ended: ASan/LSan see what is left */
    fuzz_mcp_http_server = NULL;
}

Test(mcp_http_corpus, seeds_reach_the_handler, .timeout = 600)
{
    cr_expect(strstr(answer("seed-initialize"), "HTTP/1.1 200") && strstr(fuzz_mcp_http_answer, "\"protocolVersion\""),
              "initialize: %s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-initialize-chunked"), "\"serverInfo\""), "chunked: %s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-ping-unknown-session"), "HTTP/1.1 404"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-no-session"), "HTTP/1.1 400"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-bad-json"), "-32700"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-batch"), "batches"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-modern-discover"), "\"supportedVersions\""), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-modern-bad-version"), "-32022"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-modern-call-b64"), "browser closed"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-modern-call-navigate"), "\"isError\":true"), "no browser: %s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-evil-host"), "HTTP/1.1 403"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-evil-origin"), "HTTP/1.1 403"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-too-large"), "HTTP/1.1 413"), "%s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-get"), "HTTP/1.1 405"), "%s", fuzz_mcp_http_answer);
    mcp_http_stop(fuzz_mcp_http_server); /* every session ended: ASan/LSan see what is left */
    fuzz_mcp_http_server = NULL;
}

/* Strict JSON: bytes after the body, a method name cut by \u0000 and an id
 * past a double's digits are each read as sent, not as cJSON would. */
Test(mcp_http_corpus, strict_json, .timeout = 600)
{
    cr_expect(strstr(answer("seed-strict-trailing"), "HTTP/1.1 400") && strstr(fuzz_mcp_http_answer, "-32700") &&
                  !strstr(fuzz_mcp_http_answer, "supportedVersions"),
              "trailing bytes: %s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-strict-nul-method"), "HTTP/1.1 400") && strstr(fuzz_mcp_http_answer, "-32600") &&
                  strstr(fuzz_mcp_http_answer, "u0000") && !strstr(fuzz_mcp_http_answer, "supportedVersions"),
              "a NUL in the method: %s", fuzz_mcp_http_answer);
    cr_expect(strstr(answer("seed-strict-big-id"), "\"id\":12345678901234567890123,") &&
                  strstr(fuzz_mcp_http_answer, "supportedVersions"),
              "the id as sent: %s", fuzz_mcp_http_answer);
    mcp_http_stop(fuzz_mcp_http_server); /* every session ended: ASan/LSan see what is left */
    fuzz_mcp_http_server = NULL;
}
