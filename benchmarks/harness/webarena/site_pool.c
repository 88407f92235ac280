/* webarena/site_pool.c — site URLs and reset commands by instance (see site_pool.h). */
#define _GNU_SOURCE
#include "webarena/site_pool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* "EOUS_SITE_" + the site's name as site_pool.h says + suffix ("" or "_RESET") */
static void env_key(const char *site, const char *suffix, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "EOUS_SITE_");
    for (const char *p = site; *p && n + 1 < size; p++)
        out[n++] = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
    out[n < size ? n : size - 1] = '\0';
    snprintf(out + strlen(out), size - strlen(out), "%s", suffix);
}

/* The k-th item of list (items split by any of seps, blanks around them
 * dropped, empty items skipped) into out; returns how many items list holds. */
static int list_item(const char *list, const char *seps, int k, char *out, size_t size)
{
    int n = 0;
    if (size)
        out[0] = '\0';
    for (const char *p = list ? list : ""; *p;) {
        p += strspn(p, seps);
        p += strspn(p, " \t\n");
        size_t len = strcspn(p, seps);
        size_t end = len;
        while (end && strchr(" \t\n", p[end - 1]))
            end--;
        if (end) {
            if (n == k && size)
                snprintf(out, size, "%.*s", (int)end, p);
            n++;
        }
        p += len;
    }
    return n;
}

static const char *site_env(const char *site, const char *suffix)
{
    char key[160];
    env_key(site, suffix, key, sizeof key);
    const char *v = getenv(key);
    return v && *v ? v : NULL;
}

int wa_site_pool_size(const char *site)
{
    return list_item(site_env(site, ""), " \t\n", 0, NULL, 0);
}

/* the index instance picks among n, n > 0 */
static int pick(int instance, int n)
{
    int k = instance % n;
    return k < 0 ? k + n : k;
}

int wa_site_copy(const char *site, int instance)
{
    int n = wa_site_pool_size(site);
    return n > 1 ? pick(instance, n) : 0;
}

int wa_site_url(const char *site, int instance, char *out, size_t size)
{
    const char *v = site_env(site, "");
    int n = list_item(v, " \t\n", 0, NULL, 0);
    return n && list_item(v, " \t\n", pick(instance, n), out, size) && out[0];
}

int wa_site_reset_command(const char *site, int instance, char *out, size_t size)
{
    const char *v = site_env(site, "_RESET");
    int n = list_item(v, ";", 0, NULL, 0);
    return n && list_item(v, ";", pick(instance, n), out, size) && out[0];
}

eous_rc wa_site_pools_check(eous_err *err)
{
    static const char prefix[] = "EOUS_SITE_", suffix[] = "_RESET=";
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t klen = eq ? (size_t)(eq - *e) : 0;
        if (strncmp(*e, prefix, sizeof prefix - 1) || klen < sizeof prefix - 1 + sizeof suffix - 1 ||
            strncmp(*e + klen - (sizeof suffix - 2), suffix, sizeof suffix - 1))
            continue;
        char site[128];
        size_t slen = klen - (sizeof prefix - 1) - (sizeof suffix - 2);
        if (!slen || slen >= sizeof site)
            continue;
        snprintf(site, sizeof site, "%.*s", (int)slen, *e + sizeof prefix - 1);
        int commands = list_item(eq + 1, ";", 0, NULL, 0);
        int urls = wa_site_pool_size(site);
        /* one command for several copies would reset one and leave the others as they were */
        if ((urls > 1 && commands != urls) || (urls <= 1 && commands > 1))
            return eous_err_set(err, EOUS_E_INVALID,
                                "%.*s: expected %d reset command%s separated by ';', one per URL in EOUS_SITE_%s, got %d",
                                (int)klen, *e, urls > 1 ? urls : 1, urls > 1 ? "s" : "", site, commands);
    }
    return EOUS_OK;
}
