/* actions/files.c — files in and out: {"upload": <file input target>,
 * "files": [names]} and {"download": <target>}.
 *
 * Uploads take files only from --files DIR (act_files_resolve: no absolute
 * names, no "..", no control character, no symlink leading out of DIR) and
 * set them on the file input through WebDriver (one element send keys a path,
 * which chromedriver turns into the input's files and its change event), so
 * they work with and without CDP.
 *
 * Downloads need CDP: Browser.setDownloadBehavior sends the browser's
 * download into an empty directory of the step's own inside the executor's
 * download_dir (trace/<task>-<mode>/downloads/.incoming-XXXXXX), the target is
 * clicked as a click step would, and the step waits (inotify on that
 * directory, bounded by timeout_ms) for a file that is complete (Chromium
 * writes NAME.crdownload and renames it to NAME at the end).  It is kept in
 * download_dir as NAME, or "NAME (1).ext" and on when a download of the same
 * name came before; its kept name, size, MIME type and sha256 go into the
 * executor's downloads (actions/rpa.h), in order.  A target that is an http(s) URL (a report the server
 * sends as an attachment) is fetched by a same-origin download link instead
 * of a click, after the policy allows the URL as it would a goto.  Under
 * --w3c-only the step says in one line that it cannot. */
#define _GNU_SOURCE /* strndup, realpath, PATH_MAX */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "actions/act_int.h"
#include "actions/download_url_js.h"
#include "actions/file_input_js.h"
#include "actions/rpa.h"
#include "actions/rpa_int.h"

/* Files one upload step may name. */
#define MAX_FILES 16
/* Names in the download directory the step compares before and after. */
#define MAX_SEEN 256

/* ---- the --files check ------------------------------------------------------ */

