/* perception/view_grammar_int.h — how the hybrid view's tools line writes a
 * tool's param ("Name?: true|false, 1..8"), as perception/view_hybrid.c
 * writes it and agent/grounding.c reads it back: one set of marks, so the
 * reader accepts whatever the writer prints and the two cannot drift. */
#ifndef EOUS_PERC_VIEW_GRAMMAR_INT_H
#define EOUS_PERC_VIEW_GRAMMAR_INT_H

#include <stddef.h>

#define PV_OPTIONAL "?"     /* after a param's name: the param may be left out */
#define PV_TYPE ": "        /* between a param's name (and mark) and its type */
#define PV_ENUM_SEP "|"     /* between an enum's values */
#define PV_RANGE ".."       /* between a range's bounds */
#define PV_LIMIT_SEP ", "   /* before each limit after the type */
#define PV_PARAM_SEP "; "   /* between the params of a tool of several */
#define PV_BOOLEAN "boolean"

/* The type printed for param `name` in `line`, both as grounding normalises
 * them (lower case, one space): the text after "name", the optional mark if
 * any, and ": ", up to the next limit, param or the tool's end, copied to
 * type (n bytes, cut).  *optional (may be NULL) says whether the mark was
 * there.  1 when the line prints the param typed, else 0. */
int pv_param_type(const char *line, const char *name, char *type, size_t n, int *optional);

/* 1 when a printed type takes a boolean: "boolean", or an enum (or a state's
 * one value) whose every member is "true" or "false". */
int pv_type_is_boolean(const char *type);

#endif
