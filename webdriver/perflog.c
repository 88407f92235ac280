/* webdriver/perflog.c — chromedriver's "performance" log: the CDP events it
 * collects for a session opened with goog:loggingPrefs {"performance":
 * "ALL"} (wd_session_opts.network_log).  Reading the log empties it.  The
 * endpoint is chromedriver's /se/log, which Selenium Grid 4 forwards too. */
#include "webdriver/wd.h"

eous_rc wd_perf_log(wd_session *s, cJSON **out, eous_err *err)
{
    *out = NULL;
    if (!wd_session_has_network_log(s))
        return eous_err_set(err, EOUS_E_INVALID, "no network log: the session was opened without one (W3C-only, or "
                                                 "network_log off)");
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "type", "performance");
    cJSON *v = NULL;
    eous_rc rc = wd_command(s, "POST", "/se/log", body, &v, err);
    cJSON_Delete(body);
    if (rc)
        return rc;
    if (!cJSON_IsArray(v)) {
        cJSON_Delete(v);
        return eous_err_set(err, EOUS_E_INFRA, "performance log: expected a list of entries");
    }
    *out = v;
    return EOUS_OK;
}