/* 1 when name is absolute or has a ".." part (refused before looking at the disk). */
static int escapes_syntactically(const char *name)
{
    if (name[0] == '/')
        return 1;
    for (const char *p = name; (p = strstr(p, "..")); p += 2)
        if ((p == name || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
            return 1;
    return 0;
}

/* 1 when name holds a byte below 0x20 or 0x7f: chromedriver splits the paths
 * of one send keys on '\n', so such a name could name a second file. */
static int has_control(const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 1;
    return 0;
}

/* name for a message, control bytes as \xNN, cut to fit out. */
static const char *shown(const char *name, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (const unsigned char *p = (const unsigned char *)name; *p && k + 5 < n; p++)
        k += (size_t)snprintf(out + k, n - k, *p < 0x20 || *p == 0x7f ? "\\x%02x" : "%c", *p);
    return out;
}

eous_rc act_files_resolve(const char *dir, const char *name, char *out, size_t n, eous_err *err)
{
    if (!dir || !*dir)
        return eous_err_set(err, EOUS_E_INVALID, "upload: no files folder given; uploads take files only from one");
    char seen[320];
    if (name && has_control(name))
        return eous_err_set(err, EOUS_E_POLICY,
                            "upload: '%s' holds a control character (expected a file name in the files folder %.300s)",
                            shown(name, seen, sizeof seen), dir);
    if (!name || !*name || escapes_syntactically(name))
        return eous_err_set(err, EOUS_E_POLICY, "upload: '%.300s' is outside the files folder %.300s (absolute or ..)",
                            name ? name : "", dir);
    char rdir[PATH_MAX], joined[PATH_MAX * 2], real[PATH_MAX];
    if (!realpath(dir, rdir))
        return eous_err_set(err, EOUS_E_INVALID, "the files folder %.300s: %s", dir, strerror(errno));
    snprintf(joined, sizeof joined, "%s/%s", rdir, name);
    if (!realpath(joined, real))
        return eous_err_set(err, EOUS_E_NOT_FOUND, "upload: no file '%.300s' in the files folder %.300s", name, dir);
    size_t dl = strlen(rdir);
    if (strncmp(real, rdir, dl) || (real[dl] != '/' && strcmp(rdir, "/")))
        return eous_err_set(err, EOUS_E_POLICY,
                            "upload: '%.300s' leads outside the files folder %.300s (a symlink to %.300s)", name, dir,
                            real);
    struct stat st;
    if (stat(real, &st) || !S_ISREG(st.st_mode))
        return eous_err_set(err, EOUS_E_INVALID, "upload: '%.300s' in the files folder %.300s is not a regular file",
                            name, dir);
    if (strlen(real) >= n)
        return eous_err_set(err, EOUS_E_LIMIT, "upload: the path of '%.300s' is too long", name);
    snprintf(out, n, "%s", real);
    return EOUS_OK;
}

/* ---- parsing ---------------------------------------------------------------- */

eous_rc act_files_parse(const cJSON *val, const cJSON *step, const char *ctx, act_action *out, eous_err *err)
{
    if (!cJSON_IsString(val) || !val->valuestring[0])
        return eous_err_set(err, EOUS_E_INVALID, "%s, the target must be a non-empty string, got a %s", ctx,
                            cJSON_IsString(val) ? "empty string" : eous_json_type_name(val));
    if (!(out->target = strdup(val->valuestring)) || !(out->params = cJSON_CreateObject()))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    if (out->kind == ACT_DOWNLOAD)
        return EOUS_OK;
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(step, "files"), *f;
    int n = cJSON_GetArraySize(files);
    if (!cJSON_IsArray(files) || n < 1 || n > MAX_FILES)
        return eous_err_set(err, EOUS_E_INVALID, "%s, \"files\" must be a list of 1 to %d file names", ctx, MAX_FILES);
    cJSON_ArrayForEach(f, files) {
        if (!cJSON_IsString(f) || !f->valuestring[0])
            return eous_err_set(err, EOUS_E_INVALID, "%s, each file must be a non-empty name", ctx);
        char seen[240];
        if (has_control(f->valuestring))
            return eous_err_set(err, EOUS_E_INVALID,
                                "%s, '%s' holds a control character (expected a file name in the files folder)", ctx,
                                shown(f->valuestring, seen, sizeof seen));
        if (escapes_syntactically(f->valuestring))
            return eous_err_set(err, EOUS_E_INVALID, "%s, '%.200s' is outside the files folder (absolute or ..)", ctx,
                                f->valuestring);
    }
    if (!cJSON_AddItemToObject(out->params, "files", cJSON_Duplicate(files, 1)))
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    return EOUS_OK;
}

/* ---- upload ----------------------------------------------------------------- */

eous_rc act_run_upload(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(a->params, "files"), *f;
    int n = cJSON_GetArraySize(files);
    if (n < 1 || n > MAX_FILES)
        return eous_err_set(err, EOUS_E_INVALID, "upload: expected 1 to %d file names", MAX_FILES);
    char (*p)[PATH_MAX] = calloc((size_t)n, PATH_MAX); /* n resolved paths, too big for the stack */
    eous_rc rc = EOUS_OK;
    int i = 0;
    if (!p)
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    cJSON_ArrayForEach(f, files) {
        if (!cJSON_IsString(f) || (rc = act_files_resolve(x->o.files_dir, f->valuestring, p[i++], PATH_MAX, err))) {
            if (!rc)
                rc = eous_err_set(err, EOUS_E_INVALID, "upload: each file must be a name in the files folder");
            free(p);
            return rc;
        }
    }
    res->path = ACT_PATH_ATOMIC;
    act_target t;
    memset(&t, 0, sizeof t);
    cJSON *args = NULL, *v = NULL;
    if (!(rc = act_resolve_target(x, obs, a, &t, err)) && !(rc = act_acquire(x, &t, 0, err)) &&
        !(rc = act_check_target_policy(x, obs, a, &t, err))) {
        args = cJSON_CreateArray();
        cJSON_AddItemToArray(args, wd_element_ref(t.elem));
        cJSON_AddItemToArray(args, cJSON_CreateNumber(n));
        rc = wd_execute(x->s, ACT_FILE_INPUT_JS, args, &v, err);
    }
    const char *why = rc ? NULL : eous_json_str(v, "refused");
    const char *input = rc || why ? NULL : wd_element_id_of(cJSON_GetObjectItem(v, "el"));
    if (why)
        rc = eous_err_set(err, !strcmp(why, "hidden") ? EOUS_E_POLICY : EOUS_E_NOT_FOUND, "upload: %s %s", t.what,
                          !strcmp(why, "single")     ? "takes one file"
                          : !strcmp(why, "disabled") ? "is disabled"
                          : !strcmp(why, "hidden")   ? "is in a region hidden from the agent"
                          : !strcmp(why, "gone")     ? "is gone since the observation"
                                                     : "is not a file input (nor labels or holds one)");
    else if (!rc && !input)
        rc = eous_err_set(err, EOUS_E_PAGE, "upload: the page did not hand back the file input of %s", t.what);
    /* one path a send keys: chromedriver splits one text on '\n' and a
     * multiple input adds each call's file to those it holds */
    for (i = 0; !rc && i < n; i++)
        if ((rc = wd_element_send_keys(x->s, input, p[i], err)))
            eous_err_prefix(err, "upload to %s", t.what);
    free(p);
    if (!rc)
        act_res_msg(res, "uploaded %d file%s to %s", n, n == 1 ? "" : "s", t.what);
    cJSON_Delete(args);
    cJSON_Delete(v);
    act_target_free(&t);
    return rc;
}

/* ---- download --------------------------------------------------------------- */

typedef struct seen_names {
    char *names[MAX_SEEN];
    int n;
} seen_names;

static int seen_has(const seen_names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return 1;
    return 0;
}

/* The first complete file of dir not in before goes to found (n bytes); 1 when one was found, 0 when
 * not, and *partial says whether a download is still being written. */
static int scan(const char *dir, const seen_names *before, char *found, size_t n, int *partial)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int hit = 0;
    if (partial)
        *partial = 0;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (nm[0] == '.')
            continue;
        size_t l = strlen(nm);
        int part = l > 11 && !strcmp(nm + l - 11, ".crdownload");
        if (part && partial)
            *partial = 1;
        if (before && !part && !hit && !seen_has(before, nm)) {
            snprintf(found, n, "%s", nm);
            hit = 1;
        }
    }
    closedir(d);
    return hit;
}

