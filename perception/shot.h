/* perception/shot.h — screenshots of the current page with what they must not
 * show masked: secret fields blurred and blank, data-agent-hidden regions
 * hidden (perception/mask.js).  The mask is a style element injected for the
 * capture and removed right after; it changes paint only, never layout.
 *
 * Ownership: *png is malloc'd PNG bytes the caller frees. */
#ifndef EOUS_PERC_SHOT_H
#define EOUS_PERC_SHOT_H

#include <stddef.h>

#include "core/core.h"
#include "webdriver/wd.h"

/* Installs (on = 1) or removes (on = 0) the mask.  Tests use it to check the
 * mask alone; perc_screenshot does both around its capture. */
eous_rc perc_mask(wd_session *s, int on, eous_err *err);

/* A PNG of the viewport, masked.  When the mask cannot be installed (the page
 * refuses scripts, a dialog is open) there is no screenshot: an unmasked one
 * could show a secret. */
eous_rc perc_screenshot(wd_session *s, unsigned char **png, size_t *len, eous_err *err);

#endif
