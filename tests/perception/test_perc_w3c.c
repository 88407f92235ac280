/* tests/perception/test_perc_w3c.c — perception and actions on a W3C-only session (no
 * CDP: the tree is computed in the page by perception/axtree.js) next to the
 * CDP session on the same chromedriver; shadow DOM and frames on both. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "actions/exec.h"
#include "perception/perc.h"
#include "support/browser.h"

static ts_browser B;     /* CDP session */
static wd_session *W;    /* W3C-only session on the same driver */

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, NULL), 0, "browser start failed");
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.w3c_only = 1;
    eous_err err;
    cr_assert_eq(wd_session_new(wd_driver_url(B.driver), &o, &W, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(wd_session_has_cdp(W), 0);
}

static void teardown(void)
{
    wd_session_free(W);
    W = NULL;
    ts_browser_stop(&B);
}

TestSuite(perc_w3c, .init = setup, .fini = teardown, .timeout = 180);

static perc_obs *observe_on(wd_session *s, const char *path, perc_mode mode)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(s, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    o.provider_timeout_ms = 500;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(s, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

static int has_warning(const perc_obs *obs, const char *needle)
{
    for (size_t i = 0; i < perc_obs_n_warnings(obs); i++)
        if (strstr(perc_obs_warning(obs, i), needle))
            return 1;
    return 0;
}

Test(perc_w3c, cdp_is_refused_on_a_w3c_only_session)
{
    cJSON *v = NULL;
    eous_err err;
    cr_assert_eq(wd_cdp(W, "Browser.getVersion", NULL, &v, &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "W3C-only"), "%s", err.msg);
    cr_assert_null(v);
}

Test(perc_w3c, hybrid_view_is_the_same_without_cdp)
{
    perc_obs *cdp = observe_on(B.session, "/ci4a.html", PERC_MODE_HYBRID);
    perc_obs *w3c = observe_on(W, "/ci4a.html", PERC_MODE_HYBRID);
    /* one registry component; the page's other fields are native components, the same through both paths */
    size_t n_ci4a = 0, n_native = 0;
    for (size_t i = 0; i < perc_obs_n_components(w3c); i++) {
        n_ci4a += !strcmp(perc_obs_component(w3c, i)->provider, "ci4a");
        n_native += !strcmp(perc_obs_component(w3c, i)->provider, "native");
    }
    cr_assert_eq(n_ci4a, 1);
    cr_assert_eq(n_native, perc_obs_n_components(cdp) - 1);
    /* Chromium gives a password field a text child of bullets (shown as
     * "[redacted]"); the in-page tree gives it none.  Otherwise identical. */
    char *want = strdup(perc_obs_text(cdp));
    for (char *p; (p = strstr(want, "\n\t[redacted]"));)
        memmove(p, p + 12, strlen(p + 12) + 1);
    cr_assert_str_eq(perc_obs_text(w3c), want);
    free(want);
    /* the triplet's root was found through the in-page marks */
    const perc_component *c = NULL;
    for (size_t i = 0; i < perc_obs_n_components(w3c); i++)
        if (!strcmp(perc_obs_component(w3c, i)->provider, "ci4a"))
            c = perc_obs_component(w3c, i);
    cr_assert(c);
    cr_assert_gt(c->backend_id, 0);
    cr_assert_null(strstr(perc_obs_text(w3c), "CalendarCellLeak"), "component subtree leaked");
    cr_assert_null(strstr(perc_obs_text(w3c), "PortalOptionLeak"), "portal leaked");
    /* the in-page path reads the page in one call: providers, tree and marks */
    cr_assert_eq(perc_obs_timings(w3c)->round_trips, 1, "providers, tree and marks in one script");
    /* through CDP: providers and marks in one script, AX tree; no snapshot, no frame tree without frames */
    cr_assert_eq(perc_obs_timings(cdp)->round_trips, 2);
    perc_obs_free(cdp);
    perc_obs_free(w3c);
}

Test(perc_w3c, hidden_and_secret_marks_hold_without_cdp)
{
    perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID, PERC_MODE_HTML};
    for (int i = 0; i < 4; i++) {
        perc_obs *obs = observe_on(W, "/ci4a.html", modes[i]);
        const char *t = perc_obs_text(obs);
        cr_assert_null(strstr(t, "HiddenTextLeak"), "%s: hidden text shown", perc_mode_name(modes[i]));
        cr_assert_null(strstr(t, "HiddenButton"), "%s: hidden button shown", perc_mode_name(modes[i]));
        cr_assert_null(strstr(t, "SecretTokenValue123"), "%s: secret region shown: %s", perc_mode_name(modes[i]), t);
        char *j = perc_obs_json(obs);
        cr_assert_null(strstr(j, "SecretTokenValue123"));
        cr_assert_null(strstr(j, "hunter2secret"), "%s: password value in the JSON", perc_mode_name(modes[i]));
        free(j);
        int b = 0;
        eous_err err;
        cr_assert_eq(perc_obs_find_role_name(obs, "button", "HiddenButton", 1, &b, &err), EOUS_E_NOT_FOUND);
        perc_obs_free(obs);
    }
}

/* What a CDP perceive asks the driver for, counted: a frameless page is the
 * providers' script (which reads the page marks too) and the AX tree; a page
 * with frames takes the marks from a DOMSnapshot, then the frame tree, and
 * per same-origin frame its owner and its tree.  The views are the same
 * either way, and a frame's content is in them. */
Test(perc_w3c, round_trips_of_a_perceive)
{
    perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID};
    const char *pages[] = {"/ci4a.html", "/marks.html"};
    for (int m = 0; m < 6; m++) {
        perc_obs *obs = observe_on(B.session, pages[m / 3], modes[m % 3]);
        cr_assert_eq(perc_obs_timings(obs)->round_trips, 2, "%s %s: %u round trips on a frameless page", pages[m / 3],
                     perc_mode_name(modes[m % 3]), perc_obs_timings(obs)->round_trips);
        /* the marks the script read are the snapshot's: the same view, byte for byte */
        perc_opts o;
        perc_opts_init(&o);
        o.mode = modes[m % 3];
        o.provider_timeout_ms = 500;
        o.snapshot_marks = 1;
        perc_obs *snap = NULL;
        eous_err err;
        cr_assert_eq(perc_observe(B.session, &o, &snap, &err), EOUS_OK, "%s", err.msg);
        cr_assert_eq(perc_obs_timings(snap)->round_trips, 3);
        cr_assert_str_eq(perc_obs_text(obs), perc_obs_text(snap), "%s %s", pages[m / 3], perc_mode_name(modes[m % 3]));
        /* and node by node, also what views do not print (a hidden node's children; actions read these) */
        cr_assert_eq(perc_obs_n_nodes(obs), perc_obs_n_nodes(snap));
        for (size_t i = 0; i < perc_obs_n_nodes(obs); i++) {
            const perc_node *a = perc_obs_node(obs, i), *b = perc_obs_node(snap, i);
            cr_assert(a->backend_id == b->backend_id && a->hidden == b->hidden && a->secret == b->secret &&
                          a->component == b->component && a->component_root == b->component_root,
                      "%s %s: node %zu (%s '%s', backend %d) marked otherwise: hidden %d/%d secret %d/%d "
                      "component %d/%d",
                      pages[m / 3], perc_mode_name(modes[m % 3]), i, a->role ? a->role : "", a->name ? a->name : "",
                      a->backend_id, a->hidden, b->hidden, a->secret, b->secret, a->component, b->component);
        }
        const char *t = perc_obs_text(obs);
        static const char *const leaks[] = {"HiddenTextLeak", "HiddenButton", "SecretTokenValue123",
                                            "SecretRegionValue42", "hunter2", "4111111111111111", "ShadowHiddenLeak"};
        for (size_t i = 0; i < sizeof leaks / sizeof *leaks; i++)
            cr_assert_null(strstr(t, leaks[i]), "%s %s: %s shown: %s", pages[m / 3], perc_mode_name(modes[m % 3]),
                           leaks[i], t);
        perc_obs_free(snap);
        perc_obs_free(obs);
    }
    /* a closed shadow root may hold marks no script reads: the snapshot's marks, one round trip more */
    perc_obs *obs = observe_on(B.session, "/marks_closed.html", PERC_MODE_ATOMIC);
    cr_assert_eq(perc_obs_timings(obs)->round_trips, 3);
    cr_assert(strstr(perc_obs_text(obs), "ClosedVisibleText"), "%s", perc_obs_text(obs));
    cr_assert_null(strstr(perc_obs_text(obs), "ClosedHiddenLeak"), "%s", perc_obs_text(obs));
    perc_obs_free(obs);
    obs = observe_on(B.session, "/frames.html", PERC_MODE_ATOMIC);
    /* script, snapshot, main tree, frame tree, the same-origin frame's owner and tree (the
     * cross-origin frame is another process: not in this target's frame tree) */
    cr_assert_eq(perc_obs_timings(obs)->round_trips, 6, "%u round trips with frames",
                 perc_obs_timings(obs)->round_trips);
    cr_assert(strstr(perc_obs_text(obs), "heading 'Second page'"), "same-origin frame content: %s",
              perc_obs_text(obs));
    perc_obs_free(obs);
}

/* Shadow DOM (open with a slot, closed), a same-origin and a cross-origin
 * frame: what each path sees, and that it says what it could not see. */
static void check_shadow_and_frames(wd_session *s, int closed_visible)
{
    perc_obs *obs = observe_on(s, "/frames.html", PERC_MODE_ATOMIC);
    const char *t = perc_obs_text(obs);
    cr_assert(strstr(t, "button 'ShadowButton'"), "open shadow root content: %s", t);
    cr_assert(strstr(t, "textbox 'ShadowField'"), "label inside the shadow root names the field: %s", t);
    cr_assert(strstr(t, "SlottedCaption"), "slotted light DOM: %s", t);
    cr_assert(strstr(t, "heading 'Second page'"), "same-origin frame content: %s", t);
    cr_assert(strstr(t, "Iframe 'Other origin frame'"), "%s", t);
    cr_assert(has_warning(obs, "perceived without its content"), "the cross-origin frame is reported");
    if (closed_visible)
        cr_assert(strstr(t, "ClosedShadowText"), "Chromium's tree shows closed shadow roots: %s", t);
    char *j = perc_obs_json(obs);
    cr_assert_null(strstr(j, "hunter2shadow"), "password inside a shadow root");
    cr_assert_null(strstr(t, "hunter2shadow"));
    free(j);
    /* the same-origin frame's nodes are marked as such (actions refuse them) */
    int b = 0;
    eous_err err;
    cr_assert_eq(perc_obs_find_role_name(obs, "heading", "Second page", 1, &b, &err), EOUS_OK, "%s", err.msg);
    cr_assert_gt(perc_obs_node_by_backend(obs, b)->frame, 0);
    perc_obs_free(obs);

    /* acting inside the shadow root: type into its field, click its button */
    act_exec *x = NULL;
    cr_assert_eq(act_exec_new(s, NULL, &x, &err), EOUS_OK, "%s", err.msg);
    const char *steps[] = {"{\"type\": \"textbox 'ShadowField'\", \"text\": \"typed in shadow\"}",
                           "{\"click\": \"button 'ShadowButton'\"}"};
    for (int i = 0; i < 2; i++) {
        obs = observe_on(s, "/frames.html", PERC_MODE_HYBRID);
        cJSON *j1 = cJSON_Parse(steps[i]);
        act_action a;
        act_action_init(&a);
        cr_assert_eq(act_parse_script_step(j1, &a, &err), EOUS_OK, "%s", err.msg);
        act_result r;
        memset(&r, 0, sizeof r);
        cr_assert_eq(act_execute(x, obs, &a, &r, &err), EOUS_OK, "%s: %s", steps[i], err.msg);
        cr_assert_eq(r.path, ACT_PATH_ATOMIC);
        if (i == 0) {
            cJSON *v = NULL;
            cr_assert_eq(wd_execute(s, "return document.getElementById('box').shadowRoot.getElementById('q').value;",
                                    NULL, &v, &err), EOUS_OK);
            cr_assert_str_eq(v->valuestring, "typed in shadow");
            cJSON_Delete(v);
        } else {
            perc_obs *after = NULL;
            perc_opts o;
            perc_opts_init(&o);
            cr_assert_eq(perc_observe(s, &o, &after, &err), EOUS_OK, "%s", err.msg);
            cr_assert(strstr(perc_obs_text(after), "clicks: 1"), "%s", perc_obs_text(after));
            perc_obs_free(after);
        }
        act_result_clear(&r);
        act_action_clear(&a);
        cJSON_Delete(j1);
        perc_obs_free(obs);
    }
    act_exec_free(x);
}

Test(perc_w3c, shadow_dom_and_frames_with_cdp)
{
    check_shadow_and_frames(B.session, 1);
}

Test(perc_w3c, shadow_dom_and_frames_without_cdp)
{
    check_shadow_and_frames(W, 0);
}

/* The html mode is written in the page from the DOM the browser built
 * (perception/html_view.js), not from a re-parse of its outerHTML, which
 * moved a script-made <div> out of its secret or hidden <p>, stopped at
 * libxml2's 256 levels and never saw a shadow root; its ids resolve, and
 * act, with and without CDP. */
static void check_html_view(wd_session *s)
{
    perc_obs *obs = observe_on(s, "/html_view.html", PERC_MODE_HTML);
    const char *t = perc_obs_text(obs);
    cr_assert(strstr(t, "<h1>\n Html view"), "%s", t);
    cr_expect_null(strstr(t, "SecretInParagraphMark"), "a data-agent-secret <p>'s div shown: %s", t);
    cr_expect_null(strstr(t, "HiddenInParagraphMark"), "a hidden <p>'s div shown: %s", t);
    cr_expect(strstr(t, "DeepestButtonMark"), "300 levels deep: %s", t);
    cr_expect(strstr(t, "SlottedCaptionMark"), "slotted light DOM: %s", t);
    cr_expect_null(strstr(t, "UnslottedLightMark"), "a host's unslotted child is not on the page: %s", t);
    cr_assert(strstr(t, "<input id=\"") && strstr(t, "type=\"password\" value=\"[redacted]\">"), "%s", t);
    char *j = perc_obs_json(obs);
    cr_assert_null(strstr(j, "hunter2html"), "password inside a shadow root");
    free(j);
    const char *sb = strstr(t, "ShadowButtonMark");
    cr_assert(sb, "open shadow root content: %s", t);
    /* the id on the line above the button's text */
    const char *open = sb;
    while (open > t && strncmp(open, "<button id=\"", 12))
        open--;
    char id[16] = "";
    cr_assert_eq(sscanf(open, "<button id=\"%15[0-9]\"", id), 1, "%s", t);
    int b = 0;
    eous_err err;
    cr_assert_eq(perc_obs_resolve_id(obs, id, &b, &err), EOUS_OK, "id %s: %s", id, err.msg);
    act_exec *x = NULL;
    cr_assert_eq(act_exec_new(s, NULL, &x, &err), EOUS_OK, "%s", err.msg);
    char text[64];
    snprintf(text, sizeof text, "```click [%s]```", id);
    act_action a;
    act_action_init(&a);
    cr_assert_eq(act_parse_text(text, &a, &err), EOUS_OK, "%s", err.msg);
    act_result r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(act_execute(x, obs, &a, &r, &err), EOUS_OK, "%s: %s", text, err.msg);
    cJSON *v = NULL;
    cr_assert_eq(wd_execute(s, "return document.getElementById('clicks').textContent;", NULL, &v, &err), EOUS_OK);
    cr_assert_str_eq(v->valuestring, "clicks: 1", "the shadow button was clicked through its html id");
    cJSON_Delete(v);
    act_result_clear(&r);
    act_action_clear(&a);
    act_exec_free(x);
    perc_obs_free(obs);
}

Test(perc_w3c, html_view_reads_the_built_dom_with_cdp)
{
    check_html_view(B.session);
}

Test(perc_w3c, html_view_reads_the_built_dom_without_cdp)
{
    check_html_view(W);
}

Test(perc_w3c, ids_stay_stable_and_stale_elements_are_reported)
{
    perc_obs *a = observe_on(W, "/form.html", PERC_MODE_ATOMIC);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = PERC_MODE_ATOMIC;
    perc_obs *b = NULL;
    eous_err err;
    cr_assert_eq(perc_observe(W, &o, &b, &err), EOUS_OK, "%s", err.msg);
    cr_assert_str_eq(perc_obs_text(a), perc_obs_text(b), "same page, same ids");
    perc_obs_free(b);
    /* the page replaces its body: the old ids no longer resolve to elements */
    cJSON *v = NULL;
    cr_assert_eq(wd_execute(W, "document.body.innerHTML = '<button>Fresh</button>'; return 1;", NULL, &v, &err),
                 EOUS_OK);
    cJSON_Delete(v);
    act_exec *x = NULL;
    cr_assert_eq(act_exec_new(W, NULL, &x, &err), EOUS_OK, "%s", err.msg);
    const perc_node *btn = NULL;
    for (size_t i = 0; i < perc_obs_n_nodes(a) && !btn; i++)
        if (perc_obs_node(a, i)->role && !strcmp(perc_obs_node(a, i)->role, "button"))
            btn = perc_obs_node(a, i);
    cr_assert(btn, "form.html has a button");
    char text[64];
    snprintf(text, sizeof text, "click [%s]", btn->ax_id);
    act_action act;
    act_action_init(&act);
    cr_assert_eq(act_parse_text(text, &act, &err), EOUS_OK, "%s", err.msg);
    act_result r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(act_execute(x, a, &act, &r, &err), EOUS_E_STALE, "%s", err.msg);
    act_result_clear(&r);
    act_action_clear(&act);
    act_exec_free(x);
    perc_obs_free(a);
}
