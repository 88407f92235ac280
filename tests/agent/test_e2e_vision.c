/* tests/agent/test_e2e_vision.c — `--mode vision` on real Chromium: the set-of-marks
 * overlay labels the view's ids and leaves the DOM as it found it; a vision
 * run against the HTTPS model mock sends the hybrid text, the screenshot as
 * an image part (OpenAI image_url data URL with --image-detail, Anthropic
 * base64 image block), scaled by --max-image-px, and the legend as text, with
 * no secret; the cassette holds the image's SHA-256, not its bytes, and the
 * run replays from it offline. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mock/llm_mock.h"
#include "perception/shot.h"
#include "support/page_js.h"
#include "support/browser.h"
#include "support/cli.h"

#define FAKE_OPENAI_KEY "sk-e2e-FAKE-openai-key-vision-77aa"
#define FAKE_ANTHROPIC_KEY "sk-ant-e2e-FAKE-key-vision-88bb"
#define TASK_FX3 EOUS_SOURCE_DIR "/tests/fixtures/tasks/suite/fx-3.json"
/* what the fixture page holds and no request may carry */
static const char *const page_secrets[] = {"hunter2secret", "SecretTokenValue123", "HiddenTextLeak", NULL};

#define CALL_SETVALUE                                                                                            \
    "{\"kind\":\"tool\",\"calls\":[{\"name\":\"call\",\"args\":{\"k\":\"c1\",\"tool\":\"setValue\","             \
    "\"params\":{\"date\":\"2025-12-31\"}}}],\"usage\":{\"in\":900,\"out\":20}}"
#define STOP_ANSWER \
    "{\"kind\":\"tool\",\"calls\":[{\"name\":\"stop\",\"args\":{\"answer\":\"2025-12-31\"}}],\"usage\":{\"in\":950,\"out\":9}}"

static mock_suite S; /* scratch dir, model mock, fixture server (tests/mock/llm_mock.h) */

static void setup(void)
{
    cr_assert_eq(mock_suite_setup(&S, "eous-e2e-vision", FAKE_OPENAI_KEY, FAKE_ANTHROPIC_KEY), 0);
}

static void teardown(void)
{
    mock_suite_teardown(&S);
}

TestSuite(e2e_vision, .init = setup, .fini = teardown, .timeout = 600);

/* ---- helpers --------------------------------------------------------------- */

static int run_cli(const char *const *args)
{
    return ts_cli_run(args, S.out_path, S.err_path, 240);
}

/* A PNG's width from its IHDR chunk. */
static unsigned png_width(const unsigned char *p, size_t n)
{
    cr_assert(n > 24 && !memcmp(p, "\x89PNG", 4), "a PNG");
    return (unsigned)p[16] << 24 | (unsigned)p[17] << 16 | (unsigned)p[18] << 8 | p[19];
}

