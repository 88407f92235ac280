/* cli/cli_observe.c — `eous observe URL` and `eous call URL KEY TOOL PARAMS`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/browser.h"
#include "actions/exec.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_help.h"
#include "perception/perc.h"
#include "perception/shot.h"

static int fail(const eous_err *err)
{
    fprintf(stderr, "eous: %s\n", err->msg);
    return eous_rc_exit_code(err->rc);
}

/* The vision screenshot of obs into path (atomically); its legend on stderr. */
static eous_rc write_marked_shot(wd_session *s, const perc_obs *obs, int max_px, const char *path, eous_err *err)
{
    perc_marked_shot m;
    eous_rc rc = perc_screenshot_marked(s, obs, max_px, &m, err);
    if (!rc)
        rc = eous_write_file_atomic(path, m.png, m.len, err);
    if (!rc)
        fprintf(stderr, "eous observe: %s: %d marks, %dx%d CSS px at scale %.3g\n%s", path, m.n_marks, m.width,
                m.height, m.scale, m.legend);
    perc_marked_shot_clear(&m);
    return rc;
}

int cli_observe(int argc, char **argv)
{
    const char *url = NULL, *mode = "hybrid", *format = "text", *webdriver = NULL, *shot_path = NULL, *cdp = NULL;
    char cdp_addr[80];
    int w3c_only = 0, max_image_px = 0;
    unsigned provider_set = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && !cli_own_opt_known(CLI_CMD_OBSERVE, argv[i])) {
            fprintf(stderr, "eous observe: unknown option '%s' (see eous observe --help)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
        if (!strcmp(argv[i], "--mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "--providers") && i + 1 < argc) {
            if (perc_providers_parse(argv[++i], &provider_set)) {
                fprintf(stderr, "eous observe: --providers '%s': expected a comma list of ci4a, webmcp, bridge, native\n",
                        argv[i]);
                return EOUS_EXIT_INPUT;
            }
        }
        else if (!strcmp(argv[i], "--format") && i + 1 < argc)
            format = argv[++i];
        else if (!strcmp(argv[i], "--webdriver") && i + 1 < argc)
            webdriver = argv[++i];
        else if (!strcmp(argv[i], "--cdp-endpoint") && i + 1 < argc)
            cdp = argv[++i];
        else if (!strcmp(argv[i], "--screenshot") && i + 1 < argc)
            shot_path = argv[++i];
        else if (!strcmp(argv[i], "--max-image-px") && i + 1 < argc) {
            long n;
            if (cli_parse_range("observe", "--max-image-px", argv[++i], CLI_IMAGE_PX_MIN, CLI_IMAGE_PX_MAX,
                                "a number of pixels", &n))
                return EOUS_EXIT_INPUT;
            max_image_px = (int)n;
        } else if (!strcmp(argv[i], "--w3c-only"))
            w3c_only = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "eous observe: unknown option '%s' (expected --mode, --providers, --format, --webdriver, --cdp-endpoint, --w3c-only, "
                            "--screenshot, --max-image-px)\n",
                    argv[i]);
            return EOUS_EXIT_INPUT;
        } else if (!url)
            url = argv[i];
        else {
            fprintf(stderr, "eous observe: unexpected argument '%s' (one URL expected)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
    }
    perc_opts o;
    perc_opts_init(&o);
    o.provider_set = provider_set;
    if (!url || !eous_is_http_url(url)) {
        fprintf(stderr, "eous observe: expected an http(s) URL, got '%s'\n", url ? url : "");
        return EOUS_EXIT_INPUT;
    }
    if (perc_mode_parse(mode, &o.mode)) {
        fprintf(stderr, "eous observe: --mode '%s': expected atomic, pruned, hybrid, html or vision\n", mode);
        return EOUS_EXIT_INPUT;
    }
    if (shot_path && !perc_mode_screenshot(o.mode)) {
        fprintf(stderr, "eous observe: --screenshot needs --mode vision (the set-of-marks screenshot)\n");
        return EOUS_EXIT_INPUT;
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        fprintf(stderr, "eous observe: --format '%s': expected text or json\n", format);
        return EOUS_EXIT_INPUT;
    }
    if (cli_cdp_endpoint("observe", cdp, webdriver, 0, cdp_addr, sizeof cdp_addr))
        return EOUS_EXIT_INPUT;
    wd_install_signal_handlers();
    wd_become_subreaper();
    eous_err err;
    eous_err_clear(&err);
    agent_browser b;
    if (agent_browser_open_net(&b, webdriver, cdp_addr, w3c_only, 0, &err))
        return fail(&err);
    int code = 0;
    perc_obs *obs = NULL;
    if (wd_navigate_start(b.session, url, &err) || perc_observe(b.session, &o, &obs, &err) ||
        (shot_path && write_marked_shot(b.session, obs, max_image_px, shot_path, &err))) {
        code = fail(&err);
    } else if (!strcmp(format, "json")) {
        char *j = perc_obs_json(obs);
        puts(j ? j : "{}");
        free(j);
    } else {
        fputs(perc_obs_text(obs), stdout);
        fputc('\n', stdout); /* warnings went to stderr through the logger */
    }
    perc_obs_free(obs);
    agent_browser_close(&b);
    return code;
}

/* `eous call URL KEY TOOL PARAMS_JSON`: one semantic call, validated against
 * the component's M, as the agent would make it; prints the result and the
 * component's new state as JSON.  The page's own origin is the allowlist. */
int cli_call(int argc, char **argv)
{
    const char *pos[4] = {0}, *webdriver = NULL, *cdp = NULL;
    char cdp_addr[80];
    int npos = 0, w3c_only = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] && !cli_own_opt_known(CLI_CMD_CALL, argv[i])) {
            fprintf(stderr, "eous call: unknown option '%s' (see eous call --help)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
        if (!strcmp(argv[i], "--webdriver") && i + 1 < argc)
            webdriver = argv[++i];
        else if (!strcmp(argv[i], "--cdp-endpoint") && i + 1 < argc)
            cdp = argv[++i];
        else if (!strcmp(argv[i], "--w3c-only"))
            w3c_only = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "eous call: unknown option '%s' (expected --webdriver, --cdp-endpoint, --w3c-only)\n",
                    argv[i]);
            return EOUS_EXIT_INPUT;
        } else if (npos < 4) {
            pos[npos++] = argv[i];
        } else {
            fprintf(stderr, "eous call: unexpected argument '%s' (expected URL KEY TOOL PARAMS_JSON)\n", argv[i]);
            return EOUS_EXIT_INPUT;
        }
    }
    if (npos < 4) {
        fprintf(stderr, "eous call: expected URL KEY TOOL PARAMS_JSON, got %d argument(s)\n", npos);
        return EOUS_EXIT_INPUT;
    }
    if (!eous_is_http_url(pos[0])) {
        fprintf(stderr, "eous call: expected an http(s) URL, got '%s'\n", pos[0]);
        return EOUS_EXIT_INPUT;
    }
    if (cli_cdp_endpoint("call", cdp, webdriver, 0, cdp_addr, sizeof cdp_addr))
        return EOUS_EXIT_INPUT;
    eous_err err;
    eous_err_clear(&err);
    cJSON *params = eous_json_parse(pos[3], strlen(pos[3]), "PARAMS_JSON", &err);
    if (!params || !cJSON_IsObject(params)) {
        fprintf(stderr, "eous call: %s\n", params ? "PARAMS_JSON: expected a JSON object" : err.msg);
        cJSON_Delete(params);
        return EOUS_EXIT_INPUT;
    }
    cJSON *step = cJSON_CreateObject();
    cJSON_AddStringToObject(step, "call", pos[1]);
    cJSON_AddStringToObject(step, "tool", pos[2]);
    cJSON_AddItemToObject(step, "params", params);
    act_action a;
    act_action_init(&a);
    if (act_parse_script_step(step, &a, &err)) {
        fprintf(stderr, "eous call: %s\n", err.msg);
        cJSON_Delete(step);
        return EOUS_EXIT_INPUT;
    }
    cJSON_Delete(step);

    wd_install_signal_handlers();
    wd_become_subreaper();
    agent_browser b;
    if (agent_browser_open_net(&b, webdriver, cdp_addr, w3c_only, 0, &err)) {
        act_action_clear(&a);
        return fail(&err);
    }
    int code = 0;
    perc_obs *obs = NULL;
    act_exec *x = NULL;
    act_policy *policy = NULL;
    act_result r;
    memset(&r, 0, sizeof r);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_HYBRID;
    if (wd_navigate_start(b.session, pos[0], &err) || perc_observe(b.session, &o, &obs, &err) ||
        act_policy_new(&policy, &err) || act_policy_allow_origin(policy, pos[0], &err) ||
        act_exec_new(b.session, NULL, &x, &err)) {
        code = fail(&err);
    } else {
        act_policy_set_interactive(policy, 0);
        act_exec_set_policy(x, policy);
        eous_rc rc = act_execute(x, obs, &a, &r, &err);
        cJSON *out = cJSON_CreateObject();
        cJSON_AddBoolToObject(out, "ok", rc == EOUS_OK);
        cJSON_AddStringToObject(out, "path", act_path_name(r.path));
        cJSON_AddStringToObject(out, "message", rc ? err.msg : r.message);
        if (r.state)
            cJSON_AddItemToObject(out, "state", cJSON_Duplicate(r.state, 1));
        char *text = eous_json_print(out);
        char *safe = eous_redact(text ? text : "{}");
        puts(safe ? safe : "{}");
        free(safe);
        free(text);
        cJSON_Delete(out);
        code = rc ? eous_rc_exit_code(rc) : 0;
        if (rc == EOUS_E_PAGE || rc == EOUS_E_NOT_FOUND || rc == EOUS_E_STALE)
            code = 1; /* the page refused or lacks the component: a failed call, not bad input */
    }
    act_result_clear(&r);
    act_exec_free(x);
    act_policy_free(policy);
    perc_obs_free(obs);
    act_action_clear(&a);
    agent_browser_close(&b);
    return code;
}

