/* agent/evidence.h — what a run leaves to look at beside its trace: per step
 * the observation text the planner got (step-NN.txt) and, as --screenshots
 * asks, PNGs of the page (step-NN.png, step-NN-failed.png, final.png), all in
 * trace/<task>-<mode>/ next to trace/<task>-<mode>.jsonl.
 *
 * Text goes through the secret redactor; screenshots are taken with secret
 * fields masked (perception/shot.h).  Every file is written atomically (temp
 * file + rename), so a reader never sees half of one.  Paths in trace lines
 * and results are relative to the run directory ("trace/fx-1-hybrid/step-01.txt"), where
 * report.html is.
 *
 * Ownership: agent_evidence_new makes a handle the caller frees with
 * agent_evidence_free; returned paths are borrowed from it. */
#ifndef EOUS_AGENT_EVIDENCE_H
#define EOUS_AGENT_EVIDENCE_H

#include <stddef.h>

#include "core/core.h"
#include "webdriver/wd.h"

typedef enum agent_shots {
    AGENT_SHOTS_NONE = 0,
    AGENT_SHOTS_FAILURE, /* the page after a failed step, and at the end of a task that did not pass (default) */
    AGENT_SHOTS_FINAL,   /* those, and the end of every task */
    AGENT_SHOTS_EVERY    /* those, and each step's page as the planner saw it */
} agent_shots;

/* "none" | "failure" | "final" | "every"; -1 for anything else. */
int agent_shots_parse(const char *s, agent_shots *out);
const char *agent_shots_name(agent_shots s);

typedef struct agent_evidence agent_evidence;

/* The evidence directory of trace_path (its name without ".jsonl"), created,
 * with the files of an earlier run of the same task and mode removed.
 * Every function below takes ev NULL as "no evidence" and does nothing. */
eous_rc agent_evidence_new(const char *trace_path, agent_shots shots, agent_evidence **out, eous_err *err);
void agent_evidence_free(agent_evidence *ev);

/* A step's perception: writes step-NN.txt (the observation text, redacted)
 * and, with --screenshots every, step-NN.png.  Only a file that cannot be
 * written is an error (EOUS_E_IO); a browser that cannot take the screenshot
 * is noted for the trace line instead. */
eous_rc agent_evidence_perceived(agent_evidence *ev, wd_session *s, int step, const char *text, size_t len,
                                 eous_err *err);
/* Vision: the set-of-marks screenshot the model got at this step
 * (step-NN-vision.png), whatever --screenshots says. */
eous_rc agent_evidence_vision(agent_evidence *ev, int step, const unsigned char *png, size_t len, eous_err *err);
/* A step whose action failed: step-NN-failed.png, unless --screenshots none. */
eous_rc agent_evidence_failed(agent_evidence *ev, wd_session *s, int step, eous_err *err);
/* Adds this step's files to its trace line ("observation", "screenshot",
 * "failed_screenshot", "vision_screenshot", "screenshot_error") and forgets them. */
void agent_evidence_annotate(agent_evidence *ev, cJSON *line);

/* The page as the task left it, captured before the evaluators (which may
 * navigate) look at it; kept in memory until agent_evidence_keep_final. */
void agent_evidence_capture_final(agent_evidence *ev, wd_session *s);
/* 1 when final.png is kept for a task that passed (or not): the caller
 * captures only then when the page will still be there. */
int agent_evidence_wants_final(const agent_evidence *ev, int passed);
/* Writes final.png when the task did not pass or --screenshots final/every. */
eous_rc agent_evidence_keep_final(agent_evidence *ev, int passed, eous_err *err);
/* final.png's path when it was written, else NULL (borrowed). */
const char *agent_evidence_final(const agent_evidence *ev);

#endif
