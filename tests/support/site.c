/* tests/support/site.c — see site.h. */
#define _GNU_SOURCE
#include "support/site.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent/run.h"
#include "bench/task_job.h"
#include "core/json.h"
#include "support/cli.h"
#include "webarena/eval.h"
#include "webarena/task.h"

/* `bash SCRIPT start` in dir: its loopback URL into url, checked as ts_site_start says.  0 or -1. */
static int start_one(const char *script, const char *dir, const char *secrets, char *url, size_t size)
{
    char cmd[900];
    snprintf(cmd, sizeof cmd, "bash %s start --dir %s --secrets %s", script, dir, secrets);
    url[0] = '\0';
    FILE *p = popen(cmd, "r");
    int printed = p && fgets(url, (int)size, p);
    int rc = p ? pclose(p) : -1;
    url[strcspn(url, "\n")] = '\0';
    if (!printed || rc != 0 || strncmp(url, "http://127.0.0.1:", 17)) {
        fprintf(stderr, "%s start: expected exit 0 and a loopback URL, got exit %d and '%s'\n", script, rc, url);
        return -1;
    }
    struct stat st;
    if (stat(secrets, &st) != 0 || (st.st_mode & 0777) != 0600) {
        fprintf(stderr, "%s: expected a private (0600) secrets file from %s start\n", secrets, script);
        return -1;
    }
    return 0;
}

int ts_site_start_copies(const char *script, const char *site, const char *const *dirs, int n,
                         const char *secrets)
{
    char urls[1024] = "", resets[2048] = "", name[64];
    size_t ul = 0, rl = 0;
    /* one after the other: the first start writes the secrets file the others read */
    for (int i = 0; i < n; i++) {
        char url[256];
        if (start_one(script, dirs[i], secrets, url, sizeof url))
            return -1;
        ul += (size_t)snprintf(urls + ul, sizeof urls - ul, "%s%s", i ? " " : "", url);
        rl += (size_t)snprintf(resets + rl, sizeof resets - rl, "%s%s reset %s", i ? ";" : "", script, dirs[i]);
        if (ul >= sizeof urls || rl >= sizeof resets) {
            fprintf(stderr, "%s: expected at most a few copies of site %s, got %d\n", script, site, n);
            return -1;
        }
    }
    snprintf(name, sizeof name, "EOUS_SITE_%s", site);
    setenv(name, urls, 1);
    snprintf(name, sizeof name, "EOUS_SITE_%s_RESET", site);
    setenv(name, resets, 1);
    return 0;
}

int ts_site_start(const char *script, const char *site, const char *dir, const char *secrets)
{
    return ts_site_start_copies(script, site, &dir, 1, secrets);
}

void ts_site_stop(const char *script, const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "bash %s stop %s", script, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "%s stop %s failed\n", script, dir);
}

static int is_task_file(const char *name)
{
    size_t len = strlen(name);
    return len > 5 && !strcmp(name + len - 5, ".json");
}

int ts_suite_count(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += is_task_file(e->d_name);
    closedir(d);
    return n;
}

int ts_suite_bench(const char *tasks, const char *modes, const char *planner, const char *secrets,
                   const char *out, int limit_s)
{
    char log[400], errlog[400];
    snprintf(log, sizeof log, "%s.out", out);
    snprintf(errlog, sizeof errlog, "%s.err", out);
    const char *args[16] = {"bench", tasks, "--modes", modes};
    int i = 4;
    if (planner) {
        args[i++] = "--planner";
        args[i++] = planner;
    }
    const char *rest[] = {"--workers", "2", "--secrets", secrets, "--out", out, NULL};
    memcpy(args + i, rest, sizeof rest);
    int rc = ts_cli_run(args, log, errlog, limit_s);
    if (rc != 0 && rc != 1) {
        char *e = ts_slurp(errlog);
        fprintf(stderr, "bench exited %d:\n%s\n", rc, e);
        free(e);
    }
    return rc;
}

int ts_results_count(const char *results, const char *status, const char *mode)
{
    char *text = ts_slurp(results), *save = NULL;
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *r = cJSON_Parse(line);
        const char *s = eous_json_str(r, "status"), *m = eous_json_str(r, "mode");
        n += s && !strcmp(s, status) && (!mode || (m && !strcmp(m, mode)));
        cJSON_Delete(r);
    }
    free(text);
    return n;
}

