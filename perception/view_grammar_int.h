/* perception/view_grammar_int.h — how the hybrid view's tools line writes a
 * tool's param ("Name?: true|false, 1..8"), as perception/view_hybrid.c
 * writes it and perception/view_lines.c reads it back into perc_line_param:
 * one set of marks, so the reader accepts whatever the writer prints and the
 * two cannot drift.  Other modules read the lines, never these marks. */
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
/* after a component's label: the text fields it stands for, by name, quoted ("fields 'From date',
 * 'To date'", a range picker's two; no colon, so no state key reads as it), printed only when no
 * name holds a quote */
#define PV_FIELDS " fields "
#define PV_FIELD_SEP ", "
/* after the label of a component not on screen: the tab whose hidden panel holds it */
#define PV_IN_TAB " in tab "

/* 1 when a printed type takes a boolean: "boolean", or an enum (or a state's
 * one value) whose every member is "true" or "false". */
int pv_type_is_boolean(const char *type);

#endif
