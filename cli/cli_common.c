/* cli/cli_common.c — see cli_common.h. */
#define _GNU_SOURCE
#include "cli/cli_common.h"
#include "cli/cli_help.h"
#include "webarena/params.h"
#include "webarena/site_pool.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "actions/policy.h"
#include "actions/secrets.h"
#include "agent/batch.h"
#include "agent/planner_exec.h"
#include "llm/llm.h"

static int need_value(int i, int argc, char **argv)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "eous %s: option %s expects a value\n", argv[0], argv[i]);
        return 0;
    }
    return 1;
}

static int parse(int argc, char **argv, cli_opts *co, int want_one_positional, const char **first);

int cli_parse_common(int argc, char **argv, cli_opts *co, int want_one_positional, const char **first)
{
    int rc = parse(argc, argv, co, want_one_positional, first);
    if (rc)
        cli_opts_free(co); /* callers return at once on bad input */
    return rc;
}

/* Options whose value is one of a few words (or a list of them), each
 * parsed and stored by its own function: 0, or -1 after a one-line error. */
typedef int (*opt_fn)(cli_opts *co, const char *cmd, const char *opt, const char *v);

static int bad_value(const char *cmd, const char *opt, const char *v, const char *expected)
{
    fprintf(stderr, "eous %s: %s '%s': expected %s\n", cmd, opt, v, expected);
    return -1;
}

static int opt_planner(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return agent_planner_parse(v, &co->run.planner) ? bad_value(cmd, opt, v, "llm, script, replay or exec") : 0;
}

static int opt_providers(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return perc_providers_parse(v, &co->run.provider_set)
               ? bad_value(cmd, opt, v, "a comma list of ci4a, webmcp, bridge, native")
               : 0;
}

static int opt_mode(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return perc_mode_parse(v, &co->run.mode) ? bad_value(cmd, opt, v, "hybrid, pruned, atomic, html or vision") : 0;
}

static int opt_repair(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    if (strcmp(v, "llm") && strcmp(v, "off"))
        return bad_value(cmd, opt, v, "llm or off");
    co->run.repair = !strcmp(v, "llm");
    return 0;
}

static int opt_screenshots(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return agent_shots_parse(v, &co->run.screenshots) ? bad_value(cmd, opt, v, "none, failure, final or every") : 0;
}

static int opt_image_detail(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    if (strcmp(v, "low") && strcmp(v, "high") && strcmp(v, "auto"))
        return bad_value(cmd, opt, v, "low, high or auto");
    co->image_detail = v;
    return 0;
}

static int opt_fail_on(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    if (strcmp(v, "any-attempt") && strcmp(v, "last-attempt"))
        return bad_value(cmd, opt, v, "any-attempt or last-attempt");
    co->fail_on_any_attempt = !strcmp(v, "any-attempt");
    return 0;
}

static int opt_deltas(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return cli_parse_on_off(cmd, opt, v, &co->run.deltas);
}

static int opt_history(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    llm_history h;
    if (llm_history_parse(v, &h))
        return bad_value(cmd, opt, v, "stateless or full");
    co->run.history = (int)h;
    return 0;
}

static int opt_grounding(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    agent_ground_mode g;
    if (agent_ground_mode_parse(v, &g))
        return bad_value(cmd, opt, v, "strict, report or off");
    co->grounding = (int)g;
    return 0;
}

static int opt_settle(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    const char *ms = !strncmp(v, "quiet:", 6) ? v + 6 : NULL;
    long n = ms && *ms && strlen(ms) < 6 && ms[strspn(ms, "0123456789")] == '\0' ? strtol(ms, NULL, 10) : 0;
    if (!strcmp(v, "rule"))
        co->run.settle_quiet_ms = 0;
    else if (n < 1 || n > 60000)
        return bad_value(cmd, opt, v, "rule or quiet:MS with MS from 1 to 60000");
    else
        co->run.settle_quiet_ms = (double)n;
    return 0;
}

