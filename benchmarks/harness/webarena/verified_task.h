/* webarena/verified_task.h — WebArena-Verified task configs beside WebArena's:
 * "start_urls" (a list) and "eval" (a list of evaluators).  task.c calls
 * these from its loader; the task keeps its "eval" list in t->verified. */
#ifndef EOUS_WEBARENA_VERIFIED_TASK_H
#define EOUS_WEBARENA_VERIFIED_TASK_H

#include "webarena/task.h"

/* Is cfg in the verified format (an "eval" list or "start_urls")? */
int wa_verified_is_cfg(const cJSON *cfg);
/* Structural checks a loader fails on: start_urls a non-empty list of
 * strings, eval a non-empty list of objects naming an "evaluator". */
eous_rc wa_verified_check_cfg(const cJSON *cfg, const char *file, int index, eous_err *err);
/* The first start URL (borrowed from raw). */
const char *wa_verified_start_url(const cJSON *raw);
/* The start URLs after the first, as the list's next item (borrowed; walk
 * with ->next), or NULL when the task has one.  Each opens in a tab of its
 * own, as WebArena opens several start pages; the first stays active. */
const cJSON *wa_verified_more_start_urls(const cJSON *raw);
/* What would keep the task from running or being scored, into t->problem:
 * a start URL that is not http(s), an evaluator eous lacks, an expected value its
 * normalisers refuse. */
void wa_verified_check_task(wa_task *t);

#endif
