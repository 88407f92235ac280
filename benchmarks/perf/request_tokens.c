/* benchmarks/perf/request_tokens.c — what one model request costs, as a provider bills it.
 *
 * For each stored Playground view (benchmarks/results/views/<screen>.<mode>.txt) the first
 * request of a task, made by the llm client exactly as `eous run --planner llm` makes it
 * (llm_render_request, nothing sent): o200k tokens of the whole request (llm/bill.c's count), its
 * fixed part (system prompt and tool schemas, the same on every request) and the user message,
 * for OpenAI's and Anthropic's request shapes, history full and stateless, --max-batch 8 and 1.
 * The goal: the fixed part is at most 40% of the hybrid request on the booking screen.
 * Writes benchmarks/results/request_tokens.{json,md} (or argv[1] directory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "support/gitrev.h"
#include "core/core.h"
#include "llm/llm.h"

static const char *SCREENS[] = {"booking", "users", "settings", "orders", "apply"};
static const char *MODES[] = {"hybrid", "pruned", "atomic"};
static const char *INTENT = "Book a Deluxe room in Paris, France for Ada Lovelace, 2 guests, check-in 2025-06-20, "
                            "check-out 2025-06-23.";

typedef struct row {
    long total, fixed;
} row;

/* The first request for view text in mode; 0 or -1 (printed). */
static int measure(const char *spec, const char *mode, const char *view, int history_full, int max_batch,
                   row *out)
{
    llm_opts o;
    llm_opts_init(&o);
    eous_err err;
    eous_err_clear(&err);
    llm_client *c = NULL;
    llm_conv *conv = NULL;
    char spec_copy[64];
    snprintf(spec_copy, sizeof spec_copy, "%s", spec);
    if (llm_parse_spec(spec_copy, &o, &err) || llm_client_new(&o, &c, &err) ||
        (history_full && llm_conv_new(0, &conv, &err))) {
        fprintf(stderr, "request_tokens: %s\n", err.msg);
        llm_client_free(c);
        return -1;
    }
    llm_step_input in;
    memset(&in, 0, sizeof in);
    in.objective = INTENT;
    in.url = "http://127.0.0.1:8080/booking";
    in.observation = view;
    /* MODES are names of perc_mode's table, so this holds */
    (void)perc_mode_parse(mode, &in.mode);
    in.max_batch = max_batch;
    in.conv = conv;
    in.deltas = history_full;
    char *body = NULL;
    llm_usage u;
    int rc = llm_render_request(c, &in, &body, &u, &err) ? -1 : 0;
    if (rc)
        fprintf(stderr, "request_tokens: %s\n", err.msg);
    out->total = u.request_tokens;
    out->fixed = u.fixed_tokens;
    free(body);
    llm_conv_free(conv);
    llm_client_free(c);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : EOUS_SOURCE_DIR "/benchmarks/results";
    /* the client needs a key to exist; nothing is sent */
    setenv("OPENAI_API_KEY", "unused-nothing-is-sent", 1);
    setenv("ANTHROPIC_API_KEY", "unused-nothing-is-sent", 1);
    static const char *const specs[] = {"openai:gpt-4o", "anthropic:claude-sonnet-4"};
    char commit[64], path[4096];
    ts_git_commit(commit, sizeof commit);
    cJSON *root = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(root, "rows");
    cJSON_AddStringToObject(root, "commit", commit);
    snprintf(path, sizeof path, "%s/request_tokens.md", outdir);
    FILE *md = fopen(path, "w");
    if (!md) {
        fprintf(stderr, "request_tokens: cannot write %s\n", path);
        return 1;
    }
    fprintf(md,
            "# One model request, as a provider bills it\n\n"
            "Commit %s; `benchmarks/perf/request_tokens.c`. The first request of a task on each stored "
            "Playground view (`benchmarks/results/views/`), made by the llm client as `eous run --planner llm` "
            "makes it (`llm_render_request`, nothing sent). o200k tokens (`llm/bill.c`): the whole request, "
            "and its fixed part (system prompt and tool schemas, sent on every request). Later requests of "
            "a conversation add messages, so the fixed share only falls.\n\n"
            "| screen | mode | shape | history | max-batch | request | fixed | fixed share |\n"
            "|---|---|---|---|---:|---:|---:|---:|\n",
            commit);
    int bad = 0;
    for (size_t si = 0; si < sizeof SCREENS / sizeof *SCREENS; si++) {
        for (size_t mi = 0; mi < sizeof MODES / sizeof *MODES; mi++) {
            char vpath[4096];
            snprintf(vpath, sizeof vpath, EOUS_SOURCE_DIR "/benchmarks/results/views/%s.%s.txt", SCREENS[si],
                     MODES[mi]);
            char *view = NULL;
            size_t vlen = 0;
            eous_err err;
            if (eous_read_file(vpath, 1 << 24, &view, &vlen, &err)) {
                fprintf(stderr, "request_tokens: %s\n", err.msg);
                bad = 1;
                continue;
            }
            for (size_t pi = 0; pi < 2; pi++) {
                for (int hf = 1; hf >= 0; hf--) {
                    for (int mb = 8; mb >= 1; mb -= 7) {
                        /* the default settings everywhere; the other shapes on the booking screen */
                        if ((pi || !hf || mb == 1) && si != 0)
                            continue;
                        row r;
                        if (measure(specs[pi], MODES[mi], view, hf, mb, &r)) {
                            bad = 1;
                            continue;
                        }
                        double share = r.total ? (double)r.fixed / (double)r.total : 0;
                        fprintf(md, "| %s | %s | %s | %s | %d | %ld | %ld | %.0f%% |\n", SCREENS[si], MODES[mi],
                                pi ? "Anthropic" : "OpenAI", hf ? "full" : "stateless", mb, r.total, r.fixed,
                                100 * share);
                        cJSON *o = cJSON_CreateObject();
                        cJSON_AddStringToObject(o, "screen", SCREENS[si]);
                        cJSON_AddStringToObject(o, "mode", MODES[mi]);
                        cJSON_AddStringToObject(o, "provider", pi ? "anthropic" : "openai");
                        cJSON_AddStringToObject(o, "history", hf ? "full" : "stateless");
                        cJSON_AddNumberToObject(o, "max_batch", mb);
                        cJSON_AddNumberToObject(o, "request_tokens", (double)r.total);
                        cJSON_AddNumberToObject(o, "fixed_tokens", (double)r.fixed);
                        cJSON_AddItemToArray(rows, o);
                    }
                }
            }
            free(view);
        }
    }
    fclose(md);
    snprintf(path, sizeof path, "%s/request_tokens.json", outdir);
    char *text = cJSON_Print(root);
    FILE *jf = fopen(path, "w");
    if (!jf || !text || fputs(text, jf) < 0)
        bad = 1;
    if (jf)
        fclose(jf);
    free(text);
    cJSON_Delete(root);
    return bad;
}
