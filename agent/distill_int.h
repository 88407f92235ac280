/* agent/distill_int.h — what agent/distill.c (the run, its views, naming, parameters) and
 * agent/distill_atomic.c (a hybrid call as a person's atomic steps) share; not installed. */
#ifndef EOUS_AGENT_DISTILL_INT_H
#define EOUS_AGENT_DISTILL_INT_H

#include "core/core.h"
#include "perception/perc.h"

typedef struct dv_params {
    const char *intent;
    cJSON *decl;  /* {NAME: {"default", "description"}} */
    cJSON *names; /* {key: "Label"}: the options a hybrid line's tools print as key=Label */
    cJSON *boxes; /* {"c8": ["email", "sms"]}: what each checkbox group held in the last view that printed it */
    cJSON *over;  /* {"3": [steps]}: step 3's call as atomic steps a view told (a checkbox group's clicks) */
    cJSON *notes; /* ["step 4: ..."]: each step distill changed (dropped, a value made a parameter) and why */
    cJSON *said;  /* ["Check-out: {{param:CHECK_OUT}}"]: values the model counted, which the job's intent names */
    char *seen;   /* the run's views so far without their ids (perc_lines_without_ids); owned */
    int last_step; /* the trace's step of the last step written */
    char last_id[32]; /* the view id that step acted on, "" when none */
    int quiet;    /* 1 when the view after it changed nothing but last_id (the run shows no effect) */
    int matches;  /* the count of the "matches" list the last action's result held, -1 when none */
} dv_params;

/* ---- parameters (distill_params.c) ---- */
/* s with each parameter's value (of 4 characters or more, as a whole word) written as its
 * placeholder; the caller frees it. */
char *dv_with_placeholders(const dv_params *ps, const char *s);
/* The parameter holding value (an existing one, else a new one named from label), as its
 * placeholder in out; 0 when value is no parameter. */
int dv_param_for(dv_params *ps, const char *value, const char *label, int step, char *out, size_t n);
/* A typed value the model computed or made up (in neither the intent nor a view the run read) as a
 * parameter named from label, the run's value its default, its placeholder into out: a date counted from
 * one of the intent (check-out 14 nights after its check-in) goes into ps->said, which the job's intent
 * then names; other text the model made up (a probe typed to pass a step) is filler, "placeholder" into
 * from (a step's "from", agent/grounding.h; else from is ""); a note names the step.  0 when value is no
 * such value (NULL, multi-line, a placeholder, in the intent, seen). */
int dv_param_computed(dv_params *ps, const char *value, const char *label, int step, char *out, size_t n,
                      char *from, size_t fn);
/* 1 when value is in the intent or a view the run read so far (case aside). */
int dv_value_seen(const dv_params *ps, const char *value);
/* Every string of a call's params (copied in place) that the intent holds, as its parameter,
 * named after its key (a form's field, a table's column), or label when the key is generic. */
void dv_params_in_json(dv_params *ps, cJSON *j, const char *label, int fields, int step);

/* What a hybrid view's lines (perception's reading of its text) tell of its components (options'
 * key=Label, checkbox groups', switches' and sliders' states, tables' rows and selection, a checkbox's
 * form item label, modals' last buttons) into ps->names and ps->boxes, the later view's word over an
 * earlier one's. */
void dv_collect_view(dv_params *ps, const perc_lines *lines);
/* A call (tool, params) on view id cid as the steps a person takes where what the views told says them
 * (a group's boxes, a slider's keys, a table's filter, a row's link...), into ps->over at index (the
 * call's place among the steps); nothing when they are not known. */
void dv_tell_call(dv_params *ps, const char *cid, const char *tool, const cJSON *params, int index);
/* A page tool's call at index that took the page from URL from to URL to: a goto there, into ps->over. */
void dv_page_tool_went(dv_params *ps, const cJSON *steps, int index, const char *from, const char *to);
/* A stop answer at index that the run counted (a number in neither the intent nor a view it read) as what the
 * replay grounds it by: in s (the step), the count of the matches the last call's result listed; in atomic
 * mode (ps->over) the count of a cascader's level opened, or a slider's value shown on its handle. */
void dv_tell_stop(dv_params *ps, const cJSON *steps, cJSON *s, int index);
/* The count of the "matches" list an action's result text holds, or -1. */
int dv_result_matches(const char *result);
/* steps with each call as atomic steps (over's where it has them, else those known for its component; the
 * hidden tab holding it clicked first where a view named one);
 * NULL when steps hold no call.  The caller owns the result. */
cJSON *dv_atomic_steps(const cJSON *steps, const dv_params *ps);

#endif
