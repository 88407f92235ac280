/* perception/delta.h — observation deltas: from the second step on, what
 * changed since the view the planner saw last.
 *
 * A view text is read as blocks: a component block is a line whose id is a
 * component's ([c3] ... → tools) with the deeper lines under it that carry no
 * id of their own (table rows); every other line is a block of its own,
 * keyed by its [id] (lines without one by their text and how many times that
 * text came before).  The delta against the previous view is
 *     (changes since the last observation)
 *     changed components:      every component block whose text changed, whole
 *     added:    + <line>       new or changed other lines, in view order,
 *                 <line>       each run of them after the line above it, unmarked
 *     removed:  - [id]         (or - <line> for lines without an id)
 * with the ids of the view, which stay the same for the same elements.  The
 * full view is sent instead on the first step, after navigation (the URL
 * changed), when full_every deltas were sent in a row, and when the delta
 * would take more than max_share of the full view's tokens.  Only text
 * modes with one node a line (atomic, pruned, hybrid) get deltas; html views
 * are always sent whole.  Everything is a function of the two view texts and
 * the URLs, so a replayed run gets the same deltas.
 *
 * Ownership: perc_delta owns the previous view and the last text it made;
 * the text perc_delta_next gives is borrowed until the next call or free. */
#ifndef EOUS_PERC_DELTA_H
#define EOUS_PERC_DELTA_H

#include <stddef.h>

#include "perception/perc.h"

#define PERC_DELTA_FULL_EVERY 5
#define PERC_DELTA_MAX_SHARE 0.5

typedef struct perc_delta perc_delta;

typedef struct perc_delta_opts {
    int full_every;   /* a full view after this many deltas in a row, default PERC_DELTA_FULL_EVERY */
    double max_share; /* a delta larger than this share of the full view's tokens is not sent */
} perc_delta_opts;

void perc_delta_opts_init(perc_delta_opts *o);
eous_rc perc_delta_new(const perc_delta_opts *o, perc_delta **out, eous_err *err);
void perc_delta_free(perc_delta *d);

/* What to send for this view: *text (borrowed) is the full view or a delta
 * (*is_delta 1); *full_tokens and *sent_tokens are o200k counts of both.
 * Remembers obs's view as the one the planner saw. */
eous_rc perc_delta_next(perc_delta *d, const perc_obs *obs, const char **text, int *is_delta, size_t *full_tokens,
                        size_t *sent_tokens, eous_err *err);

/* The next view is sent whole (e.g. the planner's last answer was unusable). */
void perc_delta_reset(perc_delta *d);

/* The delta of view text next against prev (no size rules), for tests and
 * benchmarks; caller frees.  NULL on out of memory. */
char *perc_delta_text(const char *prev, const char *next);

#endif
