/* cli/cli_mcp.c — `eous mcp`: the runtime as an MCP server over stdio, or
 * with --port over Streamable HTTP for many clients (mcp/mcp.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/policy.h"
#include "actions/secrets.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_help.h"
#include "mcp/mcp.h"

#define MCP_TOKEN_MAX 4096

typedef struct mcp_cli {
    mcp_http_opts h;  /* h.session: the stdio server's options too */
    int http;               /* --port given */
    const char *http_only;  /* an HTTP option given, for the error without --port */
    const char *policy_file;
    const char *secrets_file;
    const char *token_file;
    const char *cdp_endpoint; /* --cdp-endpoint as given */
    char cdp_addr[80];        /* its "HOST:PORT" (session.debugger_address points here) */
} mcp_cli;

static int need_value(int i, int argc, char **argv)
{
    if (i + 1 < argc)
        return 1;
    fprintf(stderr, "eous mcp: option %s expects a value\n", argv[i]);
    return 0;
}

/* The HTTP options; 1 when a was one of them (value consumed), 0 when not, -1 on a bad value. */
static int parse_http_arg(int *i, int argc, char **argv, mcp_cli *c)
{
    const char *a = argv[*i];
    static const char *const names[] = {"--port", "--host", "--allowed-origins", "--allowed-hosts", "--token",
                                        "--max-sessions", "--idle-timeout", "--max-body", "--request-timeout",
                                        "--header-timeout", "--max-client-connections"};
    size_t k = 0;
    while (k < sizeof names / sizeof names[0] && strcmp(a, names[k]))
        k++;
    if (k == sizeof names / sizeof names[0])
        return 0;
    if (!need_value(*i, argc, argv))
        return -1;
    const char *v = argv[++*i];
    long n = 0;
    c->http_only = a;
    switch (k) {
    case 0:
        if (cli_parse_range("mcp", a, v, 0, 65535, "a TCP port (0 = any free one)", &n))
            return -1;
        c->h.port = (int)n;
        c->http = 1;
        break;
    case 1:
        c->h.host = v;
        break;
    case 2:
        c->h.allowed_origins = v;
        break;
    case 3:
        c->h.allowed_hosts = v;
        break;
    case 4:
        c->token_file = v;
        break;
    case 5:
        if (cli_parse_range("mcp", a, v, 1, 1024, "sessions open at once", &n))
            return -1;
        c->h.max_sessions = (int)n;
        break;
    case 6:
        if (cli_parse_range("mcp", a, v, 0, 7 * 24 * 3600, "seconds (0 = never)", &n))
            return -1;
        c->h.idle_timeout_s = (int)n;
        break;
    case 7:
        if (cli_parse_range("mcp", a, v, 1024, 1024L * 1024 * 1024, "bytes", &n))
            return -1;
        c->h.max_body_bytes = (size_t)n;
        break;
    case 8:
        if (cli_parse_range("mcp", a, v, 1, 3600, "seconds", &n))
            return -1;
        c->h.request_timeout_s = (int)n;
        break;
    case 9:
        if (cli_parse_range("mcp", a, v, 1, 3600, "seconds", &n))
            return -1;
        c->h.header_timeout_s = (int)n;
        break;
    default:
        if (cli_parse_range("mcp", a, v, 1, 256, "connections from one client address", &n))
            return -1;
        c->h.max_client_connections = (int)n;
        break;
    }
    return 1;
}

