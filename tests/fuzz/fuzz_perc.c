/* tests/fuzz/fuzz_perc.c — libFuzzer target: AX tree JSON (+ optional CI4A
 * registry) → every view.
 *
 * Input: one selector byte (mode = sel % 4; sel & 4: the rest holds a
 * registry after the first NUL byte; sel & 8: and a DOMSnapshot after the
 * registry's NUL, so components bind to tree nodes), then the AX JSON.  Every view that
 * builds must be NUL-terminated text of the reported length, and every id it
 * printed must resolve.  The html mode's text is written in the page
 * (perception/html_view.js): here it is its header and the ids of the
 * snapshot's data-eous-id marks.  tests/fuzz/test_fuzz_corpus.c replays the corpus. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc.h"

#ifndef FUZZ_PERC_ENTRY
#define FUZZ_PERC_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_PERC_ENTRY(const uint8_t *data, size_t size);

int FUZZ_PERC_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int sel = data[0];
    const char *ax = (const char *)data + 1;
    size_t ax_len = size - 1;
    const char *reg = NULL, *dom = NULL;
    size_t reg_len = 0, dom_len = 0;
    if (sel & 4) {
        const char *nul = memchr(ax, '\0', ax_len);
        if (nul) {
            reg = nul + 1;
            reg_len = ax_len - (size_t)(nul + 1 - ax);
            ax_len = (size_t)(nul - ax);
        }
        const char *nul2 = reg && (sel & 8) ? memchr(reg, '\0', reg_len) : NULL;
        if (nul2) {
            dom = nul2 + 1;
            dom_len = reg_len - (size_t)(nul2 + 1 - reg);
            reg_len = (size_t)(nul2 - reg);
        }
    }
    perc_opts o;
    perc_opts_init(&o);
    o.mode = (perc_mode)(sel % 4);
    perc_obs *obs = NULL;
    eous_err err;
    eous_err_clear(&err);
    if (perc_build(ax, ax_len, dom, dom_len, reg, reg_len, "http://fuzz.test/", &o, &obs, &err) != EOUS_OK) {
        if (!err.msg[0])
            abort(); /* every failure says why */
        return 0;
    }
    if (strlen(perc_obs_text(obs)) != perc_obs_text_len(obs))
        abort();
    char *j = perc_obs_json(obs);
    if (!j)
        abort();
    free(j);
    for (size_t i = 0; i < perc_obs_n_components(obs); i++) {
        const perc_component *c = perc_obs_component(obs, i);
        if (c->view_id[0] && perc_obs_find_component(obs, c->view_id) != c)
            abort();
    }
    perc_obs_free(obs);
    return 0;
}
