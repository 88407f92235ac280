/* cli/cli_run.c — `eous run TASK.json` and `eous check TASK.json...`. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/task_job.h"
#include "agent/browser.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "agent/run.h"
#include "runs/rundir.h"
#include "llm/llm.h"

/* One line per declared parameter: its default (or that a value is needed) and description. */
static void list_params(const char *file, const wa_task *t)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, eous_json_obj(t->raw, "params")) {
        const char *dflt = cJSON_IsString(d) ? d->valuestring : eous_json_str(d, "default");
        const char *desc = eous_json_str(d, "description");
        printf("%s: task %s: param %s%s%s%s%s%s\n", file, t->id, d->string, dflt ? " (default \"" : " (required)",
               dflt ? dflt : "", dflt ? "\")" : "", desc ? ": " : "", desc ? desc : "");
    }
}

int cli_check(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "eous check: expected one or more task files\n");
        return EOUS_EXIT_INPUT;
    }
    int problems = 0, total = 0;
    for (int i = 1; i < argc; i++) {
        wa_task_list l;
        eous_err err;
        eous_err_clear(&err);
        const char *f = argv[i];
        wa_load_opts lo = {NULL, 1}; /* no values here: a parameter without one is listed, not a problem */
        if (wa_tasks_load_opts(&f, 1, &lo, &l, &err)) {
            printf("%s\n", err.msg);
            problems++;
            continue;
        }
        for (size_t k = 0; k < l.n; k++) {
            total++;
            list_params(f, &l.tasks[k]);
            if (l.tasks[k].problem[0]) {
                printf("%s: task %s (config #%d): %s\n", f, l.tasks[k].id, l.tasks[k].index, l.tasks[k].problem);
                problems++;
            }
        }
        wa_tasks_free(&l);
    }
    fprintf(stderr, "eous check: %d config(s), %d problem(s)\n", total, problems);
    return problems ? EOUS_EXIT_INPUT : EOUS_EXIT_OK;
}

/* Appends the run's line to results.jsonl as the task's next attempt (a
 * rerun into the same directory goes beside the earlier ones); rc, or the
 * write's failure when the run itself went well. */
static eous_rc record(const char *out_dir, agent_result *res, eous_rc rc, eous_err *err)
{
    runs_dir prev;
    if (!runs_dir_load(out_dir, 0, &prev, NULL)) {
        res->attempt = runs_dir_attempts(&prev, res->task_id, res->mode) + 1;
        runs_dir_free(&prev);
    } else {
        res->attempt = 1;
    }
    char *line = rc == EOUS_E_IO ? NULL : agent_result_json(res);
    eous_err werr;
    eous_err_clear(&werr);
    if (line && runs_dir_append(out_dir, line, &werr) && !rc) {
        rc = werr.rc;
        *err = werr;
    }
    free(line);
    return rc;
}

int cli_run(int argc, char **argv)
{
    cli_opts co;
    const char *task_file = NULL;
    if (cli_parse_common(argc, argv, &co, 1, &task_file))
        return EOUS_EXIT_INPUT;
    if (!task_file) {
        fprintf(stderr, "eous run: expected a task file (eous run TASK.json [options])\n");
        cli_opts_free(&co);
        return EOUS_EXIT_INPUT;
    }
    wa_task_list l;
    eous_err err;
    eous_err_clear(&err);
    wa_load_opts lo = {co.params, 0};
    if (wa_tasks_load_opts(&task_file, 1, &lo, &l, &err)) {
        cli_name_param_flags(&err);
        fprintf(stderr, "eous: %s\n", err.msg);
        cli_opts_free(&co);
        return EOUS_EXIT_INPUT;
    }
    if (l.n != 1) {
        fprintf(stderr, "eous run: %s holds %zu configs; run takes one (use eous bench for many)\n", task_file, l.n);
        wa_tasks_free(&l);
        cli_opts_free(&co);
        return EOUS_EXIT_INPUT;
    }
    wa_task *t = &l.tasks[0];
    if (t->problem[0]) {
        fprintf(stderr, "eous: %s: task %s: %s\n", task_file, t->id, t->problem);
        wa_tasks_free(&l);
        cli_opts_free(&co);
        return EOUS_EXIT_INPUT;
    }
    int code = EOUS_EXIT_INPUT;
    char trace_path[4200], audit_path[4200], folder[300];
    snprintf(folder, sizeof folder, "%s-%s", t->id, perc_mode_name(co.run.mode));
    if (cli_default_out(&co, folder, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(err.rc);
        goto out;
    }
    /* paths under --out before anything is written or started */
    if (eous_path_under(trace_path, sizeof trace_path, co.out_dir, &err, "trace/%s-%s.jsonl", t->id,
                        perc_mode_name(co.run.mode)) ||
        eous_path_under(audit_path, sizeof audit_path, co.out_dir, &err, "audit.jsonl")) {
        fprintf(stderr, "eous: %s: task %s: %s\n", task_file, t->id, err.msg);
        goto out;
    }
    if (cli_setup_run(&co, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(err.rc);
        goto out;
    }
    wd_install_signal_handlers();
    wd_become_subreaper();
    agent_browser b;
    if (agent_browser_open_net(&b, co.webdriver, co.cdp_addr, co.w3c_only, t->verified != NULL, &err)) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = eous_rc_exit_code(err.rc);
        goto out;
    }
    agent_run_opts ro;
    cli_run_opts(&co, &ro);
    ro.mode = co.run.mode;
    ro.trace_path = trace_path;
    ro.audit_path = audit_path;
    agent_result res;
    agent_job job;
    bench_task_job(t, &job);
    eous_rc rc = agent_run_task(b.session, &job, &ro, &res, &err);
    agent_browser_close(&b);
    rc = record(co.out_dir, &res, rc, &err);
    if (rc == EOUS_E_IO) { /* disk full, read-only: the run's record is not whole */
        fprintf(stderr, "eous: %s\n", err.msg);
        code = EOUS_EXIT_INFRA;
    } else if (rc && rc != EOUS_E_INVALID) {
        fprintf(stderr, "eous: task %s: %s\n", t->id, err.msg);
        code = eous_rc_exit_code(rc);
    } else if (rc) {
        fprintf(stderr, "eous: %s\n", err.msg);
        code = EOUS_EXIT_INPUT;
    } else {
        char *ans = eous_redact(res.answer ? res.answer : "");
        printf("task %s: %s (score %.1f) · mode %s · planner %s · %d steps (%d semantic, %d atomic) · %ld+%ld tokens · %.1f s\n",
               t->id, eous_status_name(res.status), res.score, res.mode, res.planner, res.steps, res.semantic_actions,
               res.atomic_actions, res.usage.prompt_tokens, res.usage.completion_tokens, res.time.wall_ms / 1000.0);
        if (res.answer)
            printf("answer: %s\n", ans ? ans : "");
        if (res.error[0])
            printf("error: %s\n", res.error);
        if (res.eval_detail[0])
            printf("eval: %s\n", res.eval_detail);
        printf("results: %s/results.jsonl · trace: %s\n", co.out_dir, trace_path);
        printf("run folder: %s\n", co.out_dir);
        free(ans);
        code = res.score >= 1.0 ? EOUS_EXIT_OK : EOUS_EXIT_FAILED;
    }
    agent_result_clear(&res);
out:
    cli_teardown_run(&co);
    wa_tasks_free(&l);
    cli_opts_free(&co);
    return code;
}
