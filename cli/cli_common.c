/* cli/cli_common.c — see cli_common.h. */
#define _GNU_SOURCE
#include "cli/cli_common.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/policy.h"
#include "actions/secrets.h"
#include "agent/batch.h"
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

static int parse(int argc, char **argv, cli_opts *co, int want_one_positional, const char **first)
{
    memset(co, 0, sizeof *co);
    co->cmd = argv[0];
    co->planner = AGENT_PLANNER_SCRIPT;
    co->mode = PERC_MODE_HYBRID;
    co->out_dir = "out";
    co->max_steps = EOUS_DEFAULT_MAX_STEPS;
    co->max_seconds = EOUS_DEFAULT_MAX_SECONDS;
    co->workers = 1;
    co->restart_browser_every = 100;
    co->lock_fd = -1;
    co->max_obs_tokens = -1;
    co->max_batch = AGENT_DEFAULT_MAX_BATCH;
    co->deltas = -1;
    co->history = LLM_DEFAULT_HISTORY;
    co->grounding = -1;
    co->screenshots = AGENT_SHOTS_FAILURE;
    co->positional = calloc((size_t)argc + 1, sizeof *co->positional);
    if (!co->positional)
        return -1;
    const char *modes = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
#define VALUE(dst)                          \
    do {                                    \
        if (!need_value(i, argc, argv))     \
            return -1;                      \
        dst = argv[++i];                    \
    } while (0)
        if (!strcmp(a, "--planner")) {
            const char *v;
            VALUE(v);
            if (agent_planner_parse(v, &co->planner)) {
                fprintf(stderr, "eous %s: --planner '%s': expected llm, script or replay\n", argv[0], v);
                return -1;
            }
        } else if (!strcmp(a, "--providers")) {
            const char *v;
            VALUE(v);
            if (perc_providers_parse(v, &co->provider_set)) {
                fprintf(stderr, "eous %s: --providers '%s': expected a comma list of ci4a, webmcp, bridge, native\n",
                        argv[0], v);
                return -1;
            }
        } else if (!strcmp(a, "--mode")) {
            const char *v;
            VALUE(v);
            if (perc_mode_parse(v, &co->mode)) {
                fprintf(stderr, "eous %s: --mode '%s': expected hybrid, pruned, atomic, html or vision\n", argv[0], v);
                return -1;
            }
        } else if (!strcmp(a, "--modes")) {
            VALUE(modes);
        } else if (!strcmp(a, "--llm")) {
            VALUE(co->llm_spec);
        } else if (!strcmp(a, "--llm-base-url")) {
            VALUE(co->llm_base_url);
        } else if (!strcmp(a, "--llm-ca")) {
            VALUE(co->llm_ca);
        } else if (!strcmp(a, "--cassette")) {
            VALUE(co->cassette);
        } else if (!strcmp(a, "--webdriver")) {
            VALUE(co->webdriver);
        } else if (!strcmp(a, "--out")) {
            VALUE(co->out_dir);
        } else if (!strcmp(a, "--policy")) {
            VALUE(co->policy_file);
        } else if (!strcmp(a, "--secrets")) {
            VALUE(co->secrets_file);
        } else if (!strcmp(a, "--files")) {
            VALUE(co->files_dir);
        } else if (!strcmp(a, "--repair")) {
            const char *v;
            VALUE(v);
            if (strcmp(v, "llm") && strcmp(v, "off")) {
                fprintf(stderr, "eous %s: --repair '%s': expected llm or off\n", argv[0], v);
                return -1;
            }
            co->repair = !strcmp(v, "llm");
        } else if (!strcmp(a, "--lock")) {
            VALUE(co->lock_file);
        } else if (!strcmp(a, "--screenshots")) {
            const char *v;
            VALUE(v);
            if (agent_shots_parse(v, &co->screenshots)) {
                fprintf(stderr, "eous %s: --screenshots '%s': expected none, failure, final or every\n", argv[0], v);
                return -1;
            }
        } else if (!strcmp(a, "--image-detail")) {
            VALUE(co->image_detail);
            if (strcmp(co->image_detail, "low") && strcmp(co->image_detail, "high") &&
                strcmp(co->image_detail, "auto")) {
                fprintf(stderr, "eous %s: --image-detail '%s': expected low, high or auto\n", argv[0],
                        co->image_detail);
                return -1;
            }
        } else if (!strcmp(a, "--max-image-px")) {
            const char *v;
            VALUE(v);
            long n;
            if (cli_parse_range(argv[0], a, v, CLI_IMAGE_PX_MIN, CLI_IMAGE_PX_MAX, "a number of pixels", &n))
                return -1;
            co->max_image_px = (int)n;
        } else if (!strcmp(a, "--w3c-only")) {
            co->w3c_only = 1;
        } else if (!strcmp(a, "--resume")) {
            co->resume = 1;
        } else if (!strcmp(a, "--fail-on")) {
            const char *v;
            VALUE(v);
            if (strcmp(v, "any-attempt") && strcmp(v, "last-attempt")) {
                fprintf(stderr, "eous %s: --fail-on '%s': expected any-attempt or last-attempt\n", argv[0], v);
                return -1;
            }
            co->fail_on_any_attempt = !strcmp(v, "any-attempt");
        } else if (!strcmp(a, "--deltas")) {
            const char *v;
            VALUE(v);
            if (cli_parse_on_off(argv[0], a, v, &co->deltas))
                return -1;
        } else if (!strcmp(a, "--history")) {
            const char *v;
            VALUE(v);
            llm_history h;
            if (llm_history_parse(v, &h)) {
                fprintf(stderr, "eous %s: --history '%s': expected stateless or full\n", argv[0], v);
                return -1;
            }
            co->history = (int)h;
        } else if (!strcmp(a, "--history-budget")) {
            const char *v;
            VALUE(v);
            long n;
            if (cli_parse_range(argv[0], a, v, 1000, 10000000, "a number of tokens", &n))
                return -1;
            co->history_budget = (size_t)n;
        } else if (!strcmp(a, "--max-batch")) {
            const char *v;
            VALUE(v);
            long n;
            if (cli_parse_range(argv[0], a, v, 1, AGENT_MAX_BATCH, "a number of actions", &n))
                return -1;
            co->max_batch = (int)n;
        } else if (!strcmp(a, "--grounding")) {
            const char *v;
            agent_ground_mode g;
            VALUE(v);
            if (agent_ground_mode_parse(v, &g)) {
                fprintf(stderr, "eous %s: --grounding '%s': expected strict, report or off\n", argv[0], v);
                return -1;
            }
            co->grounding = (int)g;
        } else if (!strcmp(a, "--settle")) {
            const char *v;
            VALUE(v);
            const char *ms = !strncmp(v, "quiet:", 6) ? v + 6 : NULL;
            long n = ms && *ms && strlen(ms) < 6 && ms[strspn(ms, "0123456789")] == '\0' ? strtol(ms, NULL, 10) : 0;
            if (!strcmp(v, "rule")) {
                co->settle_quiet_ms = 0;
            } else if (n < 1 || n > 60000) {
                fprintf(stderr, "eous %s: --settle '%s': expected rule or quiet:MS with MS from 1 to 60000\n",
                        argv[0], v);
                return -1;
            } else {
                co->settle_quiet_ms = (double)n;
            }
        } else if (!strcmp(a, "--max-obs-tokens")) {
            const char *v;
            VALUE(v);
            long n;
            if (cli_parse_range(argv[0], a, v, 0, 10000000, "a number of tokens (0 = no cut)", &n))
                return -1;
            co->max_obs_tokens = n;
        } else if (!strcmp(a, "--max-steps") || !strcmp(a, "--workers") || !strcmp(a, "--max-seconds") ||
                   !strcmp(a, "--restart-browser-every")) {
            const char *v;
            VALUE(v);
            long n;
            int workers = !strcmp(a, "--workers");
            /* more workers than 32 was cut to 32 without a word; now it is refused */
            if (cli_parse_range(argv[0], a, v, 1, workers ? 32 : 100000,
                                workers ? "a number of workers" : "a positive integer", &n))
                return -1;
            if (!strcmp(a, "--max-steps"))
                co->max_steps = (int)n;
            else if (workers)
                co->workers = (int)n;
            else if (!strcmp(a, "--restart-browser-every"))
                co->restart_browser_every = (int)n;
            else
                co->max_seconds = (double)n;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "eous %s: unknown option '%s' (see eous --help)\n", argv[0], a);
            return -1;
        } else {
            co->positional[co->n_positional++] = a;
        }
