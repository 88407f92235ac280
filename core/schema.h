/* core/schema.h — the JSON Schema subset a job's "output_schema" may use,
 * to check what its read steps put into output.json.
 *
 * Keywords: type (one name or a list: object, array, string, number,
 * integer, boolean, null), properties, required, additionalProperties
 * (boolean or schema), items (schema), minItems, maxItems, enum, const,
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength,
 * pattern (POSIX extended regular expression), anyOf, and the annotations
 * $schema, $id, title, description, default, examples.  Any other keyword is
 * refused by eous_schema_check, so a schema never passes by being misread.
 *
 * Nothing is allocated for the caller; messages go to err / why. */
#ifndef EOUS_CORE_SCHEMA_H
#define EOUS_CORE_SCHEMA_H

#include <stddef.h>

#include "core/core.h"

/* EOUS_OK when schema is a schema of the subset, else EOUS_E_INVALID with the
 * path of the first problem ("output_schema at /properties/total: ..."). */
eous_rc eous_schema_check(const cJSON *schema, eous_err *err);

/* 1 when v satisfies schema (checked first); 0 with why (one line: the JSON
 * pointer of the first mismatch and what was expected, e.g. "at /orders/3/Total:
 * expected a string, got a number"). */
int eous_schema_validate(const cJSON *schema, const cJSON *v, char *why, size_t why_size);

#endif