static int opt_type(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    return cli_parse_type(cmd, opt, v, &co->run.type_by_key);
}

/* --param NAME=VALUE and --params FILE: the last value given for a name wins */
static int opt_param(cli_opts *co, const char *cmd, const char *opt, const char *v)
{
    eous_err err;
    eous_err_clear(&err);
    if (!(strcmp(opt, "--param") ? wa_params_load_file(&co->params, v, &err) : wa_params_add(&co->params, v, &err)))
        return 0;
    fprintf(stderr, "eous %s: %s: %s\n", cmd, opt, err.msg); /* the library names the parameter, not the flag */
    return -1;
}

/* How an option's value is stored in cli_opts at off. */
typedef enum { OPT_FLAG, OPT_STR, OPT_INT, OPT_LONG, OPT_SIZE, OPT_SECONDS, OPT_FN } opt_kind;

/* A row: how the parser takes the option, and what `eous run|bench --help`
 * prints for it (arg: the value's shape, NULL for a flag; cmds: run, bench
 * or both; help: one line). */
typedef struct opt_spec {
    const char *name;
    opt_kind kind;
    size_t off;         /* offsetof(cli_opts, the field) */
    long min, max;      /* whole numbers: the range accepted */
    const char *what;   /* whole numbers: what they count, for the error */
    opt_fn fn;          /* OPT_FN */
    const char *arg;
    unsigned cmds;
    const char *help;
} opt_spec;

