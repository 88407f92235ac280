/* core/status.h — how a task or job ended: one enum in the API, its name only
 * at the edges (a results.jsonl line, a report, the CLI's output).  Every
 * reader of a results line parses the word here; nothing else compares it. */
#ifndef EOUS_CORE_STATUS_H
#define EOUS_CORE_STATUS_H

#include "core/err.h"

typedef enum eous_status {
    EOUS_ST_NONE = 0,     /* not ended yet (or a line without a known word) */
    EOUS_ST_PASSED,       /* ran and passed its scorer ("passed") */
    EOUS_ST_FAILED,       /* ran and failed ("failed") */
    EOUS_ST_NEEDS_JUDGE,  /* a verdict only a judge model can give was not given ("needs_judge") */
    EOUS_ST_SKIPPED,      /* refused before it ran: a problem in the task, no plan for the mode ("skipped") */
    EOUS_ST_INFRA,        /* the infrastructure failed it; --resume reruns it ("infra") */
    EOUS_ST_INTERRUPTED,  /* SIGINT/SIGTERM stopped it ("interrupted") */
    EOUS_ST_RECORDED,     /* a session kept to distil, with no verdict: `eous mcp --record` ("recorded") */
    EOUS_ST_COUNT
} eous_status;

/* The word of s as results.jsonl writes it ("" for EOUS_ST_NONE). */
const char *eous_status_name(eous_status s);
/* The status a word names; EOUS_ST_NONE for NULL or a word not in the table. */
eous_status eous_status_parse(const char *word);
/* How a task that ended with rc (not OK) is recorded: interrupted, infra or failed. */
eous_status eous_rc_task_status(eous_rc rc);

#endif
