/* cli/cli_help.c — see cli_help.h. */
#include "cli/cli_help.h"

#include <string.h>

typedef struct cmd_doc {
    const char *name;
    unsigned bit;
    const char *synopsis;
    const char *what;
} cmd_doc;

static const cmd_doc CMDS[] = {
    {"run", CLI_CMD_RUN, "eous run TASK.json [OPTIONS]",
     "one task (a WebArena config or a plain job) in one mode; exit 0 when it passed, 1 when not.\n"
     "Without --out it writes to a new eous-runs/DATE-TASK-MODE[-N]/ and prints that folder."},
    {"bench", CLI_CMD_BENCH, "eous bench TASKS... [OPTIONS]",
     "task files and folders of them in each mode, with workers; results.jsonl, report.md and report.html.\n"
     "Without --out it writes to a new eous-runs/DATE-bench[-N]/ and prints that folder."},
    {"observe", CLI_CMD_OBSERVE, "eous observe URL [OPTIONS]", "what the agent sees of a page, in one mode."},
    {"call", CLI_CMD_CALL, "eous call URL KEY TOOL PARAMS_JSON [OPTIONS]",
     "one semantic call, validated as the agent would make it; the result and the component's state as JSON."},
    {"check", CLI_CMD_CHECK, "eous check TASK.json...",
     "validate task files, one line per problem; lists each job's parameters."},
    {"compare", CLI_CMD_COMPARE, "eous compare RUN_A RUN_B [OPTIONS]",
     "per task x mode changes from run A to run B; exit 1 on regressions."},
    {"score", CLI_CMD_SCORE, "eous score [--run DIR] < LINES",
     "WebArena's evaluators on JSON lines {eval,intent,answer,url,values} from stdin (or WebArena-Verified\n"
     "objects {task,response,har}); one JSON line out per input."},
    {"mcp", CLI_CMD_MCP, "eous mcp [OPTIONS]",
     "the runtime as an MCP server over stdio; with --port, Streamable HTTP at /mcp, one browser per\n"
     "session (--port 0 prints the URL)."},
    {"repair", CLI_CMD_REPAIR, "eous repair apply RUN_DIR",
     "the task files a run's --repair llm proposed, written under RUN_DIR/repaired/ for review."},
    {"distill", CLI_CMD_DISTILL, "eous distill RUN_DIR [--task ID] [--mode M] [-o FILE]",
     "a passed --planner llm run of one task x mode as a plain job file that --planner script replays;\n"
     "targets as the view printed them, typed values the intent holds as {{param:NAME}}."},
    {"report", CLI_CMD_REPORT, "eous report RUN_A RUN_B [RUN...] [-o FILE.html]",
     "one HTML page comparing run folders: pass rate, round trips, tokens and cost per run x mode, and\n"
     "per task what differs; without -o it writes eous-runs/DATE-compare[-N]/compare.html and prints the path."},
};