#define OFF(f) offsetof(cli_opts, f)
#define RB (CLI_CMD_RUN | CLI_CMD_BENCH)
#define B CLI_CMD_BENCH
static const opt_spec OPTS[] = {
    {"--planner", OPT_FN, 0, 0, 0, NULL, opt_planner, "llm|script|replay|exec", RB,
     "who plans: the model, the task's script steps (default), a cassette's replies or --agent's program"},
    {"--providers", OPT_FN, 0, 0, 0, NULL, opt_providers, "ci4a,webmcp,bridge,native", RB,
     "the semantic providers the hybrid view asks (default all)"},
    {"--mode", OPT_FN, 0, 0, 0, NULL, opt_mode, "hybrid|pruned|atomic|html|vision", RB,
     "the view the planner gets (default hybrid)"},
    {"--modes", OPT_STR, OFF(modes_list), 0, 0, NULL, NULL, "MODE,MODE...", B,
     "run every task in each of these modes (default: --mode)"},
    {"--llm", OPT_STR, OFF(llm_spec), 0, 0, NULL, NULL, "PROVIDER:MODEL", RB,
     "the model the llm planner and --repair llm call (openai:..., anthropic:...)"},
    {"--llm-base-url", OPT_STR, OFF(llm_base_url), 0, 0, NULL, NULL, "URL", RB,
     "a compatible endpoint instead of the provider's own"},
    {"--llm-ca", OPT_STR, OFF(llm_ca), 0, 0, NULL, NULL, "FILE", RB, "CA certificates trusted for the model's endpoint"},
    {"--prices", OPT_STR, OFF(prices_file), 0, 0, NULL, NULL, "FILE", RB,
     "USD per 1M tokens by model, {\"MODEL\": {\"input\", \"output\", \"cached_input\"}}, for results' cost_usd"},
    {"--known-limits", OPT_STR, OFF(known_limits_file), 0, 0, NULL, NULL, "FILE", B,
     "failures whose cause is known: a failed task's line names the one that explains it (known_limit)"},
    {"--cassette", OPT_STR, OFF(cassette), 0, 0, NULL, NULL, "FILE", RB,
     "record the model's replies in FILE (llm) or answer from it (replay)"},
    {"--webdriver", OPT_STR, OFF(webdriver), 0, 0, NULL, NULL, "URL", RB,
     "a remote WebDriver (Selenium Grid hub) instead of a local chromedriver"},
    {"--out", OPT_STR, OFF(out_dir), 0, 0, NULL, NULL, "DIR", RB,
     "the run folder (default: a new eous-runs/DATE-TASK-MODE[-N]/, bench eous-runs/DATE-bench[-N]/)"},
    {"--policy", OPT_STR, OFF(policy_file), 0, 0, NULL, NULL, "FILE", RB,
     "the action policy: origins, confirmations, limits"},
    {"--secrets", OPT_STR, OFF(secrets_file), 0, 0, NULL, NULL, "FILE", RB,
     "a 0600 file of secrets typed as {{secret:NAME}}, beside the environment's"},
    {"--files", OPT_STR, OFF(run.files_dir), 0, 0, NULL, NULL, "DIR", RB,
     "the files folder: upload steps take files from DIR only"},
    {"--repair", OPT_FN, 0, 0, 0, NULL, opt_repair, "llm|off", RB,
     "a script step whose target is gone is replaced once by the model (repair.json beside the trace)"},
    {"--lock", OPT_STR, OFF(lock_file), 0, 0, NULL, NULL, "FILE", RB,
     "do not start while another eous holds FILE's lock (cron)"},
    {"--screenshots", OPT_FN, 0, 0, 0, NULL, opt_screenshots, "none|failure|final|every", RB,
     "PNGs beside each trace: failed steps and tasks (default), every last page, or every step"},
    {"--image-detail", OPT_FN, 0, 0, 0, NULL, opt_image_detail, "low|high|auto", RB,
     "vision: the image detail asked of the model (default: the provider's)"},
    {"--max-image-px", OPT_INT, OFF(run.max_image_px), CLI_IMAGE_PX_MIN, CLI_IMAGE_PX_MAX, "a number of pixels", NULL,
     "N", RB, "vision: screenshots scaled to at most N px on their longest side"},
    {"--cdp-endpoint", OPT_STR, OFF(cdp_endpoint), 0, 0, NULL, NULL, "URL", RB,
     "attach to the Chromium running with --remote-debugging-port there (loopback; default $EOUS_CDP_ENDPOINT): a "
     "fresh tab, its other tabs closed"},
    {"--w3c-only", OPT_FLAG, OFF(w3c_only), 0, 0, NULL, NULL, NULL, RB,
     "a W3C-only session: never use CDP, perceive and act through W3C scripts alone (geckodriver, Safari, stripped "
     "grids)"},
    {"--resume", OPT_FLAG, OFF(resume), 0, 0, NULL, NULL, NULL, B,
     "run only the task x mode jobs --out DIR holds no result for"},
    {"--fail-on", OPT_FN, 0, 0, 0, NULL, opt_fail_on, "any-attempt|last-attempt", B,
     "any-attempt: an earlier failed attempt exits 1 too (default last-attempt)"},
    {"--deltas", OPT_FN, 0, 0, 0, NULL, opt_deltas, "on|off", RB,
     "from the second step send what changed in the view (default on for llm with --history full)"},
    {"--history", OPT_FN, 0, 0, 0, NULL, opt_history, "stateless|full", RB,
     "stateless: WebArena's request shape; full: one conversation per task (default)"},
    {"--history-budget", OPT_SIZE, OFF(run.history_budget), 1000, 10000000, "a number of tokens", NULL, "N", RB,
     "full: tokens a conversation holds before it starts afresh (default 24000)"},
    {"--max-batch", OPT_INT, OFF(run.max_batch), 1, AGENT_MAX_BATCH, "a number of actions", NULL, "N", RB,
     "actions one plan may hold, run in order (default 8; 1 = one a step)"},
    {"--grounding", OPT_FN, 0, 0, 0, NULL, opt_grounding, "strict|report|off", RB,
     "a script step naming what its view does not show ends the task (bench), is reported (run) or not"},
    {"--settle", OPT_FN, 0, 0, 0, NULL, opt_settle, "rule|quiet:MS", RB,
     "when a page has settled after an action: the rule (default) or MS of DOM quiet"},
    {"--type", OPT_FN, 0, 0, 0, NULL, opt_type, "edit|keys", RB,
     "how an atomic type enters text: one edit (default) or a key press a character"},
    {"--param", OPT_FN, 0, 0, 0, NULL, opt_param, "NAME=VALUE", RB,
     "fill a job's {{param:NAME}}; repeatable, the last value given wins"},
    {"--params", OPT_FN, 0, 0, 0, NULL, opt_param, "FILE", RB, "parameters from a JSON object or NAME=value lines"},
    {"--max-obs-tokens", OPT_LONG, OFF(max_obs_tokens), 0, 10000000, "a number of tokens (0 = no cut)", NULL, "N", RB,
     "send the model the first N o200k tokens of each observation (default: no cut)"},
    {"--max-steps", OPT_INT, OFF(run.max_steps), 1, 100000, "a positive integer", NULL, "N", RB, "steps a task may take"},
    /* more workers than 32 was cut to 32 without a word; now it is refused */
    {"--workers", OPT_INT, OFF(workers), 1, 32, "a number of workers", NULL, "N", B,
     "tasks run at once, each worker its own browser (default 1)"},
    {"--max-seconds", OPT_SECONDS, OFF(run.max_seconds), 1, 100000, "a positive integer", NULL, "S", RB,
     "seconds a task may take"},
    {"--agent", OPT_STR, OFF(run.agent_cmd), 0, 0, NULL, NULL, "'CMD ARGS'", RB,
     "exec: your agent program, one process a task x mode, JSON lines protocol 1, no shell"},
    {"--agent-timeout", OPT_SECONDS, OFF(run.agent_timeout_s), 1, 100000, "a number of seconds", NULL, "S", RB,
     "exec: seconds one reply of the agent may take"},
    {"--restart-browser-every", OPT_INT, OFF(restart_browser_every), 1, 100000, "a positive integer", NULL, "N", B,
     "a fresh browser per worker every N tasks (default 100)"},
};
#undef B
#undef RB
#undef OFF

