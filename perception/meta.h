/* perception/meta.h — a component tool's interaction metadata M, read once
 * into structs that the hybrid view's tools line, the validator
 * (actions/validate.c) and the registry lint all read, so what is enforced is
 * what the model was shown.  Owned by perception; everything here borrows
 * from the cJSON it was read from (nothing to free).
 *
 * M is {tool: entry}.  An entry comes in every form the seeds and pages write
 * (DESIGN.md "Page-side protocols"):
 *   {description, params: {name: spec}, constraints?: {...}, disabledDates?: [...]}
 *     constraints either name a param ({date: {min, max}}) or are flat
 *     ({min, max, disabledDates}: the CI4A DatePicker), and disabledDates may
 *     stand beside params (the CI4A paper's form);
 *   {inputSchema: JSON Schema} (WebMCP; also input_schema), or params that is
 *     itself a schema ({"type": "object", "properties": ...});
 *   {params, sameAs: "fill"}: a native form's submit(fields), whose params
 *     are fill()'s (the tools line names them instead of printing them twice).
 * A spec's limits are read under every alias the pages use:
 *   min      min | minimum | minDate | formatMinimum   (inclusive)
 *   max      max | maximum | maxDate | formatMaximum   (inclusive)
 *   xmin     exclusiveMinimum (a number)                xmax  exclusiveMaximum
 *   step     step | multipleOf                          (counts from min, or 0)
 *   lengths  minLength, maxLength; pattern
 *   disabled disabled | disabledDates | disabledValues  (the first that is a list)
 *   items    minItems, maxItems, uniqueItems
 * Dated formats ("YYYY-MM-DD", "HH:mm", "DD/MM/YYYY" ...) are understood here
 * too: which format a spec means (declared, implied by type date/time, or the
 * shape of its dated bounds) and how a value of it parses. */
#ifndef EOUS_PERC_META_H
#define EOUS_PERC_META_H

#include "core/core.h"

/* ---- dated formats ---------------------------------------------------------------- */

enum { PERC_DT_Y, PERC_DT_MO, PERC_DT_D, PERC_DT_H, PERC_DT_MI, PERC_DT_S, PERC_DT_N };

/* A parsed date/time: has bit i set when field i was present. */
typedef struct perc_dated {
    unsigned has;
    int f[PERC_DT_N];
} perc_dated;

/* JSON Schema names for dated formats: "date" is YYYY-MM-DD, "time" HH:mm:ss
 * (values may leave out the seconds); any other is returned as given. */
const char *perc_meta_canonical_format(const char *fmt);
/* 1 when fmt is made of date/time tokens (YYYY MM DD HH mm ss) and separators only. */
int perc_meta_is_dated(const char *fmt);
/* Parses s against fmt from its start; *used gets the bytes consumed.
 * 0 ok, -1 wrong shape, -2 right shape but no such date or time. */
int perc_meta_parse_dated_prefix(const char *fmt, const char *s, perc_dated *out, size_t *used);
/* A value must match its format whole ("time" also takes HH:mm); same codes. */
int perc_meta_parse_dated(const char *fmt, const char *s, perc_dated *out);
/* The formats a bound or a disabled entry may be written in, most specific first. */
extern const char *const PERC_META_BOUND_FORMATS[];
extern const size_t PERC_META_N_BOUND_FORMATS;

/* ---- one spec ----------------------------------------------------------------------- */

/* The limits a spec puts on values (NULL: none of that kind).  min/max keep
 * the bound as written (a number, or a date/time string); the rest are
 * numbers (xmin, xmax, step, lengths, items) or a list (disabled). */
typedef struct perc_limits {
    const cJSON *min, *max;
    const cJSON *xmin, *xmax;
    const cJSON *step;
    const cJSON *min_len, *max_len;
    const char *pattern;
    const cJSON *disabled;
    const cJSON *min_items, *max_items;
    int unique_items;
} perc_limits;

typedef struct perc_spec {
    const cJSON *json;          /* the spec as written (NULL when absent) */
    const cJSON *type;          /* a type name or a list of them, NULL when none */
    const char *type_name;      /* type when it is one name */
    const char *declared_format;/* "format" as written */
    const char *format;         /* the format it means: declared, "YYYY-MM-DD" for type date,
                                   "time" for type time, or its dated bounds' shape */
    int dated;                  /* format is a dated one */
    const cJSON *enumeration;   /* "enum": values, or {value, label} objects */
    const cJSON *constant;      /* "const" */
    const cJSON *items;         /* an array's item spec (object) */
    const cJSON *properties;    /* an object's member specs */
    const cJSON *required_names;/* JSON Schema's "required": [names] */
    const cJSON *additional;    /* "additionalProperties" */
    int required;               /* "required": true on the spec itself */
    perc_limits lim;
} perc_spec;

/* Reads json (any value; a non-object reads as an empty spec). */
void perc_spec_read(const cJSON *json, perc_spec *out);
/* 1 when the limits hold any limit at all. */
int perc_limits_any(const perc_limits *l);

/* ---- one tool and its params ----------------------------------------------------------- */

typedef struct perc_tool_meta {
    const char *name;
    const cJSON *json;          /* M[tool], NULL when M does not describe it */
    const cJSON *params;        /* {name: spec}: params, or the schema's properties */
    const cJSON *schema;        /* the JSON Schema when the tool gives one, else NULL */
    int n_params;
    const cJSON *constraints;   /* tool-level constraints (object), NULL when none */
    const cJSON *disabled_dates;/* tool-level disabledDates beside params, NULL when none */
    int flat;                   /* constraints hold limits given for no param in particular */
} perc_tool_meta;

/* Reads M[tool] (metadata and tool may be NULL: an empty tool). */
void perc_tool_meta_read(const cJSON *metadata, const char *tool, perc_tool_meta *out);

typedef struct perc_param_meta {
    const char *name;
    perc_spec own;              /* the param's spec as written */
    const cJSON *tool_spec;     /* the tool-level limits that concern it: constraints[name],
                                   or flat constraints when it is the only param or a dated
                                   one; NULL when none */
    int tool_inline;            /* tool_spec is this param's alone (named, or the only param):
                                   the tools line prints it with the param; otherwise the
                                   flat constraints follow the params, after " | " */
    perc_spec tool;             /* tool_spec read */
    const cJSON *tool_disabled; /* the tool's disabledDates when it concerns this param (the
                                   only param, or a dated one) */
    perc_spec eff;              /* own with every limit kind it lacks taken from tool (and
                                   disabled from tool_disabled): what the validator enforces
                                   and the tools line prints */
    perc_limits shown;          /* eff's limits the tools line prints beside the param: all of
                                   them but the flat ones it prints after the params */
    int required;               /* required: true (its own, or its named constraint's), or
                                   named in the schema's required list */
} perc_param_meta;

/* Reads param p (a member of t->params) of tool t. */
void perc_param_meta_read(const perc_tool_meta *t, const cJSON *p, perc_param_meta *out);

/* Keys of a tool's constraints that are limits (shown through perc_limits),
 * its format or required; any other (disabledRule, minuteStep, options ...)
 * is shown as name=value. */
int perc_meta_is_limit_key(const char *key);

#endif