int ts_secrets_in(const char *secrets, const char *dir, const char **found)
{
    char *text = ts_slurp(secrets), *save = NULL;
    int n = 0;
    *found = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *v = strchr(line, '=');
        if (!v || strlen(v + 1) <= 8) {
            n = -1; /* a value that short would be found by chance: no test of anything */
            break;
        }
        n++;
        if (!*found)
            *found = ts_file_with(dir, v + 1);
    }
    free(text);
    return n;
}

int ts_suite_load(const char *dir, wa_task_list *l)
{
    char *files[512];
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && n < 512 && (e = readdir(d)))
        if (is_task_file(e->d_name) && asprintf(&files[n], "%s/%s", dir, e->d_name) > 0)
            n++;
    if (d)
        closedir(d);
    eous_err err;
    eous_err_clear(&err);
    int rc = d && wa_tasks_load((const char *const *)files, n, l, &err) == EOUS_OK ? 0 : -1;
    if (rc)
        fprintf(stderr, "%s: expected a folder of tasks that load: %s\n", dir, d ? err.msg : "cannot be read");
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    return rc;
}

/* 1 when t's program_html reads the current page ("last") as well as opening
 * pages of its own: the first evaluation leaves another page current, so the
 * second needs the start page again. */
static int reads_last_after_opening(const wa_task *t)
{
    int last = 0, other = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, eous_json_arr(t->eval, "program_html")) {
        const char *url = eous_json_str(p, "url");
        last |= !url || !strcmp(url, "last");
        other |= url && strcmp(url, "last");
    }
    return last && other;
}

/* Tallies one task's two verdicts into u; a verdict that needs a judge or a site API is no 0. */
static void tally(ts_untouched *u, const wa_task *t, const wa_eval_result *none, const wa_eval_result *na)
{
    const char *kind = eous_json_str(t->raw, "kind");
    int unachievable = kind && !strcmp(kind, "unachievable");
    int zero = none->score == 0.0 && !none->needs_judge && !none->unsupported;
    int na_ok = na->score == (unachievable ? 1.0 : 0.0) && !na->needs_judge && !na->unsupported;
    u->tasks++;
    u->zero += zero;
    u->na_right += na_ok;
    u->unachievable += unachievable;
    size_t len = strlen(u->wrong);
    if (!zero || !na_ok)
        snprintf(u->wrong + len, sizeof u->wrong - len, "task %s: no answer %g (%s), N/A %g (%s); ", t->id,
                 none->score, none->detail, na->score, na->detail);
}

/* One task as a run that does nothing leaves it (ts_suite_untouched). */
static eous_rc untouched_task(wd_session *s, const wa_task *t, ts_untouched *u, eous_err *err)
{
    if (t->problem[0] || !t->eval)
        return eous_err_set(err, EOUS_E_INVALID, "%s",
                            t->problem[0] ? t->problem : "expected WebArena's evaluators (an \"eval\" object)");
    agent_job job;
    bench_task_job(t, &job);
    void *hold = NULL;
    wa_eval_result none, na;
    eous_rc rc = job.ops->enter ? job.ops->enter(&job, &hold, err) : EOUS_OK;
    if (!rc)
        rc = agent_prepare_page(s, &job, err);
    if (!rc)
        rc = wa_evaluate(t->eval, t->intent, NULL, s, NULL, NULL, &none, err);
    if (!rc && reads_last_after_opening(t))
        rc = agent_prepare_page(s, &job, err);
    if (!rc)
        rc = wa_evaluate(t->eval, t->intent, "N/A", s, NULL, NULL, &na, err);
    if (job.ops->leave && hold) /* given even when entering failed: it releases what was taken */
        job.ops->leave(hold);
    if (!rc)
        tally(u, t, &none, &na);
    return rc;
}

int ts_suite_untouched(wd_session *s, const char *dir, ts_untouched *u)
{
    memset(u, 0, sizeof *u);
    wa_task_list l;
    if (ts_suite_load(dir, &l))
        return -1;
    eous_err err;
    eous_err_clear(&err);
    eous_rc rc = EOUS_OK;
    for (size_t i = 0; i < l.n && !rc; i++)
        if ((rc = untouched_task(s, &l.tasks[i], u, &err)))
            fprintf(stderr, "%s: task %s with nothing done: %s\n", dir, l.tasks[i].id, err.msg);
    wa_tasks_free(&l);
    return rc ? -1 : 0;
}