int cli_common_opt(size_t i, cli_optdoc *out)
{
    if (i >= sizeof OPTS / sizeof *OPTS)
        return -1;
    const opt_spec *o = &OPTS[i];
    int ranged = o->kind == OPT_INT || o->kind == OPT_LONG || o->kind == OPT_SIZE || o->kind == OPT_SECONDS;
    *out = (cli_optdoc){o->name, o->arg, o->cmds, o->help, ranged ? o->min : 1, ranged ? o->max : 0};
    return 0;
}

/* Option spec's value v stored in co: 0, or -1 after a one-line error. */
static int set_value(cli_opts *co, const opt_spec *o, const char *cmd, const char *v)
{
    char *field = (char *)co + o->off;
    long n = 0;
    if ((o->kind == OPT_INT || o->kind == OPT_LONG || o->kind == OPT_SIZE || o->kind == OPT_SECONDS) &&
        cli_parse_range(cmd, o->name, v, o->min, o->max, o->what, &n))
        return -1;
    switch (o->kind) {
    case OPT_FLAG: *(int *)field = 1; return 0;
    case OPT_STR: *(const char **)field = v; return 0;
    case OPT_INT: *(int *)field = (int)n; return 0;
    case OPT_LONG: *(long *)field = n; return 0;
    case OPT_SIZE: *(size_t *)field = (size_t)n; return 0;
    case OPT_SECONDS: *(double *)field = (double)n; return 0;
    case OPT_FN: return o->fn(co, cmd, o->name, v);
    }
    return -1;
}

