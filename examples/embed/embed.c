/* examples/embed/embed.c — the runtime alone (libeous, no benchmark harness): a browser, a job
 * written in C, its steps run by the script planner, what the page said read back.
 *   cc -std=c11 embed.c $(pkg-config --cflags --libs eous) -o embed && ./embed URL
 * URL: a page with a "Name" field, a "Greet" button and a status line that answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <eous/eous.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: embed URL (a page with a Name field and a Greet button)\n"), 2;
    eous_err err;
    agent_browser b = {0};
    if (agent_browser_open(&b, NULL, 0, &err))
        return fprintf(stderr, "embed: %s\n", err.msg), 1;
    agent_job job;
    agent_job_init(&job);
    snprintf(job.id, sizeof job.id, "greet");
    job.intent = "Greet Ada";
    job.start_url = argv[1];
    cJSON *steps = cJSON_Parse("[{\"type\": \"textbox 'Name'\", \"text\": \"Ada\"}, {\"click\": \"button 'Greet'\"},"
                               " {\"read\": \"status ''\", \"as\": \"greeting\"}]");
    job.steps = job.atomic_steps = steps;
    agent_run_opts o;
    agent_run_opts_init(&o);
    agent_result res;
    eous_rc rc = agent_run_task(b.session, &job, &o, &res, &err);
    char *line = rc ? NULL : cJSON_PrintUnformatted(cJSON_GetObjectItem(res.rpa.output, "greeting"));
    printf("%s: %s\n", rc ? "error" : eous_status_name(res.status), rc ? err.msg : line ? line : res.error);
    int ok = !rc && res.status == EOUS_ST_PASSED;
    free(line);
    agent_result_clear(&res);
    cJSON_Delete(steps);
    agent_browser_close(&b);
    return ok ? 0 : 1;
}
