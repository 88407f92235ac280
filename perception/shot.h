/* perception/shot.h — screenshots of the current page with what they must not
 * show masked: secret fields blurred and blank, data-agent-hidden regions
 * hidden (perception/mask.js).  The mask is a style element injected for the
 * capture and removed right after; it changes paint only, never layout.
 *
 * Vision screenshots add set-of-marks (perception/som.js): every component
 * and interactive element the view gave an id is outlined and labelled with
 * that id (c3, [12]), by an overlay drawn for the capture and removed right
 * after.  Boxes come from CDP (DOM.getContentQuads), so vision needs a CDP
 * session; the downscale (max_px) is CDP's Page.captureScreenshot clip scale.
 *
 * Ownership: *png and *legend are malloc'd; the caller frees them. */
#ifndef EOUS_PERC_SHOT_H
#define EOUS_PERC_SHOT_H

#include <stddef.h>

#include "core/core.h"
#include "perception/perc.h"
#include "webdriver/wd.h"

/* Installs (on = 1) or removes (on = 0) the mask.  Tests use it to check the
 * mask alone; perc_screenshot does both around its capture. */
eous_rc perc_mask(wd_session *s, int on, eous_err *err);

/* A PNG of the viewport, masked.  When the mask cannot be installed (the page
 * refuses scripts, a dialog is open) there is no screenshot: an unmasked one
 * could show a secret. */
eous_rc perc_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err);

typedef struct perc_marked_shot {
    unsigned char *png;
    size_t len;
    char *legend;      /* one line per label drawn: "c3 datepicker 'Check-in'", "[12] button 'Send'" */
    int n_marks;       /* labels drawn (on screen) */
    int width, height; /* of the viewport captured, CSS pixels */
    double scale;      /* image pixels per CSS pixel (1 unless max_px asked for less) */
} perc_marked_shot;

/* The vision screenshot of the page obs was perceived from: masked, with
 * set-of-marks for obs's view ids, scaled so its longer side is at most
 * max_px (0 = as captured).  Clear with perc_marked_shot_clear. */
eous_rc perc_screenshot_marked(wd_session *s, const perc_obs *obs, int max_px, perc_marked_shot *out,
                               eous_err *err);
void perc_marked_shot_clear(perc_marked_shot *m);

/* Removes a set-of-marks overlay left by a capture that was cut short (and
 * returns the viewport); tests use it to compare the DOM around a capture. */
eous_rc perc_som_remove(wd_session *s, eous_err *err);

#endif
