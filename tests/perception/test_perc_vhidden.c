/* tests/perception/test_perc_vhidden.c — text a person cannot see is not page text
 * (perception/vis_hidden.js): on tests/fixtures/hostile/pages/vis_hidden.html,
 * every carrier (off-screen, clipped to nothing, font size 0, opacity 0 on an
 * ancestor, the background's colour, contrast 1.05, ...) is in no view, in
 * every mode, through CDP (page marks, DOM snapshot, a page with a frame) and
 * without it; what a person sees (small, light grey, scrolled out, below the
 * fold) stays; a visually hidden label still names its control. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "perception/perc.h"
#include "support/browser.h"

static ts_browser B;  /* CDP session */
static wd_session *W; /* W3C-only session on the same driver */

static void setup(void)
{
    cr_assert_eq(ts_browser_start(&B, EOUS_SOURCE_DIR "/tests/fixtures/hostile/pages"), 0, "browser start failed");
    wd_session_opts o;
    wd_session_opts_init(&o);
    o.w3c_only = 1;
    eous_err err;
    cr_assert_eq(wd_session_new(wd_driver_url(B.driver), &o, &W, &err), EOUS_OK, "%s", err.msg);
}

static void teardown(void)
{
    wd_session_free(W);
    W = NULL;
    ts_browser_stop(&B);
}

TestSuite(perc_vhidden, .init = setup, .fini = teardown, .timeout = 240);

static const char *CARRIERS[] = {"OffscreenCarrier", "ClipCarrier", "ClipPathCarrier", "FontZeroCarrier",
                                 "OpacityCarrier", "OpacityHeadingCarrier", "SameColourCarrier",
                                 "DarkSameColourCarrier", "NearColourCarrier", "TransparentCarrier",
                                 "IndentCarrier", "MixedOwnCarrier", "FrameFontZeroCarrier", "InlineSpanCarrier",
                                 "WhiteSpanCarrier"};
/* shown in every mode */
static const char *SEEN[] = {"VisibleHeadingMark", "SmallTextMark", "LightGreyMark", "VisibleButtonMark",
                             "DrawnCheckMark", "InlineBlockMark", "PositionedChildMark", "MixedVisibleMark",
                             "ScrolledOutMark", "ScrollEndMark", "BelowFoldMark", "InlineLeadMark",
                             "BoldAfterMark", "DivLeadMark"};

static perc_obs *observe(wd_session *s, const char *path, perc_mode mode, int snapshot_marks)
{
    eous_err err;
    eous_err_clear(&err);
    cr_assert_eq(wd_navigate(s, ts_browser_url(&B, path), &err), EOUS_OK, "%s", err.msg);
    perc_opts o;
    perc_opts_init(&o);
    o.mode = mode;
    o.snapshot_marks = snapshot_marks;
    o.provider_timeout_ms = 1000;
    perc_obs *obs = NULL;
    cr_assert_eq(perc_observe(s, &o, &obs, &err), EOUS_OK, "%s", err.msg);
    return obs;
}

/* Every mode on one path: no carrier, every visible marker; in the tree
 * modes the clipped label names its textbox and the clipped span its button,
 * and neither is a text line of its own. */
static void check_path(wd_session *s, const char *path, int snapshot_marks, const char *what)
{
    perc_mode modes[] = {PERC_MODE_ATOMIC, PERC_MODE_PRUNED, PERC_MODE_HYBRID, PERC_MODE_HTML};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        perc_obs *obs = observe(s, path, modes[i], snapshot_marks);
        const char *t = perc_obs_text(obs);
        const char *mn = perc_mode_name(modes[i]);
        for (size_t k = 0; k < sizeof CARRIERS / sizeof *CARRIERS; k++)
            cr_expect_null(strstr(t, CARRIERS[k]), "%s, %s: %s shown:\n%s", what, mn, CARRIERS[k], t);
        for (size_t k = 0; k < sizeof SEEN / sizeof *SEEN; k++)
            cr_expect(strstr(t, SEEN[k]), "%s, %s: %s missing:\n%s", what, mn, SEEN[k], t);
        if (strstr(path, "frame"))
            cr_expect(strstr(t, "FrameVisibleMark") || modes[i] == PERC_MODE_HTML, "%s, %s: frame text missing:\n%s",
                      what, mn, t);
        if (modes[i] != PERC_MODE_HTML) {
            int b = 0;
            eous_err err;
            cr_expect_eq(perc_obs_find_role_name(obs, "textbox", "SrLabelMark", 1, &b, &err), EOUS_OK,
                         "%s, %s: the clipped label no longer names its textbox:\n%s", what, mn, t);
            cr_expect_eq(perc_obs_find_role_name(obs, "button", "CloseIconMark", 1, &b, &err), EOUS_OK,
                         "%s, %s: the clipped text no longer names its button:\n%s", what, mn, t);
            cr_expect_eq(perc_obs_find_role_name(obs, "checkbox", "DrawnCheckMark", 1, &b, &err), EOUS_OK,
                         "%s, %s: the opacity-0 checkbox under its drawn label is gone:\n%s", what, mn, t);
            cr_expect_null(strstr(t, "StaticText 'SrLabelMark'"), "%s, %s: label shown as text:\n%s", what, mn, t);
            cr_expect_null(strstr(t, "StaticText 'CloseIconMark'"), "%s, %s: clipped text shown:\n%s", what, mn, t);
        } else {
            /* the page source has no accessible names: a clipped label is dropped with its text */
            cr_expect_null(strstr(t, "SrLabelMark"), "%s, html: clipped label shown:\n%s", what, t);
        }
        perc_obs_free(obs);
    }
}

Test(perc_vhidden, carriers_dropped_and_visible_text_kept_through_cdp)
{
    check_path(B.session, "/vis_hidden.html", 0, "cdp page marks");
}

Test(perc_vhidden, carriers_dropped_and_visible_text_kept_through_a_dom_snapshot)
{
    check_path(B.session, "/vis_hidden.html", 1, "cdp snapshot");
    check_path(B.session, "/vis_hidden.html?frame=1", 0, "cdp with a frame");
}

Test(perc_vhidden, carriers_dropped_and_visible_text_kept_without_cdp)
{
    check_path(W, "/vis_hidden.html", 0, "w3c-only");
    check_path(W, "/vis_hidden.html?frame=1", 0, "w3c-only with a frame");
}
