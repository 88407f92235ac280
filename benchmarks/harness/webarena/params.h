/* webarena/params.h — a job's parameters: {{param:NAME}} in its steps,
 * start_url, intent (any string of the config but its task_id, name and
 * "params"), filled when the job is loaded.
 *
 * A job declares them under "params": {"NAME": {"default": "...",
 * "description": "..."}} or "NAME": "default" ({} or no default: a value
 * must be given).  Values come from --param NAME=VALUE and --params FILE (a
 * JSON object or dotenv lines); the last one given wins.  NAME is
 * [A-Za-z_][A-Za-z0-9_]* (as a secret's).  A parameter is not a secret: its
 * value is written into the steps and recorded in results.jsonl; a value
 * holding "{{" is refused so it never becomes a {{secret:...}} placeholder.
 *
 * Ownership: *values objects are the caller's (cJSON_Delete). */
#ifndef EOUS_WEBARENA_PARAMS_H
#define EOUS_WEBARENA_PARAMS_H

#include "core/core.h"

#define WA_PARAM_NAME_MAX 64

/* err->code of a load whose parameters do not fit its jobs: a given one no
 * job declares (wa_tasks_load_opts), a used one with no value and no default
 * (wa_params_fill).  The message names the parameter; a caller that took the
 * values from its own options (the CLI's --param) adds those. */
#define WA_ERR_PARAM_UNDECLARED "param_undeclared"
#define WA_ERR_PARAM_UNSET "param_unset"

/* NAME=VALUE (one --param) into *values (created when NULL).  EOUS_E_INVALID
 * naming arg when it is not NAME=VALUE or the value holds "{{". */
eous_rc wa_params_add(cJSON **values, const char *arg, eous_err *err);
/* A --params FILE: a JSON object {NAME: string|number|boolean} or dotenv
 * lines (NAME=value, '#' comments, "export ", quoted values) into *values.
 * EOUS_E_INVALID naming the file (and line) otherwise. */
eous_rc wa_params_load_file(cJSON **values, const char *path, eous_err *err);

/* Checks cfg's "params" declaration and fills every {{param:NAME}} of cfg (in
 * place) from given (may be NULL) or the declared default.  *used gets
 * {NAME: value} of every declared parameter that has a value (NULL when the
 * job declares none).  EOUS_E_INVALID naming where (file, config #index) for
 * a bad declaration, a malformed placeholder, a used parameter that is not
 * declared, and, unless keep_missing (eous check), one with no value. */
eous_rc wa_params_fill(cJSON *cfg, const cJSON *given, int keep_missing, const char *where, cJSON **used,
                       eous_err *err);

/* 1 when cfg declares parameter name. */
int wa_params_declares(const cJSON *cfg, const char *name);

#endif
