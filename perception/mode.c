/* perception/mode.c — the observation modes as one table: a mode's name, its
 * renderer and what it shows.  A new view is a row here (and its renderer in
 * view_<name>.c); nothing else switches on the mode to choose a renderer. */
#include "perception/perc_int.h"

#include <string.h>

static eous_rc render_atomic(const perc_obs *obs, const char *html, size_t len, perc_view *out, eous_err *err)
{
    (void)html, (void)len;
    return perc_render_atomic(obs, out, err);
}

static eous_rc render_pruned(const perc_obs *obs, const char *html, size_t len, perc_view *out, eous_err *err)
{
    (void)html, (void)len;
    return perc_render_pruned(obs, out, err);
}

/* hybrid and vision: the pruned traversal with a line per component */
static eous_rc render_hybrid(const perc_obs *obs, const char *html, size_t len, perc_view *out, eous_err *err)
{
    (void)html, (void)len;
    return perc_render_hybrid(obs, out, err);
}

static eous_rc render_html(const perc_obs *obs, const char *html, size_t len, perc_view *out, eous_err *err)
{
    return perc_render_html(obs, html ? html : "", html ? len : 0, out, err);
}

typedef struct mode_row {
    const char *name;
    eous_rc (*render)(const perc_obs *obs, const char *html, size_t len, perc_view *out, eous_err *err);
    int semantic;   /* components as triplets, call() */
    int screenshot; /* a marked screenshot beside the text */
} mode_row;

static const mode_row modes[PERC_MODE_COUNT] = {
    [PERC_MODE_ATOMIC] = {"atomic", render_atomic, 0, 0},
    [PERC_MODE_PRUNED] = {"pruned", render_pruned, 0, 0},
    [PERC_MODE_HYBRID] = {"hybrid", render_hybrid, 1, 0},
    [PERC_MODE_HTML] = {"html", render_html, 0, 0},
    [PERC_MODE_VISION] = {"vision", render_hybrid, 1, 1},
};

static const mode_row *row(perc_mode m)
{
    return (unsigned)m < PERC_MODE_COUNT ? &modes[m] : NULL;
}

int perc_mode_parse(const char *s, perc_mode *out)
{
    for (int i = 0; s && i < PERC_MODE_COUNT; i++)
        if (!strcmp(s, modes[i].name)) {
            *out = (perc_mode)i;
            return 0;
        }
    return -1;
}

const char *perc_mode_name(perc_mode m)
{
    return row(m) ? row(m)->name : "?";
}

int perc_mode_semantic(perc_mode m)
{
    return row(m) && row(m)->semantic;
}

int perc_mode_screenshot(perc_mode m)
{
    return row(m) && row(m)->screenshot;
}

eous_rc perc_mode_render(const perc_obs *obs, const char *html, size_t html_len, perc_view *out, eous_err *err)
{
    const mode_row *r = row(perc_obs_mode(obs));
    if (!r)
        return eous_err_set(err, EOUS_E_INVALID, "unknown observation mode %d", (int)perc_obs_mode(obs));
    return r->render(obs, html, html_len, out, err);
}
