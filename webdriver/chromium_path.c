/* webdriver/chromium_path.c — where the browser binary is ($EOUS_CHROMIUM,
 * else Debian's /usr/bin/chromium).  Its own file: the driver launcher and
 * the session's capabilities both ask, and the launcher calls the session's
 * wd_status, so keeping it in either would make a circle. */
#include <stdlib.h>

#include "webdriver/wd.h"

const char *wd_chromium_path(void)
{
    const char *env = getenv("EOUS_CHROMIUM");
    return env && *env ? env : "/usr/bin/chromium";
}
