/* agent/main.c — the eous CLI: parses options and calls libeous. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static void usage(FILE *f)
{
    fputs("usage: eous COMMAND [ARGS]\n"
          "  run   TASK.json [--planner llm|script|replay] [--mode hybrid|pruned|atomic|html] ...\n"
          "  bench TASKS... [--modes hybrid,atomic] [--workers N] [--out DIR] [--resume] [--lock FILE]\n"
          "  observe URL [--mode atomic|pruned|hybrid|html] [--format text|json]\n"
          "  call URL KEY TOOL PARAMS_JSON\n"
          "  check TASK.json...\n"
          "  --help, --version\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("eous %s\n", EOUS_VERSION);
        return 0;
    }
    fprintf(stderr, "eous: unknown command '%s' (expected run, bench, observe, call, check)\n", argv[1]);
    return 2;
}