/* Fills c from argv. */
static int parse_mcp_args(int argc, char **argv, mcp_cli *c)
{
    mcp_opts *o = &c->h.session;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!cli_own_opt_known(CLI_CMD_MCP, a)) { /* the table `eous mcp --help` prints is what is taken */
            fprintf(stderr, "eous mcp: unexpected argument '%s' (see eous mcp --help)\n", a);
            return -1;
        }
        int http = parse_http_arg(&i, argc, argv, c);
        if (http < 0)
            return -1;
        if (http)
            continue;
        if (!strcmp(a, "--mode")) {
            if (!need_value(i, argc, argv))
                return -1;
            if (perc_mode_parse(argv[++i], &o->mode) || o->mode == PERC_MODE_VISION) {
                /* an MCP client gets images from browser_take_screenshot, not a vision view */
                fprintf(stderr, "eous mcp: --mode '%s': expected hybrid, pruned, atomic or html\n", argv[i]);
                return -1;
            }
        } else if (!strcmp(a, "--webdriver") || !strcmp(a, "--policy") || !strcmp(a, "--secrets") ||
                   !strcmp(a, "--audit") || !strcmp(a, "--files") || !strcmp(a, "--caps") || !strcmp(a, "--out") ||
                   !strcmp(a, "--record") || !strcmp(a, "--cdp-endpoint")) {
            if (!need_value(i, argc, argv))
                return -1;
            const char *v = argv[++i];
            if (!strcmp(a, "--webdriver"))
                o->webdriver = v;
            else if (!strcmp(a, "--cdp-endpoint"))
                c->cdp_endpoint = v;
            else if (!strcmp(a, "--policy"))
                c->policy_file = v;
            else if (!strcmp(a, "--secrets"))
                c->secrets_file = v;
            else if (!strcmp(a, "--files"))
                o->files_dir = v;
            else if (!strcmp(a, "--out"))
                o->out_dir = v;
            else if (!strcmp(a, "--record"))
                o->record_dir = v;
            else if (!strcmp(a, "--caps")) {
                eous_err cerr;
                if (mcp_caps_check(v, &cerr)) {
                    fprintf(stderr, "eous mcp: --%s\n", cerr.msg);
                    return -1;
                }
                o->caps = v;
            }
            else
                o->audit_path = v;
        } else if (!strcmp(a, "--type")) {
            if (!need_value(i, argc, argv) || cli_parse_type("mcp", a, argv[++i], &o->type_by_key))
                return -1;
        } else if (!strcmp(a, "--deltas")) {
            if (!need_value(i, argc, argv))
                return -1;
            if (cli_parse_on_off("mcp", a, argv[++i], &o->deltas))
                return -1;
        } else if (!strcmp(a, "--require-origin")) {
            c->h.require_origin = 1;
            c->http_only = a;
        } else if (!strcmp(a, "--w3c-only")) {
            o->w3c_only = 1;
        } else if (!strcmp(a, "--headed")) {
            o->headed = 1;
        } else {
            fprintf(stderr,
                    "eous mcp: unexpected argument '%s' (expected --mode, --deltas, --type, --webdriver, --cdp-endpoint, --w3c-only, "
                    "--policy, --secrets, --audit, --record, --files, --caps, --out, --headed, --port, --host, --allowed-origins, --allowed-hosts, "
                    "--token, --max-sessions, --idle-timeout, --max-body, --request-timeout, --header-timeout, "
                    "--max-client-connections, --require-origin)\n",
                    a);
            return -1;
        }
    }
    struct stat fst;
    if (o->files_dir && (stat(o->files_dir, &fst) || !S_ISDIR(fst.st_mode))) {
        fprintf(stderr, "eous mcp: --files %s: expected a directory of files to upload\n", o->files_dir);
        return -1;
    }
    if (o->record_dir && !stat(o->record_dir, &fst) && !S_ISDIR(fst.st_mode)) {
        fprintf(stderr, "eous mcp: --record %s: expected a folder to keep sessions in (it is a file)\n", o->record_dir);
        return -1;
    }
    if (c->http_only && !c->http) {
        fprintf(stderr, "eous mcp: %s needs --port (it is an HTTP option; without --port eous mcp speaks stdio)\n",
                c->http_only);
        return -1;
    }
    if (cli_cdp_endpoint("mcp", c->cdp_endpoint, o->webdriver, o->headed, c->cdp_addr, sizeof c->cdp_addr))
        return -1;
    if (c->cdp_addr[0] && c->http && c->h.max_sessions != 1) {
        fprintf(stderr, "eous mcp: one attached browser (--cdp-endpoint or EOUS_CDP_ENDPOINT) serves one session: "
                        "add --max-sessions 1, or leave it out and each session launches its own\n");
        return -1;
    }
    o->debugger_address = c->cdp_addr[0] ? c->cdp_addr : NULL;
    return 0;
}

