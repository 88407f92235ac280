/* tests/support/site.c — see site.h. */
#define _GNU_SOURCE
#include "support/site.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json.h"
#include "support/cli.h"

int ts_site_start(const char *script, const char *site, const char *dir, const char *secrets)
{
    char cmd[900], url[256] = "", name[64], reset[700];
    snprintf(cmd, sizeof cmd, "bash %s start --dir %s --secrets %s", script, dir, secrets);
    FILE *p = popen(cmd, "r");
    int printed = p && fgets(url, sizeof url, p);
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
    snprintf(name, sizeof name, "EOUS_SITE_%s", site);
    setenv(name, url, 1);
    snprintf(name, sizeof name, "EOUS_SITE_%s_RESET", site);
    snprintf(reset, sizeof reset, "%s reset %s", script, dir);
    setenv(name, reset, 1);
    return 0;
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

/* src's task with its plans replaced by plan, written to dst: 0 or -1. */
static int copy_task_with_plan(const char *src, const char *dst, const char *plan)
{
    int rc = -1;
    char *text = ts_slurp(src), *out = NULL;
    cJSON *task = cJSON_Parse(text);
    FILE *f = NULL;
    if (!task)
        goto done;
    cJSON_ReplaceItemInObjectCaseSensitive(task, "script", cJSON_Parse(plan));
    cJSON_ReplaceItemInObjectCaseSensitive(task, "atomic_script", cJSON_Parse(plan));
    out = cJSON_Print(task);
    f = fopen(dst, "w");
    if (!out || !f || fputs(out, f) < 0)
        goto done;
    rc = 0;
done:
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "%s: expected a task (JSON) to copy to %s\n", src, dst);
    free(out);
    cJSON_Delete(task);
    free(text);
    return rc;
}

int ts_suite_copy_with_plan(const char *src, const char *dst, const char *plan)
{
    mkdir(dst, 0755);
    DIR *d = opendir(src);
    if (!d) {
        fprintf(stderr, "%s: expected a folder of tasks\n", src);
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while (n >= 0 && (e = readdir(d))) {
        if (!is_task_file(e->d_name))
            continue;
        char from[600], to[600];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
        n = copy_task_with_plan(from, to, plan) == 0 ? n + 1 : -1;
    }
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
