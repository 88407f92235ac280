/* mcp/mcp_tasks.c — task_list, task_start, task_submit (issue 51, --caps tasks): an MCP client as the
 * agent of a task eous resets, opens and scores.  See mcp_server_int.h for how a tool file plugs in.
 *
 * task_start loads the task from its file, takes its sites (reset when the task asks), opens its start
 * page in a fresh tab as a bench job does (agent_prepare_page) and answers with the intent and the view
 * in the task's mode, which the browser_* tools then use; task_submit scores the page and the answer
 * with the task's evaluators (WebArena's one by one, WebArena-Verified's with the network log as a
 * HAR), appends the result line to results.jsonl in the server's run folder (mcp_opts.out_dir) and
 * answers with the verdict per evaluator.  One task at a time per server (an HTTP session is one). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/task_job.h"
#include "agent/run.h"
#include "bench/verified_run.h"
#include "core/json.h"
#include "mcp/mcp_server_int.h"
#include "runs/rundir.h"
#include "webarena/eval.h"
#include "webarena/site_reset.h"

#define TASKS_LIST_MAX 200 /* task_list prints this many tasks, then a count */

/* The task a client started and has not submitted. */
struct mcp_task_run {
    wa_task_list list;    /* the task's file, loaded (owns t) */
    const wa_task *t;
    perc_mode mode;       /* the task's; the server's own comes back at the end */
    perc_mode server_mode;
    wa_site_hold sites;
    agent_result res;
    double t0;
    char trace[4300];     /* out_dir/trace/<task>-<mode>.jsonl: a verified task's files go beside it */
};

static void task_end(mcp_server *m)
{
    struct mcp_task_run *r = m->task;
    if (!r)
        return;
    m->o.mode = r->server_mode;
    wa_site_leave(&r->sites);
    agent_result_clear(&r->res);
    wa_tasks_free(&r->list);
    free(r);
    m->task = NULL;
}

void mcp_tasks_free(mcp_server *m)
{
    task_end(m);
}

/* path (a task file, or a folder: its *.json files in name order) loaded into l. */
static eous_rc load_tasks(const char *tool, const char *path, wa_task_list *l, eous_err *err)
{
    memset(l, 0, sizeof *l);
    DIR *d = opendir(path);
    if (!d)
        return wa_tasks_load(&path, 1, l, err);
    char **files = NULL;
    size_t n = 0;
    eous_rc rc = EOUS_OK;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **g = realloc(files, (n + 1) * sizeof *g);
        if (!g || asprintf(&g[n], "%s/%s", path, e->d_name) < 0)
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        if (g)
            files = g;
        if (!rc)
            n++;
    }
    closedir(d);
    for (size_t i = 1; i < n; i++) /* name order: a folder lists as eous bench runs it */
        for (size_t k = i; k > 0 && strcmp(files[k - 1], files[k]) > 0; k--) {
            char *s = files[k];
            files[k] = files[k - 1];
            files[k - 1] = s;
        }
    if (!rc && !n)
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: %s has no .json task files", tool, path);
    if (!rc)
        rc = wa_tasks_load((const char *const *)files, n, l, err);
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

static eous_rc tool_task_list(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)m;
    const char *path = eous_json_str(args, "path");
    if (!path || !*path)
        return eous_err_set(err, EOUS_E_INVALID, "task_list: expected {path: a task file or a folder of them}");
    wa_task_list l;
    eous_rc rc = load_tasks("task_list", path, &l, err);
    if (rc)
        return rc;
    eous_buf_printf(&out->text, NULL, "%zu task(s) in %s (start one with task_start {file, task_id, mode}):\n", l.n,
                    path);
    for (size_t i = 0; i < l.n && i < TASKS_LIST_MAX; i++) {
        const wa_task *t = &l.tasks[i];
        eous_buf_printf(&out->text, NULL, "- %s (%s)%s%s: %.200s\n", t->id, t->file, t->verified ? " verified" : "",
                        t->problem[0] ? " [cannot run here]" : "", t->intent ? t->intent : "");
    }
    if (l.n > TASKS_LIST_MAX)
        eous_buf_printf(&out->text, NULL, "… and %zu more\n", l.n - TASKS_LIST_MAX);
    wa_tasks_free(&l);
    return EOUS_OK;
}