static void set_defaults(cli_opts *co, const char *cmd)
{
    memset(co, 0, sizeof *co);
    agent_run_opts_init(&co->run);
    co->cmd = cmd;
    co->run.planner = AGENT_PLANNER_SCRIPT;
    co->run.mode = PERC_MODE_HYBRID;
    co->run.max_steps = EOUS_DEFAULT_MAX_STEPS;
    co->run.max_seconds = EOUS_DEFAULT_MAX_SECONDS;
    co->workers = 1;
    co->restart_browser_every = 100;
    co->lock_fd = -1;
    co->max_obs_tokens = -1;
    co->run.max_batch = AGENT_DEFAULT_MAX_BATCH;
    co->run.deltas = -1;
    co->run.history = LLM_DEFAULT_HISTORY;
    co->grounding = -1;
    co->run.screenshots = AGENT_SHOTS_FAILURE;
}

/* --modes into co->modes (default: --mode alone). */
static int split_modes(cli_opts *co, const char *cmd)
{
    if (co->modes_list) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", co->modes_list);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (co->n_modes == 5 || perc_mode_parse(tok, &co->modes[co->n_modes]))
                return bad_value(cmd, "--modes", co->modes_list,
                                 "a comma list of hybrid, pruned, atomic, html, vision");
            co->n_modes++;
        }
    }
    if (!co->n_modes) {
        co->modes[0] = co->run.mode;
        co->n_modes = 1;
    }
    return 0;
}

/* Options that cannot go together, or need another. */
static int check_combinations(cli_opts *co, const char *cmd)
{
    for (int m = 0; m < co->n_modes && co->w3c_only; m++)
        if (perc_mode_screenshot(co->modes[m])) {
            fprintf(stderr, "eous %s: --mode vision needs CDP (element boxes, scaled capture); not with --w3c-only\n",
                    cmd);
            return -1;
        }
    if ((co->run.planner == AGENT_PLANNER_LLM) && !co->llm_spec) {
        fprintf(stderr, "eous %s: --planner llm needs --llm PROVIDER:MODEL\n", cmd);
        return -1;
    }
    if ((co->run.planner == AGENT_PLANNER_EXEC) != (co->run.agent_cmd != NULL)) {
        fprintf(stderr, "eous %s: %s\n", cmd,
                co->run.agent_cmd ? "--agent goes with --planner exec" : "--planner exec needs --agent 'COMMAND ARGS'");
        return -1;
    }
    eous_err e;
    if (co->run.agent_cmd && agent_exec_check(co->run.agent_cmd, &e)) { /* before a browser starts or a line is written */
        fprintf(stderr, "eous %s: --agent: %s\n", cmd, e.msg);
        return -1;
    }
    if (cli_cdp_endpoint(cmd, co->cdp_endpoint, co->webdriver, 0, co->cdp_addr, sizeof co->cdp_addr))
        return -1;
    if (co->cdp_addr[0] && co->workers > 1) {
        fprintf(stderr, "eous %s: --workers %d with one attached browser (--cdp-endpoint or EOUS_CDP_ENDPOINT): one "
                        "worker drives it; without it each worker launches its own\n",
                cmd, co->workers);
        return -1;
    }
    if (co->resume && !co->out_dir) {
        fprintf(stderr, "eous %s: --resume needs --out DIR (without --out every run gets a new folder)\n", cmd);
        return -1;
    }
    if (co->run.planner == AGENT_PLANNER_REPLAY && !co->cassette) {
        fprintf(stderr, "eous %s: --planner replay needs --cassette FILE\n", cmd);
        return -1;
    }
    if (co->run.repair && !co->llm_spec && co->run.planner != AGENT_PLANNER_REPLAY) {
        fprintf(stderr, "eous %s: --repair llm needs --llm PROVIDER:MODEL (or --planner replay --cassette FILE)\n",
                cmd);
        return -1;
    }
    if (co->run.deltas == 1 && co->run.history == LLM_HISTORY_STATELESS && co->run.planner != AGENT_PLANNER_SCRIPT) {
        fprintf(stderr,
                "eous %s: --deltas on with --history stateless: a stateless request holds no earlier view for a "
                "delta to refer to; use --history full or --deltas off\n",
                cmd);
        return -1;
    }
    return 0;
}

