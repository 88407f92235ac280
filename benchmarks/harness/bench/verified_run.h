/* bench/verified_run.h — a WebArena-Verified task in a live run: its network
 * log starts with the task's start page, and at its end the answer, the HAR
 * and the scores are written to trace/<task>-<mode>/ (task.json,
 * agent_response.json, network.har, score.json) so `eous score --run DIR`
 * re-scores it offline. */
#ifndef EOUS_BENCH_VERIFIED_RUN_H
#define EOUS_BENCH_VERIFIED_RUN_H

#include "agent/run.h"
#include "webarena/task.h"
#include "webdriver/wd.h"

/* The objective a model reads (the intent, then the answer format from the
 * task's type and results_schema) and the stop tool's answer schema; the
 * caller frees both. */
void bench_verified_objective(const wa_task *t, char **objective, cJSON **answer_schema);
/* Empties the session's network log (what earlier tasks left), when it has
 * one, and limits what Chromium keeps of response bodies to what task t's
 * evaluators may read (none unless one expects response_content; t may be
 * NULL: none). */
void bench_verified_begin(wd_session *s, const wa_task *t);
/* The directory of a task's files from its trace path (".../trace/T-M.jsonl"
 * → ".../trace/T-M"); caller frees. */
char *bench_verified_dir(const char *trace_path);
/* The per-evaluator verdicts of a score (vf_score_task's object) as a
 * results line carries them: [{evaluator, status, error?, failed: ["name:
 * first message", ...]}] (messages cut at 300 bytes).  Caller frees. */
cJSON *bench_verified_evaluators(const cJSON *score);
/* Writes the files and scores the task into res (score, status, eval_detail).
 * An answer that is not JSON is kept verbatim and scored as the evaluator
 * scores it, with a note; res->bench.evaluators gets bench_verified_evaluators.  Errors only for files that cannot be written. */
eous_rc bench_verified_finish(const wa_task *t, const char *answer, const char *trace_path, wd_session *s,
                              agent_result *res, char *note, size_t note_size, eous_err *err);

#endif
