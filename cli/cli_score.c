/* cli/cli_score.c — `eous score`: WebArena's evaluators over values read
 * elsewhere (the Node tools' pages), so the repository has one evaluator.
 * Input: JSON lines {"eval", "intent", "answer", "url", "values"} on stdin;
 * output: one line {"score", "status", "detail"} per input line.  No judge:
 * fuzzy_match/ua_match give status "needs_judge". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "agent/eval.h"

int cli_score(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "eous score: expected no arguments (JSON lines on stdin)\n");
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, bad = 0, scored = 0;
    while (getline(&line, &cap, stdin) > 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        cJSON *in = cJSON_Parse(line);
        const cJSON *eval = cJSON_GetObjectItemCaseSensitive(in, "eval");
        if (!cJSON_IsObject(eval)) {
            fprintf(stderr, "eous score: stdin line %d: expected a JSON object with an \"eval\" object\n", lineno);
            cJSON_Delete(in);
            bad = 1;
            break;
        }
        agent_eval_observed obs = {
            .answer = eous_json_str(in, "answer"),
            .url = eous_json_str(in, "url"),
            .values = cJSON_GetObjectItemCaseSensitive(in, "values"),
        };
        agent_eval_result r;
        agent_score_observed(eval, eous_json_str(in, "intent"), &obs, NULL, &r);
        scored++;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "score", r.score);
        cJSON_AddStringToObject(o, "status", r.needs_judge ? "needs_judge" : r.unsupported ? "unsupported"
                                             : r.score >= 1.0 ? "passed" : "failed");
        cJSON_AddStringToObject(o, "detail", r.detail);
        char *txt = cJSON_PrintUnformatted(o);
        if (txt)
            puts(txt);
        fflush(stdout);
        free(txt);
        cJSON_Delete(o);
        cJSON_Delete(in);
    }
    free(line);
    /* nothing to score is a mistake in the pipe feeding us, not a success */
    if (!bad && !scored) {
        fprintf(stderr, "eous score: stdin held no JSON line to score; expected {\"eval\": {...}, \"answer\": ..., "
                        "\"url\": ..., \"values\": [...]} one a line\n");
        bad = 1;
    }
    return bad ? 2 : 0;
}