static const char *mime_of(const char *name, const unsigned char *head, size_t n)
{
    static const char *const table[] = {
        "txt", "text/plain", "csv", "text/csv", "json", "application/json", "html", "text/html", "htm", "text/html",
        "xml", "application/xml", "pdf", "application/pdf", "png", "image/png", "jpg", "image/jpeg", "jpeg",
        "image/jpeg", "gif", "image/gif", "svg", "image/svg+xml", "zip", "application/zip", "gz", "application/gzip",
        "md", "text/markdown", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof table / sizeof *table; i += 2)
        if (!strcasecmp(dot + 1, table[i]))
            return table[i + 1];
    if (n >= 4 && !memcmp(head, "%PDF", 4))
        return "application/pdf";
    for (size_t i = 0; i < n; i++)
        if (head[i] < 0x09 || (head[i] > 0x0d && head[i] < 0x20))
            return "application/octet-stream";
    return "text/plain";
}

/* name, size, MIME type and sha256 of the saved file. */
static eous_rc describe(const char *dir, const char *name, cJSON **out, eous_err *err)
{
    char path[PATH_MAX * 2];
    eous_rc rc = eous_path_under(path, sizeof path, dir, err, "%s", name);
    if (rc)
        return rc;
    FILE *f = fopen(path, "rb");
    if (!f)
        return eous_err_set(err, EOUS_E_IO, "download: cannot read %s: %s", path, strerror(errno));
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char buf[65536], head[512], dig[EVP_MAX_MD_SIZE];
    size_t nh = 0, r;
    long long size = 0;
    int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    while (ok && (r = fread(buf, 1, sizeof buf, f)) > 0) {
        if (nh < sizeof head) {
            size_t k = r < sizeof head - nh ? r : sizeof head - nh;
            memcpy(head + nh, buf, k);
            nh += k;
        }
        size += (long long)r;
        ok = EVP_DigestUpdate(md, buf, r);
    }
    unsigned dl = 0;
    ok = ok && !ferror(f) && EVP_DigestFinal_ex(md, dig, &dl);
    fclose(f);
    EVP_MD_CTX_free(md);
    if (!ok)
        return eous_err_set(err, EOUS_E_IO, "download: cannot hash %s", path);
    char hex[2 * EVP_MAX_MD_SIZE + 1];
    for (unsigned i = 0; i < dl; i++)
        snprintf(hex + 2 * i, 3, "%02x", dig[i]);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddNumberToObject(o, "size", (double)size);
    cJSON_AddStringToObject(o, "mime", mime_of(name, head, nh));
    cJSON_AddStringToObject(o, "sha256", hex);
    *out = o;
    return EOUS_OK;
}

