/* actions/rpa_int.h — the RPA steps' insides (wait, read, expect, upload,
 * download, and the keys every script step may carry), shared by parse.c,
 * exec.c and the steps' own files only.
 *
 * Parsers fill out (kind set by the caller) from a script step; the step's
 * options go into out->params, owned by the action.  Runners act like the
 * other act_run_* functions: res is filled, err gets one line on failure. */
#ifndef EOUS_ACT_RPA_INT_H
#define EOUS_ACT_RPA_INT_H

#include "actions/action.h"
#include "actions/exec.h"

/* step_opts.c: "retries" and "timeout_ms", allowed on every script step. */
int act_step_common_key(const char *key);
eous_rc act_step_common_parse(const cJSON *step, const char *ctx, act_action *out, eous_err *err);

/* wait.c */
eous_rc act_wait_parse(const cJSON *val, const char *ctx, act_action *out, eous_err *err);
eous_rc act_run_wait(act_exec *x, const act_action *a, act_result *res, eous_err *err);

/* read.c; act_read_set checks and stores as/what (the model's text form uses it too) */
eous_rc act_read_parse(const cJSON *val, const cJSON *step, const char *ctx, act_action *out, eous_err *err);
eous_rc act_read_tool_args(const cJSON *args, const char *ctx, act_action *out, eous_err *err);
eous_rc act_read_set(const char *as, const char *what, const char *ctx, act_action *out, eous_err *err);
eous_rc act_run_read(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);
/* What a read of a->target with "what" gives, without storing it (expect uses it). *out is the caller's. */
eous_rc act_read_value(act_exec *x, const perc_obs *obs, const act_action *a, const char *what, cJSON **out,
                       eous_err *err);

/* expect.c */
eous_rc act_expect_parse(const cJSON *val, const char *ctx, act_action *out, eous_err *err);
eous_rc act_run_expect(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);

/* files.c: upload and download */
eous_rc act_files_parse(const cJSON *val, const cJSON *step, const char *ctx, act_action *out, eous_err *err);
eous_rc act_run_upload(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);
eous_rc act_run_download(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err);

/* The longest a wait or a download waits when the step does not say (ms). */
#define ACT_DEFAULT_WAIT_MS 10000
/* The longest a step may ask to wait (ms): a cron job must end. */
#define ACT_MAX_WAIT_MS 600000

#endif