static int parse(int argc, char **argv, cli_opts *co, int want_one_positional, const char **first)
{
    set_defaults(co, argv[0]);
    co->positional = calloc((size_t)argc + 1, sizeof *co->positional);
    if (!co->positional)
        return -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const opt_spec *o = NULL;
        for (size_t k = 0; k < sizeof OPTS / sizeof *OPTS && !o; k++)
            if (!strcmp(a, OPTS[k].name))
                o = &OPTS[k];
        if (o && !(o->cmds & cli_cmd_bit(argv[0]))) {
            fprintf(stderr, "eous %s: %s is not an option of %s (see eous %s --help)\n", argv[0], a, argv[0],
                    argv[0]);
            return -1;
        } else if (o && o->kind == OPT_FLAG) {
            set_value(co, o, argv[0], NULL);
        } else if (o) {
            if (!need_value(i, argc, argv) || set_value(co, o, argv[0], argv[++i]))
                return -1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "eous %s: unknown option '%s' (see eous %s --help)\n", argv[0], a, argv[0]);
            return -1;
        } else {
            co->positional[co->n_positional++] = a;
        }
    }
    if (want_one_positional) {
        if (co->n_positional > 1) {
            fprintf(stderr, "eous %s: expected one task file, got %d arguments\n", argv[0], co->n_positional);
            return -1;
        }
        *first = co->n_positional ? co->positional[0] : NULL;
    }
    if (split_modes(co, argv[0]))
        return -1;
    return check_combinations(co, argv[0]);
}

int cli_cdp_endpoint(const char *cmd, const char *value, const char *webdriver, int headed, char *addr, size_t n)
{
    const char *env = getenv("EOUS_CDP_ENDPOINT");
    const char *what = value ? "--cdp-endpoint" : "EOUS_CDP_ENDPOINT";
    const char *v = value ? value : env && *env ? env : NULL;
    addr[0] = '\0';
    if (!v)
        return 0;
    eous_err e;
    if (wd_cdp_endpoint_parse(v, addr, n, &e)) {
        fprintf(stderr, "eous %s: %s: %s\n", cmd, what, e.msg);
        return -1;
    }
    if (webdriver || headed) {
        fprintf(stderr, "eous %s: %s '%s' attaches to a running browser; not with %s\n", cmd, what, v,
                webdriver ? "--webdriver (a remote WebDriver's)" : "--headed (the browser's window is its own)");
        addr[0] = '\0';
        return -1;
    }
    return 0;
}

void cli_opts_free(cli_opts *co)
{
    free(co->positional);
    co->positional = NULL;
    cJSON_Delete(co->params);
    co->params = NULL;
}

eous_rc cli_default_out(cli_opts *co, const char *name, eous_err *err)
{
    if (co->out_dir)
        return EOUS_OK;
    char day[16], safe[128];
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm) || !strftime(day, sizeof day, "%Y-%m-%d", &tm))
        snprintf(day, sizeof day, "undated");
    size_t k = 0;
    for (; name[k] && k < sizeof safe - 1; k++)
        safe[k] = isalnum((unsigned char)name[k]) || strchr("._-", name[k]) ? name[k] : '_';
    safe[k] = '\0';
    eous_rc rc = eous_mkdirs(CLI_RUNS_ROOT, 0755, err);
    if (rc)
        return rc == EOUS_E_NOMEM ? rc : eous_err_remap(err, EOUS_E_INFRA);
    /* mkdir, not a look first: two runs started in the same second still get a folder each */
    for (int n = 1; n < 10000; n++) {
        if (n == 1)
            snprintf(co->out_auto, sizeof co->out_auto, "%s/%s-%s", CLI_RUNS_ROOT, day, safe);
        else
            snprintf(co->out_auto, sizeof co->out_auto, "%s/%s-%s-%d", CLI_RUNS_ROOT, day, safe, n);
        if (mkdir(co->out_auto, 0755) == 0) {
            co->out_dir = co->out_auto;
            return EOUS_OK;
        }
        if (errno != EEXIST)
            return eous_err_set(err, EOUS_E_INFRA, "%s: cannot create the run folder: %s", co->out_auto,
                                strerror(errno));
    }
    return eous_err_set(err, EOUS_E_INFRA, "%s/%s-%s: 9999 run folders already; name one with --out DIR",
                        CLI_RUNS_ROOT, day, safe);
}