/* Waits for a new complete file in dir (inotify wakes the scan), up to timeout_ms. */
static eous_rc wait_for_file(int fd, const char *dir, const seen_names *before, double timeout_ms, char *found,
                             size_t n, eous_err *err)
{
    double t0 = eous_now_ms();
    int partial = 0;
    for (;;) {
        /* Chromium reserves NAME empty while NAME.crdownload fills: complete when none is left */
        if (scan(dir, before, found, n, &partial) && !partial)
            return EOUS_OK;
        double left = timeout_ms - (eous_now_ms() - t0);
        if (left <= 0)
            return eous_err_set(err, EOUS_E_TIMEOUT, "download: %s within %.0f ms",
                                partial ? "the file was still being written" : "no file arrived", timeout_ms);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int pr = poll(&p, 1, (int)(left + 1));
        if (pr < 0 && errno != EINTR)
            return eous_err_set(err, EOUS_E_IO, "download: watching %s: %s", dir, strerror(errno));
        if (pr > 0) {
            char ev[4096];
            while (read(fd, ev, sizeof ev) > 0) {
            }
        }
        if (eous_interrupted())
            return eous_err_set(err, EOUS_E_INTERRUPTED, "interrupted");
    }
}

/* A URL of the page's origin (or one the policy allows), opened as a download link. */
static eous_rc download_url(act_exec *x, const char *url, act_result *res, eous_err *err)
{
    eous_rc rc;
    if (x->policy) {
        rc = act_policy_check_url(x->policy, url, err);
    } else {
        act_policy *p = NULL;
        rc = act_policy_new(&p, err);
        if (!rc && (rc = act_policy_allow_origin(p, x->url, err)) == EOUS_OK)
            rc = act_policy_check_url(p, url, err);
        act_policy_free(p);
    }
    if (rc)
        return eous_err_prefix(err, "download");
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, cJSON_CreateString(url));
    rc = wd_execute(x->s, ACT_DOWNLOAD_URL_JS, args, &v, err);
    cJSON_Delete(args);
    cJSON_Delete(v);
    res->path = ACT_PATH_ATOMIC;
    return rc;
}

/* The click (as a click step makes it: target, marks, policy), or the URL. */
static eous_rc start_download(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    if (!strncmp(a->target, "http://", 7) || !strncmp(a->target, "https://", 8))
        return download_url(x, a->target, res, err);
    act_action click;
    act_action_init(&click);
    click.kind = ACT_CLICK;
    click.from_script = a->from_script;
    click.target = a->target;
    act_target t;
    memset(&t, 0, sizeof t);
    eous_rc rc = act_resolve_target(x, obs, &click, &t, err);
    if (!rc)
        rc = act_run_atomic(x, obs, &click, &t, res, err);
    act_target_free(&t);
    return rc;
}

/* Points the browser's downloads at dir. */
static eous_rc download_into(act_exec *x, const char *dir, eous_err *err)
{
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(p, "behavior", "allow");
    cJSON_AddStringToObject(p, "downloadPath", dir);
    eous_rc rc = wd_cdp(x->s, "Browser.setDownloadBehavior", p, &r, err);
    cJSON_Delete(p);
    cJSON_Delete(r);
    return rc ? eous_err_prefix(err, "download: Browser.setDownloadBehavior") : EOUS_OK;
}

/* Moves stage/name into dir under name, or "stem (k).ext" when a file has it
 * already (k from 1): a second download of the same name is kept beside the
 * first.  The name it got goes into kept (n bytes). */