#define OBS CLI_CMD_OBSERVE
#define MCP CLI_CMD_MCP
#define NO_RANGE 1, 0
/* Options the commands other than run and bench parse themselves. */
static const cli_optdoc OWN[] = {
    {"--mode", "atomic|pruned|hybrid|html|vision", OBS, "the view printed (default hybrid)", NO_RANGE},
    {"--providers", "ci4a,webmcp,bridge,native", OBS, "the semantic providers the hybrid view asks (default all)",
     NO_RANGE},
    {"--format", "text|json", OBS, "the view as the model reads it (text) or as data (json)", NO_RANGE},
    {"--screenshot", "FILE.png", OBS, "vision: write the set-of-marks screenshot the model gets", NO_RANGE},
    {"--max-image-px", "N", OBS, "vision: the screenshot scaled to at most N px on its longest side", 16, 10000},
    {"--webdriver", "URL", OBS | CLI_CMD_CALL | MCP,
     "a remote WebDriver (Selenium Grid hub) instead of a local chromedriver", NO_RANGE},
    {"--cdp-endpoint", "URL", OBS | CLI_CMD_CALL | MCP,
     "attach to the Chromium running with --remote-debugging-port there (loopback; default $EOUS_CDP_ENDPOINT)",
     NO_RANGE},
    {"--w3c-only", NULL, OBS | CLI_CMD_CALL | MCP,
     "never use CDP: perceive and act through W3C scripts alone (geckodriver, Safari, stripped grids)", NO_RANGE},
    {"--format", "md|json", CLI_CMD_COMPARE, "the comparison as a Markdown table (default) or JSON", NO_RANGE},
    {"--run", "DIR", CLI_CMD_SCORE,
     "re-score a run folder offline from each trace/TASK-MODE/, the live score beside it", NO_RANGE},
    {"--mode", "hybrid|pruned|atomic|html", MCP, "the view each browser_snapshot returns (default hybrid)",
     NO_RANGE},
    {"--deltas", "on|off", MCP, "actions answer with what changed (on, default) or the whole view", NO_RANGE},
    {"--type", "edit|keys", MCP, "how browser_type enters text: one edit (default) or a key press a character",
     NO_RANGE},
    {"--policy", "FILE", MCP, "the action policy: origins, confirmations, limits", NO_RANGE},
    {"--secrets", "FILE", MCP, "a 0600 file of secrets typed as {{secret:NAME}}, beside the environment's",
     NO_RANGE},
    {"--audit", "FILE", MCP, "append one JSON line per tool call (secrets redacted)", NO_RANGE},
    {"--record", "DIR", MCP, "keep each session's actions and the views they were taken on, for eous distill DIR",
     NO_RANGE},
    {"--headed", NULL, MCP, "show the browser window", NO_RANGE},
    {"--files", "DIR", MCP, "browser_file_upload takes files from DIR only (none given: uploads refused)", NO_RANGE},
    {"--caps", "LIST", MCP, "opt-in tools, comma separated: tasks, storage, tracing, vision, pdf, network, testing, devtools", NO_RANGE},
    {"--out", "DIR", MCP,
     "--caps tasks: the run folder each submitted task's result goes to (default: a new eous-runs/DATE-mcp[-N]/)",
     NO_RANGE},
    {"--port", "N", MCP, "serve Streamable HTTP at /mcp on port N (0 = any free one, printed)", 0, 65535},
    {"--host", "ADDR", MCP, "--port: the address to listen on (default 127.0.0.1)", NO_RANGE},
    {"--allowed-origins", "LIST", MCP, "--port: Origins accepted besides loopback ones, comma separated (* = any)", NO_RANGE},
    {"--allowed-hosts", "LIST", MCP, "--port: Host names accepted besides loopback, comma separated (* = any)", NO_RANGE},
    {"--token", "FILE", MCP, "--port: a 0600 file holding the bearer token every request must carry", NO_RANGE},
    {"--max-sessions", "N", MCP, "--port: sessions open at once, each its own browser", 1, 1024},
    {"--idle-timeout", "S", MCP, "--port: a session idle S seconds is closed (0 = never)", 0, 7 * 24 * 3600},
    {"--max-body", "BYTES", MCP, "--port: the largest request body", 1024, 1024L * 1024 * 1024},
    {"--request-timeout", "S", MCP, "--port: a request's body must come within S s of its headers (60)", 1, 3600},
    {"--header-timeout", "S", MCP, "--port: a request's headers must come within S s of connecting (10)", 1, 3600},
    {"--max-client-connections", "N", MCP, "--port: connections one client address may hold (32 of 256)", 1,
     256},
    {"--require-origin", NULL, MCP, "--port: refuse a request without an Origin header", NO_RANGE},
    {"--task", "ID", CLI_CMD_DISTILL, "the task to distil (needed when the run holds several)", NO_RANGE},
    {"--mode", "M", CLI_CMD_DISTILL, "the mode whose trace is distilled (needed when the run holds several)",
     NO_RANGE},
    {"-o", "FILE", CLI_CMD_DISTILL, "write the job to FILE (whole or not at all) instead of stdout", NO_RANGE},
    {"-o", "FILE.html", CLI_CMD_REPORT, "write the page to FILE.html (whole or not at all)", NO_RANGE},
};
#undef OBS
#undef MCP
#undef NO_RANGE

