/* tests/fuzz/test_fuzz_corpus.c — replays the fuzz_perc, fuzz_task, fuzz_webarena, fuzz_har, fuzz_redact and
 * fuzz_validate corpora (and prefixes of every seed) through the fuzz entry points in every ordinary
 * test run; the targets abort on a broken invariant, ASan catches the rest.  With test_llm_corpus
 * (fuzz_act_parse, fuzz_cassette) and test_mcp_http_corpus (fuzz_mcp_http) every target's corpus is
 * replayed by `make test`, which runs no fuzzing itself (Makefile, test-fuzz). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_PERC_ENTRY fuzz_perc_one
#include "fuzz/fuzz_perc.c"
#define FUZZ_TASK_ENTRY fuzz_task_one
#include "fuzz/fuzz_task.c"
#define FUZZ_WEBARENA_ENTRY fuzz_webarena_one
#include "fuzz/fuzz_webarena.c"
#define FUZZ_HAR_ENTRY fuzz_har_one
#include "fuzz/fuzz_har.c"
#define FUZZ_REDACT_ENTRY fuzz_redact_one
#include "fuzz/fuzz_redact.c"
#define FUZZ_VALIDATE_ENTRY fuzz_validate_one
#include "fuzz/fuzz_validate.c"

typedef int (*fuzz_fn)(const uint8_t *, size_t);

static int replay(const char *name, fuzz_fn fn)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", EOUS_SOURCE_DIR, name);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "corpus %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *data = NULL;
        size_t len = 0;
        cr_assert_eq(eous_read_file(path, 0, &data, &len, NULL), EOUS_OK, "%s", path);
        fn((const uint8_t *)data, len);
        for (size_t cut = 1; cut < len; cut += 1 + len / 24)
            fn((const uint8_t *)data, cut);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

Test(fuzz_corpus, perception)
{
    cr_expect_geq(replay("fuzz_perc", fuzz_perc_one), 6);
}

Test(fuzz_corpus, task_files)
{
    cr_expect_geq(replay("fuzz_task", fuzz_task_one), 5);
}

Test(fuzz_corpus, webarena_configs)
{
    cr_expect_geq(replay("fuzz_webarena", fuzz_webarena_one), 10);
}

Test(fuzz_corpus, har_writer_and_reader)
{
    cr_expect_geq(replay("fuzz_har", fuzz_har_one), 5);
}

Test(fuzz_corpus, redactor_every_encoding)
{
    cr_expect_geq(replay("fuzz_redact", fuzz_redact_one), 4);
}

Test(fuzz_corpus, params_validator)
{
    cr_expect_geq(replay("fuzz_validate", fuzz_validate_one), 40);
}
