/* agent/outputs.h — what a task's RPA steps leave in its result and run
 * directory: the read steps' output (checked against the task's
 * output_schema, written to trace/<task>-<mode>/output.json) and the files
 * download steps saved in trace/<task>-<mode>/downloads/.
 *
 * Ownership: agent_outputs_finish copies into res (agent_result_clear frees). */
#ifndef EOUS_AGENT_OUTPUTS_H
#define EOUS_AGENT_OUTPUTS_H

#include <stddef.h>

#include "agent/run.h"

struct act_exec;

/* The downloads directory beside trace_path (trace/<task>-<mode>/downloads) into out. */
void agent_downloads_dir(const char *trace_path, char *out, size_t n);

/* Takes x's output and downloads into res.  When res passed: a task with an
 * output_schema whose output breaks it fails (stop_reason "output_schema",
 * error "output_schema: at /orders/3/Total: expected …"), else its output is
 * written atomically to output.json beside the trace (res->output_file).  A
 * task that did not pass leaves no output.json: nothing half-done reaches
 * the next system.  EOUS_E_IO when output.json cannot be written. */
eous_rc agent_outputs_finish(const agent_job *t, const struct act_exec *x, const char *trace_path, agent_result *res,
                             eous_err *err);

/* Adds "output" (when its JSON is at most 64 KiB; else "output_in_file_only": true), "output_file",
 * "downloads" and "repaired" to a result line. */
void agent_outputs_json(const agent_result *r, cJSON *line);

#endif