/* The bearer token from a 0600 file, trailing whitespace dropped (caller frees). */
static eous_rc read_token(const char *path, char **out, eous_err *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return eous_err_set(err, EOUS_E_INVALID, "--token %s: %s", path, strerror(errno));
    struct stat st;
    char buf[MCP_TOKEN_MAX + 1];
    ssize_t n = -1;
    eous_rc rc = EOUS_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        rc = eous_err_set(err, EOUS_E_INVALID, "--token %s: not a regular file", path);
    else if (st.st_mode & 077)
        rc = eous_err_set(err, EOUS_E_INVALID, "--token %s: readable by others (mode %04o; expected 0600: chmod 600 %s)",
                          path, (unsigned)(st.st_mode & 07777), path);
    else if ((n = read(fd, buf, sizeof buf)) < 0)
        rc = eous_err_set(err, EOUS_E_INVALID, "--token %s: %s", path, strerror(errno));
    else if (n > MCP_TOKEN_MAX)
        rc = eous_err_set(err, EOUS_E_INVALID, "--token %s: longer than %d bytes", path, MCP_TOKEN_MAX);
    close(fd);
    if (rc)
        return rc;
    size_t len = n > 0 && n <= MCP_TOKEN_MAX ? (size_t)n : 0;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        len--;
    buf[len] = '\0';
    if (!len || strpbrk(buf, " \t\r\n"))
        return eous_err_set(err, EOUS_E_INVALID, "--token %s: expected one token of visible characters", path);
    if (!(*out = strdup(buf)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* --caps tasks: the run folder, made now (--out's, or a new eous-runs/DATE-mcp[-N]/), named on stderr. */
static eous_rc tasks_out(mcp_opts *o, cli_opts *co, eous_err *err)
{
    memset(co, 0, sizeof *co);
    co->out_dir = o->out_dir;
    eous_rc rc = o->out_dir ? eous_mkdirs(o->out_dir, 0755, err) : cli_default_out(co, "mcp", err);
    if (rc)
        return rc;
    o->out_dir = co->out_dir;
    fprintf(stderr, "eous mcp: task results go to %s/results.jsonl\n", o->out_dir);
    return EOUS_OK;
}

int cli_mcp(int argc, char **argv)
{
    cli_opts co; /* only for the default run folder of --caps tasks */
    mcp_cli c;
    memset(&c, 0, sizeof c);
    mcp_http_opts_init(&c.h);
    if (parse_mcp_args(argc, argv, &c))
        return EOUS_EXIT_INPUT;
    mcp_opts *o = &c.h.session;
    eous_err err;
    eous_err_clear(&err);
    act_policy *policy = NULL;
    act_secrets *secrets = NULL;
    mcp_server *m = NULL;
    char *token = NULL;
    int code = 0;
    eous_rc rc;
    /* the policy file is read here either way, so a bad one is refused before serving */
    if (c.policy_file &&
        ((rc = act_policy_new(&policy, &err)) || (rc = act_policy_load(policy, c.policy_file, &err)))) {
        code = EOUS_EXIT_INPUT;
        goto done;
    }
    /* secrets: the environment always, plus the 0600 file when given */
    if ((rc = act_secrets_new(&secrets, &err)) ||
        (c.secrets_file && (rc = act_secrets_load_file(secrets, c.secrets_file, &err))) ||
        (c.token_file && (rc = read_token(c.token_file, &token, &err)))) {
        code = EOUS_EXIT_INPUT;
        goto done;
    }
    o->secrets = secrets;
    if (mcp_caps_has(o->caps, "tasks") && (rc = tasks_out(o, &co, &err))) {
        code = eous_rc_exit_code(rc);
        goto done;
    }
    wd_install_signal_handlers(); /* also ignores SIGPIPE: a vanished client must not leave the browser behind */
    wd_become_subreaper();
    if (c.http) {
        /* each session loads its own policy: a confirmation prompt is set on the session's own */
        o->policy_file = c.policy_file;
        c.h.token = token;
        c.h.url_out = stdout;
        rc = mcp_http_serve(&c.h, &err);
        code = rc ? eous_rc_exit_code(rc) : 0;
        goto done;
    }
    o->policy = policy;
    if ((rc = mcp_new(o, &m, &err))) {
        code = eous_rc_exit_code(rc);
        goto done;
    }
    rc = mcp_serve(m, stdin, stdout, &err);
    if (rc)
        code = rc == EOUS_E_INTERRUPTED ? 130 : eous_rc_exit_code(rc);
done:
    if (code && code != 130 && code != 143)
        fprintf(stderr, "eous mcp: %s\n", err.msg);
    mcp_free(m);
    act_secrets_free(secrets);
    act_policy_free(policy);
    free(token);
    return code;
}
