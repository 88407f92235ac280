/* cli/cli_common.h — options shared by `eous run` and `eous bench`, and the
 * things they set up: output directory, model client, policy.
 * cli_opts owns what cli_setup_run creates; cli_teardown_run frees it. */
#ifndef EOUS_CLI_CLI_COMMON_H
#define EOUS_CLI_CLI_COMMON_H

#include <stdio.h>

#include "agent/run.h"
#include "perception/perc.h"

struct llm_client;
struct act_policy;
struct act_secrets;

typedef struct cli_opts {
    const char *cmd;
    /* the loop's own options (--planner, --mode, --max-steps, ...): the option table writes straight into
     * them, and cli_run_opts hands them on whole with what cli_setup_run made */
    agent_run_opts run;
    perc_mode modes[5];
    int n_modes;
    const char *modes_list;    /* --modes as given; split into modes[] after parsing */
    const char *llm_spec, *llm_base_url, *llm_ca, *cassette;
    const char *prices_file;   /* --prices FILE: USD per 1M tokens by model (llm/price.c), for cost_usd */
    const char *known_limits_file; /* bench --known-limits FILE: failures explained (bench/bench.h) */
    const char *webdriver;
    const char *cdp_endpoint;  /* --cdp-endpoint as given (else EOUS_CDP_ENDPOINT's) */
    char cdp_addr[80];         /* its "HOST:PORT" once checked; "" = launch a browser */
    int w3c_only;              /* --w3c-only: no CDP */
    int network_log;           /* a WebArena-Verified task is among the tasks: HAR files (bench/verified_run.h) */
    const char *out_dir;       /* --out DIR; NULL until cli_default_out picks one */
    char out_auto[512];        /* the folder cli_default_out made, out_dir then points here */
    const char *policy_file;
    const char *secrets_file;
    cJSON *params;             /* --param NAME=VALUE, --params FILE: {NAME: value} (owned; webarena/params.h) */
    const char *lock_file;
    long max_obs_tokens;       /* --max-obs-tokens: o200k tokens kept of each observation; -1 = default */
    int workers;
    int restart_browser_every; /* bench: a fresh browser after N tasks (0 = never) */
    int resume;
    int fail_on_any_attempt;   /* --fail-on any-attempt: a failed earlier attempt fails the exit code too */
    int grounding;             /* --grounding: an agent_ground_mode, -1 = the command's default */
    const char *image_detail;  /* --image-detail low|high|auto (vision; NULL = the provider's default) */
    const char **positional;
    int n_positional;
    /* set up by cli_setup_run */
    struct llm_client *llm;
    struct act_policy *policy;
    struct act_secrets *secrets;
    int lock_fd;
} cli_opts;

/* Parses argv (argv[0] = command).  want_one_positional: run takes exactly one
 * task file (*first gets it); bench takes many (co->positional).  Prints a
 * one-line error and returns -1 on bad input. */
int cli_parse_common(int argc, char **argv, cli_opts *co, int want_one_positional, const char **first);
void cli_opts_free(cli_opts *co);
/* The running Chromium to attach to: --cdp-endpoint's value, or EOUS_CDP_ENDPOINT's when value is NULL
 * (as Playwright MCP reads its options from the environment), as "HOST:PORT" in addr ("" when neither
 * is set: launch one).  It cannot go with a remote WebDriver (webdriver) or a window of eous's own
 * (headed).  0, or -1 after a one-line error naming cmd, the option and the value. */
int cli_cdp_endpoint(const char *cmd, const char *value, const char *webdriver, int headed, char *addr, size_t n);
eous_rc cli_setup_run(cli_opts *co, eous_err *err);
void cli_teardown_run(cli_opts *co);
void cli_run_opts(const cli_opts *co, agent_run_opts *ro);
/* A task load's error whose parameters did not fit its jobs (the loader names the parameter) gets the
 * flags that give one: --param for a given one no job declares, --param/--params for one with no value. */
void cli_name_param_flags(eous_err *err);

/* Where run and bench write without --out: a folder of their own under the current directory, never
 * out/ (make demo's) nor runs/ (the source tree's run-folder module). */
#define CLI_RUNS_ROOT "eous-runs"
/* Without --out: makes a new CLI_RUNS_ROOT/<YYYY-MM-DD>-<name>[-N]/ (N from 2, the first not there;
 * name's characters other than letters, digits, '.', '_', '-' become '_') and points co->out_dir at it.
 * With --out: nothing.  0, or EOUS_E_INFRA with err set when the folder cannot be made. */
eous_rc cli_default_out(cli_opts *co, const char *name, eous_err *err);
/* --max-image-px's range: the longest side a screenshot may be scaled to */
#define CLI_IMAGE_PX_MIN 16
#define CLI_IMAGE_PX_MAX 10000

/* An on|off option's value into *out (1 on, 0 off): 0, or -1 after a one-line
 * error naming cmd, the option and the value. */
int cli_parse_on_off(const char *cmd, const char *opt, const char *v, int *out);

/* --type's value (edit or keys) into *by_key (1 for keys): 0, or -1 after a
 * one-line error naming cmd, the option and the value. */
int cli_parse_type(const char *cmd, const char *opt, const char *v, int *by_key);

/* An option's whole-number value in [min, max] into *out: 0, or -1 after a
 * one-line error naming cmd, the option, the value and what was expected. */
int cli_parse_range(const char *cmd, const char *opt, const char *v, long min, long max, const char *what,
                    long *out);

#endif
