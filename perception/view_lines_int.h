/* perception/view_lines_int.h — the view as its writers build it: lines of parts.
 *
 * A writer (view_atomic.c, view_pruned.c, view_hybrid.c) writes its text into a
 * buffer and marks, as it writes them, where each line starts (its kind) and the
 * parts it knows (an id, a role, a name, a state key and value, a tool and its
 * args …).  pv_lines_build turns buffer and marks into the line list (pv_lines:
 * per line its kind, depth, bytes and parts); pv_lines_render (view_render.c) is
 * the one renderer that turns a line list into the view's text; and
 * perc_lines_from_parts (view_lines.c) gives the planner's perc_lines from the
 * list, the parts' spans in the rendered text, without reading the text back.
 * The text reader (perc_lines_read) stays for views read from disk and for a
 * text the redactor changed. */
#ifndef EOUS_PERC_VIEW_LINES_INT_H
#define EOUS_PERC_VIEW_LINES_INT_H

#include <stddef.h>

#include "core/core.h"
#include "perception/perc.h"

/* What a marked part of a line is. */
typedef enum pv_part {
    PV_PART_LINE = 0, /* not a part: a line of this kind starts here (pv_mark.kind) */
    PV_PART_ID,       /* "12", "c5" (no brackets) */
    PV_PART_ROLE,     /* an element's role, a component's kind */
    PV_PART_NAME,     /* an element's name, a component's label (inside the quotes) */
    PV_PART_TAB,      /* "in tab 'Members'": the tab's name */
    PV_PART_FIELDS,   /* "fields 'From date', 'To date'": one field's name */
    PV_PART_KEY,      /* a state key or property ("value"), a flag ("disabled") */
    PV_PART_VALUE,    /* the value after the last key (inside its quotes when quoted) */
    PV_PART_TOOL,     /* a tool's name */
    PV_PART_ARGS,     /* between a tool's parentheses */
    PV_PART_DESC      /* a page tool's description */
} pv_part;

/* A mark: at off in the writer's buffer, len bytes of part (PV_PART_LINE: a line of
 * kind starts at off; id_first: its id opens it). */
typedef struct pv_mark {
    size_t off, len;
    pv_part part;
    perc_line_kind kind;
    int id_first;
} pv_mark;

/* The marks a writer makes (grown as it writes; freed with pv_marks_free). */
typedef struct pv_marks {
    pv_mark *m;
    size_t n, cap;
    int failed; /* out of memory while marking: the view is read back from its text */
} pv_marks;

void pv_marks_add(pv_marks *ms, pv_part part, size_t off, size_t len);
void pv_marks_line(pv_marks *ms, size_t off, perc_line_kind kind, int id_first);
void pv_marks_free(pv_marks *ms);

/* One line of the list: its bytes after its tabs, its parts (offsets in those bytes). */
typedef struct pv_line {
    perc_line_kind kind;
    int depth;
    int id_first;
    int newline;        /* a newline ends it (the last line of an atomic view has none) */
    const char *s;      /* its bytes after the tabs (borrowed from the list's buffer) */
    size_t len;
    const pv_mark *parts; /* off relative to s */
    size_t n_parts;
} pv_line;

typedef struct pv_lines {
    pv_line *l;
    size_t n;
    pv_mark *parts;     /* every line's parts, in order */
    char *bytes;        /* what the lines' s point into */
} pv_lines;

/* The list from a writer's buffer (text, len: tabs and newlines as written) and its
 * marks: a line per newline, its depth its leading tabs, its kind the last line mark at
 * its start (PERC_LINE_TEXT when none), its parts the marks inside it.  0, or -1 out of
 * memory (*out then empty). */
int pv_lines_build(const char *text, size_t len, const pv_marks *ms, pv_lines *out);
void pv_lines_free(pv_lines *ls);
/* The one renderer: each line's tabs, bytes and newline; *text (caller frees) and *len.
 * 0, or -1 out of memory. */
int pv_lines_render(const pv_lines *ls, char **text, size_t *len);

/* The planner's lines from the list: spans into text, which must be the list's rendering
 * (pv_lines_render).  Sub-parts the grammar defines (a tool's params, a row's cells and the
 * controls they show) are read from their parts' spans as perc_lines_read reads them. */
eous_rc perc_lines_from_parts(const char *text, size_t len, const pv_lines *ls, perc_lines **out, eous_err *err);

#endif
