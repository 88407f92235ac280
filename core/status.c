/* core/status.c — the status words, one table (core/status.h). */
#include "core/status.h"

#include <string.h>

static const char *const NAMES[EOUS_ST_COUNT] = {
    [EOUS_ST_NONE] = "",
    [EOUS_ST_PASSED] = "passed",
    [EOUS_ST_FAILED] = "failed",
    [EOUS_ST_NEEDS_JUDGE] = "needs_judge",
    [EOUS_ST_SKIPPED] = "skipped",
    [EOUS_ST_INFRA] = "infra",
    [EOUS_ST_INTERRUPTED] = "interrupted",
    [EOUS_ST_RECORDED] = "recorded",
};

const char *eous_status_name(eous_status s)
{
    return s > EOUS_ST_NONE && s < EOUS_ST_COUNT ? NAMES[s] : "";
}

eous_status eous_status_parse(const char *word)
{
    for (int i = EOUS_ST_NONE + 1; word && i < EOUS_ST_COUNT; i++)
        if (!strcmp(word, NAMES[i]))
            return (eous_status)i;
    return EOUS_ST_NONE;
}

eous_status eous_rc_task_status(eous_rc rc)
{
    return rc == EOUS_E_INTERRUPTED ? EOUS_ST_INTERRUPTED : eous_rc_is_infra(rc) ? EOUS_ST_INFRA : EOUS_ST_FAILED;
}