static eous_rc keep_unique(const char *stage, const char *name, const char *dir, char *kept, size_t n, eous_err *err)
{
    char from[PATH_MAX * 2], to[PATH_MAX * 2];
    eous_rc rc = eous_path_under(from, sizeof from, stage, err, "%s", name);
    const char *dot = strrchr(name, '.');
    int stem = dot && dot != name ? (int)(dot - name) : (int)strlen(name);
    for (int k = 0; !rc && k < 1000; k++) {
        if (k)
            snprintf(kept, n, "%.*s (%d)%s", stem, name, k, name + stem);
        else
            snprintf(kept, n, "%s", name);
        if ((rc = eous_path_under(to, sizeof to, dir, err, "%s", kept)))
            break;
        /* never over a file already kept (RENAME_NOREPLACE; link where the file system lacks it) */
        int r = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
        if (r && (errno == EINVAL || errno == ENOSYS) && !(r = link(from, to)))
            unlink(from);
        if (!r)
            return EOUS_OK;
        if (errno != EEXIST)
            return eous_err_set(err, EOUS_E_IO, "download: cannot keep %s as %s: %s", from, to, strerror(errno));
    }
    return rc ? rc : eous_err_set(err, EOUS_E_IO, "download: %s: 1000 files of that name already", name);
}

/* Waits for the download in its own empty directory (stage), so a name the
 * download directory holds already cannot hide it, then keeps it in dir. */
static eous_rc take_download(act_exec *x, const perc_obs *obs, const act_action *a, const char *stage, const char *dir,
                             act_result *res, eous_err *err)
{
    eous_rc rc = download_into(x, stage, err);
    if (rc)
        return rc;
    int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (fd < 0 || inotify_add_watch(fd, stage, IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
        if (fd >= 0)
            close(fd);
        return eous_err_set(err, EOUS_E_IO, "download: cannot watch %s: %s", stage, strerror(errno));
    }
    seen_names before = {.n = 0};
    rc = start_download(x, obs, a, res, err);
    char name[NAME_MAX + 1] = "", kept[NAME_MAX + 32] = "";
    double timeout = a->timeout_ms > 0 ? a->timeout_ms : ACT_DEFAULT_WAIT_MS;
    if (!rc && !(rc = wait_for_file(fd, stage, &before, timeout, name, sizeof name, err)) &&
        !(rc = keep_unique(stage, name, dir, kept, sizeof kept, err))) {
        cJSON *d = NULL;
        if (!(rc = describe(dir, kept, &d, err))) {
            act_res_msg(res, "downloaded %s (%.0f bytes, %s, sha256 %s)", kept, eous_json_num(d, "size", 0),
                        eous_json_str(d, "mime"), eous_json_str(d, "sha256"));
            if (!x->downloads)
                x->downloads = cJSON_CreateArray();
            cJSON_AddItemToArray(x->downloads, d);
        }
    }
    close(fd);
    return rc;
}

eous_rc act_run_download(act_exec *x, const perc_obs *obs, const act_action *a, act_result *res, eous_err *err)
{
    if (!wd_session_has_cdp(x->s))
        return eous_err_set(err, EOUS_E_INVALID, "download: cannot save files without CDP "
                                                 "(Browser.setDownloadBehavior), and the session is W3C-only");
    const char *dir = x->o.download_dir;
    if (!dir || !*dir)
        return eous_err_set(err, EOUS_E_INVALID, "download: no download folder given (a run folder keeps them)");
    eous_rc rc = eous_mkdirs(dir, 0755, err);
    if (rc)
        return rc;
    char rdir[PATH_MAX], stage[PATH_MAX + 32];
    if (!realpath(dir, rdir))
        return eous_err_set(err, EOUS_E_IO, "download: %s: %s", dir, strerror(errno));
    /* a dot name: never listed as a download (scan skips it) */
    if ((rc = eous_path_under(stage, sizeof stage, rdir, err, ".incoming-XXXXXX")))
        return rc;
    if (!mkdtemp(stage))
        return eous_err_set(err, EOUS_E_IO, "download: cannot make %s: %s", stage, strerror(errno));
    rc = take_download(x, obs, a, stage, rdir, res, err);
    eous_rmtree(stage); /* with what a timed-out download left */
    /* later downloads (a click that saves a file) land beside the kept ones, as before */
    eous_err e2;
    eous_err_clear(&e2);
    if (download_into(x, rdir, &e2) && !rc && eous_rc_is_infra(e2.rc)) {
        rc = e2.rc;
        if (err)
            *err = e2;
    }
    return rc;
}
