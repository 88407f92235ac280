/* tests/agent/test_distill_recorded.c — `eous distill` on a recorded run, no browser: the stand-in
 * model's passed hybrid runs of four Playground tasks (tests/fixtures/distill/run) become plain jobs
 * whose steps name what the views printed, never a view id; the values the intent holds become
 * parameters with the run's values as defaults; each call has its atomic steps (a table's filter, a
 * row's edit button, a cascader's levels, a wizard's select by its label).  A failed run, a run
 * without traces and a task the run does not hold are bad input, with nothing written.
 * tests/agent/test_distill.c replays distilled jobs in a browser (the release stage); this one keeps
 * distill's reading of traces and views under ASan and in `make check`. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "support/cli.h"
#include "support/job_check.h"
#include "support/workdir.h"

#define RECORDED EOUS_SOURCE_DIR "/tests/fixtures/distill/run"

static char tmpdir[256], out_path[300], err_path[300];

static void setup(void)
{
    ts_workdir_make(tmpdir, sizeof tmpdir, "distill-rec", out_path, err_path, sizeof out_path);
}

static void teardown(void)
{
    ts_workdir_remove(tmpdir);
}

TestSuite(distill_recorded, .init = setup, .fini = teardown, .timeout = 120);

/* `eous distill RUN --task ID --mode hybrid -o FILE`: its exit code; stderr in err_path. */
static int distil(const char *run, const char *task, const char *file)
{
    const char *args[] = {"distill", run, "--task", task, "--mode", "hybrid", "-o", file, NULL};
    return ts_cli_run(args, out_path, err_path, 60);
}

/* The distilled job of task id, parsed (the caller deletes it). */
static cJSON *distilled(const char *id)
{
    char job[400];
    snprintf(job, sizeof job, "%s/%s.json", tmpdir, id);
    int rc = distil(RECORDED, id, job);
    char *err = ts_slurp(err_path);
    cr_assert_eq(rc, 0, "task %s distils: %s", id, err);
    free(err);
    char *text = ts_slurp(job);
    cJSON *j = cJSON_Parse(text);
    cr_assert_not_null(j, "task %s: the job is JSON: %s", id, text);
    free(text);
    return j;
}

/* Every target in steps and atomic_steps is a name, and list (key, value pairs, NULL-ended) are each
 * one step of `atomic_steps`, in that order. */
static void expect_atomic(const char *id, const cJSON *job, const char *const *want)
{
    const char *const lists[] = {"steps", "atomic_steps"};
    for (size_t l = 0; l < 2; l++) {
        const char *vid = ts_job_view_id(job, lists[l]);
        cr_expect(!vid, "task %s: a step of %s targets the view id %s", id, lists[l], vid);
    }
    const cJSON *atomic = cJSON_GetObjectItemCaseSensitive(job, "atomic_steps"), *step = atomic ? atomic->child : NULL;
    for (const char *const *w = want; *w; w += 2) {
        while (step && !(eous_json_str(step, w[0]) && !strcmp(eous_json_str(step, w[0]), w[1])))
            step = step->next;
        cr_expect_not_null(step, "task %s: atomic_steps hold {\"%s\": \"%s\"} after the steps before it", id, w[0],
                           w[1]);
        if (!step)
            return;
        step = step->next;
    }
    char *text = cJSON_Print(atomic);
    cr_expect(!strstr(text, "\"call\""), "task %s: every call has its atomic steps: %s", id, text);
    free(text);
}

/* params.NAME.default of a job */
static const char *param_default(const cJSON *job, const char *name)
{
    return eous_json_str(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(job, "params"), name),
                         "default");
}

Test(distill_recorded, calls_become_a_persons_atomic_steps_and_intent_values_parameters)
{
    cJSON *j = distilled("30");
    expect_atomic("30", j,
                  (const char *const[]){"click", "button 'filter' under 'Active filter'", "click", "menuitem 'Inactive'",
                                        "click", "button 'OK'", "click", "button 'filter' under 'Role filter'",
                                        "click", "menuitem 'Admin'", "click", "button 'OK'", NULL});
    cr_expect_str_eq(param_default(j, "USERS"), "Admin");
    cr_expect(strstr(eous_json_str(j, "intent"), "{{param:USERS}}"), "the intent names the parameter");
    cJSON_Delete(j);

    j = distilled("27");
    expect_atomic("27", j,
                  (const char *const[]){"type", "Search users", "click", "button 'Edit Ivan Sammet'", "click",
                                        "switch 'Active'", "click", "button 'Save'", NULL});
    cJSON_Delete(j);

    j = distilled("0");
    expect_atomic("0", j,
                  (const char *const[]){"type", "Guest name", "click", "combobox 'Destination'", "click",
                                        "menuitemcheckbox '{{param:DESTINATION}} right'", "click",
                                        "menuitemcheckbox '{{param:DESTINATION_2}}'", "type", "Check-in", "select",
                                        "Room type", "click", "button 'Book'", NULL});
    cr_expect_str_eq(param_default(j, "DESTINATION"), "France");
    cr_expect_str_eq(param_default(j, "CHECK_IN"), "2025-06-20");
    cJSON_Delete(j);

    j = distilled("86");
    expect_atomic("86", j,
                  (const char *const[]){"click", "button 'Next'", "option", "Site Reliability Engineer", "click",
                                        "checkbox 'rust'", "click", "button 'Submit application'", NULL});
    cJSON_Delete(j);
}

/* A copy of the recorded run in dir with results.jsonl passed through sed expression expr (NULL: as
 * it is), and its traces when with_traces. */
static void copy_run(const char *dir, const char *expr, int with_traces)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && sed '%s' '%s/results.jsonl' > '%s/results.jsonl'%s%s%s%s", dir,
             expr ? expr : "", RECORDED, dir, with_traces ? " && cp -r '" : "", with_traces ? RECORDED : "",
             with_traces ? "/trace' " : "", with_traces ? dir : "");
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* distil(run, task) fails with exit 2, one line on stderr holding what, and no job file. */
static void expect_bad(const char *run, const char *task, const char *what)
{
    char job[400];
    snprintf(job, sizeof job, "%s/bad.json", tmpdir);
    int rc = distil(run, task, job);
    char *err = ts_slurp(err_path);
    cr_expect_eq(rc, 2, "%s: bad input: %s", what, err);
    cr_expect(strstr(err, what) && ts_count_lines(err) == 1, "one line saying '%s': %s", what, err);
    cr_expect_neq(access(job, F_OK), 0, "nothing written for '%s'", what);
    free(err);
}

Test(distill_recorded, a_failed_run_no_traces_or_an_unknown_task_is_bad_input)
{
    char failed[300], bare[300];
    snprintf(failed, sizeof failed, "%s/failed", tmpdir);
    snprintf(bare, sizeof bare, "%s/bare", tmpdir);
    copy_run(failed, "s/\"status\":\"passed\"/\"status\":\"failed\"/", 1);
    expect_bad(failed, "30", "did not pass");
    copy_run(bare, NULL, 0);
    expect_bad(bare, "30", "without traces");
    expect_bad(RECORDED, "99", "no task 99");
}
