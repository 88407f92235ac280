/* webarena/site_pool.h — where a site is: its base URL and reset command,
 * for one copy of it when several run (a pool).
 *
 * EOUS_SITE_<NAME> holds a site's base URL, or several separated by blanks:
 * copies of one site, so that a bench's workers each use their own and a
 * task that resets its site (require_reset) waits for no other worker's
 * task.  EOUS_SITE_<NAME>_RESET then holds one reset command per URL, in the
 * same order, separated by ';' (each runs without a shell, split on blanks).
 * Instance k of a site is its (k mod n)-th URL and command, n the number of
 * URLs: a bench's worker k uses instance k, and a site with one URL serves
 * every instance.  <NAME> is the site's name in upper case, anything but
 * letters and digits as '_' ("dokuwiki" → EOUS_SITE_DOKUWIKI).
 * Nothing is cached: each call reads the environment. */
#ifndef EOUS_WEBARENA_SITE_POOL_H
#define EOUS_WEBARENA_SITE_POOL_H

#include "core/core.h"

/* How many URLs EOUS_SITE_<NAME> holds (0: unset or blank). */
int wa_site_pool_size(const char *site);
/* Which copy instance uses: its URL's position, 0..size-1 (0 without a pool). */
int wa_site_copy(const char *site, int instance);
/* Instance's URL of site into out (as written, '/' kept); 0 when the site
 * has none.  Instances 0..size-1 are every URL once. */
int wa_site_url(const char *site, int instance, char *out, size_t size);
/* Instance's reset command of site into out; 0 when the site has none. */
int wa_site_reset_command(const char *site, int instance, char *out, size_t size);
/* Every EOUS_SITE_<NAME>_RESET in the environment holds one command, or one
 * per URL of its site; else EOUS_E_INVALID naming the variable and the counts. */
eous_rc wa_site_pools_check(eous_err *err);

#endif