#undef VALUE
    }
    if (want_one_positional) {
        if (co->n_positional > 1) {
            fprintf(stderr, "eous %s: expected one task file, got %d arguments\n", argv[0], co->n_positional);
            return -1;
        }
        *first = co->n_positional ? co->positional[0] : NULL;
    }
    if (modes) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", modes);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (co->n_modes == 5 || perc_mode_parse(tok, &co->modes[co->n_modes])) {
                fprintf(stderr, "eous %s: --modes '%s': expected a comma list of hybrid, pruned, atomic, html, vision\n",
                        argv[0], modes);
                return -1;
            }
            co->n_modes++;
        }
    }
    if (!co->n_modes) {
        co->modes[0] = co->mode;
        co->n_modes = 1;
    }
    for (int m = 0; m < co->n_modes && co->w3c_only; m++)
        if (perc_mode_screenshot(co->modes[m])) {
            fprintf(stderr, "eous %s: --mode vision needs CDP (element boxes, scaled capture); not with --w3c-only\n",
                    argv[0]);
            return -1;
        }
    if ((co->planner == AGENT_PLANNER_LLM) && !co->llm_spec) {
        fprintf(stderr, "eous %s: --planner llm needs --llm PROVIDER:MODEL\n", argv[0]);
        return -1;
    }
    if (co->planner == AGENT_PLANNER_REPLAY && !co->cassette) {
        fprintf(stderr, "eous %s: --planner replay needs --cassette FILE\n", argv[0]);
        return -1;
    }
    if (co->repair && !co->llm_spec && co->planner != AGENT_PLANNER_REPLAY) {
        fprintf(stderr, "eous %s: --repair llm needs --llm PROVIDER:MODEL (or --planner replay --cassette FILE)\n",
                argv[0]);
        return -1;
    }
    if (co->deltas == 1 && co->history == LLM_HISTORY_STATELESS && co->planner != AGENT_PLANNER_SCRIPT) {
        fprintf(stderr,
                "eous %s: --deltas on with --history stateless: a stateless request holds no earlier view for a "
                "delta to refer to; use --history full or --deltas off\n",
                argv[0]);
        return -1;
    }
    return 0;
}