int cli_own_opt(size_t i, cli_optdoc *out)
{
    if (i >= sizeof OWN / sizeof *OWN)
        return -1;
    *out = OWN[i];
    return 0;
}

int cli_own_opt_known(unsigned cmd, const char *name)
{
    for (size_t i = 0; i < sizeof OWN / sizeof *OWN; i++)
        if ((OWN[i].cmds & cmd) && !strcmp(OWN[i].name, name))
            return 1;
    return 0;
}

unsigned cli_cmd_bit(const char *cmd)
{
    for (size_t i = 0; i < sizeof CMDS / sizeof *CMDS; i++)
        if (!strcmp(CMDS[i].name, cmd))
            return CMDS[i].bit;
    return 0;
}

void cli_usage(FILE *f)
{
    fputs("usage: eous COMMAND [ARGS]   (eous COMMAND --help: the command's options)\n\n", f);
    for (size_t i = 0; i < sizeof CMDS / sizeof *CMDS; i++) {
        const char *nl = strchr(CMDS[i].what, '\n');
        int len = nl ? (int)(nl - CMDS[i].what) : (int)strlen(CMDS[i].what);
        fprintf(f, "  %-8s %.*s\n", CMDS[i].name, len, CMDS[i].what);
    }
    fputs("\n  --help, --version\n"
          "exit codes: 0 passed, 1 a task failed, 2 bad input, 3 infrastructure (also a start URL\n"
          "that cannot be loaded), 130 SIGINT, 143 SIGTERM\n",
          f);
}

#define HELP_COL 30   /* where an option's help starts */
#define HELP_WIDTH 100 /* the column help is wrapped before */

/* s from column col on, words wrapped before HELP_WIDTH, each new line at HELP_COL. */
static void put_wrapped(FILE *f, const char *s, int col)
{
    while (*s) {
        size_t word = strcspn(s, " ");
        if (col > HELP_COL && col + 1 + (int)word > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_COL, "");
            col = HELP_COL;
        } else if (col > HELP_COL) {
            fputc(' ', f);
            col++;
        }
        fwrite(s, 1, word, f);
        col += (int)word;
        s += word;
        s += strspn(s, " ");
    }
    fputc('\n', f);
}

/* One option: name and value shape, then its help and range (a long head gets a line of its own). */
static void put_opt(FILE *f, const cli_optdoc *d)
{
    char head[80], help[400];
    int n = snprintf(head, sizeof head, "  %s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
    if (d->min <= d->max)
        snprintf(help, sizeof help, "%s [%ld-%ld]", d->help, d->min, d->max);
    else
        snprintf(help, sizeof help, "%s", d->help);
    if (n >= HELP_COL - 1)
        fprintf(f, "%s\n%*s", head, HELP_COL, "");
    else
        fprintf(f, "%-*s", HELP_COL, head);
    put_wrapped(f, help, HELP_COL);
}

int cli_help(FILE *f, const char *cmd)
{
    const cmd_doc *c = NULL;
    for (size_t i = 0; i < sizeof CMDS / sizeof *CMDS && !c; i++)
        if (!strcmp(CMDS[i].name, cmd))
            c = &CMDS[i];
    if (!c)
        return -1;
    fprintf(f, "usage: %s\n\n%s\n\noptions:\n", c->synopsis, c->what);
    cli_optdoc d;
    for (size_t i = 0; !cli_common_opt(i, &d); i++)
        if (d.cmds & c->bit)
            put_opt(f, &d);
    for (size_t i = 0; !cli_own_opt(i, &d); i++)
        if (d.cmds & c->bit)
            put_opt(f, &d);
    fprintf(f, "%-*sthis text\n", HELP_COL, "  --help");
    return 0;
}
