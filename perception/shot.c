/* perception/shot.c — see shot.h. */
#include "perception/shot.h"

#include <stdlib.h>
#include <string.h>

#include "perception/mask_js.h" /* generated from mask.js: PERC_MASK_JS */
#include "perception/perc_int.h"
#include "perception/som_js.h"  /* generated from som.js: PERC_SOM_JS */

eous_rc perc_mask(wd_session *s, int on, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    if (!args)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON_AddItemToArray(args, cJSON_CreateBool(on));
    eous_rc rc = wd_execute(s, PERC_MASK_JS, args, &v, err);
    if (!rc && !cJSON_IsTrue(v))
        rc = eous_err_set(err, EOUS_E_INFRA, "screenshot mask: the page did not answer");
    cJSON_Delete(v);
    cJSON_Delete(args);
    return rc;
}

eous_rc perc_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err)
{
    *png = NULL;
    *len = 0;
    eous_rc rc = perc_mask(s, 1, err);
    if (rc) {
        eous_err_prefix(err, "screenshot not taken (secret fields could not be masked)");
        return rc;
    }
    rc = wd_screenshot(s, png, len, err);
    /* the mask goes even when the capture failed; a page that keeps it would
     * look different to the next perception's styles */
    eous_err uerr;
    eous_err_clear(&uerr);
    eous_rc urc = perc_mask(s, 0, &uerr);
    if (!rc && urc) {
        free(*png);
        *png = NULL;
        *len = 0;
        if (err)
            *err = uerr;
        rc = urc;
    }
    return rc;
}

/* ---- set-of-marks (vision) ------------------------------------------------------ */


#define MAX_MARKS 400

/* Roles a person can act on: what an element mark is for. */
static int interactive_role(const char *role)
{
    static const char *const roles[] = {"button", "link", "textbox", "searchbox", "combobox", "listbox",
                                        "checkbox", "radio", "switch", "slider", "spinbutton", "tab",
                                        "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem",
                                        "gridcell", "columnheader", NULL};
    for (int i = 0; role && roles[i]; i++)
        if (!strcmp(role, roles[i]))
            return 1;
    return 0;
}

/* The element's box in viewport pixels (the union of its content quads);
 * 0 when it has none (not rendered, detached). */
static int box_of(wd_session *s, int backend_id, double box[4])
{
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddNumberToObject(p, "backendNodeId", backend_id);
    int ok = wd_cdp(s, "DOM.getContentQuads", p, &r, NULL) == EOUS_OK;
    cJSON_Delete(p);
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    const cJSON *q, *v;
    const cJSON *quads = ok ? eous_json_arr(r, "quads") : NULL;
    cJSON_ArrayForEach(q, quads) {
        int i = 0;
        cJSON_ArrayForEach(v, q) {
            double d = cJSON_IsNumber(v) ? v->valuedouble : 0;
            if (i % 2 == 0) {
                x0 = d < x0 ? d : x0;
                x1 = d > x1 ? d : x1;
            } else {
                y0 = d < y0 ? d : y0;
                y1 = d > y1 ? d : y1;
            }
            i++;
        }
    }
    cJSON_Delete(r);
    if (!(x1 > x0 && y1 > y0))
        return 0;
    box[0] = x0, box[1] = y0, box[2] = x1 - x0, box[3] = y1 - y0;
    return 1;
}

static void add_mark(wd_session *s, cJSON *marks, eous_buf *legend, const char *label, const char *kind,
                     const char *what, int backend_id)
{
    double box[4];
    if (cJSON_GetArraySize(marks) >= MAX_MARKS || !box_of(s, backend_id, box))
        return;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "label", label);
    cJSON_AddStringToObject(m, "kind", kind);
    cJSON_AddNumberToObject(m, "x", box[0]);
    cJSON_AddNumberToObject(m, "y", box[1]);
    cJSON_AddNumberToObject(m, "w", box[2]);
    cJSON_AddNumberToObject(m, "h", box[3]);
    cJSON_AddItemToArray(marks, m);
    /* the legend keeps every candidate; labels off screen are dropped after drawing */
    eous_buf_printf(legend, NULL, "%s %s\n", label, what);
}

/* Components first (they hold their elements), then interactive elements. */
static cJSON *collect_marks(wd_session *s, const perc_obs *obs, eous_buf *legend)
{
    cJSON *marks = cJSON_CreateArray();
    char label[64], what[200];
    for (size_t i = 0; marks && i < obs->n_comps; i++) {
        const perc_component *c = &obs->comps[i];
        if (!c->view_id[0] || !c->backend_id || c->agent_hidden)
            continue;
        snprintf(label, sizeof label, "%s", c->view_id);
        snprintf(what, sizeof what, "%s '%.120s'", c->kind ? c->kind : "component", c->label ? c->label : "");
        add_mark(s, marks, legend, label, "component", what, c->backend_id);
    }
    for (size_t i = 0; marks && i < obs->n_ids; i++) {
        const perc_node *n = perc_obs_node_by_backend(obs, obs->ids[i].backend_id);
        if (!n || n->hidden || !interactive_role(n->role))
            continue;
        snprintf(label, sizeof label, "[%s]", obs->ids[i].id);
        snprintf(what, sizeof what, "%s '%.120s'", n->role, n->name ? n->name : "");
        add_mark(s, marks, legend, label, "element", what, n->backend_id);
    }
    return marks;
}

