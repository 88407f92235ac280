/* actions/validate.h — checks a semantic call's params against the
 * component's interaction metadata M, in C, before anything reaches the page.
 *
 * M is read through perception/meta.h, as the hybrid view's tools line reads
 * it, so a limit enforced here is a limit the model was shown.
 * M is {tool: {description, params: {name: spec}, constraints?}} where a spec
 * is {type, required?, format?, enum?, min?, max?, step?, disabled?, items?,
 * minItems?, maxItems?, properties?}.  Accepted vocabulary:
 *   type       string|number|integer|boolean|array|object|null (or a list of
 *              them); "date" means a string with format YYYY-MM-DD
 *   format     dated formats built from YYYY MM DD HH mm ss and separators
 *              ("YYYY-MM-DD", "HH:mm", "HH:mm:ss", "YYYY-MM-DD HH:mm",
 *              "DD/MM/YYYY" ...), checked as real calendar dates/times;
 *              "date" and "time" (JSON Schema) map to YYYY-MM-DD and HH:mm[:ss];
 *              other formats are not checked
 *   enum       values; {value, label} objects match by value
 *   min/max    numbers, or date/time strings for dated formats (also
 *              minimum/maximum, exclusiveMinimum/exclusiveMaximum,
 *              minDate/maxDate, formatMinimum/formatMaximum); step (or
 *              multipleOf) counts from min (or 0)
 *   disabled   values refused (also disabledDates, disabledValues); for dated formats an
 *              entry with fewer fields covers all values inside it
 *              ("2025-12-25" disables "2025-12-25 10:00"), and an entry
 *              {from, to} (or {start, end}, or [a, b]) disables a range
 *   items, minItems, maxItems, uniqueItems; properties (nested specs);
 *   minLength, maxLength, pattern (POSIX extended regex), const
 * Tool-level `constraints` (and a tool-level `disabledDates`) apply to the
 * param they name (constraints: {date: {...}}) or, given flat, to every dated
 * param (or to the only param); a limit the param's own spec gives wins.
 * WebMCP components carry a JSON Schema instead: M[tool].inputSchema (or a
 * params object that is itself a schema: {"type": "object", ...}) with
 * properties/required[]/items/enum/minimum/maximum/additionalProperties.
 *
 * Strings holding a {{secret:NAME}} placeholder pass value checks (format,
 * enum, pattern, length): the value is unknown until execution.
 *
 * Errors are one line a model can correct itself from, e.g.
 *   setValue: date must be YYYY-MM-DD within 2025-01-01..2026-12-31, not
 *   2025-12-25 (got "2025-12-25")
 * with every failing param joined by "; ". */
#ifndef EOUS_ACT_VALIDATE_H
#define EOUS_ACT_VALIDATE_H

#include "core/core.h"
#include "perception/perc.h"

/* Validates params (an object or NULL for {}) for `tool` of component c
 * (borrowed).  EOUS_OK; EOUS_E_NOT_FOUND when c has no such tool (message
 * lists its tools); EOUS_E_REJECTED when params break M (message lists the
 * constraints); EOUS_E_REJECTED too when c is disabled. */
eous_rc act_validate(const perc_component *c, const char *tool, const cJSON *params, eous_err *err);

/* The same over bare tools (T, array of names or NULL) and metadata (M, or
 * NULL) — for callers without a perc_component (CLI `eous call`, fuzzing). */
eous_rc act_validate_meta(const cJSON *tools, const cJSON *metadata, const char *tool, const cJSON *params,
                          eous_err *err);

/* 1 when tool is in T (names or {name} objects) or, with T empty, a key of M. */
int act_tool_exists(const cJSON *tools, const cJSON *metadata, const char *tool);

/* Short human description of one param spec ("YYYY-MM-DD within
 * 2025-01-01..2026-12-31, not 2025-12-25", "an integer within 1..10") into
 * out (always NUL-terminated; truncated to fit). */
void act_spec_describe(const cJSON *spec, char *out, size_t n);

#endif
