/* tests/support/job_check.h — what tests check of a job file `eous distill` wrote: that its steps
 * name what a person reads, never a view id.  No Criterion here (plain C, as the rest of support/). */
#ifndef EOUS_TS_JOB_CHECK_H
#define EOUS_TS_JOB_CHECK_H

#include "core/core.h"

/* 1 when a step's target is a view id ("12", "[12]", "c3", "[c3]") rather than what a person reads. */
int ts_is_view_id(const char *target);
/* The first target in job's list (e.g. "steps", "atomic_steps") that is a view id (borrowed from job),
 * under a step key that names a target (call, click, hover, type, select, read); NULL when none is. */
const char *ts_job_view_id(const cJSON *job, const char *list);

#endif
