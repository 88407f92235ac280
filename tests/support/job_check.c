/* tests/support/job_check.c — see job_check.h. */
#include "support/job_check.h"

#include <regex.h>

int ts_is_view_id(const char *target)
{
    regex_t re;
    if (!target || regcomp(&re, "^\\[?c?[0-9]+\\]?$", REG_EXTENDED | REG_NOSUB))
        return 0;
    int hit = regexec(&re, target, 0, NULL, 0) == 0;
    regfree(&re);
    return hit;
}

const char *ts_job_view_id(const cJSON *job, const char *list)
{
    static const char *const keys[] = {"call", "click", "hover", "type", "select", "read"};
    const cJSON *step;
    cJSON_ArrayForEach(step, cJSON_GetObjectItemCaseSensitive(job, list))
    {
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (ts_is_view_id(eous_json_str(step, keys[k])))
                return eous_json_str(step, keys[k]);
    }
    return NULL;
}
