/* mcp/mcp_caps.c — browser_drag, browser_pdf_save and the --caps storage,
 * tracing and vision tools (issue 53), with Playwright MCP's names and
 * arguments.  See mcp_server_int.h for how a tool file plugs in.
 *
 * Files these tools write or read (a PDF, a storage state, a trace) live in
 * the session's output folder: eous mcp's --out DIR (as Playwright MCP's
 * --output-dir), else the audit log's folder (--audit), else a folder of its
 * own made on first use (mkdtemp, 0700) and kept when the server ends, since a
 * person opens the files afterwards.  A
 * name a client gives is one file name inside it (eous_path_under, no
 * folders), never a symlink; every answer names the whole path.
 *
 * Actions these tools take without act_execute (a drag, a click at a point)
 * are checked as act_execute checks an atomic action on the same element
 * (actions/target.c act_check_target_policy): data-agent-hidden refuses,
 * the policy's rules (action "drag", "click", "hover"; the element's role
 * and name, then its component's kind and label), data-agent-confirm and
 * confirm rules ask a person; each is written to the audit log. */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "actions/audit.h"
#include "mcp/caps_drag_js.h"
#include "mcp/caps_point_js.h"
#include "mcp/caps_seed_js.h"
#include "mcp/caps_storage_js.h"
#include "mcp/caps_webstorage_js.h"
#include "mcp/mcp_devtools_int.h"
#include "perception/shot.h"

/* what one server keeps for these tools (mcp_server.caps) */
struct mcp_caps_state {
    char out_dir[PATH_MAX]; /* "" until first needed */
    act_audit *audit;       /* o.audit_path opened on first use */
    mcp_devtools dt;        /* tracing: the DevTools connection, fd -1 when not tracing */
    char trace_path[PATH_MAX]; /* where browser_stop_tracing writes */
    double trace_t0;
    double mouse_x, mouse_y; /* vision: where the coordinate tools left the mouse */
    int mouse_known;         /* 0 until one of them moved it */
    int buttons_held;        /* browser_mouse_down's buttons not yet released (bit 1 << button) */
};

static struct mcp_caps_state *caps_state(mcp_server *m, eous_err *err)
{
    if (!m->caps) {
        if (!(m->caps = calloc(1, sizeof *m->caps))) {
            eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            return NULL;
        }
        m->caps->dt.fd = -1;
    }
    return m->caps;
}

void mcp_caps_free(mcp_server *m)
{
    if (!m || !m->caps)
        return;
    mcp_devtools_close(&m->caps->dt); /* the browser ends a trace whose client left */
    act_audit_close(m->caps->audit);
    free(m->caps);
    m->caps = NULL;
}

/* ---- the output folder ------------------------------------------------------ */

static eous_rc out_dir(mcp_server *m, const char **dir, eous_err *err)
{
    struct mcp_caps_state *st = caps_state(m, err);
    if (!st)
        return EOUS_E_NOMEM;
    if (!st->out_dir[0]) {
        char tmp[PATH_MAX];
        if (m->o.out_dir) {
            eous_err merr;
            eous_err_clear(&merr);
            if (eous_mkdirs(m->o.out_dir, 0755, &merr) || !realpath(m->o.out_dir, st->out_dir))
                return eous_err_set(err, EOUS_E_IO, "the output folder (--out %s): %s", m->o.out_dir,
                                    merr.rc ? merr.msg : strerror(errno));
        } else if (m->o.audit_path) {
            snprintf(tmp, sizeof tmp, "%s", m->o.audit_path);
            if (!realpath(dirname(tmp), st->out_dir))
                return eous_err_set(err, EOUS_E_IO, "the audit log's folder (%s): %s", m->o.audit_path, strerror(errno));
        } else {
            const char *t = getenv("TMPDIR");
            snprintf(tmp, sizeof tmp, "%s/eous-mcp-XXXXXX", t && *t ? t : "/tmp");
            if (!mkdtemp(tmp))
                return eous_err_set(err, EOUS_E_IO, "the output folder %s: %s", tmp, strerror(errno));
            snprintf(st->out_dir, sizeof st->out_dir, "%s", tmp);
        }
    }
    *dir = st->out_dir;
    return EOUS_OK;
}

/* The path of file name (or, NULL or "", PREFIX-TIME.EXT) in the output folder. */
static eous_rc out_path(mcp_server *m, const char *tool, const char *name, const char *prefix, const char *ext,
                        char *out, size_t n, eous_err *err)
{
    const char *dir = NULL;
    eous_rc rc = out_dir(m, &dir, err);
    if (rc)
        return eous_err_prefix(err, "%s", tool);
    char made[128];
    if (!name || !*name) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        snprintf(made, sizeof made, "%s-%04d%02d%02d-%02d%02d%02d-%03ld.%s", prefix, tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, ext);
        name = made;
    }
    if (strchr(name, '/'))
        return eous_err_set(err, EOUS_E_INVALID, "%s: filename '%.200s': expected a file name in the output folder %s "
                            "(no folders)", tool, name, dir);
    if ((rc = eous_path_under(out, n, dir, err, "%s", name)))
        return eous_err_prefix(err, "%s: filename", tool);
    return EOUS_OK;
}

/* Writes data to path whole or not at all (a temp file renamed over it), mode 0600. */
static eous_rc write_whole(const char *path, const void *data, size_t len, eous_err *err)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.partXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return eous_err_set(err, EOUS_E_IO, "%s: %s", path, strerror(errno));
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    int bad = left || fsync(fd) || close(fd);
    if (bad || rename(tmp, path)) {
        eous_rc rc = eous_err_set(err, EOUS_E_IO, "%s: %s", path, strerror(errno ? errno : EIO));
        unlink(tmp);
        return rc;
    }
    return EOUS_OK;
}

/* An action these tools took, in the audit log (when there is one). */
static void audit(mcp_server *m, const char *action, const char *url, eous_rc rc, const char *message)
{
    eous_err e;
    if (!m->o.audit_path || !caps_state(m, &e))
        return;
    if (!m->caps->audit && act_audit_open(m->o.audit_path, &m->caps->audit, &e))
        return;
    act_audit_entry en = {.url = url ? url : "", .action = action, .path = ACT_PATH_ATOMIC, .result = rc,
                          .message = message ? message : ""};
    act_audit_write(m->caps->audit, &en, &e);
}

eous_rc mcp_caps_out_path(mcp_server *m, const char *tool, const char *name, const char *prefix, const char *ext,
                          char *out, size_t n, eous_err *err)
{
    return out_path(m, tool, name, prefix, ext, out, n, err);
}

void mcp_caps_audit(mcp_server *m, const char *action, const char *url, eous_rc rc, const char *message)
{
    audit(m, action, url, rc, message);
}

/* ---- an element checked as an atomic action on it ---------------------------- */

/* The checks act_check_target_policy makes, for an action these tools take
 * themselves: node (may be NULL) from the view, hidden and confirm the page's
 * marks over the element (confirm NULL: none), what the action in words. */
static eous_rc check_element(mcp_server *m, const perc_node *node, int hidden, const char *confirm_mark,
                             const char *action, const char *url, const char *what, eous_err *err)
{
    const perc_component *c = m->obs && node && node->component >= 0
                                  ? perc_obs_component(m->obs, (size_t)node->component) : NULL;
    if (hidden || (node && node->hidden) || (c && c->agent_hidden))
        return act_policy_hidden(what, err);
    const char *confirm = NULL, *c2 = NULL;
    eous_rc rc = act_policy_check_action(m->policy, node ? node->role : NULL, node ? node->name : NULL, action, NULL,
                                         url, &confirm, err);
    if (!rc && c && !(rc = act_policy_check_action(m->policy, c->kind, c->label, action, NULL, url, &c2, err)) &&
        !confirm)
        confirm = c2;
    if (!rc && confirm_mark)
        rc = act_policy_confirm(m->policy, confirm_mark, what, err);
    if (!rc && confirm && !(confirm_mark && !strcmp(confirm, confirm_mark)))
        rc = act_policy_confirm(m->policy, confirm, what, err);
    return rc;
}

/* "[12] button 'Save'" for a node of the view. */
static void describe(const mcp_server *m, const perc_node *node, int backend_id, char *out, size_t n)
{
    const char *id = m->obs ? perc_obs_view_id_of(m->obs, backend_id) : NULL;
    snprintf(out, n, "[%s] %s '%.120s'", id ? id : "?", node && node->role ? node->role : "element",
             node && node->name ? node->name : "");
}

/* The page settled after an input of ours, a page it led to checked against the policy, then the view. */
static eous_rc after_input(mcp_server *m, eous_rc rc, mcp_tool_out *out, eous_err *err)
{
    if (rc == EOUS_E_INFRA) {
        mcp_stop_browser(m);
        return eous_err_prefix(err, "the browser stopped (the next call starts a new one)");
    }
    eous_err serr;
    act_settle(m->x, NULL, &serr);
    eous_rc lrc = act_exec_check_landing(m->x, m->policy, rc ? &serr : err);
    if (!rc)
        rc = lrc;
    eous_err oerr;
    mcp_progress(m, 0, 0, "reading the page");
    if (mcp_observe(m, m->o.mode, &oerr))
        return rc ? rc : eous_err_set(err, oerr.rc, "%s", oerr.msg);
    mcp_append_view(m, &out->text);
    return rc;
}