static eous_rc setup_run(cli_opts *co, eous_err *err);

eous_rc cli_setup_run(cli_opts *co, eous_err *err)
{
    eous_rc rc = setup_run(co, err);
    if (rc && co->out_dir == co->out_auto) { /* bad input or no browser: the folder made for it goes */
        char trace_dir[600];
        snprintf(trace_dir, sizeof trace_dir, "%s/trace", co->out_auto);
        rmdir(trace_dir);
        rmdir(co->out_auto);
    }
    return rc;
}

static eous_rc setup_run(cli_opts *co, eous_err *err)
{
    eous_rc rc;
    /* a site's copies and their reset commands must pair up before anything is written */
    if ((rc = wa_site_pools_check(err)))
        return rc;
    if (co->lock_file) {
        co->lock_fd = open(co->lock_file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (co->lock_fd < 0)
            return eous_err_set(err, EOUS_E_INVALID, "--lock %s: cannot open: %s", co->lock_file, strerror(errno));
        if (flock(co->lock_fd, LOCK_EX | LOCK_NB) != 0) {
            close(co->lock_fd);
            co->lock_fd = -1;
            return eous_err_set(err, EOUS_E_INVALID, "--lock %s: another eous run holds the lock; not starting",
                                co->lock_file);
        }
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
        if (ftruncate(co->lock_fd, 0) == 0 && write(co->lock_fd, pid, (size_t)n) < 0)
            EOUS_WARN("cli", "cannot write the pid into %s", co->lock_file);
    }
    if (co->policy_file) {
        if ((rc = act_policy_new(&co->policy, err)) || (rc = act_policy_load(co->policy, co->policy_file, err)))
            return rc == EOUS_E_NOMEM ? rc : EOUS_E_INVALID;
        act_policy_set_interactive(co->policy, isatty(0));
    }
    struct stat fst;
    if (co->run.files_dir && (stat(co->run.files_dir, &fst) || !S_ISDIR(fst.st_mode)))
        return eous_err_set(err, EOUS_E_INVALID, "--files %s: expected a directory of files to upload", co->run.files_dir);
    /* secrets: the environment always, plus the 0600 file when given */
    if ((rc = act_secrets_new(&co->secrets, err)))
        return rc;
    if (co->secrets_file && (rc = act_secrets_load_file(co->secrets, co->secrets_file, err)))
        return rc == EOUS_E_NOMEM ? rc : EOUS_E_INVALID;
    if ((co->run.planner != AGENT_PLANNER_SCRIPT && co->run.planner != AGENT_PLANNER_EXEC) || co->llm_spec || co->run.repair) {
        llm_opts lo;
        llm_opts_init(&lo);
        if (co->llm_spec && (rc = llm_parse_spec(co->llm_spec, &lo, err)))
            return eous_err_prefix(err, "--llm"); /* the library names the model, the CLI its flag */
        if (co->llm_base_url)
            lo.base_url = co->llm_base_url;
        if (co->llm_ca)
            lo.ca_file = co->llm_ca;
        if (co->prices_file)
            lo.price_table = co->prices_file;
        if (co->max_obs_tokens >= 0)
            lo.max_obs_tokens = (size_t)co->max_obs_tokens;
        if (co->cassette) {
            lo.cassette_path = co->cassette;
            lo.image_detail = co->image_detail;
            lo.cassette_mode = co->run.planner == AGENT_PLANNER_REPLAY ? LLM_CASSETTE_REPLAY : LLM_CASSETTE_RECORD;
        }
        if ((rc = llm_client_new(&lo, &co->llm, err)))
            return rc;
    }
    /* the run folder only once every input above held: bad input writes nothing */
    char trace_dir[4200];
    snprintf(trace_dir, sizeof trace_dir, "%s/trace", co->out_dir);
    /* a run directory that cannot be written is the machine's state, not bad
     * input: exit 3 like a full disk, and --resume retries once it is fixed */
    if ((rc = eous_mkdirs(trace_dir, 0755, err)))
        return rc == EOUS_E_NOMEM ? rc : eous_err_remap(err, EOUS_E_INFRA);
    if (access(co->out_dir, W_OK) != 0 || access(trace_dir, W_OK) != 0)
        return eous_err_set(err, EOUS_E_INFRA, "%s: the run directory is not writable: %s", co->out_dir,
                            strerror(errno));
    /* browsers, drivers and remote sessions die with eous, even on SIGKILL */
    return wd_guard_start(co->out_dir, err);
}

void cli_name_param_flags(eous_err *err)
{
    if (!strcmp(err->code, WA_ERR_PARAM_UNDECLARED)) {
        eous_err_prefix(err, "--param");
    } else if (!strcmp(err->code, WA_ERR_PARAM_UNSET)) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, "; --param NAME=VALUE or --params FILE gives one");
    }
}