/* The task task_id of file, or an error naming the ids there are. */
static eous_rc find_task(const wa_task_list *l, const char *file, const char *id, const wa_task **t, eous_err *err)
{
    *t = NULL;
    for (size_t i = 0; i < l->n && !*t; i++)
        if (!strcmp(l->tasks[i].id, id))
            *t = &l->tasks[i];
    if (*t && (*t)->problem[0])
        return eous_err_set(err, EOUS_E_INVALID, "task_start: task %s cannot run here: %s", id, (*t)->problem);
    if (*t)
        return EOUS_OK;
    char ids[200] = "";
    for (size_t i = 0, o = 0; i < l->n && o < sizeof ids - 12; i++)
        o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%s", i ? ", " : "", l->tasks[i].id);
    return eous_err_set(err, EOUS_E_INVALID, "task_start: no task '%s' in %s (its tasks: %s%s)", id, file, ids,
                        l->n > 12 ? ", …" : "");
}

/* task_start's arguments: file, task_id (a string or a number), mode (default: the server's). */
static eous_rc start_args(mcp_server *m, const cJSON *args, const char **file, char *id, size_t n, perc_mode *mode,
                          eous_err *err)
{
    *file = eous_json_str(args, "file");
    const cJSON *tid = cJSON_GetObjectItemCaseSensitive(args, "task_id");
    const char *ms = eous_json_str(args, "mode");
    *mode = m->o.mode;
    if (!*file || !**file || !(cJSON_IsString(tid) || cJSON_IsNumber(tid)))
        return eous_err_set(err, EOUS_E_INVALID, "task_start: expected {file: a task file or folder, task_id, mode?}");
    if (cJSON_IsString(tid))
        snprintf(id, n, "%s", tid->valuestring);
    else
        snprintf(id, n, "%.0f", tid->valuedouble);
    if (ms && (perc_mode_parse(ms, mode) || *mode == PERC_MODE_VISION))
        return eous_err_set(err, EOUS_E_INVALID, "task_start: mode '%s': expected hybrid, pruned, atomic or html", ms);
    if (!m->o.out_dir)
        return eous_err_set(err, EOUS_E_INVALID, "task_start: the server has no run folder (eous mcp --out DIR)");
    if (m->task)
        return eous_err_set(err, EOUS_E_INVALID, "task_start: task %s (%s) is still open: task_submit it first",
                            m->task->t->id, perc_mode_name(m->task->mode));
    return EOUS_OK;
}

/* The site taken (reset when the task asks), the start page in a fresh tab, settled. */
static eous_rc open_task(mcp_server *m, struct mcp_task_run *r, eous_err *err)
{
    eous_rc rc;
    if ((rc = mcp_ensure_browser(m, err)) || (rc = agent_fresh_tab(m->b.session, err)))
        return rc;
    double t1 = eous_now_ms();
    mcp_progress(m, 0, 0, "resetting the task's site");
    if ((rc = wa_site_enter(&r->sites, r->t, err)))
        return rc;
    double t2 = eous_now_ms();
    r->res.time.site_ms = t2 - t1;
    mcp_progress(m, 0, 0, "opening the start page");
    agent_job job;
    bench_task_job(r->t, &job);
    if ((rc = agent_prepare_page(m->b.session, &job, err)))
        return rc;
    act_settle(m->x, NULL, NULL);
    r->res.time.start_ms = eous_now_ms() - t2;
    return EOUS_OK;
}

static eous_rc tool_task_start(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *file;
    char id[WA_TASK_ID_MAX + 32];
    perc_mode mode;
    eous_rc rc = start_args(m, args, &file, id, sizeof id, &mode, err);
    if (rc)
        return rc;
    struct mcp_task_run *r = calloc(1, sizeof *r);
    if (!r)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    r->t0 = eous_now_ms();
    if ((rc = load_tasks("task_start", file, &r->list, err)) ||
        (rc = find_task(&r->list, file, id, &r->t, err)) ||
        (rc = eous_path_under(r->trace, sizeof r->trace, m->o.out_dir, err, "trace/%s-%s.jsonl", r->t->id,
                              perc_mode_name(mode)))) {
        wa_tasks_free(&r->list);
        free(r);
        return rc;
    }
    r->mode = mode;
    r->server_mode = m->o.mode;
    m->task = r;
    if ((rc = open_task(m, r, err))) {
        task_end(m); /* nothing is recorded: the client may start it again */
        return rc;
    }
    m->o.mode = mode; /* the browser_* tools answer in the task's mode until it is submitted */
    if ((rc = mcp_observe(m, mode, err))) {
        task_end(m);
        return rc;
    }
    char *objective = NULL;
    cJSON *schema = NULL;
    if (r->t->verified)
        bench_verified_objective(r->t, &objective, &schema);
    eous_buf_printf(&out->text, NULL,
                    "Task %s started in %s mode. Objective: %s\nAct with the browser_* tools; end with task_submit "
                    "{answer} (\"\" when the task asks for no answer, \"N/A\" when it cannot be done)%s\n\n",
                    r->t->id, perc_mode_name(mode), objective ? objective : r->t->intent ? r->t->intent : "",
                    schema ? "; the answer is a JSON object of this schema:" : ".");
    if (schema) {
        char *s = eous_json_print(schema);
        eous_buf_printf(&out->text, NULL, "%s\n\n", s ? s : "{}");
        free(s);
    }
    free(objective);
    cJSON_Delete(schema);
    mcp_append_view_as(m, &out->text, 1);
    return EOUS_OK;
}