/* A mouse input source for W3C actions: sources holds it, *acts gets its action list. */
static cJSON *mouse_source(cJSON **acts)
{
    cJSON *sources = cJSON_CreateArray(), *src = cJSON_CreateObject();
    cJSON_AddStringToObject(src, "type", "pointer");
    cJSON_AddStringToObject(src, "id", "eous-mouse");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(src, "parameters"), "pointerType", "mouse");
    *acts = cJSON_AddArrayToObject(src, "actions");
    cJSON_AddItemToArray(sources, src);
    return sources;
}

static void mouse_step(cJSON *acts, const char *type, double x, double y, int button, double ms)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "type", type);
    if (!strcmp(type, "pointerMove")) {
        cJSON_AddNumberToObject(a, "x", (int)x);
        cJSON_AddNumberToObject(a, "y", (int)y);
        cJSON_AddStringToObject(a, "origin", "viewport");
    }
    if (!strcmp(type, "pointerDown") || !strcmp(type, "pointerUp"))
        cJSON_AddNumberToObject(a, "button", button);
    if (!strcmp(type, "pointerMove") || !strcmp(type, "pause"))
        cJSON_AddNumberToObject(a, "duration", (int)ms);
    cJSON_AddItemToArray(acts, a);
}

#define DRAG_STEPS 12

/* Press at (sx, sy), move there to (ex, ey) in DRAG_STEPS moves, release: a
 * pointer-driven sortable sees every move, as a person's drag gives it. */
static eous_rc pointer_drag(mcp_server *m, double sx, double sy, double ex, double ey, eous_err *err)
{
    cJSON *acts = NULL, *sources = mouse_source(&acts);
    mouse_step(acts, "pointerMove", sx, sy, 0, 0);
    mouse_step(acts, "pointerDown", 0, 0, 0, 0);
    mouse_step(acts, "pause", 0, 0, 0, 60);
    for (int i = 1; i <= DRAG_STEPS; i++)
        mouse_step(acts, "pointerMove", sx + (ex - sx) * i / DRAG_STEPS, sy + (ey - sy) * i / DRAG_STEPS, 0, 25);
    mouse_step(acts, "pause", 0, 0, 0, 60);
    mouse_step(acts, "pointerUp", 0, 0, 0, 0);
    eous_rc rc = wd_perform_actions(m->b.session, sources, err);
    cJSON_Delete(sources);
    wd_release_actions(m->b.session, NULL);
    if (m->caps)
        m->caps->buttons_held = 0; /* the release let go of a browser_mouse_down's button too */
    return rc;
}

/* ---- browser_drag -------------------------------------------------------------
 * Playwright MCP's {startElement, startRef, endElement, endRef} (its newer
 * startTarget / endTarget too).  A pointer drag (press, twelve moves, release)
 * for sortables that follow the pointer; a recent chromedriver turns it into
 * the browser's own HTML5 drag.  A source that is (or sits in)
 * draggable="true" and got no dragstart from it (an older driver, another
 * one) gets the HTML5 sequence dispatched in the page (mcp/caps_drag.js). */

/* The view id args names under key (or alt), "[12]" unwrapped; its backend node into *bid. */
static eous_rc drag_end(mcp_server *m, const cJSON *args, const char *key, const char *alt, char *ref, size_t n,
                        int *bid, eous_err *err)
{
    const char *r = eous_json_str(args, key);
    if (!r)
        r = eous_json_str(args, alt);
    if (!r || !*r)
        return eous_err_set(err, EOUS_E_INVALID, "browser_drag: expected {startRef, endRef}: element ids from the view "
                                                 "(or role 'name' for an element shown without one)");
    size_t len = strlen(r);
    snprintf(ref, n, "%.*s", (int)(r[0] == '[' && len > 2 && r[len - 1] == ']' ? len - 2 : len), r + (r[0] == '['));
    if (perc_obs_resolve_id(m->obs, ref, bid, err) == EOUS_OK)
        return EOUS_OK;
    /* "role 'name'" (" #2" for the second): an element the view shows without an id (hybrid) */
    char role[64], name[300];
    int nth = 1, used = 0;
    const char *q = strchr(ref, '\'');
    const char *qe = q ? strrchr(ref, '\'') : NULL;
    if (q && qe > q && q > ref && q[-1] == ' ' && (size_t)(q - ref) < sizeof role &&
        (size_t)(qe - q) < sizeof name && (!qe[1] || sscanf(qe + 1, " #%d%n", &nth, &used) == 1)) {
        snprintf(role, sizeof role, "%.*s", (int)(q - ref - 1), ref);
        snprintf(name, sizeof name, "%.*s", (int)(qe - q - 1), q + 1);
        if (!qe[1] || !qe[1 + used])
            return perc_obs_find_role_name(m->obs, role, name, nth, bid, err) == EOUS_OK
                       ? EOUS_OK
                       : eous_err_set(err, EOUS_E_NOT_FOUND, "browser_drag: no %s '%.100s'%s on the page", role, name,
                                      nth > 1 ? " of that number" : "");
    }
    const perc_component *c = perc_obs_find_component(m->obs, ref);
    if (c && c->backend_id > 0) {
        *bid = c->backend_id;
        return EOUS_OK;
    }
    return eous_err_set(err, EOUS_E_NOT_FOUND, "browser_drag: there is no [%.60s] in the current view", ref);
}

static cJSON *element_arg(const perc_obs *obs, int bid)
{
    char id[160];
    snprintf(id, sizeof id, "%s%d", perc_obs_element_prefix(obs), bid);
    return wd_element_ref(id);
}

/* mode of mcp/caps_drag.js on the two ends; its answer into *v (caller frees). */
static eous_rc drag_script(mcp_server *m, const char *mode, int sb, int eb, cJSON **v, eous_err *err)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateString(mode));
    cJSON_AddItemToArray(a, element_arg(m->obs, sb));
    cJSON_AddItemToArray(a, element_arg(m->obs, eb));
    eous_rc rc = wd_execute(m->b.session, MCP_CAPS_DRAG_JS, a, v, err);
    cJSON_Delete(a);
    return rc;
}

/* The drag itself, once both ends passed their checks: a pointer drag, and for an
 * HTML5 source whose dragstart the browser did not fire, the sequence dispatched
 * in the page; its line into out. */
static eous_rc drag_run(mcp_server *m, const cJSON *probe, int sb, int eb, const char *what, eous_buf *out,
                        eous_err *err)
{
    const cJSON *s = eous_json_obj(probe, "s"), *e = eous_json_obj(probe, "e");
    eous_rc rc = pointer_drag(m, eous_json_num(s, "x", 0), eous_json_num(s, "y", 0), eous_json_num(e, "x", 0),
                              eous_json_num(e, "y", 0), err);
    if (rc || !eous_json_bool(probe, "html5", 0)) {
        if (!rc)
            eous_buf_printf(out, NULL, "%s (pointer: pressed, moved in %d steps, released)\n", what, DRAG_STEPS);
        return rc;
    }
    cJSON *v = NULL;
    if ((rc = drag_script(m, "fired", sb, eb, &v, err)) || eous_json_bool(v, "gone", 0)) {
        cJSON_Delete(v);
        return rc; /* the drop took the page elsewhere: nothing more to do here */
    }
    int browser = eous_json_bool(v, "dragstart", 0), dropped = eous_json_bool(v, "drop", 0);
    cJSON_Delete(v);
    v = NULL;
    if (!browser) {
        if (!(rc = drag_script(m, "html5", sb, eb, &v, err)) && eous_json_bool(v, "gone", 0))
            rc = eous_err_set(err, EOUS_E_STALE, "stale: an end of the drag left the page; read the view again");
        else if (!rc && !eous_json_bool(v, "started", 0))
            rc = eous_err_set(err, EOUS_E_PAGE, "%s: the page cancelled the drag at its start (dragstart)", what);
        dropped = eous_json_bool(v, "dropped", 0);
        cJSON_Delete(v);
    }
    if (!rc && !dropped)
        rc = eous_err_set(err, EOUS_E_PAGE, "%s: the target does not take the drop (no dragover handler accepted it)",
                          what);
    if (!rc)
        eous_buf_printf(out, NULL, "%s (HTML5 drag and drop: %s)\n", what,
                        browser ? "the browser's own dragstart and drop"
                                : "dragstart, dragover, drop and dragend dispatched in the page, the driver's pointer "
                                  "drag fired none");
    return rc;
}

