/* agent/planner_exec.c — the user's agent program as a planner (see
 * planner_exec.h): its argv, its process group, its JSON lines. */
#define _GNU_SOURCE
#include "agent/planner_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actions/bgym.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/log.h"
#include "core/util.h"
#include "webdriver/wd.h"

extern char **environ;

struct agent_exec {
    pid_t pid;        /* also the process group */
    int in_fd, out_fd; /* the agent's stdin (we write), its stdout (we read); -1 when closed */
    int reaped;
    int status;       /* waitpid's, once reaped */
    char *buf;        /* bytes read past the last line */
    size_t len, cap;
};

/* ======================================================================
 * The command line, split without a shell
 * ====================================================================== */

void agent_exec_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* One word from *p (blanks before it skipped) into b; 1 when a word was
 * taken, 0 at the end, -1 on an unclosed quote or a trailing backslash. */
static int take_word(const char **p, eous_buf *b)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (!*s) {
        *p = s;
        return 0;
    }
    while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
        char q = *s;
        if (q == '\'' || q == '"') {
            for (s++; *s && *s != q; s++) {
                if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\' || s[1] == '$' || s[1] == '`'))
                    s++;
                if (eous_buf_append(b, s, 1, NULL))
                    return -1;
            }
            if (!*s)
                return -1;
            s++;
            continue;
        }
        if (q == '\\' && !*++s)
            return -1;
        if (eous_buf_append(b, s++, 1, NULL))
            return -1;
    }
    *p = s;
    return 1;
}

eous_rc agent_exec_split(const char *cmd, char ***out, eous_err *err)
{
    *out = NULL;
    char **argv = calloc(AGENT_EXEC_MAX_ARGS + 1, sizeof *argv);
    if (!argv)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    const char *p = cmd ? cmd : "";
    size_t n = 0;
    eous_buf b;
    eous_buf_init(&b, 1 << 16);
    int r;
    while ((r = take_word(&p, &b)) == 1 && n < AGENT_EXEC_MAX_ARGS) {
        if (!(argv[n++] = eous_buf_steal(&b))) {
            r = -2;
            break;
        }
    }
    eous_buf_free(&b);
    eous_rc rc = EOUS_OK;
    if (r == -1)
        rc = eous_err_set(err, EOUS_E_INVALID, "agent command '%.200s': an unclosed quote or a trailing backslash", cmd);
    else if (r == -2)
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    else if (r == 1)
        rc = eous_err_set(err, EOUS_E_INVALID, "agent command '%.200s': more than %d words", cmd, AGENT_EXEC_MAX_ARGS);
    else if (!n)
        rc = eous_err_set(err, EOUS_E_INVALID, "agent command '%.200s': expected a command and its arguments", cmd);
    if (rc) {
        agent_exec_argv_free(argv);
        return rc;
    }
    *out = argv;
    return EOUS_OK;
}

/* 1 when path is a regular file we may execute. */
static int runnable(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

eous_rc agent_exec_check(const char *cmd, eous_err *err)
{
    char **argv = NULL;
    eous_rc rc = agent_exec_split(cmd, &argv, err);
    if (rc)
        return rc;
    int found = 0;
    if (strchr(argv[0], '/')) {
        found = runnable(argv[0]);
    } else {
        /* posix_spawnp's own search: each PATH entry ("" is the current directory) */
        const char *path = getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin";
        for (const char *p = path; !found;) {
            const char *e = strchr(p, ':');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char full[4096];
            snprintf(full, sizeof full, "%.*s%s%s", (int)n, p, n ? "/" : "", argv[0]);
            found = runnable(full);
            if (!e)
                break;
            p = e + 1;
        }
    }
    if (!found)
        rc = eous_err_set(err, EOUS_E_INVALID, "agent command '%.200s': %s is not %s", cmd, argv[0],
                          strchr(argv[0], '/') ? "an executable file" : "a program on PATH");
    agent_exec_argv_free(argv);
    return rc;
}

/* ======================================================================
 * The process
 * ====================================================================== */

/* The spawn's file actions and attributes: pipes on 0 and 1, stderr to its
 * file, nothing else of ours inherited; own group, default signals. */
static int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, int in_rd, int out_wr,
                       const char *stderr_path)
{
    sigset_t none, deflt;
    sigemptyset(&none);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGPIPE); /* eous ignores it; an agent starts as any program does */
    sigaddset(&deflt, SIGINT);
    sigaddset(&deflt, SIGTERM);
    sigaddset(&deflt, SIGHUP);
    return posix_spawn_file_actions_adddup2(fa, in_rd, 0) || posix_spawn_file_actions_adddup2(fa, out_wr, 1) ||
           posix_spawn_file_actions_addopen(fa, 2, stderr_path ? stderr_path : "/dev/null",
                                            O_WRONLY | O_CREAT | O_TRUNC, 0644) ||
           posix_spawn_file_actions_addclosefrom_np(fa, 3) ||
           posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) ||
           posix_spawnattr_setpgroup(at, 0) || posix_spawnattr_setsigmask(at, &none) ||
           posix_spawnattr_setsigdefault(at, &deflt);
}

eous_rc agent_exec_start(const char *cmd, const char *stderr_path, agent_exec **out, eous_err *err)
{
    *out = NULL;
    char **argv = NULL;
    eous_rc rc = agent_exec_split(cmd, &argv, err);
    if (rc)
        return rc;
    int in[2] = {-1, -1}, outp[2] = {-1, -1};
    agent_exec *x = calloc(1, sizeof *x);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    if (!x) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    x->in_fd = x->out_fd = -1;
    if (pipe2(in, O_CLOEXEC) || pipe2(outp, O_CLOEXEC) || spawn_setup(&fa, &at, in[0], outp[1], stderr_path)) {
        rc = eous_err_set(err, EOUS_E_INFRA, "cannot set up the agent's pipes: %s", strerror(errno));
        goto done;
    }
    int e = posix_spawnp(&x->pid, argv[0], &fa, &at, argv, environ);
    if (e) {
        rc = eous_err_set(err, EOUS_E_INVALID, "agent command '%.200s': cannot run %s: %s", cmd, argv[0], strerror(e));
        goto done;
    }
    wd_guard_track_group(x->pid); /* it dies with eous, even on SIGKILL */
    x->in_fd = in[1];
    x->out_fd = outp[0];
    in[1] = outp[0] = -1;
done:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0)
            close(in[i]);
        if (outp[i] >= 0)
            close(outp[i]);
    }
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    agent_exec_argv_free(argv);
    if (rc) {
        free(x);
        return rc;
    }
    *out = x;
    return EOUS_OK;
}

/* How the agent ended, waiting up to wait_ms for it: "exited with status 3",
 * "was killed by signal 9", or "closed its stdout" when it still runs. */
static void how_it_ended(agent_exec *x, double wait_ms, char *out, size_t n)
{
    double until = eous_now_ms() + wait_ms;
    siginfo_t si;
    for (;;) {
        memset(&si, 0, sizeof si);
        /* WNOWAIT: the leader stays a zombie, so its group id is not reused before the group is killed */
        if (!waitid(P_PID, (id_t)x->pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == x->pid)
            break;
        if (eous_now_ms() >= until) {
            snprintf(out, n, "closed its stdout");
            return;
        }
        eous_sleep_ms(10);
    }
    if (si.si_code == CLD_EXITED)
        snprintf(out, n, "exited with status %d", si.si_status);
    else
        snprintf(out, n, "was killed by signal %d", si.si_status);
}

eous_rc agent_exec_send(agent_exec *x, const cJSON *msg, eous_err *err)
{
    char *s = eous_json_print(msg);
    char *clean = s ? eous_redact(s) : NULL; /* a secret's value never reaches the agent */
    free(s);
    if (!clean)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    size_t n = strlen(clean);
    clean[n] = '\n'; /* the terminator replaced by the line's end; writes go by length */
    eous_rc rc = EOUS_OK;
    /* SIGPIPE held while writing (an embedder may not ignore it): an agent gone is EPIPE, not our end */
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    for (size_t off = 0; off <= n && !rc;) {
        ssize_t w = x->in_fd >= 0 ? write(x->in_fd, clean + off, n + 1 - off) : -1;
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EPIPE) {
            struct timespec zero = {0, 0};
            sigtimedwait(&pipe_set, NULL, &zero); /* the signal the write raised, taken before unblocking */
        }
        if (w <= 0) {
            char how[64];
            how_it_ended(x, 200, how, sizeof how);
            rc = eous_err_set(err, EOUS_E_IO, "the agent no longer reads its stdin (it %s)", how);
        } else {
            off += (size_t)w;
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(clean);
    return rc;
}

/* The first complete line in the buffer into *line; 1 when there was one. */
static int take_line(agent_exec *x, char **line)
{
    char *nl = x->len ? memchr(x->buf, '\n', x->len) : NULL;
    if (!nl)
        return 0;
    size_t n = (size_t)(nl - x->buf);
    *line = strndup(x->buf, n > 0 && x->buf[n - 1] == '\r' ? n - 1 : n);
    memmove(x->buf, nl + 1, x->len - n - 1);
    x->len -= n + 1;
    return 1;
}

eous_rc agent_exec_read_line(agent_exec *x, double deadline_ms, char **line, eous_err *err)
{
    *line = NULL;
    for (;;) {
        if (take_line(x, line))
            return *line ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        if (x->len >= AGENT_EXEC_MAX_LINE)
            return eous_err_set(err, EOUS_E_LIMIT, "the agent wrote a line longer than %u bytes: \"%.80s…\"",
                                AGENT_EXEC_MAX_LINE, x->buf);
        if (eous_interrupted())
            return eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted");
        double left = deadline_ms - eous_now_ms();
        if (left <= 0)
            return eous_err_set(err, EOUS_E_TIMEOUT, "no line from the agent in time");
        struct pollfd pf = {.fd = x->out_fd, .events = POLLIN};
        int pr = x->out_fd >= 0 ? poll(&pf, 1, left > 200 ? 200 : (int)left + 1) : -1;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0 && x->out_fd >= 0)
            continue; /* the interrupt flag and the deadline are looked at again */
        if (x->cap - x->len < 65536) {
            size_t cap = x->cap ? x->cap * 2 : 131072;
            char *nb = realloc(x->buf, cap);
            if (!nb)
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            x->buf = nb;
            x->cap = cap;
        }
        ssize_t r = x->out_fd >= 0 ? read(x->out_fd, x->buf + x->len, x->cap - x->len) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            char how[64];
            how_it_ended(x, 500, how, sizeof how);
            if (x->len) /* a last line without its newline is not a reply */
                return eous_err_set(err, EOUS_E_IO, "the agent %s after writing \"%.200s\" without a newline",
                                    how, x->buf);
            return eous_err_set(err, EOUS_E_IO, "the agent %s", how);
        }
        x->len += (size_t)r;
    }
}

void agent_exec_free(agent_exec *x)
{
    if (!x)
        return;
    if (x->in_fd >= 0)
        close(x->in_fd); /* end of input: a well-behaved agent exits now */
    char how[64];
    how_it_ended(x, 500, how, sizeof how);
    kill(-x->pid, SIGKILL); /* the whole group: whatever the agent started too */
    while (waitpid(x->pid, &x->status, 0) < 0 && errno == EINTR)
        ;
    wd_guard_release_group(x->pid);
    if (x->out_fd >= 0)
        close(x->out_fd);
    free(x->buf);
    free(x);
}

/* ======================================================================
 * The protocol's messages
 * ====================================================================== */

cJSON *agent_exec_grammar(int with_call)
{
    cJSON *g = cJSON_CreateObject(), *text = cJSON_AddArrayToObject(g, "text"),
          *json = cJSON_AddArrayToObject(g, "json");
    size_t n;
    const act_verb *v = act_verbs(&n);
    for (size_t i = 0; i < n; i++) {
        if (v[i].script_only || (!with_call && v[i].kind == ACT_CALL))
            continue;
        char line[600];
        snprintf(line, sizeof line, "%s: %s", v[i].text_usage ? v[i].text_usage : v[i].text_sig, v[i].text_help);
        cJSON_AddItemToArray(text, cJSON_CreateString(line));
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", v[i].name);
        cJSON_AddStringToObject(t, "description", v[i].tool_description ? v[i].tool_description : "");
        cJSON *params = cJSON_AddObjectToObject(t, "parameters");
        cJSON_AddStringToObject(params, "type", "object");
        cJSON *props = v[i].tool_props ? cJSON_Parse(v[i].tool_props) : cJSON_CreateObject();
        cJSON_AddItemToObject(params, "properties", props ? props : cJSON_CreateObject());
        cJSON *req = cJSON_AddArrayToObject(params, "required");
        for (int k = 0; k < 4 && v[i].tool_keys[k]; k++)
            cJSON_AddItemToArray(req, cJSON_CreateString(v[i].tool_keys[k]));
        cJSON_AddItemToArray(json, t);
    }
    return g;
}

/* A tool call object {"name", "arguments"} (arguments an object or its JSON text). */
static eous_rc object_action(const cJSON *o, act_action *out, eous_err *err)
{
    const char *name = eous_json_str(o, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "arguments");
    if (!name)
        return eous_err_set(err, EOUS_E_PARSE, "an action object needs \"name\" and \"arguments\"");
    if (cJSON_IsString(args))
        return act_parse_tool_call(name, args->valuestring, out, err);
    char *aj = args ? eous_json_print(args) : strdup("{}");
    if (!aj)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    eous_rc rc = act_parse_tool_call(name, aj, out, err);
    free(aj);
    return rc;
}

/* One entry of "actions": text (eous's or BrowserGym's) or a tool call object. */
static eous_rc one_action(const cJSON *a, act_action *out, eous_err *err)
{
    if (cJSON_IsObject(a))
        return object_action(a, out, err);
    if (!cJSON_IsString(a))
        return eous_err_set(err, EOUS_E_PARSE, "an action is a string or a {\"name\", \"arguments\"} object");
    if (strchr(a->valuestring, '\n'))
        return eous_err_set(err, EOUS_E_PARSE, "one action a string: no newline inside it");
    if (act_bgym_looks_like(a->valuestring))
        return act_parse_bgym(a->valuestring, out, err);
    return act_parse_text(a->valuestring, out, err);
}

static void read_usage(const cJSON *root, agent_exec_usage *u)
{
    const cJSON *us = cJSON_GetObjectItemCaseSensitive(root, "usage");
    const cJSON *v;
    if (!cJSON_IsObject(us))
        return;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(us, "input_tokens")) && v->valuedouble >= 0)
        u->input_tokens = (long)v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(us, "output_tokens")) && v->valuedouble >= 0)
        u->output_tokens = (long)v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(us, "cost_usd")) && v->valuedouble >= 0)
        u->cost_usd = v->valuedouble;
}

/* {"stop": X} as one stop action, parsed as the stop tool's call. */
static eous_rc stop_action(const cJSON *stop, act_action *out, eous_err *err)
{
    if (!cJSON_IsString(stop) && !cJSON_IsObject(stop))
        return eous_err_set(err, EOUS_E_PARSE, "\"stop\" is the answer: a string or an AgentResponse object");
    cJSON *args = cJSON_CreateObject();
    if (!args || !cJSON_AddItemToObject(args, "answer", cJSON_Duplicate(stop, 1))) {
        cJSON_Delete(args);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    char *aj = eous_json_print(args);
    cJSON_Delete(args);
    eous_rc rc = aj ? act_parse_tool_call("stop", aj, out, err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    free(aj);
    return rc;
}

eous_rc agent_exec_parse_reply(const char *line, act_action *out, size_t cap, size_t *n_out, size_t *dropped,
                               agent_exec_usage *usage, eous_err *err)
{
    *n_out = *dropped = 0;
    memset(usage, 0, sizeof *usage);
    cJSON *root = cJSON_ParseWithOpts(line, NULL, 1);
    const cJSON *acts = cJSON_GetObjectItemCaseSensitive(root, "actions");
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(root, "stop");
    eous_rc rc = EOUS_OK;
    if (!cJSON_IsObject(root))
        rc = eous_err_set(err, EOUS_E_PARSE, "not a JSON object");
    else if (!acts == !stop || (acts && (!cJSON_IsArray(acts) || !cJSON_GetArraySize(acts))))
        rc = eous_err_set(err, EOUS_E_PARSE, "expected {\"actions\": [one or more actions]} or {\"stop\": answer}");
    else if (!cap)
        rc = eous_err_set(err, EOUS_E_INVALID, "no room for an action");
    if (!rc && stop) {
        act_action_init(&out[0]);
        if (!(rc = stop_action(stop, &out[0], err)))
            *n_out = 1;
    }
    int i = 0;
    const cJSON *a, *list = rc || stop ? NULL : acts;
    cJSON_ArrayForEach(a, list) {
        i++;
        if (*n_out == cap) { /* past --max-batch: counted, not run, as a model's extra tool calls */
            (*dropped)++;
            continue;
        }
        act_action_init(&out[*n_out]);
        if ((rc = one_action(a, &out[*n_out], err))) {
            eous_err_prefix(err, "action %d", i);
            break;
        }
        (*n_out)++;
    }
    if (rc) {
        for (size_t k = 0; k < *n_out; k++)
            act_action_clear(&out[k]);
        *n_out = *dropped = 0;
    } else {
        read_usage(root, usage);
    }
    cJSON_Delete(root);
    return rc;
}

cJSON *agent_exec_task_msg(const char *task_id, const char *intent, const char *objective, const cJSON *answer_schema,
                           const char *mode, int with_call, const char *start_url, const cJSON *sites,
                           const char *secret_names, int max_steps, int max_batch)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "task");
    cJSON_AddNumberToObject(m, "protocol", AGENT_EXEC_PROTOCOL);
    cJSON_AddStringToObject(m, "task_id", task_id);
    cJSON_AddStringToObject(m, "intent", intent ? intent : "");
    if (objective) /* WebArena-Verified: the intent with the answer format it scores */
        cJSON_AddStringToObject(m, "objective", objective);
    if (answer_schema)
        cJSON_AddItemToObject(m, "answer_schema", cJSON_Duplicate(answer_schema, 1));
    cJSON_AddStringToObject(m, "mode", mode);
    cJSON_AddStringToObject(m, "start_url", start_url ? start_url : "");
    cJSON_AddItemToObject(m, "sites", sites ? cJSON_Duplicate(sites, 1) : cJSON_CreateArray());
    cJSON *sec = cJSON_AddArrayToObject(m, "secrets");
    char names[512];
    snprintf(names, sizeof names, "%s", secret_names ? secret_names : "");
    char *save = NULL;
    for (char *tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
        cJSON_AddItemToArray(sec, cJSON_CreateString(tok));
    cJSON_AddNumberToObject(m, "max_steps", max_steps);
    cJSON_AddNumberToObject(m, "max_batch", max_batch);
    cJSON_AddItemToObject(m, "actions", agent_exec_grammar(with_call));
    return m;
}

cJSON *agent_exec_obs_msg(int step, const char *text, int is_delta, int base, const char *url, int tabs,
                          const char *const *last, size_t n_last, size_t tokens)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "observation");
    cJSON_AddNumberToObject(m, "step", step);
    cJSON_AddStringToObject(m, "text", text ? text : "");
    cJSON_AddBoolToObject(m, "delta", is_delta);
    if (is_delta)
        cJSON_AddNumberToObject(m, "base", base);
    cJSON_AddStringToObject(m, "url", url ? url : "");
    cJSON_AddNumberToObject(m, "tabs", tabs);
    cJSON *l = cJSON_AddArrayToObject(m, "last");
    for (size_t i = 0; i < n_last; i++)
        cJSON_AddItemToArray(l, cJSON_CreateString(last[i]));
    cJSON_AddNumberToObject(m, "tokens", (double)tokens);
    return m;
}
