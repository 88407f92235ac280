/* cli/cli_mcp.c — `eous mcp`: the runtime as an MCP server over stdio. */
#include <stdio.h>
#include <string.h>

#include "actions/policy.h"
#include "actions/secrets.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "agent/mcp.h"

static int need_value(int i, int argc, char **argv)
{
    if (i + 1 < argc)
        return 1;
    fprintf(stderr, "eous mcp: option %s expects a value\n", argv[i]);
    return 0;
}

/* Fills o from argv; policy/secrets file names go to *policy_file / *secrets_file. */
static int parse_mcp_args(int argc, char **argv, agent_mcp_opts *o, const char **policy_file,
                          const char **secrets_file)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--mode")) {
            if (!need_value(i, argc, argv))
                return -1;
            if (perc_mode_parse(argv[++i], &o->mode) || o->mode == PERC_MODE_VISION) {
                /* an MCP client gets images from browser_take_screenshot, not a vision view */
                fprintf(stderr, "eous mcp: --mode '%s': expected hybrid, pruned, atomic or html\n", argv[i]);
                return -1;
            }
        } else if (!strcmp(a, "--webdriver") || !strcmp(a, "--policy") || !strcmp(a, "--secrets") ||
                   !strcmp(a, "--audit")) {
            if (!need_value(i, argc, argv))
                return -1;
            const char *v = argv[++i];
            if (!strcmp(a, "--webdriver"))
                o->webdriver = v;
            else if (!strcmp(a, "--policy"))
                *policy_file = v;
            else if (!strcmp(a, "--secrets"))
                *secrets_file = v;
            else
                o->audit_path = v;
        } else if (!strcmp(a, "--deltas")) {
            if (!need_value(i, argc, argv))
                return -1;
            if (cli_parse_on_off("mcp", a, argv[++i], &o->deltas))
                return -1;
        } else if (!strcmp(a, "--w3c-only")) {
            o->w3c_only = 1;
        } else if (!strcmp(a, "--headed")) {
            o->headed = 1;
        } else {
            fprintf(stderr,
                    "eous mcp: unexpected argument '%s' (expected --mode, --deltas, --webdriver, --w3c-only, "
                    "--policy, --secrets, --audit, --headed)\n",
                    a);
            return -1;
        }
    }
    return 0;
}

int cli_mcp(int argc, char **argv)
{
    agent_mcp_opts o;
    agent_mcp_opts_init(&o);
    const char *policy_file = NULL, *secrets_file = NULL;
    if (parse_mcp_args(argc, argv, &o, &policy_file, &secrets_file))
        return 2;
    eous_err err;
    eous_err_clear(&err);
    act_policy *policy = NULL;
    act_secrets *secrets = NULL;
    agent_mcp *m = NULL;
    int code = 0;
    eous_rc rc;
    if (policy_file && ((rc = act_policy_new(&policy, &err)) || (rc = act_policy_load(policy, policy_file, &err)))) {
        code = 2;
        goto done;
    }
    /* secrets: the environment always, plus the 0600 file when given */
    if ((rc = act_secrets_new(&secrets, &err)) ||
        (secrets_file && (rc = act_secrets_load_file(secrets, secrets_file, &err)))) {
        code = 2;
        goto done;
    }
    o.policy = policy;
    o.secrets = secrets;
    wd_install_signal_handlers(); /* also ignores SIGPIPE: a vanished client must not leave the browser behind */
    wd_become_subreaper();
    if ((rc = agent_mcp_new(&o, &m, &err))) {
        code = eous_rc_exit_code(rc);
        goto done;
    }
    rc = agent_mcp_serve(m, stdin, stdout, &err);
    if (rc)
        code = rc == EOUS_E_INTERRUPTED ? 130 : eous_rc_exit_code(rc);
done:
    if (code && code != 130)
        fprintf(stderr, "eous mcp: %s\n", err.msg);
    agent_mcp_free(m);
    act_secrets_free(secrets);
    act_policy_free(policy);
    return code;
}