static eous_rc tool_drag(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    eous_rc rc;
    if ((rc = mcp_ensure_browser(m, err)) || (!m->obs && (rc = mcp_observe(m, m->o.mode, err))))
        return rc;
    char sref[128], eref[128];
    int sb = 0, eb = 0;
    if ((rc = drag_end(m, args, "startRef", "startTarget", sref, sizeof sref, &sb, err)) ||
        (rc = drag_end(m, args, "endRef", "endTarget", eref, sizeof eref, &eb, err)))
        return rc;
    const perc_node *sn = perc_obs_node_by_backend(m->obs, sb), *en = perc_obs_node_by_backend(m->obs, eb);
    if ((sn && sn->frame > 0) || (en && en->frame > 0))
        return eous_err_set(err, EOUS_E_NOT_FOUND, "browser_drag: an end is inside a frame; eous acts on the main frame only");
    if (!perc_obs_element_prefix(m->obs) || !wd_session_has_cdp(m->b.session))
        return eous_err_set(err, EOUS_E_INVALID, "browser_drag: needs Chromium's DevTools protocol (not with --w3c-only)");
    char sw[200], ew[200], what[460];
    describe(m, sn, sb, sw, sizeof sw);
    describe(m, en, eb, ew, sizeof ew);
    snprintf(what, sizeof what, "drag %s onto %s", sw, ew);
    cJSON *probe = NULL;
    rc = drag_script(m, "probe", sb, eb, &probe, err);
    const char *url = perc_obs_url(m->obs);
    if (!rc && eous_json_bool(probe, "gone", 0))
        rc = eous_err_set(err, EOUS_E_STALE, "stale: an end of the drag left the page since the view; read it again");
    if (!rc)
        rc = check_element(m, sn, eous_json_bool(probe, "sHidden", 0), eous_json_str(probe, "sConfirm"), "drag", url,
                           what, err);
    if (!rc)
        rc = check_element(m, en, eous_json_bool(probe, "eHidden", 0), eous_json_str(probe, "eConfirm"), "drag", url,
                           what, err);
    if (!rc) {
        mcp_progress(m, 0, 0, "drag");
        rc = drag_run(m, probe, sb, eb, what, &out->text, err);
    }
    cJSON_Delete(probe);
    audit(m, what, url, rc, rc ? err->msg : "dragged");
    if (rc == EOUS_E_POLICY || rc == EOUS_E_STALE)
        return rc; /* nothing was done */
    return after_input(m, rc, out, err);
}

/* ---- browser_pdf_save (--caps pdf) ---------------------------------------------
 * Playwright MCP's {filename?}, under --caps pdf as there: a call that writes
 * a file on the server's disk is something the person starting the server
 * opts into.  Page.printToPDF (the W3C print command without CDP) with secret
 * fields blurred and hidden regions blank, as browser_take_screenshot's. */

static eous_rc tool_pdf_save(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *name = eous_json_str(args, "filename");
    char path[PATH_MAX];
    eous_rc rc;
    if ((rc = out_path(m, "browser_pdf_save", name, "page", "pdf", path, sizeof path, err)) ||
        (rc = mcp_ensure_browser(m, err)))
        return rc;
    if ((rc = perc_mask(m->b.session, 1, err)))
        return eous_err_prefix(err, "browser_pdf_save: not saved (secret fields could not be masked)");
    cJSON *v = NULL, *p = cJSON_CreateObject();
    cJSON_AddBoolToObject(p, "printBackground", 1);
    if (wd_session_has_cdp(m->b.session))
        rc = wd_cdp(m->b.session, "Page.printToPDF", p, &v, err);
    else
        rc = wd_command(m->b.session, "POST", "/print", p, &v, err);
    cJSON_Delete(p);
    perc_mask(m->b.session, 0, NULL);
    const char *b64 = cJSON_IsString(v) ? v->valuestring : eous_json_str(v, "data");
    unsigned char *pdf = NULL;
    size_t len = 0;
    if (!rc && !b64)
        rc = eous_err_set(err, EOUS_E_INFRA, "browser_pdf_save: the browser sent no PDF");
    if (!rc)
        rc = eous_base64_decode(b64, &pdf, &len, err);
    cJSON_Delete(v);
    if (!rc)
        rc = write_whole(path, pdf, len, err);
    free(pdf);
    if (rc)
        return eous_err_prefix(err, "browser_pdf_save");
    eous_buf_printf(&out->text, NULL, "saved the page as PDF: %s (%zu bytes; secret fields blurred)\n", path, len);
    return EOUS_OK;
}

/* ---- --caps vision: the mouse at viewport coordinates -------------------------
 * Playwright MCP's browser_mouse_move_xy {x, y}, browser_mouse_click_xy {x, y,
 * button?, clickCount?, delay?} and browser_mouse_drag_xy {startX, startY,
 * endX, endY}, in the screenshot's pixels (browser_take_screenshot is the
 * viewport).  What is under each point (mcp/caps_point.js) is checked as a
 * hover, click or drag of that element would be. */

/* The view's node for the first element of chain (the hit element, then its ancestors) that the view shows. */
static const perc_node *point_node(const mcp_server *m, const cJSON *chain, int *bid)
{
    const char *prefix = m->obs ? perc_obs_element_prefix(m->obs) : NULL;
    const cJSON *el;
    *bid = 0;
    cJSON_ArrayForEach(el, chain) {
        const char *id = wd_element_id_of(el);
        if (!prefix || !id || strncmp(id, prefix, strlen(prefix)))
            continue;
        int b = atoi(id + strlen(prefix));
        const perc_node *n = b > 0 ? perc_obs_node_by_backend(m->obs, b) : NULL;
        if (n && !n->ignored) {
            *bid = b;
            return n;
        }
    }
    return NULL;
}

/* Checks the element at (x, y) for action (the policy's name); what gets words (NULL: action) at the point. */
static eous_rc point_check_as(mcp_server *m, const char *tool, double x, double y, const char *action,
                              const char *words, char *what, size_t n, eous_err *err)
{
    eous_rc rc;
    if ((rc = mcp_ensure_browser(m, err)) || (!m->obs && (rc = mcp_observe(m, m->o.mode, err))))
        return rc;
    cJSON *a = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(a, cJSON_CreateNumber(x));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(y));
    cJSON_AddItemToArray(a, cJSON_CreateBool(!strcmp(action, "scroll")));
    rc = wd_execute(m->b.session, MCP_CAPS_POINT_JS, a, &v, err);
    cJSON_Delete(a);
    if (rc) {
        cJSON_Delete(v);
        return rc;
    }
    double vw = eous_json_num(v, "vw", 0), vh = eous_json_num(v, "vh", 0);
    if (x < 0 || y < 0 || x >= vw || y >= vh) {
        cJSON_Delete(v);
        return eous_err_set(err, EOUS_E_INVALID, "%s: (%.0f, %.0f) is outside the viewport (%.0f x %.0f, the "
                            "screenshot's pixels)", tool, x, y, vw, vh);
    }
    int bid = 0;
    const perc_node *node = point_node(m, eous_json_arr(v, "chain"), &bid);
    char on[220];
    if (node)
        describe(m, node, bid, on, sizeof on);
    else
        snprintf(on, sizeof on, "<%s> '%.60s'", eous_json_str(v, "tag") ? eous_json_str(v, "tag") : "?",
                 eous_json_str(v, "text") ? eous_json_str(v, "text") : "");
    snprintf(what, n, "%s at (%.0f, %.0f) on %s", words ? words : action, x, y, on);
    rc = check_element(m, node, eous_json_bool(v, "none", 0) ? 0 : eous_json_bool(v, "hidden", 0),
                       eous_json_str(v, "confirm"), action, eous_json_str(v, "url"), what, err);
    cJSON_Delete(v);
    return rc;
}

static eous_rc point_check(mcp_server *m, const char *tool, double x, double y, const char *action, char *what,
                           size_t n, eous_err *err)
{
    return point_check_as(m, tool, x, y, action, NULL, what, n, err);
}

/* Where the mouse is now, for browser_mouse_down/_up/_wheel (Playwright's mouse keeps its place too). */
static void mouse_at(mcp_server *m, double x, double y)
{
    eous_err e;
    if (!caps_state(m, &e))
        return;
    m->caps->mouse_x = x;
    m->caps->mouse_y = y;
    m->caps->mouse_known = 1;
}

static int xy_args(const cJSON *args, const char *kx, const char *ky, double *x, double *y)
{
    const cJSON *jx = cJSON_GetObjectItemCaseSensitive(args, kx), *jy = cJSON_GetObjectItemCaseSensitive(args, ky);
    if (!cJSON_IsNumber(jx) || !cJSON_IsNumber(jy))
        return 0;
    *x = jx->valuedouble;
    *y = jy->valuedouble;
    return 1;
}

/* The checked input, audited, then the page settled and shown. */
static eous_rc mouse_finish(mcp_server *m, const char *what, cJSON *sources, mcp_tool_out *out, eous_err *err)
{
    mcp_progress(m, 0, 0, what);
    eous_rc rc = wd_perform_actions(m->b.session, sources, err);
    if (!m->caps || !m->caps->buttons_held)
        wd_release_actions(m->b.session, NULL); /* a held button stays down until browser_mouse_up */
    audit(m, what, m->obs ? perc_obs_url(m->obs) : "", rc, rc ? err->msg : "done");
    if (!rc)
        eous_buf_printf(&out->text, NULL, "%s: done\n", what);
    return after_input(m, rc, out, err);
}

static eous_rc tool_mouse_move(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    double x, y;
    char what[400];
    if (!xy_args(args, "x", "y", &x, &y))
        return eous_err_set(err, EOUS_E_INVALID, "browser_mouse_move_xy: expected {x, y}: viewport pixels");
    eous_rc rc = point_check(m, "browser_mouse_move_xy", x, y, "hover", what, sizeof what, err);
    if (rc)
        return rc;
    cJSON *acts = NULL, *sources = mouse_source(&acts);
    mouse_step(acts, "pointerMove", x, y, 0, 0);
    mouse_at(m, x, y);
    rc = mouse_finish(m, what, sources, out, err);
    cJSON_Delete(sources);
    return rc;
}

