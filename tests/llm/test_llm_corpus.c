/* tests/llm/test_llm_corpus.c — replays the libFuzzer corpora of fuzz_act_parse and
 * fuzz_cassette through the fuzz entry points in every ordinary test run (the
 * fuzz targets abort on a broken invariant; ASan catches memory errors). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ACT_ENTRY fuzz_act_parse_one
#include "fuzz/fuzz_act_parse.c"
#define FUZZ_CASSETTE_ENTRY fuzz_cassette_one
#include "fuzz/fuzz_cassette.c"

typedef int (*fuzz_fn)(const uint8_t *, size_t);

static int replay_dir(const char *name, fuzz_fn fn)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", EOUS_SOURCE_DIR, name);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "corpus %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *data = NULL;
        size_t len = 0;
        cr_assert_eq(eous_read_file(path, 0, &data, &len, NULL), EOUS_OK, "%s", path);
        fn((const uint8_t *)data, len);
        /* every prefix too: cut-off inputs are what models and networks produce */
        for (size_t cut = 1; cut < len; cut += 1 + len / 16)
            fn((const uint8_t *)data, cut);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

Test(llm_corpus, act_parse_corpus)
{
    cr_expect_geq(replay_dir("fuzz_act_parse", fuzz_act_parse_one), 10);
}

Test(llm_corpus, cassette_corpus)
{
    cr_expect_geq(replay_dir("fuzz_cassette", fuzz_cassette_one), 8);
}

/* The seeds that should parse do parse: the corpus exercises the real paths. */
Test(llm_corpus, seeds_reach_the_parsers)
{
    act_action a;
    act_action_init(&a);
    cr_expect_eq(act_parse_text("In summary, the next action I will perform is ```click [1234]```", &a, NULL), EOUS_OK);
    act_action_clear(&a);
    llm_opts o;
    llm_opts_init(&o);
    o.model = "gpt-4o";
    o.cassette_mode = LLM_CASSETTE_REPLAY;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fuzz_cassette/seed-03", EOUS_SOURCE_DIR);
    char *data = NULL;
    size_t len = 0;
    cr_assert_eq(eous_read_file(path, 0, &data, &len, NULL), EOUS_OK);
    char tmp[] = "/tmp/eous-corpus-XXXXXX";
    int fd = mkstemp(tmp);
    close(fd);
    o.cassette_path = tmp;
    llm_client *c = NULL;
    cr_assert_eq(llm_client_new(&o, &c, NULL), EOUS_OK);
    cJSON *root = cJSON_ParseWithLength(data + 1, len - 1);
    llm_usage u = {0};
    eous_err e;
    cr_assert_eq(llm_response_to_action(c, root, &a, &u, &e), EOUS_OK, "%s", e.msg);
    cr_expect_eq(a.kind, ACT_CLICK);
    cr_expect_eq(u.prompt_tokens, 100);
    cr_expect_eq(u.cached_tokens, 20);
    cJSON_Delete(root);
    llm_client_free(c);
    act_action_clear(&a);
    unlink(tmp);
    free(data);
}