/* One verdict of a results line's evaluators: {evaluator, status, detail?}. */
static void add_verdict(cJSON *arr, const char *name, const wa_eval_result *ev)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "evaluator", name);
    cJSON_AddStringToObject(v, "status", ev->needs_judge ? "needs_judge" : ev->score >= 1.0 ? "passed" : "failed");
    if (ev->detail[0])
        cJSON_AddStringToObject(v, "detail", ev->detail);
    cJSON_AddItemToArray(arr, v);
}

/* A WebArena task: each evaluator on its own (the answer and URL first: program_html may open
 * another page), the score their product as wa_evaluate's. */
static eous_rc score_webarena(mcp_server *m, struct mcp_task_run *r, const char *answer, eous_err *err)
{
    const cJSON *types = eous_json_arr(r->t->eval, "eval_types"), *ty;
    cJSON *verdicts = cJSON_CreateArray();
    double score = 1;
    int judge = 0;
    eous_rc rc = EOUS_OK;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        cJSON_ArrayForEach(ty, types) {
            int early = cJSON_IsString(ty) && (!strcmp(ty->valuestring, "string_match") ||
                                               !strcmp(ty->valuestring, "url_match"));
            if (!cJSON_IsString(ty) || early != !pass)
                continue;
            cJSON *one = cJSON_Duplicate(r->t->eval, 1), *only = cJSON_CreateArray();
            cJSON_AddItemToArray(only, cJSON_CreateString(ty->valuestring));
            cJSON_ReplaceItemInObjectCaseSensitive(one, "eval_types", only);
            wa_eval_result ev;
            rc = wa_evaluate(one, r->t->intent, answer, m->b.session, m->x, NULL, &ev, err);
            cJSON_Delete(one);
            if (rc)
                break;
            add_verdict(verdicts, ty->valuestring, &ev);
            score *= ev.score;
            judge |= ev.needs_judge;
            if (ev.score < 1.0 && !r->res.eval_detail[0])
                snprintf(r->res.eval_detail, sizeof r->res.eval_detail, "%s", ev.detail);
        }
    }
    if (rc) {
        cJSON_Delete(verdicts);
        return rc;
    }
    r->res.score = score;
    r->res.status = judge ? EOUS_ST_NEEDS_JUDGE : score >= 1.0 ? EOUS_ST_PASSED : EOUS_ST_FAILED;
    r->res.bench.evaluators = verdicts;
    return EOUS_OK;
}

/* The verdict as the client reads it: the status, then each evaluator's. */
static void say_verdict(const struct mcp_task_run *r, const char *out_dir, eous_buf *out)
{
    eous_buf_printf(out, NULL, "Task %s (%s): %s, score %g.\n", r->t->id, perc_mode_name(r->mode), eous_status_name(r->res.status),
                    r->res.score);
    const cJSON *v;
    cJSON_ArrayForEach(v, r->res.bench.evaluators) {
        const char *detail = eous_json_str(v, "detail"), *error = eous_json_str(v, "error");
        eous_buf_printf(out, NULL, "- %s: %s", eous_json_str(v, "evaluator"), eous_json_str(v, "status"));
        if (detail || error)
            eous_buf_printf(out, NULL, " (%s)", detail ? detail : error);
        const cJSON *f;
        cJSON_ArrayForEach(f, eous_json_arr(v, "failed")) if (cJSON_IsString(f))
            eous_buf_printf(out, NULL, "; %s", f->valuestring);
        eous_buf_puts(out, "\n", NULL);
    }
    if (r->res.eval_detail[0])
        eous_buf_printf(out, NULL, "%s\n", r->res.eval_detail);
    eous_buf_printf(out, NULL, "Recorded in %s/results.jsonl.\n", out_dir);
}