static eous_rc tool_mouse_click(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    double x, y;
    char what[400];
    const char *b = eous_json_str(args, "button");
    int button = !b || !strcmp(b, "left") ? 0 : !strcmp(b, "middle") ? 1 : !strcmp(b, "right") ? 2 : -1;
    int count = eous_json_int(args, "clickCount", 1);
    double delay = eous_json_num(args, "delay", 0);
    if (!xy_args(args, "x", "y", &x, &y) || button < 0 || count < 1 || count > 3 || delay < 0 || delay > 5000)
        return eous_err_set(err, EOUS_E_INVALID, "browser_mouse_click_xy: expected {x, y: viewport pixels, button?: "
                                                 "left|middle|right, clickCount?: 1 to 3, delay?: 0 to 5000 ms}");
    eous_rc rc = point_check(m, "browser_mouse_click_xy", x, y, "click", what, sizeof what, err);
    if (rc)
        return rc;
    cJSON *acts = NULL, *sources = mouse_source(&acts);
    mouse_step(acts, "pointerMove", x, y, 0, 0);
    for (int i = 0; i < count; i++) {
        mouse_step(acts, "pointerDown", 0, 0, button, 0);
        if (delay > 0)
            mouse_step(acts, "pause", 0, 0, 0, delay);
        mouse_step(acts, "pointerUp", 0, 0, button, 0);
    }
    mouse_at(m, x, y);
    rc = mouse_finish(m, what, sources, out, err);
    cJSON_Delete(sources);
    return rc;
}

static eous_rc tool_mouse_drag(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    double sx, sy, ex, ey;
    char w1[400], w2[400], what[820];
    if (!xy_args(args, "startX", "startY", &sx, &sy) || !xy_args(args, "endX", "endY", &ex, &ey))
        return eous_err_set(err, EOUS_E_INVALID, "browser_mouse_drag_xy: expected {startX, startY, endX, endY}: "
                                                 "viewport pixels");
    eous_rc rc;
    if ((rc = point_check(m, "browser_mouse_drag_xy", sx, sy, "drag", w1, sizeof w1, err)) ||
        (rc = point_check(m, "browser_mouse_drag_xy", ex, ey, "drag", w2, sizeof w2, err)))
        return rc;
    snprintf(what, sizeof what, "%s to (%.0f, %.0f)", w1, ex, ey);
    mcp_progress(m, 0, 0, "drag");
    rc = pointer_drag(m, sx, sy, ex, ey, err);
    mouse_at(m, ex, ey);
    audit(m, what, m->obs ? perc_obs_url(m->obs) : "", rc, rc ? err->msg : "done");
    if (!rc)
        eous_buf_printf(&out->text, NULL, "%s: done (pressed, moved in %d steps, released)\n", what, DRAG_STEPS);
    return after_input(m, rc, out, err);
}

/* browser_mouse_down / browser_mouse_up {button?} and browser_mouse_wheel
 * {deltaX, deltaY}: Playwright MCP's, at the point where the coordinate tools
 * left the mouse.  A press and a release are checked as a click on what is
 * under the point (the release completes one there), a wheel as a scroll of
 * it.  A held button stays down across calls (moves drag with it) until
 * browser_mouse_up, or an action that lets go of every input. */

static int button_arg(const cJSON *args, const char **name)
{
    const char *b = eous_json_str(args, "button");
    *name = b ? b : "left";
    return !b || !strcmp(b, "left") ? 0 : !strcmp(b, "middle") ? 1 : !strcmp(b, "right") ? 2 : -1;
}

/* down 1: press, 0: release, the button args names, where the mouse is. */
static eous_rc mouse_button(mcp_server *m, const char *tool, const cJSON *args, int down, mcp_tool_out *out,
                            eous_err *err)
{
    const char *bname;
    int button = button_arg(args, &bname);
    if (button < 0)
        return eous_err_set(err, EOUS_E_INVALID, "%s: button '%.40s': expected left, middle or right", tool, bname);
    struct mcp_caps_state *st = caps_state(m, err);
    if (!st)
        return err->rc;
    if (!st->mouse_known)
        return eous_err_set(err, EOUS_E_INVALID, "%s: the mouse has no place yet: put it somewhere with "
                            "browser_mouse_move_xy {x, y} first", tool);
    int held = st->buttons_held & (1 << button);
    if (down ? held : !held)
        return eous_err_set(err, EOUS_E_INVALID, "%s: the %s button is %s", tool, bname,
                            down ? "already down (browser_mouse_up releases it)" : "not down (browser_mouse_down "
                                                                                   "presses it)");
    char words[64], what[400];
    snprintf(words, sizeof words, "%s %s", down ? "press" : "release", bname);
    eous_rc rc = point_check_as(m, tool, st->mouse_x, st->mouse_y, "click", words, what, sizeof what, err);
    if (rc)
        return rc;
    cJSON *acts = NULL, *sources = mouse_source(&acts);
    mouse_step(acts, "pointerMove", st->mouse_x, st->mouse_y, 0, 0);
    mouse_step(acts, down ? "pointerDown" : "pointerUp", 0, 0, button, 0);
    if (down)
        st->buttons_held |= 1 << button;
    else
        st->buttons_held &= ~(1 << button);
    rc = mouse_finish(m, what, sources, out, err);
    cJSON_Delete(sources);
    return rc;
}

static eous_rc tool_mouse_down(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    return mouse_button(m, "browser_mouse_down", args, 1, out, err);
}

static eous_rc tool_mouse_up(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    return mouse_button(m, "browser_mouse_up", args, 0, out, err);
}

#define WHEEL_MAX 100000.0

static eous_rc tool_mouse_wheel(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const cJSON *jx = cJSON_GetObjectItemCaseSensitive(args, "deltaX"), *jy = cJSON_GetObjectItemCaseSensitive(args, "deltaY");
    double dx = cJSON_IsNumber(jx) ? jx->valuedouble : 0, dy = cJSON_IsNumber(jy) ? jy->valuedouble : 0;
    if ((jx && !cJSON_IsNumber(jx)) || (jy && !cJSON_IsNumber(jy)) || fabs(dx) > WHEEL_MAX || fabs(dy) > WHEEL_MAX)
        return eous_err_set(err, EOUS_E_INVALID, "browser_mouse_wheel: expected {deltaX?, deltaY?}: pixels, each "
                                                 "within +-%.0f", WHEEL_MAX);
    struct mcp_caps_state *st = caps_state(m, err);
    if (!st)
        return err->rc;
    if (!st->mouse_known)
        return eous_err_set(err, EOUS_E_INVALID, "browser_mouse_wheel: the mouse has no place yet: put it over what "
                                                 "should scroll with browser_mouse_move_xy {x, y} first");
    char words[96], what[400];
    snprintf(words, sizeof words, "wheel (%.0f, %.0f)", dx, dy);
    eous_rc rc = point_check_as(m, "browser_mouse_wheel", st->mouse_x, st->mouse_y, "scroll", words, what, sizeof what,
                                err);
    if (rc)
        return rc;
    /* a wheel input source (WebDriver's "scroll" action) at the mouse's point */
    cJSON *sources = cJSON_CreateArray(), *src = cJSON_CreateObject(), *a = cJSON_CreateObject();
    cJSON_AddStringToObject(src, "type", "wheel");
    cJSON_AddStringToObject(src, "id", "eous-wheel");
    cJSON_AddStringToObject(a, "type", "scroll");
    cJSON_AddNumberToObject(a, "x", (int)st->mouse_x);
    cJSON_AddNumberToObject(a, "y", (int)st->mouse_y);
    cJSON_AddNumberToObject(a, "deltaX", (int)dx);
    cJSON_AddNumberToObject(a, "deltaY", (int)dy);
    cJSON_AddStringToObject(a, "origin", "viewport");
    cJSON_AddNumberToObject(a, "duration", 0);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(src, "actions"), a);
    cJSON_AddItemToArray(sources, src);
    rc = mouse_finish(m, what, sources, out, err);
    cJSON_Delete(sources);
    return rc;
}

/* ---- --caps storage: cookies and storage state ---------------------------------
 * Playwright MCP's browser_cookie_list {domain?, path?}, browser_cookie_get
 * {name}, browser_cookie_set {name, value, domain?, path?, expires?, httpOnly?,
 * secure?, sameSite?}, browser_cookie_delete {name}, browser_cookie_clear,
 * browser_storage_state {filename?} (save) and browser_set_storage_state
 * {filename} (load), the file in Playwright's storageState format: {cookies:
 * [{name, value, domain, path, expires, httpOnly, secure, sameSite}], origins:
 * [{origin, localStorage: [{name, value}]}]}.  Cookies through CDP (every
 * cookie of the browser, httpOnly ones too); localStorage is the current
 * page's origin's when saving; loading writes the current origin's now and
 * seeds any other origin's at its first page in this tab (mcp/caps_seed.js).
 * Writing cookies is checked by the policy: their site as a navigation would
 * be, and rules on action cookie_set / cookie_delete / cookie_clear /
 * storage_state_load (kind "cookie", label the cookie's name).  Cookie values
 * are the page's data: answers show them (through the redactor, as all text
 * the server writes); the state file holds them whole (mode 0600). */