void cli_opts_free(cli_opts *co)
{
    free(co->positional);
    co->positional = NULL;
}

eous_rc cli_setup_run(cli_opts *co, eous_err *err)
{
    eous_rc rc;
    char trace_dir[4200];
    snprintf(trace_dir, sizeof trace_dir, "%s/trace", co->out_dir);
    /* a run directory that cannot be written is the machine's state, not bad
     * input: exit 3 like a full disk, and --resume retries once it is fixed */
    if ((rc = eous_mkdirs(trace_dir, 0755, err)))
        return rc == EOUS_E_NOMEM ? rc : eous_err_remap(err, EOUS_E_INFRA);
    if (access(co->out_dir, W_OK) != 0 || access(trace_dir, W_OK) != 0)
        return eous_err_set(err, EOUS_E_INFRA, "%s: the run directory is not writable: %s", co->out_dir,
                            strerror(errno));
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
    if (co->files_dir && (stat(co->files_dir, &fst) || !S_ISDIR(fst.st_mode)))
        return eous_err_set(err, EOUS_E_INVALID, "--files %s: expected a directory of files to upload", co->files_dir);
    /* secrets: the environment always, plus the 0600 file when given */
    if ((rc = act_secrets_new(&co->secrets, err)))
        return rc;
    if (co->secrets_file && (rc = act_secrets_load_file(co->secrets, co->secrets_file, err)))
        return rc == EOUS_E_NOMEM ? rc : EOUS_E_INVALID;
    if (co->planner != AGENT_PLANNER_SCRIPT || co->llm_spec || co->repair) {
        llm_opts lo;
        llm_opts_init(&lo);
        if (co->llm_spec && (rc = llm_parse_spec(co->llm_spec, &lo, err)))
            return rc;
        if (co->llm_base_url)
            lo.base_url = co->llm_base_url;
        if (co->llm_ca)
            lo.ca_file = co->llm_ca;
        if (co->max_obs_tokens >= 0)
            lo.max_obs_tokens = (size_t)co->max_obs_tokens;
        if (co->cassette) {
            lo.cassette_path = co->cassette;
            lo.image_detail = co->image_detail;
            lo.cassette_mode = co->planner == AGENT_PLANNER_REPLAY ? LLM_CASSETTE_REPLAY : LLM_CASSETTE_RECORD;
        }
        if ((rc = llm_client_new(&lo, &co->llm, err)))
            return rc;
    }
    /* browsers, drivers and remote sessions die with eous, even on SIGKILL */
    return wd_guard_start(co->out_dir, err);
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
    agent_run_opts_init(ro);
    ro->planner = co->planner;
    ro->provider_set = co->provider_set;
    ro->max_steps = co->max_steps;
    ro->max_batch = co->max_batch;
    ro->deltas = co->deltas;
    ro->history = co->history;
    ro->history_budget = co->history_budget;
    ro->max_seconds = co->max_seconds;
    ro->llm = co->llm;
    ro->policy = co->policy;
    ro->secrets = co->secrets;
    ro->files_dir = co->files_dir;
    ro->repair = co->repair;
    /* --repair with --planner replay: the script runs, its repairs come from the cassette */
    if (co->repair && co->planner == AGENT_PLANNER_REPLAY)
        ro->planner = AGENT_PLANNER_SCRIPT;
    /* a benchmark figure counts only grounded plans; a single run reports */
    if (co->grounding >= 0)
        ro->grounding = (agent_ground_mode)co->grounding;
    else
        ro->grounding = co->cmd && !strcmp(co->cmd, "bench") ? AGENT_GROUND_STRICT : AGENT_GROUND_REPORT;
    ro->screenshots = co->screenshots;
    ro->max_image_px = co->max_image_px;
    ro->settle_quiet_ms = co->settle_quiet_ms;
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