void cli_teardown_run(cli_opts *co)
{
    wd_guard_stop();
    llm_client_free(co->llm);
    co->llm = NULL;
    act_policy_free(co->policy);
    co->policy = NULL;
    act_secrets_free(co->secrets);
    co->secrets = NULL;
    if (co->lock_fd >= 0) {
        close(co->lock_fd);
        co->lock_fd = -1;
    }
}

void cli_run_opts(const cli_opts *co, agent_run_opts *ro)
{
    *ro = co->run;
    ro->llm = co->llm;
    ro->policy = co->policy;
    ro->secrets = co->secrets;
    /* --repair with --planner replay: the script runs, its repairs come from the cassette */
    if (co->run.repair && co->run.planner == AGENT_PLANNER_REPLAY)
        ro->planner = AGENT_PLANNER_SCRIPT;
    /* a benchmark figure counts only grounded plans; a single run reports */
    if (co->grounding >= 0)
        ro->grounding = (agent_ground_mode)co->grounding;
    else
        ro->grounding = co->cmd && !strcmp(co->cmd, "bench") ? AGENT_GROUND_STRICT : AGENT_GROUND_REPORT;
}

int cli_parse_on_off(const char *cmd, const char *opt, const char *v, int *out)
{
    if (strcmp(v, "on") && strcmp(v, "off")) {
        fprintf(stderr, "eous %s: %s '%s': expected on or off\n", cmd, opt, v);
        return -1;
    }
    *out = !strcmp(v, "on");
    return 0;
}

int cli_parse_type(const char *cmd, const char *opt, const char *v, int *by_key)
{
    if (strcmp(v, "edit") && strcmp(v, "keys"))
        return bad_value(cmd, opt, v, "edit or keys");
    *by_key = !strcmp(v, "keys");
    return 0;
}

int cli_parse_range(const char *cmd, const char *opt, const char *v, long min, long max, const char *what,
                    long *out)
{
    char *end;
    errno = 0;
    /* digits only: strtol alone would take " 5", "+5" and "5 " as 5 */
    long n = isdigit((unsigned char)v[0]) ? strtol(v, &end, 10) : -1;
    if (!isdigit((unsigned char)v[0]) || *end || errno || n < min || n > max) {
        fprintf(stderr, "eous %s: %s '%s': expected %s from %ld to %ld\n", cmd, opt, v, what, min, max);
        return -1;
    }
    *out = n;
    return 0;
}