#define STATE_MAX_BYTES ((size_t)16 * 1024 * 1024)

static eous_rc storage_ready(mcp_server *m, const char *tool, eous_err *err)
{
    eous_rc rc = mcp_ensure_browser(m, err);
    if (!rc && !wd_session_has_cdp(m->b.session))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: needs Chromium's DevTools protocol (not with --w3c-only)", tool);
    return rc;
}

static char *page_url(mcp_server *m)
{
    char *u = NULL;
    eous_err e;
    if (wd_get_url(m->b.session, &u, &e))
        return strdup("");
    return u;
}

/* Rules on action for a cookie (kind "cookie") or a storage key named name (NULL: every one), on domain
 * (NULL: the page's). */
static eous_rc storage_check(mcp_server *m, const char *kind, const char *action, const char *name, const char *domain,
                             int secure, eous_err *err)
{
    char *url = page_url(m);
    eous_rc rc = EOUS_OK;
    if (domain && *domain) {
        char site[600];
        snprintf(site, sizeof site, "%s://%s/", secure ? "https" : "http", domain + (domain[0] == '.'));
        if ((rc = act_policy_check_url(m->policy, site, err)))
            eous_err_prefix(err, "cookie for %s", domain);
    }
    const char *confirm = NULL;
    if (!rc)
        rc = act_policy_check_action(m->policy, kind, name, action, NULL, url, &confirm, err);
    if (!rc && confirm) {
        char what[400];
        snprintf(what, sizeof what, "%s %.200s", action, name ? name : "(every cookie)");
        rc = act_policy_confirm(m->policy, confirm, what, err);
    }
    free(url);
    return rc;
}

static cJSON *all_cookies(mcp_server *m, eous_err *err)
{
    cJSON *v = NULL;
    if (wd_cdp(m->b.session, "Network.getAllCookies", NULL, &v, err))
        return NULL;
    cJSON *arr = cJSON_DetachItemFromObjectCaseSensitive(v, "cookies");
    cJSON_Delete(v);
    if (!cJSON_IsArray(arr)) {
        cJSON_Delete(arr);
        eous_err_set(err, EOUS_E_INFRA, "the browser sent no cookie list");
        return NULL;
    }
    return arr;
}

static void cookie_line(const cJSON *c, eous_buf *out)
{
    double exp = eous_json_num(c, "expires", -1);
    const char *ss = eous_json_str(c, "sameSite");
    char when[48] = "session";
    if (exp > 0) {
        time_t t = (time_t)exp;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "expires %Y-%m-%dT%H:%M:%SZ", &tm);
    }
    eous_buf_printf(out, NULL, "- %s=%s (domain %s, path %s, %s%s%s, sameSite %s)\n", eous_json_str(c, "name"),
                    eous_json_str(c, "value") ? eous_json_str(c, "value") : "", eous_json_str(c, "domain"),
                    eous_json_str(c, "path"), when, eous_json_bool(c, "httpOnly", 0) ? ", httpOnly" : "",
                    eous_json_bool(c, "secure", 0) ? ", secure" : "", ss ? ss : "Lax");
}

static int cookie_matches(const cJSON *c, const char *name, const char *domain, const char *path)
{
    const char *n = eous_json_str(c, "name"), *d = eous_json_str(c, "domain"), *p = eous_json_str(c, "path");
    if (name && (!n || strcmp(n, name)))
        return 0;
    if (domain && *domain) {
        const char *want = domain + (domain[0] == '.'), *have = d ? d + (d[0] == '.') : "";
        size_t lw = strlen(want), lh = strlen(have);
        /* the domain itself or a subdomain of it */
        if (lh < lw || strcmp(have + lh - lw, want) || (lh > lw && have[lh - lw - 1] != '.'))
            return 0;
    }
    if (path && *path && (!p || strncmp(p, path, strlen(path))))
        return 0;
    return 1;
}

static eous_rc cookies_listed(mcp_server *m, const char *tool, const char *name, const char *domain, const char *path,
                              eous_buf *out, eous_err *err)
{
    eous_rc rc = storage_ready(m, tool, err);
    cJSON *arr = rc ? NULL : all_cookies(m, err), *c;
    if (!arr)
        return rc ? rc : err->rc;
    int n = 0;
    cJSON_ArrayForEach(c, arr) if (cookie_matches(c, name, domain, path)) {
        cookie_line(c, out);
        n++;
    }
    cJSON_Delete(arr);
    if (!n && name)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "%s: no cookie named '%.100s'", tool, name);
    if (!n)
        eous_buf_puts(out, "no cookies\n", NULL);
    return EOUS_OK;
}

static eous_rc tool_cookie_list(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    return cookies_listed(m, "browser_cookie_list", NULL, eous_json_str(args, "domain"), eous_json_str(args, "path"),
                          &out->text, err);
}

static eous_rc tool_cookie_get(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *name = eous_json_str(args, "name");
    if (!name || !*name)
        return eous_err_set(err, EOUS_E_INVALID, "browser_cookie_get: expected {name}");
    return cookies_listed(m, "browser_cookie_get", name, NULL, NULL, &out->text, err);
}

static eous_rc tool_cookie_set(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *name = eous_json_str(args, "name"), *value = eous_json_str(args, "value");
    const char *domain = eous_json_str(args, "domain"), *path = eous_json_str(args, "path");
    const char *ss = eous_json_str(args, "sameSite");
    if (!name || !*name || !value || (ss && strcmp(ss, "Strict") && strcmp(ss, "Lax") && strcmp(ss, "None")))
        return eous_err_set(err, EOUS_E_INVALID, "browser_cookie_set: expected {name, value, domain?, path?, expires?: "
                                                 "Unix seconds, httpOnly?, secure?, sameSite?: Strict|Lax|None}");
    eous_rc rc = storage_ready(m, "browser_cookie_set", err);
    char *url = rc ? NULL : page_url(m);
    if (!rc && (!domain || !*domain) && strncmp(url, "http", 4))
        rc = eous_err_set(err, EOUS_E_INVALID, "browser_cookie_set: the page is %s: name the cookie's {domain}", url);
    if (!rc)
        rc = storage_check(m, "cookie", "cookie_set", name, domain, eous_json_bool(args, "secure", 0), err);
    if (rc) {
        free(url);
        return rc;
    }
    cJSON *p = cJSON_CreateObject(), *v = NULL;
    cJSON_AddStringToObject(p, "name", name);
    cJSON_AddStringToObject(p, "value", value);
    if (domain && *domain)
        cJSON_AddStringToObject(p, "domain", domain);
    else
        cJSON_AddStringToObject(p, "url", url);
    cJSON_AddStringToObject(p, "path", path && *path ? path : "/");
    if (eous_json_num(args, "expires", -1) > 0)
        cJSON_AddNumberToObject(p, "expires", eous_json_num(args, "expires", -1));
    cJSON_AddBoolToObject(p, "httpOnly", eous_json_bool(args, "httpOnly", 0));
    cJSON_AddBoolToObject(p, "secure", eous_json_bool(args, "secure", 0));
    if (ss)
        cJSON_AddStringToObject(p, "sameSite", ss);
    rc = wd_cdp(m->b.session, "Network.setCookie", p, &v, err);
    if (!rc && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(v, "success")))
        rc = eous_err_set(err, EOUS_E_PAGE, "browser_cookie_set: the browser refused the cookie (a secure-only or "
                                            "SameSite=None cookie needs secure; a domain the page cannot set)");
    cJSON_Delete(p);
    cJSON_Delete(v);
    audit(m, "cookie_set", url, rc, rc ? err->msg : name);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "set cookie %s for %s\n", name, domain && *domain ? domain : url);
    free(url);
    return rc;
}

static eous_rc tool_cookie_delete(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    const char *name = eous_json_str(args, "name");
    if (!name || !*name)
        return eous_err_set(err, EOUS_E_INVALID, "browser_cookie_delete: expected {name}");
    eous_rc rc = storage_ready(m, "browser_cookie_delete", err);
    if (!rc)
        rc = storage_check(m, "cookie", "cookie_delete", name, NULL, 0, err);
    cJSON *arr = rc ? NULL : all_cookies(m, err), *c;
    if (!arr)
        return rc ? rc : err->rc;
    int n = 0;
    cJSON_ArrayForEach(c, arr) if (!rc && cookie_matches(c, name, NULL, NULL)) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", name);
        cJSON_AddStringToObject(p, "domain", eous_json_str(c, "domain"));
        cJSON_AddStringToObject(p, "path", eous_json_str(c, "path"));
        rc = wd_cdp(m->b.session, "Network.deleteCookies", p, NULL, err);
        cJSON_Delete(p);
        n++;
    }
    cJSON_Delete(arr);
    if (!rc && !n)
        return eous_err_set(err, EOUS_E_NOT_FOUND, "browser_cookie_delete: no cookie named '%.100s'", name);
    audit(m, "cookie_delete", m->obs ? perc_obs_url(m->obs) : "", rc, rc ? err->msg : name);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "deleted cookie %s (%d of that name)\n", name, n);
    return rc;
}

