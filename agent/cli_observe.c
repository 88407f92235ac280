/* agent/cli_observe.c — `eous observe URL` and `eous call URL KEY TOOL PARAMS`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/browser.h"
#include "agent/cli.h"
#include "perception/perc.h"

static int fail(const eous_err *err)
{
    fprintf(stderr, "eous: %s\n", err->msg);
    return eous_rc_exit_code(err->rc);
}

static int url_ok(const char *url)
{
    return !strncmp(url, "http://", 7) || !strncmp(url, "https://", 8);
}

int cli_observe(int argc, char **argv)
{
    const char *url = NULL, *mode = "hybrid", *format = "text", *webdriver = NULL;
    int w3c_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "--format") && i + 1 < argc)
            format = argv[++i];
        else if (!strcmp(argv[i], "--webdriver") && i + 1 < argc)
            webdriver = argv[++i];
        else if (!strcmp(argv[i], "--w3c-only"))
            w3c_only = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "eous observe: unknown option '%s' (expected --mode, --format, --webdriver, --w3c-only)\n",
                    argv[i]);
            return 2;
        } else if (!url)
            url = argv[i];
        else {
            fprintf(stderr, "eous observe: unexpected argument '%s' (one URL expected)\n", argv[i]);
            return 2;
        }
    }
    perc_opts o;
    perc_opts_init(&o);
    if (!url || !url_ok(url)) {
        fprintf(stderr, "eous observe: expected an http(s) URL, got '%s'\n", url ? url : "");
        return 2;
    }
    if (perc_mode_parse(mode, &o.mode)) {
        fprintf(stderr, "eous observe: --mode '%s': expected atomic, pruned, hybrid or html\n", mode);
        return 2;
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        fprintf(stderr, "eous observe: --format '%s': expected text or json\n", format);
        return 2;
    }
    wd_install_signal_handlers();
    wd_become_subreaper();
    eous_err err;
    eous_err_clear(&err);
    agent_browser b;
    if (agent_browser_open(&b, webdriver, w3c_only, &err))
        return fail(&err);
    int code = 0;
    perc_obs *obs = NULL;
    if (wd_navigate(b.session, url, &err) || perc_observe(b.session, &o, &obs, &err)) {
        code = fail(&err);
    } else if (!strcmp(format, "json")) {
        char *j = perc_obs_json(obs);
        puts(j ? j : "{}");
        free(j);
    } else {
        fputs(perc_obs_text(obs), stdout);
        fputc('\n', stdout);
        for (size_t i = 0; i < perc_obs_n_warnings(obs); i++)
            fprintf(stderr, "eous: warning: %s\n", perc_obs_warning(obs, i));
    }
    perc_obs_free(obs);
    agent_browser_close(&b);
    return code;
}

int cli_call(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "eous call: not available yet\n");
    return 2;
}

