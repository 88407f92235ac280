/* tests/fuzz/fuzz_webarena.c — libFuzzer target: the task loader's WebArena
 * config path.  fuzz_task leaves __SHOPPING__-style placeholders unresolved
 * (no site variables), so its inputs stop at the first one; here every
 * WebArena site has a base URL, so configs reach the checks after it
 * (storage_state, program_html locators, evaluator fields, script steps).
 * tests/fuzz/test_fuzz_corpus.c replays the corpus. */
#include <stdint.h>
#include <stdlib.h>

#undef FUZZ_TASK_ENTRY /* replayed beside fuzz_task.c in one file */
#define FUZZ_TASK_ENTRY fuzz_webarena_task
#include "fuzz_task.c"

#ifndef FUZZ_WEBARENA_ENTRY
#define FUZZ_WEBARENA_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_WEBARENA_ENTRY(const uint8_t *data, size_t size);

int FUZZ_WEBARENA_ENTRY(const uint8_t *data, size_t size)
{
    static const char *const sites[] = {"EOUS_SITE_SHOPPING", "EOUS_SITE_SHOPPING_ADMIN", "EOUS_SITE_REDDIT",
                                        "EOUS_SITE_GITLAB", "EOUS_SITE_MAP", "EOUS_SITE_WIKIPEDIA",
                                        "EOUS_SITE_HOMEPAGE"};
    for (size_t i = 0; i < sizeof sites / sizeof *sites; i++)
        setenv(sites[i], "http://127.0.0.1:9", 0);
    return fuzz_webarena_task(data, size);
}