static eous_rc tool_cookie_clear(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)args;
    eous_rc rc = storage_ready(m, "browser_cookie_clear", err);
    if (!rc)
        rc = storage_check(m, "cookie", "cookie_clear", NULL, NULL, 0, err);
    if (!rc)
        rc = wd_cdp(m->b.session, "Network.clearBrowserCookies", NULL, NULL, err);
    audit(m, "cookie_clear", m->obs ? perc_obs_url(m->obs) : "", rc, rc ? err->msg : "every cookie");
    if (!rc)
        eous_buf_puts(&out->text, "cleared every cookie\n", NULL);
    return rc;
}

/* browser_localstorage_* / browser_sessionstorage_* (Playwright MCP's {key?, value?}): the current page's
 * origin's Web Storage; a write is checked by the rules (action localstorage_set, sessionstorage_clear...,
 * kind "storage", label the key) and audited. */
static eous_rc web_storage(mcp_server *m, const char *area, const char *op, const cJSON *args, mcp_tool_out *out,
                           eous_err *err)
{
    char tool[64], action[48];
    snprintf(tool, sizeof tool, "browser_%sstorage_%s", area, op);
    snprintf(action, sizeof action, "%sstorage_%s", area, op);
    const char *key = eous_json_str(args, "key"), *value = eous_json_str(args, "value");
    int keyed = strcmp(op, "list") && strcmp(op, "clear");
    if ((keyed && (!key || !*key)) || (!strcmp(op, "set") && !value))
        return eous_err_set(err, EOUS_E_INVALID, "%s: expected {key%s}", tool, !strcmp(op, "set") ? ", value" : "");
    eous_rc rc = mcp_ensure_browser(m, err);
    int writes = strcmp(op, "list") && strcmp(op, "get");
    if (!rc && writes)
        rc = storage_check(m, "storage", action, key, NULL, 0, err);
    cJSON *a = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(a, cJSON_CreateString(area));
    cJSON_AddItemToArray(a, cJSON_CreateString(op));
    cJSON_AddItemToArray(a, key ? cJSON_CreateString(key) : cJSON_CreateNull());
    cJSON_AddItemToArray(a, value ? cJSON_CreateString(value) : cJSON_CreateNull());
    if (!rc)
        rc = wd_execute(m->b.session, MCP_CAPS_WEBSTORAGE_JS, a, &v, err);
    cJSON_Delete(a);
    if (!rc && !cJSON_IsObject(v))
        rc = eous_err_set(err, EOUS_E_INVALID, "%s: the page has no http(s) origin", tool);
    if (!rc && !strcmp(op, "get") && !eous_json_bool(v, "found", 0))
        rc = eous_err_set(err, EOUS_E_NOT_FOUND, "%s: %s has no key '%.100s'", tool, eous_json_str(v, "origin"), key);
    if (writes && (!rc || rc == EOUS_E_POLICY))
        audit(m, action, eous_json_str(v, "origin"), rc, rc ? err->msg : key ? key : "every key");
    if (!rc && !strcmp(op, "get")) {
        eous_buf_printf(&out->text, NULL, "%s=%s\n", key, eous_json_str(v, "value"));
    } else if (!rc && !strcmp(op, "list")) {
        const cJSON *it;
        eous_buf_printf(&out->text, NULL, "%sStorage of %s:\n", area, eous_json_str(v, "origin"));
        cJSON_ArrayForEach(it, eous_json_arr(v, "items"))
            eous_buf_printf(&out->text, NULL, "- %s=%s\n", eous_json_str(it, "name"), eous_json_str(it, "value"));
        if (!cJSON_GetArraySize(eous_json_arr(v, "items")))
            eous_buf_puts(&out->text, "(empty)\n", NULL);
    } else if (!rc && keyed) {
        eous_buf_printf(&out->text, NULL, "%s %s %s %sStorage of %s\n", !strcmp(op, "set") ? "set" : "deleted", key,
                        !strcmp(op, "set") ? "in" : "from", area, eous_json_str(v, "origin"));
    } else if (!rc) {
        eous_buf_printf(&out->text, NULL, "cleared %sStorage of %s\n", area, eous_json_str(v, "origin"));
    }
    cJSON_Delete(v);
    return rc;
}

#define WEB_STORAGE_TOOL(area, op)                                                                                     \
    static eous_rc tool_##area##storage_##op(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)      \
    {                                                                                                                  \
        return web_storage(m, #area, #op, args, out, err);                                                             \
    }
WEB_STORAGE_TOOL(local, list)
WEB_STORAGE_TOOL(local, get)
WEB_STORAGE_TOOL(local, set)
WEB_STORAGE_TOOL(local, delete)
WEB_STORAGE_TOOL(local, clear)
WEB_STORAGE_TOOL(session, list)
WEB_STORAGE_TOOL(session, get)
WEB_STORAGE_TOOL(session, set)
WEB_STORAGE_TOOL(session, delete)
WEB_STORAGE_TOOL(session, clear)

/* A CDP cookie as Playwright's storageState writes it. */
static cJSON *cookie_to_state(const cJSON *c)
{
    cJSON *o = cJSON_CreateObject();
    static const char *const strs[] = {"name", "value", "domain", "path"};
    for (size_t i = 0; i < 4; i++)
        cJSON_AddStringToObject(o, strs[i], eous_json_str(c, strs[i]) ? eous_json_str(c, strs[i]) : "");
    cJSON_AddNumberToObject(o, "expires", eous_json_bool(c, "session", 0) ? -1 : eous_json_num(c, "expires", -1));
    cJSON_AddBoolToObject(o, "httpOnly", eous_json_bool(c, "httpOnly", 0));
    cJSON_AddBoolToObject(o, "secure", eous_json_bool(c, "secure", 0));
    const char *ss = eous_json_str(c, "sameSite");
    cJSON_AddStringToObject(o, "sameSite", ss ? ss : "Lax");
    return o;
}

static eous_rc tool_storage_state(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    char path[PATH_MAX];
    eous_rc rc;
    if ((rc = out_path(m, "browser_storage_state", eous_json_str(args, "filename"), "storage-state", "json", path,
                       sizeof path, err)) ||
        (rc = storage_ready(m, "browser_storage_state", err)))
        return rc;
    cJSON *cookies = all_cookies(m, err), *c, *local = NULL;
    if (!cookies)
        return err->rc;
    cJSON *state = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(state, "cookies");
    cJSON_ArrayForEach(c, cookies) cJSON_AddItemToArray(arr, cookie_to_state(c));
    cJSON *origins = cJSON_AddArrayToObject(state, "origins"), *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateString("read"));
    rc = wd_execute(m->b.session, MCP_CAPS_STORAGE_JS, a, &local, err);
    cJSON_Delete(a);
    int n_items = cJSON_GetArraySize(eous_json_arr(local, "items"));
    if (!rc && eous_json_str(local, "origin")) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "origin", eous_json_str(local, "origin"));
        cJSON_AddItemToObject(o, "localStorage", cJSON_Duplicate(eous_json_arr(local, "items"), 1));
        cJSON_AddItemToArray(origins, o);
    }
    char *text = rc ? NULL : cJSON_Print(state);
    if (!rc)
        rc = text ? write_whole(path, text, strlen(text), err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (!rc)
        eous_buf_printf(&out->text, NULL, "saved the storage state to %s: %d cookies, localStorage of %s (%d keys)\n",
                        path, cJSON_GetArraySize(cookies),
                        eous_json_str(local, "origin") ? eous_json_str(local, "origin") : "no origin (not an http(s) page)",
                        n_items);
    free(text);
    cJSON_Delete(local);
    cJSON_Delete(cookies);
    cJSON_Delete(state);
    return rc ? eous_err_prefix(err, "browser_storage_state") : EOUS_OK;
}

/* The state file in the output folder, checked whole before anything is applied. */
static cJSON *state_read(mcp_server *m, const char *name, char *path, size_t n, eous_err *err)
{
    if (!name || !*name) {
        eous_err_set(err, EOUS_E_INVALID, "browser_set_storage_state: expected {filename}: a file in the output folder");
        return NULL;
    }
    if (out_path(m, "browser_set_storage_state", name, NULL, NULL, path, n, err))
        return NULL;
    struct stat st;
    int missing = lstat(path, &st) != 0;
    if (missing || !S_ISREG(st.st_mode)) {
        eous_err_set(err, EOUS_E_INVALID, "browser_set_storage_state: %s: %s", path,
                     missing ? "no such file" : "not a regular file (a symlink or folder is not read)");
        return NULL;
    }
    cJSON *state = eous_json_parse_file(path, STATE_MAX_BYTES, err), *c, *o, *it;
    if (!state)
        return NULL;
    const cJSON *cookies = eous_json_arr(state, "cookies"), *origins = eous_json_arr(state, "origins");
    const char *bad = !cJSON_IsObject(state) || (!cookies && cJSON_GetObjectItem(state, "cookies")) ||
                              (!origins && cJSON_GetObjectItem(state, "origins"))
                          ? "expected {cookies: [...], origins: [...]}"
                          : NULL;
    cJSON_ArrayForEach(c, cookies) if (!bad && (!eous_json_str(c, "name") || !eous_json_str(c, "value") ||
                                                !eous_json_str(c, "domain")))
        bad = "a cookie without its name, value or domain";
    cJSON_ArrayForEach(o, origins) {
        const char *origin = eous_json_str(o, "origin");
        if (!bad && (!origin || strncmp(origin, "http", 4) || !eous_json_arr(o, "localStorage")))
            bad = "an origin without its http(s) origin or its localStorage list";
        cJSON_ArrayForEach(it, eous_json_arr(o, "localStorage")) if (!bad && (!eous_json_str(it, "name") ||
                                                                             !eous_json_str(it, "value")))
            bad = "a localStorage item without its name or value (strings)";
    }
    if (bad) {
        eous_err_set(err, EOUS_E_INVALID, "browser_set_storage_state: %s: %s (Playwright's storageState format)",
                     path, bad);
        cJSON_Delete(state);
        return NULL;
    }
    return state;
}

