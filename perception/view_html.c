/* perception/view_html.c — the html observation mode: the page's elements
 * pruned (scripts, styles, hidden nodes and non-semantic attributes removed),
 * one a line, ids on interactive elements.
 *
 * The page writes the text itself (perception/html_view.js, run by the
 * providers' script): the browser has the DOM already parsed, with its shadow
 * roots, so nothing is parsed here.  This file puts the tab header above it
 * and resolves the ids: the data-eous-id attributes the script stamped, read
 * back as marks from the DOM snapshot (CDP) or the in-page tree (axtree.js).
 * Until the page wrote it, libxml2 re-parsed the page's outerHTML here; the
 * text is the same but where that re-parse differed from the browser's DOM
 * (a div in a p, nesting past 256 levels, shadow roots): html_view.js's
 * header lists how. */
#include "perception/perc_int.h"

eous_rc perc_render_html(const perc_obs *obs, const char *text, size_t len, perc_view *view, eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    eous_rc rc = perc_put_tab_header(&b, obs, err);
    if (!rc)
        rc = eous_buf_puts(&b, "\n\n", err);
    if (!rc && len)
        rc = eous_buf_append(&b, text, len, err);
    if (rc)
        goto fail;
    for (size_t i = 0; i < obs->n_marks; i++)
        if (obs->marks[i].eous_id && perc_view_add_id(view, obs->marks[i].eous_id, obs->marks[i].backend_id)) {
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            goto fail;
        }
    view->text_len = b.len;
    view->text = eous_buf_steal(&b);
    return EOUS_OK;
fail:
    eous_buf_free(&b);
    return rc;
}
