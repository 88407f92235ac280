/* bench/task_job.h — a WebArena or WebArena-Verified task (webarena/task.h)
 * as the runtime's neutral job (agent/job.h): its fields, and ops that take
 * its sites' locks and resets, start a verified task's network log, tell the
 * model a verified task's answer format and score the run with the task's
 * evaluators.
 *
 * Ownership: the job borrows from t, which must outlive it. */
#ifndef EOUS_BENCH_TASK_JOB_H
#define EOUS_BENCH_TASK_JOB_H

#include "agent/job.h"
#include "webarena/task.h"

/* Fills j from t (a plain job file's task gets no scorer: its steps run to their end pass). */
void bench_task_job(const wa_task *t, agent_job *j);

#endif