/* Every cookie of state checked by the policy, then the browser's replaced by them. */
static eous_rc state_cookies(mcp_server *m, const cJSON *state, eous_err *err)
{
    const cJSON *c;
    eous_rc rc = EOUS_OK;
    cJSON_ArrayForEach(c, eous_json_arr(state, "cookies")) if (!rc)
        rc = storage_check(m, "cookie", "storage_state_load", eous_json_str(c, "name"), eous_json_str(c, "domain"),
                           eous_json_bool(c, "secure", 0), err);
    if (rc || (rc = wd_cdp(m->b.session, "Network.clearBrowserCookies", NULL, NULL, err)))
        return rc;
    cJSON *p = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(p, "cookies");
    cJSON_ArrayForEach(c, eous_json_arr(state, "cookies")) {
        cJSON *o = cJSON_Duplicate(c, 1);
        if (eous_json_num(o, "expires", -1) <= 0)
            cJSON_DeleteItemFromObjectCaseSensitive(o, "expires"); /* a session cookie */
        cJSON_AddItemToArray(arr, o);
    }
    rc = wd_cdp(m->b.session, "Network.setCookies", p, NULL, err);
    cJSON_Delete(p);
    return rc;
}

/* Each origin's localStorage: the current page's now, any other's at its first page in this tab. */
static eous_rc state_origins(mcp_server *m, const cJSON *state, eous_buf *said, eous_err *err)
{
    cJSON *a = cJSON_CreateArray(), *cur = NULL;
    cJSON_AddItemToArray(a, cJSON_CreateString("read"));
    eous_rc rc = wd_execute(m->b.session, MCP_CAPS_STORAGE_JS, a, &cur, err);
    cJSON_Delete(a);
    const char *here = eous_json_str(cur, "origin");
    char nonce[40];
    snprintf(nonce, sizeof nonce, "%lx-%lx", (unsigned long)time(NULL), (unsigned long)random());
    const cJSON *o;
    cJSON_ArrayForEach(o, eous_json_arr(state, "origins")) if (!rc) {
        const char *origin = eous_json_str(o, "origin");
        const cJSON *items = eous_json_arr(o, "localStorage");
        if (here && !strcmp(here, origin)) {
            cJSON *w = cJSON_CreateArray(), *v = NULL;
            cJSON_AddItemToArray(w, cJSON_CreateString("write"));
            cJSON_AddItemToArray(w, cJSON_Duplicate(items, 1));
            rc = wd_execute(m->b.session, MCP_CAPS_STORAGE_JS, w, &v, err);
            cJSON_Delete(w);
            cJSON_Delete(v);
            eous_buf_printf(said, NULL, "; localStorage of %s (%d keys) set on this page", origin,
                            cJSON_GetArraySize(items));
            continue;
        }
        char *jo = eous_json_print(cJSON_GetObjectItemCaseSensitive(o, "origin")), *ji = eous_json_print(items);
        eous_buf src;
        eous_buf_init(&src, 0);
        eous_buf_printf(&src, NULL, "%s(%s, %s, \"%s\");", MCP_CAPS_SEED_JS, jo ? jo : "\"\"", ji ? ji : "[]", nonce);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "source", src.data ? src.data : "");
        rc = wd_cdp(m->b.session, "Page.addScriptToEvaluateOnNewDocument", p, NULL, err);
        cJSON_Delete(p);
        eous_buf_free(&src);
        free(jo);
        free(ji);
        eous_buf_printf(said, NULL, "; localStorage of %s (%d keys) set at its first page in this tab", origin,
                        cJSON_GetArraySize(items));
    }
    cJSON_Delete(cur);
    return rc;
}

static eous_rc tool_set_storage_state(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    char path[PATH_MAX];
    eous_rc rc = storage_ready(m, "browser_set_storage_state", err);
    cJSON *state = rc ? NULL : state_read(m, eous_json_str(args, "filename"), path, sizeof path, err);
    if (!state)
        return rc ? rc : err->rc;
    eous_buf said;
    eous_buf_init(&said, 0);
    rc = state_cookies(m, state, err);
    if (!rc)
        rc = state_origins(m, state, &said, err);
    char *url = page_url(m);
    audit(m, "storage_state_load", url, rc, rc ? err->msg : path);
    free(url);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "restored the storage state from %s: %d cookies (the browser's others "
                        "cleared)%s\n", path, cJSON_GetArraySize(eous_json_arr(state, "cookies")),
                        said.data ? said.data : "");
    eous_buf_free(&said);
    cJSON_Delete(state);
    return rc ? eous_err_prefix(err, "browser_set_storage_state") : EOUS_OK;
}

/* ---- --caps tracing: a Chromium trace ------------------------------------------
 * browser_start_tracing / browser_stop_tracing (Playwright MCP's names, no
 * arguments; stop takes filename?).  goog/cdp/execute delivers no CDP events,
 * and a trace ends in one (Tracing.tracingComplete), so eous opens its own
 * DevTools connection to the browser (its debuggerAddress, loopback only): a
 * WebSocket held from start to stop, the browser-wide Tracing domain with the
 * categories DevTools' Performance panel records, the trace read back through
 * IO.read as JSON trace events (what Perfetto and chrome://tracing open),
 * through the redactor, into the output folder. */

#define TRACE_CATEGORIES                                                                                              \
    "[\"devtools.timeline\",\"disabled-by-default-devtools.timeline\",\"disabled-by-default-devtools.timeline.frame\"," \
    "\"disabled-by-default-devtools.timeline.stack\",\"toplevel\",\"blink.console\",\"blink.user_timing\","           \
    "\"latencyInfo\",\"loading\",\"v8.execute\",\"disabled-by-default-v8.cpu_profiler\"]"

static eous_rc tool_start_tracing(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    struct mcp_caps_state *st = caps_state(m, err);
    eous_rc rc;
    char path[PATH_MAX];
    if (!st)
        return err->rc;
    if (st->dt.fd >= 0 && !mcp_devtools_alive(&st->dt))
        mcp_devtools_close(&st->dt); /* the browser it traced has stopped since */
    if (st->dt.fd >= 0)
        return eous_err_set(err, EOUS_E_INVALID, "browser_start_tracing: a trace is already recording (stop it with "
                                                 "browser_stop_tracing)");
    if ((rc = out_path(m, "browser_start_tracing", eous_json_str(args, "filename"), "trace", "json", path, sizeof path,
                       err)) ||
        (rc = mcp_ensure_browser(m, err)) || (rc = mcp_devtools_open(m->b.session, "browser_start_tracing", &st->dt, err)))
        return rc;
    cJSON *p = cJSON_CreateObject(), *cfg = cJSON_AddObjectToObject(p, "traceConfig");
    cJSON_AddStringToObject(cfg, "recordMode", "recordUntilFull");
    cJSON_AddItemToObject(cfg, "includedCategories", cJSON_Parse(TRACE_CATEGORIES));
    cJSON_AddStringToObject(p, "transferMode", "ReturnAsStream");
    cJSON_AddStringToObject(p, "streamFormat", "json");
    rc = mcp_devtools_call(&st->dt, "Tracing.start", p, NULL, NULL, NULL, err);
    cJSON_Delete(p);
    if (rc) {
        mcp_devtools_close(&st->dt);
        return eous_err_prefix(err, "browser_start_tracing");
    }
    snprintf(st->trace_path, sizeof st->trace_path, "%s", path);
    st->trace_t0 = eous_now_ms();
    eous_buf_printf(&out->text, NULL, "tracing started (the whole browser); browser_stop_tracing writes it to %s\n",
                    path);
    return EOUS_OK;
}

/* The trace's stream, read whole into out. */
static eous_rc trace_read(struct mcp_caps_state *st, const char *handle, eous_buf *out, eous_err *err)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "handle", handle);
    cJSON_AddNumberToObject(p, "size", 1 << 20);
    eous_rc rc = EOUS_OK;
    for (int eof = 0; !rc && !eof;) {
        cJSON *r = NULL;
        if ((rc = mcp_devtools_call(&st->dt, "IO.read", p, &r, NULL, NULL, err)))
            break;
        const char *data = eous_json_str(r, "data");
        eof = eous_json_bool(r, "eof", 1);
        if (data && eous_json_bool(r, "base64Encoded", 0)) {
            unsigned char *bin = NULL;
            size_t n = 0;
            if (!(rc = eous_base64_decode(data, &bin, &n, err)))
                rc = eous_buf_append(out, bin, n, err);
            free(bin);
        } else if (data) {
            rc = eous_buf_puts(out, data, err);
        }
        cJSON_Delete(r);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(p, "size");
    mcp_devtools_call(&st->dt, "IO.close", p, NULL, NULL, NULL, NULL);
    cJSON_Delete(p);
    return rc;
}