static void sha256_hex(const unsigned char *p, size_t n, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    cr_assert(EVP_Digest(p, n, md, &len, EVP_sha256(), NULL));
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* ---- the overlay ------------------------------------------------------------ */

static const char dom_js[] =
    "return document.documentElement.outerHTML + JSON.stringify(Array.from(document.querySelectorAll('*'))"
    ".map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));";

Test(e2e_vision, marks_label_view_ids_and_leave_the_dom_as_it_was)
{
    ts_browser B;
    cr_assert_eq(ts_browser_start(&B, NULL), 0, "browser start failed");
    eous_err err;
    cr_assert_eq(wd_navigate(B.session, ts_browser_url(&B, "/ci4a.html"), &err), EOUS_OK, "%s", err.msg);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_VISION;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(B.session, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    cr_expect(strstr(perc_obs_text(obs), "[c1] datepicker 'Check-in'"), "vision's text is the hybrid view: %s",
              perc_obs_text(obs));
    char *before = ts_page_js(B.session, dom_js);
    perc_marked_shot m;
    cr_assert_eq(perc_screenshot_marked(B.session, obs, 0, &m, &err), EOUS_OK, "%s", err.msg);
    char *after = ts_page_js(B.session, dom_js);
    cr_expect_str_eq(after, before, "the overlay and the mask are gone and nothing moved");
    cr_expect_geq(m.n_marks, 3, "%s", m.legend);
    cr_expect(strstr(m.legend, "c1 datepicker 'Check-in'\n"), "the component's mark: %s", m.legend);
    cr_expect(strstr(m.legend, "] button 'Search'\n"), "an element's mark: %s", m.legend);
    cr_expect_eq(png_width(m.png, m.len), (unsigned)m.width, "unscaled: one image pixel per CSS pixel");
    /* the marks are in the image: the same page without them differs */
    unsigned char *plain = NULL;
    size_t plain_len = 0;
    cr_assert_eq(perc_screenshot(B.session, &plain, &plain_len, &err), EOUS_OK, "%s", err.msg);
    cr_expect(plain_len != m.len || memcmp(plain, m.png, m.len), "the set-of-marks drew nothing");
    free(plain);
    perc_marked_shot_clear(&m);
    /* --max-image-px: the longer side scaled down in the capture */
    cr_assert_eq(perc_screenshot_marked(B.session, obs, 400, &m, &err), EOUS_OK, "%s", err.msg);
    cr_expect_eq(png_width(m.png, m.len), 400, "scale %.3f", m.scale);
    perc_marked_shot_clear(&m);
    free(before);
    free(after);
    perc_obs_free(obs);
    ts_browser_stop(&B);
}

/* ---- a recorded run -------------------------------------------------------- */

/* The content parts of request i's user message; checks what every vision request must hold. */
static cJSON *user_parts(const cJSON *reqs, int i, int openai)
{
    const char *raw = eous_json_str(cJSON_GetArrayItem(reqs, i), "body");
    cr_assert_not_null(raw);
    for (int k = 0; page_secrets[k]; k++)
        cr_expect_null(strstr(raw, page_secrets[k]), "request %d carries %s", i, page_secrets[k]);
    cJSON *body = cJSON_Parse(raw);
    cr_assert_not_null(body);
    /* the step's user message is the last one (a batched turn puts the last
     * reply and its tool results before it: Anthropic's at its head) */
    const cJSON *msgs = eous_json_arr(body, "messages");
    (void)openai;
    cJSON *content = cJSON_DetachItemFromObjectCaseSensitive(cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1),
                                                             "content");
    while (cJSON_IsArray(content) && cJSON_GetArraySize(content) > 3 &&
           !strcmp(eous_json_str(cJSON_GetArrayItem(content, 0), "type") ? eous_json_str(cJSON_GetArrayItem(content, 0), "type") : "",
                   "tool_result"))
        cJSON_DeleteItemFromArray(content, 0);
    cJSON_Delete(body);
    cr_assert(cJSON_IsArray(content) && cJSON_GetArraySize(content) == 3, "text, image, legend");
    cr_expect(strstr(eous_json_str(cJSON_GetArrayItem(content, 0), "text"), "[c1] datepicker 'Check-in'"),
              "the hybrid text");
    const char *legend = eous_json_str(cJSON_GetArrayItem(content, 2), "text");
    cr_expect(legend && strstr(legend, "c1 datepicker 'Check-in'"), "the legend as text: %s", legend);
    return content;
}

/* The PNG an OpenAI image_url data URL carries (caller frees). */
static unsigned char *image_of(const cJSON *part, int openai, size_t *len)
{
    const char *b64;
    if (openai) {
        cr_expect_str_eq(eous_json_str(part, "type"), "image_url");
        const cJSON *iu = eous_json_obj(part, "image_url");
        cr_expect_str_eq(eous_json_str(iu, "detail"), "low", "--image-detail");
        const char *url = eous_json_str(iu, "url");
        cr_assert(url && !strncmp(url, "data:image/png;base64,", 22), "a PNG data URL");
        b64 = url + 22;
    } else {
        cr_expect_str_eq(eous_json_str(part, "type"), "image");
        const cJSON *src = eous_json_obj(part, "source");
        cr_expect_str_eq(eous_json_str(src, "type"), "base64");
        cr_expect_str_eq(eous_json_str(src, "media_type"), "image/png");
        b64 = eous_json_str(src, "data");
    }
    unsigned char *png = NULL;
    eous_err err;
    cr_assert_eq(eous_base64_decode(b64, &png, len, &err), EOUS_OK, "%s", err.msg);
    return png;
}

Test(e2e_vision, openai_vision_run_records_sha256_and_replays_offline)
{
    cr_assert_eq(mock_start(&S.mock, "{\"responses\": [" CALL_SETVALUE "," STOP_ANSWER "]}", 0), 0);
    char base[200], outdir[300], cassette[300], replay_out[300], path[600];
    snprintf(base, sizeof base, "%s/v1", S.mock.base);
    snprintf(outdir, sizeof outdir, "%s/run", S.tmpdir);
    snprintf(replay_out, sizeof replay_out, "%s/replay", S.tmpdir);
    snprintf(cassette, sizeof cassette, "%s/vision.cassette.jsonl", S.tmpdir);
    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "openai:test-model",
                                      "--llm-base-url", base, "--llm-ca", S.mock.ca,
                                      "--mode", "vision", "--image-detail",
                                      "low", "--max-image-px", "640", "--out", outdir, "--cassette", cassette, NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o), free(e);
    cJSON *r = ts_result_line(outdir, &(int){0});
    cr_expect_str_eq(eous_json_str(r, "mode"), "vision");
    cr_expect_eq(eous_json_int(r, "semantic_actions", -1), 1, "call() is offered in vision mode");
    cJSON_Delete(r);

    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    cJSON *parts = user_parts(reqs, 0, 1);
    size_t len = 0;
    unsigned char *png = image_of(cJSON_GetArrayItem(parts, 1), 1, &len);
    cr_expect_eq(png_width(png, len), 640, "--max-image-px");
    /* the evidence keeps the image the model got, byte for byte */
    snprintf(path, sizeof path, "%s/trace/fx-3-vision/step-01-vision.png", outdir);
    char *kept = NULL;
    size_t kept_len = 0;
    eous_err err;
    cr_assert_eq(eous_read_file(path, 0, &kept, &kept_len, &err), EOUS_OK, "%s", err.msg);
    cr_expect(kept_len == len && !memcmp(kept, png, len), "step-01-vision.png is the image sent");
    free(kept);
    /* the cassette: the image's SHA-256, not its bytes, and no key */
    char hex[65], want[80];
    sha256_hex(png, len, hex);
    snprintf(want, sizeof want, "sha256:%s", hex);
    char *cas = ts_slurp(cassette);
    cr_expect(strstr(cas, want), "the cassette names the image by %s", want);
    cr_expect_null(strstr(cas, "data:image/png;base64"), "the cassette holds no image bytes");
    cr_expect_null(strstr(cas, FAKE_OPENAI_KEY));
    free(cas);
    free(png);
    cJSON_Delete(parts);
    cJSON_Delete(reqs);

    /* replay: no mock, no key */
    mock_stop(&S.mock);
    unsetenv("OPENAI_API_KEY");
    rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "replay", "--cassette", cassette, "--mode", "vision",
                                  "--max-image-px", "640", "--image-detail", "low", "--out", replay_out, NULL});
    o = ts_slurp(S.out_path), e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "replay exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o), free(e);
    r = ts_result_line(replay_out, &(int){0});
    cr_expect_str_eq(eous_json_str(r, "status"), "passed");
    cr_expect_eq(eous_json_int(r, "steps", -1), 2);
    cJSON_Delete(r);
    const char *leak = ts_file_with(S.tmpdir, FAKE_OPENAI_KEY);
    cr_expect_null(leak, "the key leaked into %s", leak ? leak : "");
}

