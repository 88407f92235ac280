/* perception/live.c — reading a live page: one script for the semantic
 * providers (each bounded by a timeout, each failure a warning) and, on a
 * frameless page, the page marks; the DOM snapshot for the marks otherwise;
 * and the accessibility tree of every frame.  A frameless page is two
 * round trips (the script, the tree); each frame adds its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc_int.h"
#include "perception/axtree_js.h"    /* generated from axtree.js: PERC_AXTREE_JS */
#include "perception/page_marks_js.h" /* providers.js + the page marks in one call: PERC_PAGE_MARKS_JS */
#include "perception/providers_js.h" /* generated from providers.js: PERC_PROVIDERS_JS */
#include "perception/w3c_observe_js.h" /* providers.js + axtree.js in one call: PERC_W3C_OBSERVE_JS */

static void add_provider(perc_obs *obs, const cJSON *answer, const char *field,
                         eous_rc (*parse)(perc_obs *, cJSON *, eous_err *))
{
    const char *text = eous_json_str(answer, field);
    if (!text)
        return;
    eous_err perr;
    eous_err_clear(&perr);
    char what[64];
    snprintf(what, sizeof what, "%s provider", field);
    cJSON *v = eous_json_parse(text, strlen(text), what, &perr);
    if (!v || parse(obs, v, &perr) != EOUS_OK)
        perc_obs_warn(obs, "%s: %s; perceived without it", field, perr.msg);
}

static eous_rc timed_cdp(wd_session *s, perc_obs *obs, const char *cmd, const cJSON *params, cJSON **out,
                         eous_err *err)
{
    double t0 = eous_now_ms();
    eous_rc rc = wd_cdp(s, cmd, params, out, err);
    obs->timings.browser_ms += eous_now_ms() - t0;
    obs->timings.round_trips++;
    return rc;
}

/* The AX tree of one frame (frame_id NULL = main), scanned from the raw body: read by o->ax_read
 * when it can, else through the driver. */
static eous_rc fetch_ax(wd_session *s, const perc_opts *o, perc_obs *obs, const char *frame_id, int frame,
                        eous_err *err)
{
    cJSON *params = NULL;
    if (frame_id) {
        params = cJSON_CreateObject();
        cJSON_AddStringToObject(params, "frameId", frame_id);
    }
    char *body = NULL;
    size_t len = 0;
    double t0 = eous_now_ms();
    eous_rc rc = EOUS_E_INVALID;
    if (o->ax_read) {
        eous_err aerr;
        eous_err_clear(&aerr);
        if ((rc = o->ax_read(o->ax_ctx, frame_id, &body, &len, &aerr)))
            EOUS_DEBUG("perception", "AX tree not read directly (%s): through the driver", aerr.msg);
    }
    if (rc) {
        free(body);
        body = NULL;
        wd_session_set_request_timeout(s, 120000); /* big trees on busy machines */
        rc = wd_cdp_raw(s, "Accessibility.getFullAXTree", params, &body, &len, err);
        wd_session_set_request_timeout(s, 0);
    }
    obs->timings.browser_ms += eous_now_ms() - t0;
    obs->timings.round_trips++;
    EOUS_DEBUG("perception", "round trip: AX tree of frame %d, %zu bytes, %.1f ms", frame, len, eous_now_ms() - t0);
    cJSON_Delete(params);
    if (rc)
        return rc;
    t0 = eous_now_ms();
    rc = perc_parse_ax_text(obs, body, len, frame, err);
    obs->timings.c_ms += eous_now_ms() - t0;
    free(body);
    return rc;
}

/* Hangs the frame tree that starts at node index `base` under the node of
 * its owner element (an Iframe node). */
static void attach_frame(perc_obs *obs, size_t base, int owner_backend)
{
    if (obs->n_nodes <= base)
        return;
    perc_index_backend(obs);
    perc_node *own = (perc_node *)perc_obs_node_by_backend(obs, owner_backend);
    if (!own)
        return;
    int *kids = eous_arena_alloc(obs->arena, (own->n_children + 1) * sizeof *kids);
    if (!kids)
        return;
    if (own->n_children) /* an Iframe node without children has children == NULL */
        memcpy(kids, own->children, own->n_children * sizeof *kids);
    kids[own->n_children] = (int)base;
    own->children = kids;
    own->n_children++;
    obs->nodes[base].parent = (int)(own - obs->nodes);
}

/* Child frames: their AX trees are fetched separately and hung under the
 * node of their owner element (an Iframe node). */