/* The legend's lines whose label was drawn, in drawing order. */
static char *legend_of_drawn(const char *all, const cJSON *drawn)
{
    eous_buf b;
    eous_buf_init(&b, 0);
    const cJSON *d;
    cJSON_ArrayForEach(d, drawn) {
        if (!cJSON_IsString(d))
            continue;
        size_t ll = strlen(d->valuestring);
        for (const char *line = all; line && *line;) {
            const char *nl = strchr(line, '\n');
            size_t n = nl ? (size_t)(nl - line) : strlen(line);
            if (n > ll && !strncmp(line, d->valuestring, ll) && line[ll] == ' ') {
                eous_buf_printf(&b, NULL, "%.*s\n", (int)n, line);
                break;
            }
            line = nl ? nl + 1 : NULL;
        }
    }
    if (!b.data)
        eous_buf_puts(&b, "", NULL);
    return eous_buf_steal(&b);
}

static eous_rc som_call(wd_session *s, const cJSON *marks, cJSON **view, eous_err *err)
{
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, marks ? cJSON_Duplicate(marks, 1) : cJSON_CreateNull());
    cJSON *v = NULL;
    eous_rc rc = wd_execute(s, PERC_SOM_JS, args, &v, err);
    cJSON_Delete(args);
    if (!rc && !cJSON_IsObject(v))
        rc = eous_err_set(err, EOUS_E_INFRA, "set-of-marks overlay: the page did not answer");
    if (view && !rc)
        *view = v;
    else
        cJSON_Delete(v);
    return rc;
}

eous_rc perc_som_remove(wd_session *s, eous_err *err)
{
    return som_call(s, NULL, NULL, err);
}

/* Page.captureScreenshot of the viewport at scale. */
static eous_rc capture_scaled(wd_session *s, const cJSON *view, double scale, unsigned char **png, size_t *len,
                              eous_err *err)
{
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "format", "png");
    cJSON *clip = cJSON_AddObjectToObject(p, "clip");
    /* clip is in document pixels: the viewport starts at the scroll offset */
    cJSON_AddNumberToObject(clip, "x", eous_json_num(view, "x", 0));
    cJSON_AddNumberToObject(clip, "y", eous_json_num(view, "y", 0));
    cJSON_AddNumberToObject(clip, "width", eous_json_num(view, "w", 0));
    cJSON_AddNumberToObject(clip, "height", eous_json_num(view, "h", 0));
    cJSON_AddNumberToObject(clip, "scale", scale);
    eous_rc rc = wd_cdp(s, "Page.captureScreenshot", p, &r, err);
    cJSON_Delete(p);
    const char *data = rc ? NULL : eous_json_str(r, "data");
    if (!rc && !data)
        rc = eous_err_set(err, EOUS_E_INFRA, "Page.captureScreenshot: no image in the answer");
    if (!rc)
        rc = eous_base64_decode(data, png, len, err);
    cJSON_Delete(r);
    return rc;
}

eous_rc perc_screenshot_marked(wd_session *s, const perc_obs *obs, int max_px, perc_marked_shot *out,
                               eous_err *err)
{
    memset(out, 0, sizeof *out);
    if (!wd_session_has_cdp(s))
        return eous_err_set(err, EOUS_E_INVALID, "vision mode needs CDP (element boxes, scaled capture); "
                                                 "this session is W3C-only");
    eous_buf all;
    eous_buf_init(&all, 0);
    cJSON *marks = collect_marks(s, obs, &all), *view = NULL;
    eous_rc rc = marks ? EOUS_OK : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc && (rc = perc_mask(s, 1, err)))
        eous_err_prefix(err, "screenshot not taken (secret fields could not be masked)");
    if (!rc) {
        rc = som_call(s, marks, &view, err);
        if (!rc) {
            double w = eous_json_num(view, "w", 0), h = eous_json_num(view, "h", 0), longer = w > h ? w : h;
            out->scale = max_px > 0 && longer > max_px ? max_px / longer : 1.0;
            out->width = (int)w;
            out->height = (int)h;
            rc = capture_scaled(s, view, out->scale, &out->png, &out->len, err);
        }
        /* both layers go whatever happened; a page that keeps them is not the page */
        eous_err cerr;
        eous_rc src = perc_som_remove(s, &cerr), mrc = perc_mask(s, 0, &cerr);
        if (!rc && (src || mrc)) {
            rc = src ? src : mrc;
            if (err)
                *err = cerr;
        }
    }
    if (!rc) {
        const cJSON *drawn = eous_json_arr(view, "drawn");
        out->n_marks = cJSON_GetArraySize(drawn);
        if (!(out->legend = legend_of_drawn(all.data ? all.data : "", drawn)))
            rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    if (rc)
        perc_marked_shot_clear(out);
    cJSON_Delete(view);
    cJSON_Delete(marks);
    eous_buf_free(&all);
    return rc;
}

void perc_marked_shot_clear(perc_marked_shot *m)
{
    if (!m)
        return;
    free(m->png);
    free(m->legend);
    memset(m, 0, sizeof *m);
}