/* The answer argument as text: a string as it is, an AgentResponse object as JSON. */
static char *answer_text(const cJSON *args)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, "answer");
    if (cJSON_IsString(a))
        return strdup(a->valuestring);
    return cJSON_IsObject(a) ? eous_json_print(a) : NULL;
}

static eous_rc tool_task_submit(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    struct mcp_task_run *r = m->task;
    if (!r)
        return eous_err_set(err, EOUS_E_INVALID, "task_submit: no task is open (start one with task_start)");
    char *answer = answer_text(args);
    if (!answer)
        return eous_err_set(err, EOUS_E_INVALID,
                            "task_submit: expected {answer: a string (\"\" for none) or a WebArena-Verified "
                            "AgentResponse object}");
    agent_result *res = &r->res;
    snprintf(res->task_id, sizeof res->task_id, "%s", r->t->id);
    snprintf(res->mode, sizeof res->mode, "%s", perc_mode_name(r->mode));
    snprintf(res->planner, sizeof res->planner, "mcp");
    res->stop_reason = AGENT_STOP_STOP;
    res->answer = strdup(answer);
    res->intent = r->t->intent;
    res->tier = r->t->tier;
    res->screen = r->t->screen;
    res->params = r->t->param_values;
    res->ground.mode = "off";
    mcp_progress(m, 0, 0, "scoring");
    double ts = eous_now_ms();
    eous_rc rc;
    char note[300] = "";
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/trace", m->o.out_dir);
    if ((rc = eous_mkdirs(dir, 0755, err)))
        goto done;
    if (r->t->verified) /* the answer and the network log as a HAR, written beside the trace path */
        rc = bench_verified_finish(r->t, answer, r->trace, m->b.session, res, note, sizeof note, err);
    else
        rc = score_webarena(m, r, answer, err);
    if (rc)
        goto done;
    res->time.score_ms = eous_now_ms() - ts;
    res->time.wall_ms = eous_now_ms() - r->t0;
    char *line = agent_result_json(res);
    rc = line ? runs_dir_append(m->o.out_dir, line, err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    free(line);
    if (rc)
        goto done;
    say_verdict(r, m->o.out_dir, &out->text);
    if (note[0])
        eous_buf_printf(&out->text, NULL, "%s\n", note);
    task_end(m);
done:
    free(answer);
    return rc;
}

static const mcp_tool_def tasks_tools[] = {
    {"task_list", "List the tasks of a task file or a folder of them (WebArena or WebArena-Verified JSON): id, "
     "file and intent.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\",\"description\":\"a task file or a folder "
     "of .json task files\"}},\"required\":[\"path\"]}",
     1, tool_task_list, 0, "tasks"},
    {"task_start", "Start a task: its site is reset when the task needs it, its start page opened in a fresh tab; "
     "answers with the task's intent and the view. The browser_* tools then answer in the task's mode. End it "
     "with task_submit.",
     "{\"type\":\"object\",\"properties\":{\"file\":{\"type\":\"string\",\"description\":\"the task file (or "
     "folder) task_list read\"},\"task_id\":{\"type\":[\"string\",\"number\"]},\"mode\":{\"type\":\"string\","
     "\"enum\":[\"hybrid\",\"pruned\",\"atomic\",\"html\"]}},\"required\":[\"file\",\"task_id\"]}",
     0, tool_task_start, 0, "tasks"},
    {"task_submit", "Submit the open task's answer: the page and the answer are scored with the task's evaluators "
     "(and its network log for a WebArena-Verified task); answers with the verdict per evaluator and records the "
     "result in the server's run folder.",
     "{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":[\"string\",\"object\"],\"description\":\"the "
     "answer (\\\"\\\" when the task asks for none, N/A when it cannot be done), or a WebArena-Verified "
     "AgentResponse object\"}},\"required\":[\"answer\"]}",
     0, tool_task_submit, 0, "tasks"},
};

const mcp_tool_table mcp_tasks_tools = {tasks_tools, sizeof tasks_tools / sizeof tasks_tools[0]};