static eous_rc tool_stop_tracing(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)args;
    struct mcp_caps_state *st = caps_state(m, err);
    if (!st)
        return err->rc;
    if (st->dt.fd < 0)
        return eous_err_set(err, EOUS_E_INVALID, "browser_stop_tracing: no trace is recording (browser_start_tracing "
                                                 "starts one)");
    cJSON *done = NULL;
    eous_buf trace;
    eous_buf_init(&trace, MCP_DEVTOOLS_MAX_MESSAGE * 4);
    mcp_progress(m, 0, 0, "collecting the trace");
    eous_rc rc = mcp_devtools_call(&st->dt, "Tracing.end", NULL, NULL, "Tracing.tracingComplete", &done, err);
    if (!rc && !done)
        rc = mcp_devtools_event(&st->dt, "Tracing.tracingComplete", &done, err);
    const char *handle = eous_json_str(eous_json_obj(done, "params"), "stream");
    if (!rc && !handle)
        rc = eous_err_set(err, EOUS_E_INFRA, "the browser's trace came without its stream");
    if (!rc)
        rc = trace_read(st, handle, &trace, err);
    char *safe = !rc && trace.data ? eous_redact(trace.data) : NULL; /* URLs with credentials, secrets */
    if (!rc && !safe)
        rc = eous_err_set(err, EOUS_E_INFRA, "the browser's trace was empty");
    if (!rc)
        rc = write_whole(st->trace_path, safe, strlen(safe), err);
    if (!rc)
        eous_buf_printf(&out->text, NULL, "saved the trace (%.1f s, %zu bytes, JSON trace events: open it in "
                        "https://ui.perfetto.dev or chrome://tracing) to %s%s\n",
                        (eous_now_ms() - st->trace_t0) / 1000, strlen(safe), st->trace_path,
                        eous_json_bool(eous_json_obj(done, "params"), "dataLossOccurred", 0)
                            ? " (the browser's buffer filled: the trace's end is missing)" : "");
    free(safe);
    cJSON_Delete(done);
    eous_buf_free(&trace);
    mcp_devtools_close(&st->dt);
    return rc ? eous_err_prefix(err, "browser_stop_tracing") : EOUS_OK;
}

/* ---- the table ------------------------------------------------------------------ */

#define OBJ(props) "{\"type\":\"object\",\"properties\":{" props "}}"
#define OBJ_REQ(props, req) "{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req "]}"
#define STR(name, what) "\"" name "\":{\"type\":\"string\",\"description\":\"" what "\"}"
#define NUM(name, what) "\"" name "\":{\"type\":\"number\",\"description\":\"" what "\"}"
#define BOOL(name, what) "\"" name "\":{\"type\":\"boolean\",\"description\":\"" what "\"}"
#define FILE_PROP STR("filename", "a file name in the session's output folder (default: a timestamped one)")

#define KEY_PROP STR("key", "the key")
#define WS_ROWS(area, Area) /* area: local or session */                                                                                            \
    {"browser_" #area "storage_list", "List the current page's " Area ".", OBJ(""), 1, tool_##area##storage_list, 0,   \
     "storage"},                                                                                                       \
    {"browser_" #area "storage_get", "One item of the current page's " Area ".", OBJ_REQ(KEY_PROP, "\"key\""), 1,     \
     tool_##area##storage_get, 0, "storage"},                                                                          \
    {"browser_" #area "storage_set", "Set an item of the current page's " Area ".",                                     \
     OBJ_REQ(KEY_PROP "," STR("value", "the value"), "\"key\",\"value\""), 0, tool_##area##storage_set, 0, "storage"}, \
    {"browser_" #area "storage_delete", "Delete an item of the current page's " Area ".", OBJ_REQ(KEY_PROP, "\"key\""),\
     0, tool_##area##storage_delete, 0, "storage"},                                                                    \
    {"browser_" #area "storage_clear", "Clear the current page's " Area ".", OBJ(""), 0, tool_##area##storage_clear, 0, \
     "storage"}

static const mcp_tool_def caps_tools[] = {
    {"browser_drag",
     "Drag one element onto another (HTML5 drag and drop, or a pointer drag for sortables). Returns the new view.",
     OBJ_REQ(STR("startElement", "what the dragged element is, in words") "," STR("startRef", "its id from the view, or role 'name' (e.g. region 'Done')")
             "," STR("endElement", "what the drop target is, in words") "," STR("endRef", "its id from the view, or role 'name'"),
             "\"startRef\",\"endRef\""),
     0, tool_drag, 0, NULL},
    {"browser_pdf_save", "Save the page as a PDF in the session's output folder (secret fields blurred); the answer "
                         "names the file.",
     OBJ(FILE_PROP), 1, tool_pdf_save, 0, "pdf"},
    {"browser_mouse_move_xy", "Move the mouse to a point of the viewport (the screenshot's pixels).",
     OBJ_REQ(STR("element", "what is there, in words") "," NUM("x", "X coordinate") "," NUM("y", "Y coordinate"),
             "\"x\",\"y\""),
     0, tool_mouse_move, 0, "vision"},
    {"browser_mouse_click_xy",
     "Click at a point of the viewport (the screenshot's pixels); what is there is checked as a click on it would be.",
     OBJ_REQ(STR("element", "what is there, in words") "," NUM("x", "X coordinate") "," NUM("y", "Y coordinate") ","
             "\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"right\",\"middle\"]}," NUM("clickCount", "1 to 3")
             "," NUM("delay", "ms between press and release"),
             "\"x\",\"y\""),
     0, tool_mouse_click, 0, "vision"},
    {"browser_mouse_drag_xy", "Drag with the left button from one point of the viewport to another.",
     OBJ_REQ(STR("element", "what is dragged, in words") "," NUM("startX", "start X") "," NUM("startY", "start Y") ","
             NUM("endX", "end X") "," NUM("endY", "end Y"),
             "\"startX\",\"startY\",\"endX\",\"endY\""),
     0, tool_mouse_drag, 0, "vision"},
    {"browser_mouse_down", "Press a mouse button where the mouse is (browser_mouse_move_xy puts it there); it stays "
                           "down until browser_mouse_up.",
     OBJ("\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"right\",\"middle\"],\"description\":\"defaults to left\"}"), 0,
     tool_mouse_down, 0, "vision"},
    {"browser_mouse_up", "Release a mouse button pressed with browser_mouse_down, where the mouse is now.",
     OBJ("\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"right\",\"middle\"],\"description\":\"defaults to left\"}"), 0,
     tool_mouse_up, 0, "vision"},
    {"browser_mouse_wheel", "Scroll the mouse wheel where the mouse is; what is under it scrolls.",
     OBJ(NUM("deltaX", "X delta in pixels, default 0") "," NUM("deltaY", "Y delta in pixels, default 0")), 0,
     tool_mouse_wheel, 0, "vision"},
    {"browser_cookie_list", "List the browser's cookies, optionally of a domain (and its subdomains) or a path.",
     OBJ(STR("domain", "e.g. example.com") "," STR("path", "a path prefix")), 1, tool_cookie_list, 0, "storage"},
    {"browser_cookie_get", "The cookies of a name.", OBJ_REQ(STR("name", "the cookie's name"), "\"name\""), 1,
     tool_cookie_get, 0, "storage"},
    {"browser_cookie_set", "Set a cookie (for the page's site unless domain says another).",
     OBJ_REQ(STR("name", "name") "," STR("value", "value") "," STR("domain", "domain") "," STR("path", "path") ","
             NUM("expires", "Unix time in seconds; absent: a session cookie") "," BOOL("httpOnly", "HTTP only") ","
             BOOL("secure", "HTTPS only") ",\"sameSite\":{\"type\":\"string\",\"enum\":[\"Strict\",\"Lax\",\"None\"]}",
             "\"name\",\"value\""),
     0, tool_cookie_set, 0, "storage"},
    {"browser_cookie_delete", "Delete the cookies of a name.", OBJ_REQ(STR("name", "the cookie's name"), "\"name\""), 0,
     tool_cookie_delete, 0, "storage"},
    {"browser_cookie_clear", "Delete every cookie.", OBJ(""), 0, tool_cookie_clear, 0, "storage"},
    WS_ROWS(local, "localStorage"),
    WS_ROWS(session, "sessionStorage"),
    {"browser_storage_state",
     "Save the cookies and the page's localStorage to a file in the output folder (Playwright's storageState format).",
     OBJ(FILE_PROP), 1, tool_storage_state, 0, "storage"},
    {"browser_set_storage_state",
     "Restore cookies and localStorage from a storage state file in the output folder (the browser's cookies are "
     "cleared first).",
     OBJ_REQ(STR("filename", "a file in the session's output folder"), "\"filename\""), 0, tool_set_storage_state, 0,
     "storage"},
    {"browser_start_tracing", "Start recording a Chromium trace of the whole browser.", OBJ(FILE_PROP), 1,
     tool_start_tracing, 0, "tracing"},
    {"browser_stop_tracing", "Stop the trace and save it (JSON trace events, for Perfetto); the answer names the file.",
     OBJ(""), 1, tool_stop_tracing, 0, "tracing"},
};

const mcp_tool_table mcp_caps_tools = {caps_tools, sizeof caps_tools / sizeof caps_tools[0]};