static void add_frames(wd_session *s, const perc_opts *o, perc_obs *obs, const cJSON *frame_tree, int *next_frame,
                       eous_err *err)
{
    const cJSON *children = eous_json_arr(frame_tree, "childFrames");
    const cJSON *ch;
    cJSON_ArrayForEach(ch, children) {
        const cJSON *frame = eous_json_obj(ch, "frame");
        const char *fid = frame ? eous_json_str(frame, "id") : NULL;
        if (!fid)
            continue;
        cJSON *params = cJSON_CreateObject();
        cJSON_AddStringToObject(params, "frameId", fid);
        cJSON *owner = NULL;
        eous_err ferr;
        eous_err_clear(&ferr);
        size_t base = obs->n_nodes;
        if (timed_cdp(s, obs, "DOM.getFrameOwner", params, &owner, &ferr) == EOUS_OK &&
            fetch_ax(s, o, obs, fid, ++*next_frame, &ferr) == EOUS_OK) {
            attach_frame(obs, base, eous_json_int(owner, "backendNodeId", 0));
        } else {
            /* cross-origin frames may refuse: perceived without them */
            perc_obs_warn(obs, "frame %s: %s", fid, ferr.msg);
        }
        cJSON_Delete(owner);
        cJSON_Delete(params);
        add_frames(s, o, obs, ch, next_frame, err);
    }
}

/* Reads the in-page tree script's answer: frames (AX trees) and marks. */
static eous_rc parse_in_page(perc_obs *obs, const cJSON *answer, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    double t0 = eous_now_ms();
    const cJSON *frames = eous_json_arr(answer, "frames");
    if (!frames || !cJSON_GetArraySize(frames))
        return eous_err_set(err, EOUS_E_PAGE, "the in-page accessibility tree script answered without frames");
    const cJSON *f;
    cJSON_ArrayForEach(f, frames) {
        int frame = eous_json_int(f, "frame", 0);
        size_t base = obs->n_nodes;
        if ((rc = perc_parse_ax(obs, eous_json_obj(f, "ax"), frame, err)))
            break;
        if (frame > 0)
            attach_frame(obs, base, eous_json_int(f, "owner", 0));
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, eous_json_arr(answer, "warnings")) if (cJSON_IsString(w)) perc_obs_warn(obs, "%s", w->valuestring);
    if (!rc)
        rc = perc_parse_dom_snapshot(obs, eous_json_obj(answer, "snap"), err);
    obs->timings.c_ms += eous_now_ms() - t0;
    return rc;
}

/* chromedriver's element ids are "f.FRAME.d.LOADER.e.BACKEND": the root
 * element's id gives the prefix of every element of this document. */
static void take_element_prefix(perc_obs *obs, const cJSON *answer)
{
    const char *id = wd_element_id_of(cJSON_GetObjectItemCaseSensitive(answer, "doc"));
    const char *e = id && !strncmp(id, "f.", 2) ? strstr(id, ".d.") : NULL;
    e = e ? strstr(e, ".e.") : NULL;
    if (e && e[3] >= '1' && e[3] <= '9')
        obs->elem_prefix = eous_arena_strndup(obs->arena, id, (size_t)(e + 3 - id));
}

/* Past this many marked elements the marks come from a DOMSnapshot: each
 * element reference the script returns costs the driver ~30 us, more past a
 * thousand, where one snapshot costs a few ms. */
#define PERC_SCRIPT_MARKS_MAX 400

/* The providers' script for options o (in_page: without CDP, the tree too) and its arguments. */
static const char *providers_request(const perc_opts *o, int in_page, cJSON *args)
{
    cJSON_AddItemToArray(args, cJSON_CreateNumber(o->provider_timeout_ms > 0 ? o->provider_timeout_ms : EOUS_DEFAULT_PROVIDER_TIMEOUT_MS));
    cJSON_AddItemToArray(args, cJSON_CreateNumber((double)(o->max_provider_bytes ? o->max_provider_bytes : EOUS_DEFAULT_PROVIDER_MAX_BYTES)));
    cJSON_AddItemToArray(args, cJSON_CreateBool(o->mode == PERC_MODE_HTML));
    {
        /* which providers run; native only where its components are shown (not the baselines) */
        int semantic = perc_mode_semantic(o->mode);
        unsigned set = o->provider_set ? o->provider_set : PERC_PROVIDER_ALL;
        if (!semantic)
            set &= ~PERC_PROVIDER_NATIVE;
        if (!(o->providers || semantic))
            set = 0;
        cJSON_AddItemToArray(args, cJSON_CreateNumber(set));
    }
    /* the html mode reads its stamped ids from the snapshot */
    int marks = !in_page && o->mode != PERC_MODE_HTML && !o->snapshot_marks;
    if (in_page)
        cJSON_AddItemToArray(args, cJSON_CreateNumber(PERC_IN_PAGE_MAX_NODES));
    else if (marks)
        cJSON_AddItemToArray(args, cJSON_CreateNumber(PERC_SCRIPT_MARKS_MAX));
    return in_page ? PERC_W3C_OBSERVE_JS : marks ? PERC_PAGE_MARKS_JS : PERC_PROVIDERS_JS;
}