Test(e2e_vision, anthropic_gets_a_base64_image_block)
{
    cr_assert_eq(mock_start(&S.mock, "{\"responses\": [" CALL_SETVALUE "," STOP_ANSWER "]}", 0), 0);
    char outdir[300];
    snprintf(outdir, sizeof outdir, "%s/anthropic", S.tmpdir);
    int rc = run_cli((const char *[]){"run", TASK_FX3, "--planner", "llm", "--llm", "anthropic:claude-test",
                                      "--llm-base-url", S.mock.base, "--llm-ca", S.mock.ca,
                                      "--mode", "vision", "--out", outdir,
                                      NULL});
    char *o = ts_slurp(S.out_path), *e = ts_slurp(S.err_path);
    cr_assert_eq(rc, 0, "exit %d\nstdout: %s\nstderr: %s", rc, o, e);
    free(o), free(e);
    cJSON *reqs = mock_requests(&S.mock);
    cr_assert_eq(cJSON_GetArraySize(reqs), 2);
    cJSON *parts = user_parts(reqs, 1, 0);
    size_t len = 0;
    unsigned char *png = image_of(cJSON_GetArrayItem(parts, 1), 0, &len);
    cr_expect_gt(png_width(png, len), 640, "no --max-image-px: the viewport as captured");
    free(png);
    cJSON_Delete(parts);
    cJSON_Delete(reqs);
}

Test(e2e_vision, bad_vision_options_are_one_line_exit_2)
{
    cr_expect_eq(run_cli((const char *[]){"run", TASK_FX3, "--image-detail", "medium", NULL}), 2);
    char *e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--image-detail 'medium'") && ts_count_lines(e) == 1, "%s", e);
    free(e);
    cr_expect_eq(run_cli((const char *[]){"run", TASK_FX3, "--max-image-px", "4", NULL}), 2);
    e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--max-image-px '4'") && ts_count_lines(e) == 1, "%s", e);
    free(e);
    cr_expect_eq(run_cli((const char *[]){"bench", TASK_FX3, "--modes", "hybrid,vision", "--w3c-only", NULL}), 2);
    e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--mode vision needs CDP") && ts_count_lines(e) == 1, "%s", e);
    free(e);
    cr_expect_eq(run_cli((const char *[]){"observe", "http://127.0.0.1:9/", "--screenshot", "/tmp/x.png", NULL}), 2);
    e = ts_slurp(S.err_path);
    cr_expect(strstr(e, "--screenshot needs --mode vision"), "%s", e);
    free(e);
}
