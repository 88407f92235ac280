/* agent/job.c — a job with nothing set (agent/job.h). */
#include "agent/job.h"

#include <string.h>

void agent_job_init(agent_job *j)
{
    memset(j, 0, sizeof *j);
}