eous_rc perc_providers_request(const perc_opts *o, const char **script, cJSON **args, eous_err *err)
{
    perc_opts dflt;
    if (!o) {
        perc_opts_init(&dflt);
        o = &dflt;
    }
    if (!(*args = cJSON_CreateArray()))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    *script = providers_request(o, 0, *args);
    return EOUS_OK;
}

/* 1. providers (+ the html mode's text with ids) in one script; with CDP, on a page
 * without frames, the page marks too (page_marks.js); without CDP the same
 * call reads the tree too (w3c_observe.js).  *answer gets the script's
 * answer; a page whose script context is broken is perceived without
 * providers (a warning), except without CDP, where nothing is left. */
static eous_rc run_providers(wd_session *s, const perc_opts *o, perc_obs *obs, int in_page, cJSON **answer,
                             eous_err *err)
{
    eous_rc rc;
    cJSON *args = cJSON_CreateArray();
    const char *script = providers_request(o, in_page, args);
    double tb = eous_now_ms();
    /* bound the whole script: a provider that blocks the page's thread must
     * not hang us; the in-page tree of a big page on a busy machine is slow */
    wd_session_set_request_timeout(s, (o->provider_timeout_ms > 0 ? o->provider_timeout_ms : EOUS_DEFAULT_PROVIDER_TIMEOUT_MS) * 3 + 5000 +
                                          (in_page ? 120000 : 0));
    rc = wd_execute(s, script, args, answer, err);
    if (rc == EOUS_E_PAGE && err && !strcmp(err->code, "unexpected alert open")) {
        /* the session dismissed a dialog the page opened; say so, read again */
        perc_obs_warn(obs, "the page opened a dialog (dismissed): %s", err->msg);
        rc = wd_execute(s, script, args, answer, err);
    }
    wd_session_set_request_timeout(s, 0);
    EOUS_DEBUG("perception", "round trip: providers script, %.1f ms", eous_now_ms() - tb);
    obs->timings.browser_ms += eous_now_ms() - tb;
    obs->timings.round_trips++;
    cJSON_Delete(args);
    if (rc) {
        if (eous_rc_ends_task(rc) || in_page)
            return rc; /* without CDP the tree came from that script too: nothing to perceive */
        /* a page whose script context is broken: perceive without providers */
        perc_obs_warn(obs, "providers: %s", err ? err->msg : "script failed");
        rc = EOUS_OK;
    }
    return rc;
}

/* With CDP: DOM marks (from the script's answer, else DOMSnapshot), then,
 * but for the html mode, the accessibility tree of the main frame and its
 * in-process child frames. */
static eous_rc observe_cdp(wd_session *s, const perc_opts *o, perc_obs *obs, const cJSON *answer, eous_err *err)
{
    /* 2. DOM marks: the script read them on a frameless page */
    eous_rc rc;
    int n_documents = 1;
    const cJSON *marks = cJSON_GetObjectItemCaseSensitive(answer, "marks");
    eous_err merr;
    eous_err_clear(&merr);
    double tc = eous_now_ms();
    int have = cJSON_IsObject(marks) && perc_parse_script_marks(obs, marks, &merr) == EOUS_OK;
    obs->timings.c_ms += eous_now_ms() - tc;
    if (!have) {
        obs->n_marks = 0;
        obs->marks_sparse = 0;
        cJSON *sp = cJSON_CreateObject();
        cJSON_AddItemToObject(sp, "computedStyles", cJSON_CreateArray());
        cJSON *snap = NULL;
        rc = timed_cdp(s, obs, "DOMSnapshot.captureSnapshot", sp, &snap, err);
        cJSON_Delete(sp);
        if (rc)
            return rc;
        tc = eous_now_ms();
        rc = perc_parse_dom_snapshot(obs, snap, err);
        obs->timings.c_ms += eous_now_ms() - tc;
        /* one document per (in-process) frame: with one, there are no child
         * frames to ask Page.getFrameTree about (a round trip per step) */
        n_documents = cJSON_GetArraySize(eous_json_arr(snap, "documents"));
        cJSON_Delete(snap);
        if (rc)
            return rc;
    }

    if (o->mode != PERC_MODE_HTML) {
        /* 3. accessibility tree, main frame then child frames */
        cJSON *frames = NULL;
        if ((rc = fetch_ax(s, o, obs, NULL, 0, err)))
            return rc;
        eous_err ferr;
        eous_err_clear(&ferr);
        if (n_documents > 1 && timed_cdp(s, obs, "Page.getFrameTree", NULL, &frames, &ferr) == EOUS_OK) {
            const cJSON *tree = eous_json_obj(frames, "frameTree");
            if (tree && eous_json_arr(tree, "childFrames")) {
                int next_frame = 0;
                add_frames(s, o, obs, tree, &next_frame, err);
            }
        }
        cJSON_Delete(frames);
        /* out-of-process (cross-site) frames are not in this target's
         * frame tree: say what is missing instead of showing nothing */
        for (size_t i = 0; i < obs->n_nodes; i++) {
            const perc_node *n = &obs->nodes[i];
            if (!n->n_children && n->role && !strcmp(n->role, "Iframe"))
                perc_obs_warn(obs, "frame '%s': cross-origin or not loaded, perceived without its content",
                              n->name ? n->name : "");
        }
    }
    return EOUS_OK;
}

eous_rc perc_observe(wd_session *s, const perc_opts *o, perc_obs **out, eous_err *err)
{
    perc_opts dflt;
    double t0 = eous_now_ms();
    perc_obs *obs = perc_obs_begin(&o, &dflt, out, err);
    if (!obs)
        return EOUS_E_NOMEM;
    eous_rc rc;
    cJSON *own = NULL;
    const cJSON *answer = NULL;

    int in_page = !wd_session_has_cdp(s);
    /* read moments ago in the action's own round trip, or now */
    if (!(o->answer && !in_page) && (rc = run_providers(s, o, obs, in_page, &own, err)))
        goto done;
    answer = o->answer && !in_page ? o->answer : own;
    const char *url = eous_json_str(answer, "url");
    const char *title = eous_json_str(answer, "title");
    obs->url = eous_arena_strdup(obs->arena, url ? url : "");
    obs->title = eous_arena_strdup(obs->arena, title ? title : "");
    if (!in_page)
        take_element_prefix(obs, answer);
    if ((rc = perc_obs_set_tabs(obs, o, err)))
        goto done;
    const cJSON *warnings = eous_json_arr(answer, "warnings");
    const cJSON *wi;
    cJSON_ArrayForEach(wi, warnings) if (cJSON_IsString(wi)) perc_obs_warn(obs, "%s", wi->valuestring);

    double tc;
    if (in_page) {
        /* 2+3 on a plain W3C endpoint: computed in the page by the same script */
        if ((rc = parse_in_page(obs, eous_json_obj(answer, "tree"), err)))
            goto done;
    } else {
        if ((rc = observe_cdp(s, o, obs, answer, err)))
            goto done;
    }

    tc = eous_now_ms();
    add_provider(obs, answer, "ci4a", perc_parse_ci4a);
    add_provider(obs, answer, "webmcp", perc_parse_webmcp);
    add_provider(obs, answer, "bridge", perc_parse_bridge);
    add_provider(obs, answer, "native", perc_parse_native);
    perc_set_page_labels(obs, eous_json_obj(answer, "cidLabels"));
    perc_set_page_tabs(obs, eous_json_obj(answer, "cidTabs"));
    const char *html = eous_json_str(answer, "htmlView"); /* html mode: the view's text, html_view.js */
    rc = perc_build_internal(obs, html, html ? strlen(html) : 0, err);
    obs->timings.c_ms += eous_now_ms() - tc;
done:
    cJSON_Delete(own);
    if (rc == EOUS_E_TIMEOUT) {
        /* a page too big to read in time is this page's problem, not the
         * infrastructure's: the step fails, the run goes on */
        eous_err_prefix(err, "perceiving %s timed out (page too large or busy)", obs->url ? obs->url : "the page");
        if (err)
            err->rc = EOUS_E_PAGE;
        rc = EOUS_E_PAGE;
    }
    if (rc) {
        perc_obs_free(obs);
        return rc;
    }
    obs->timings.total_ms = eous_now_ms() - t0;
    *out = obs;
    return EOUS_OK;
}
