/* mcp/mcp_video.c — browser_start_video {filename?, size?, fps?} and
 * browser_stop_video under --caps devtools (Playwright MCP's names, arguments
 * and capability).  See mcp_server_int.h for how a tool file plugs in.
 *
 * The current tab's screencast (CDP Page.startScreencast: a JPEG each time
 * the page paints) on eous's own DevTools connection, a thread acking each
 * frame and writing it, repeated to hold a steady frame rate, into a Motion
 * JPEG AVI (what VLC, mpv, ffmpeg and most players open; eous encodes no
 * WebM, so the file is name.avi where Playwright writes .webm).  The file is
 * one name in the session's output folder (mode 0600, written as
 * name.partXXXXXX and renamed when it is whole); the answer names it.  What a
 * screenshot masks is masked on every page recorded (mcp/video_mask.js:
 * secret fields blurred, data-agent-hidden regions blank).  A recording
 * stops at browser_stop_video, at VIDEO_MAX_BYTES (its end then missing, as
 * the answer says), when the browser stops (what was recorded is kept) and
 * when the server ends (saved). */
#define _GNU_SOURCE
#include "mcp/mcp_server_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcp/mcp_devtools_int.h"
#include "mcp/video_mask_js.h"

#define VIDEO_MAX_BYTES ((uint64_t)512 * 1024 * 1024)
#define VIDEO_MAX_FRAMES 200000
#define VIDEO_HEAD 224 /* RIFF, hdrl (avih, strl: strh, strf) and the movi list's head */

struct mcp_video {
    pthread_mutex_t lock; /* everything below the thread writes */
    mcp_devtools dt;
    pthread_t thread;
    int stop;
    int dead;             /* the connection ended (the browser stopped) */
    char path[PATH_MAX];  /* the file once whole */
    char part[PATH_MAX + 16];
    FILE *f;
    int fps;
    double t0;            /* the first frame's time (eous_now_ms), 0 before it */
    unsigned char *last;  /* the latest frame (JPEG), repeated until the next */
    size_t last_len;
    uint32_t *index;      /* each written frame's offset from "movi" and length, 2 per frame */
    size_t frames;
    uint64_t bytes;
    int full;             /* VIDEO_MAX_BYTES reached */
    int width, height;    /* of the first frame */
    size_t biggest;
    char err[256];
};

/* ---- the AVI file --------------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* A JPEG's width and height from its SOFn marker; 0 when not found. */
static void jpeg_size(const unsigned char *p, size_t n, int *w, int *h)
{
    for (size_t i = 2; i + 9 < n;) {
        if (p[i] != 0xFF) {
            i++;
            continue;
        }
        unsigned char mk = p[i + 1];
        if (mk >= 0xC0 && mk <= 0xCF && mk != 0xC4 && mk != 0xC8 && mk != 0xCC) {
            *h = p[i + 5] << 8 | p[i + 6];
            *w = p[i + 7] << 8 | p[i + 8];
            return;
        }
        if (mk == 0xD8 || mk == 0x01 || (mk >= 0xD0 && mk <= 0xD7)) {
            i += 2;
            continue;
        }
        i += 2 + (size_t)(p[i + 2] << 8 | p[i + 3]);
    }
}

/* One "00dc" chunk: the latest frame again. */
static void write_frame(struct mcp_video *v)
{
    if (!v->last || v->full || v->frames >= VIDEO_MAX_FRAMES)
        return;
    size_t pad = v->last_len & 1;
    if (v->bytes + v->last_len + 8 + pad > VIDEO_MAX_BYTES) {
        v->full = 1;
        return;
    }
    unsigned char h[8];
    memcpy(h, "00dc", 4);
    put32(h + 4, (uint32_t)v->last_len);
    uint32_t off = (uint32_t)(v->bytes + 4); /* from the "movi" fourcc */
    if (fwrite(h, 1, 8, v->f) != 8 || fwrite(v->last, 1, v->last_len, v->f) != v->last_len ||
        (pad && fputc(0, v->f) == EOF)) {
        snprintf(v->err, sizeof v->err, "writing %s: %s", v->part, strerror(errno));
        v->full = 1;
        return;
    }
    v->index[2 * v->frames] = off;
    v->index[2 * v->frames + 1] = (uint32_t)v->last_len;
    v->frames++;
    v->bytes += 8 + v->last_len + pad;
    if (v->last_len > v->biggest)
        v->biggest = v->last_len;
}

/* The latest frame repeated up to the frame of time now (a steady rate from the first frame). */
static void fill_to(struct mcp_video *v, double now, int inclusive)
{
    if (!v->t0)
        return;
    size_t due = (size_t)((now - v->t0) * v->fps / 1000.0) + (size_t)inclusive;
    while (v->frames < due && !v->full && v->frames < VIDEO_MAX_FRAMES)
        write_frame(v);
}

/* The headers at the file's start and idx1 at its end, once every frame is written. */
static int finish_file(struct mcp_video *v)
{
    uint32_t movi = (uint32_t)(4 + v->bytes), idx = (uint32_t)(16 * v->frames);
    unsigned char *ix = malloc(idx + 8);
    if (!ix)
        return -1;
    memcpy(ix, "idx1", 4);
    put32(ix + 4, idx);
    for (size_t i = 0; i < v->frames; i++) {
        unsigned char *e = ix + 8 + 16 * i;
        memcpy(e, "00dc", 4);
        put32(e + 4, 0x10); /* AVIIF_KEYFRAME: every JPEG stands alone */
        put32(e + 8, v->index[2 * i]);
        put32(e + 12, v->index[2 * i + 1]);
    }
    int bad = fwrite(ix, 1, idx + 8, v->f) != idx + 8;
    free(ix);
    unsigned char h[VIDEO_HEAD];
    memset(h, 0, sizeof h);
    uint32_t w = (uint32_t)v->width, ht = (uint32_t)v->height, n = (uint32_t)v->frames;
    memcpy(h, "RIFF", 4);
    put32(h + 4, (uint32_t)(VIDEO_HEAD - 8 + v->bytes + idx + 8));
    memcpy(h + 8, "AVI LIST", 8);
    put32(h + 16, 4 + 64 + 12 + 64 + 48); /* hdrl: avih, strl (strh, strf) */
    memcpy(h + 20, "hdrlavih", 8);
    put32(h + 28, 56);
    put32(h + 32, (uint32_t)(1000000 / v->fps)); /* microseconds a frame */
    put32(h + 44, 0x10);                         /* AVIF_HASINDEX */
    put32(h + 48, n);
    put32(h + 56, 1); /* one stream */
    put32(h + 60, (uint32_t)v->biggest);
    put32(h + 64, w);
    put32(h + 68, ht);
    memcpy(h + 88, "LIST", 4);
    put32(h + 92, 4 + 64 + 48);
    memcpy(h + 96, "strlstrh", 8);
    put32(h + 104, 56);
    memcpy(h + 108, "vidsMJPG", 8);
    put32(h + 128, 1);                  /* dwScale */
    put32(h + 132, (uint32_t)v->fps);   /* dwRate: fps frames a second */
    put32(h + 140, n);                  /* dwLength */
    put32(h + 144, (uint32_t)v->biggest);
    put32(h + 148, 0xFFFFFFFFu);        /* dwQuality: default */
    h[160] = (unsigned char)w;          /* rcFrame right, bottom (16 bits each) */
    h[161] = (unsigned char)(w >> 8);
    h[162] = (unsigned char)ht;
    h[163] = (unsigned char)(ht >> 8);
    memcpy(h + 164, "strf", 4);
    put32(h + 168, 40);
    put32(h + 172, 40); /* BITMAPINFOHEADER */
    put32(h + 176, w);
    put32(h + 180, ht);
    h[184] = 1;  /* planes */
    h[186] = 24; /* bits */
    memcpy(h + 188, "MJPG", 4);
    put32(h + 192, w * ht * 3);
    memcpy(h + 212, "LIST", 4);
    put32(h + 216, movi);
    memcpy(h + 220, "movi", 4);
    bad |= fseek(v->f, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, v->f) != sizeof h;
    bad |= fflush(v->f) != 0 || fsync(fileno(v->f)) != 0;
    return bad ? -1 : 0;
}

/* ---- the thread ----------------------------------------------------------------------- */

static void on_frame(struct mcp_video *v, const cJSON *msg)
{
    const cJSON *p = eous_json_obj(msg, "params");
    const char *data = eous_json_str(p, "data");
    cJSON *ack = cJSON_CreateObject();
    cJSON_AddNumberToObject(ack, "sessionId", eous_json_num(p, "sessionId", 0));
    eous_err e;
    mcp_devtools_send(&v->dt, "Page.screencastFrameAck", ack, eous_json_str(msg, "sessionId"), NULL, &e);
    cJSON_Delete(ack);
    unsigned char *jpg = NULL;
    size_t len = 0;
    if (!data || eous_base64_decode(data, &jpg, &len, &e) || len < 4)
        return;
    pthread_mutex_lock(&v->lock);
    double now = eous_now_ms();
    if (!v->t0) {
        v->t0 = now;
        jpeg_size(jpg, len, &v->width, &v->height);
    }
    fill_to(v, now, 0); /* the previous frame up to now */
    free(v->last);
    v->last = jpg;
    v->last_len = len;
    fill_to(v, now, 1); /* and this one at least once */
    pthread_mutex_unlock(&v->lock);
}

static void *video_thread(void *ud)
{
    struct mcp_video *v = ud;
    for (;;) {
        pthread_mutex_lock(&v->lock);
        int stop = v->stop;
        pthread_mutex_unlock(&v->lock);
        if (stop)
            break;
        struct pollfd pf = {.fd = v->dt.fd, .events = POLLIN};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        cJSON *msg = NULL;
        eous_err e;
        if (mcp_devtools_recv(&v->dt, &msg, &e)) {
            pthread_mutex_lock(&v->lock);
            v->dead = 1;
            pthread_mutex_unlock(&v->lock);
            break;
        }
        const char *ev = eous_json_str(msg, "method");
        if (ev && !strcmp(ev, "Page.screencastFrame"))
            on_frame(v, msg);
        cJSON_Delete(msg);
    }
    return NULL;
}

/* ---- start and stop ---------------------------------------------------------------------- */

/* The thread ended, the connection closed, the file made whole and renamed (or removed when empty). */
static eous_rc video_end(mcp_server *m, struct mcp_video *v, eous_buf *out, eous_err *err)
{
    pthread_mutex_lock(&v->lock);
    v->stop = 1;
    pthread_mutex_unlock(&v->lock);
    if (v->dt.fd >= 0)
        shutdown(v->dt.fd, SHUT_RDWR);
    pthread_join(v->thread, NULL);
    mcp_devtools_close(&v->dt);
    if (m && m->browser_open) { /* the page keeps no mask of the video's */
        eous_err e;
        cJSON *a = cJSON_CreateArray(), *r = NULL;
        wd_execute(m->b.session, "const s = document.getElementById('__eous_video_mask__'); if (s) s.remove();", a,
                   &r, &e);
        cJSON_Delete(a);
        cJSON_Delete(r);
    }
    fill_to(v, eous_now_ms(), 1);
    eous_rc rc = EOUS_OK;
    double secs = (double)v->frames / v->fps;
    if (!v->frames) {
        fclose(v->f);
        unlink(v->part);
        rc = eous_err_set(err, EOUS_E_PAGE, "browser_stop_video: no frame was recorded (the page never painted)");
    } else if (v->err[0] || finish_file(v) || fclose(v->f) || rename(v->part, v->path)) {
        rc = eous_err_set(err, EOUS_E_IO, "browser_stop_video: %s", v->err[0] ? v->err : strerror(errno));
        unlink(v->part);
    } else if (out) {
        eous_buf_printf(out, NULL, "saved the video (%.1f s, %zu frames at %d fps, %dx%d, Motion JPEG AVI: VLC, mpv or "
                        "ffplay open it; secret fields blurred, hidden regions blank) to %s%s\n",
                        secs, v->frames, v->fps, v->width, v->height, v->path,
                        v->full ? " (it reached 512 MB: its end is missing)" : "");
    }
    v->f = NULL;
    free(v->last);
    free(v->index);
    pthread_mutex_destroy(&v->lock);
    free(v);
    return rc;
}

void mcp_video_free(mcp_server *m)
{
    if (!m || !m->video)
        return;
    eous_err e;
    video_end(m, m->video, NULL, &e); /* a recording the client left running is kept */
    m->video = NULL;
}

/* The target id of the tab the driver is on (chromedriver's window handles are target ids). */
static eous_rc current_target(mcp_server *m, char *out, size_t n, eous_err *err)
{
    char *h = NULL;
    eous_rc rc = wd_window_handle(m->b.session, &h, err);
    if (!rc)
        snprintf(out, n, "%s", h + (strncmp(h, "CDwindow-", 9) ? 0 : 9));
    free(h);
    return rc;
}

/* Attaches v's connection to the current tab, masks it, starts the screencast. */
static eous_rc video_attach(mcp_server *m, struct mcp_video *v, int max_w, int max_h, eous_err *err)
{
    char target[128];
    cJSON *p = cJSON_CreateObject(), *r = NULL;
    eous_rc rc = current_target(m, target, sizeof target, err);
    if (!rc) {
        cJSON_AddStringToObject(p, "targetId", target);
        cJSON_AddBoolToObject(p, "flatten", 1);
        rc = mcp_devtools_call(&v->dt, "Target.attachToTarget", p, &r, NULL, NULL, err);
    }
    cJSON_Delete(p);
    const char *session = eous_json_str(r, "sessionId");
    if (!rc && !session)
        rc = eous_err_set(err, EOUS_E_INFRA, "browser_start_video: the browser gave no session for the tab");
    if (!rc) { /* what a screenshot masks, on this page and each one after it */
        p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "source", MCP_VIDEO_MASK_JS);
        rc = mcp_devtools_send(&v->dt, "Page.addScriptToEvaluateOnNewDocument", p, session, NULL, err);
        cJSON_Delete(p);
        cJSON *a = cJSON_CreateArray(), *res = NULL;
        if (!rc)
            rc = wd_execute(m->b.session, MCP_VIDEO_MASK_JS, a, &res, err);
        cJSON_Delete(a);
        cJSON_Delete(res);
    }
    if (!rc)
        rc = mcp_devtools_send(&v->dt, "Page.enable", NULL, session, NULL, err);
    if (!rc) {
        p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "format", "jpeg");
        cJSON_AddNumberToObject(p, "quality", 80);
        if (max_w > 0)
            cJSON_AddNumberToObject(p, "maxWidth", max_w);
        if (max_h > 0)
            cJSON_AddNumberToObject(p, "maxHeight", max_h);
        rc = mcp_devtools_send(&v->dt, "Page.startScreencast", p, session, NULL, err);
        cJSON_Delete(p);
    }
    cJSON_Delete(r);
    return rc;
}

static eous_rc tool_start_video(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    if (m->video) {
        pthread_mutex_lock(&m->video->lock);
        int dead = m->video->dead;
        pthread_mutex_unlock(&m->video->lock);
        if (!dead)
            return eous_err_set(err, EOUS_E_INVALID, "browser_start_video: a video is recording (browser_stop_video "
                                                     "saves it)");
        mcp_video_free(m); /* its browser stopped: what it recorded is saved */
    }
    const cJSON *size = eous_json_obj(args, "size");
    int fps = eous_json_int(args, "fps", 10), w = (int)eous_json_num(size, "width", 0),
        h = (int)eous_json_num(size, "height", 0);
    const char *name = eous_json_str(args, "filename");
    size_t nl = name ? strlen(name) : 0;
    if (fps < 1 || fps > 30 || w < 0 || h < 0 || w > 4096 || h > 4096)
        return eous_err_set(err, EOUS_E_INVALID, "browser_start_video: expected {filename?, size?: {width, height} up "
                                                 "to 4096, fps?: 1 to 30 (default 10)}");
    if (name && *name && (nl < 5 || strcmp(name + nl - 4, ".avi")))
        return eous_err_set(err, EOUS_E_INVALID, "browser_start_video: filename '%.100s': expected a name ending in "
                            ".avi (eous records Motion JPEG AVI, not WebM)", name);
    struct mcp_video *v = calloc(1, sizeof *v);
    if (!v || !(v->index = malloc(sizeof(uint32_t) * 2 * VIDEO_MAX_FRAMES))) {
        free(v);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&v->lock, NULL);
    v->fps = fps;
    v->dt.fd = -1;
    eous_rc rc = mcp_caps_out_path(m, "browser_start_video", name, "video", "avi", v->path, sizeof v->path, err);
    if (!rc)
        rc = mcp_ensure_browser(m, err);
    if (!rc && !wd_session_has_cdp(m->b.session))
        rc = eous_err_set(err, EOUS_E_INVALID, "browser_start_video: needs Chromium's DevTools protocol");
    int fd = -1;
    if (!rc) {
        snprintf(v->part, sizeof v->part, "%s.partXXXXXX", v->path);
        if ((fd = mkstemp(v->part)) < 0 || !(v->f = fdopen(fd, "w+b")) ||
            fwrite((unsigned char[VIDEO_HEAD]){0}, 1, VIDEO_HEAD, v->f) != VIDEO_HEAD)
            rc = eous_err_set(err, EOUS_E_IO, "browser_start_video: %s: %s", v->part, strerror(errno));
    }
    if (!rc)
        rc = mcp_devtools_open(m->b.session, "browser_start_video", &v->dt, err);
    if (!rc)
        rc = video_attach(m, v, w, h, err);
    if (!rc && pthread_create(&v->thread, NULL, video_thread, v))
        rc = eous_err_set(err, EOUS_E_INFRA, "browser_start_video: no thread for the recording");
    if (rc) {
        mcp_devtools_close(&v->dt);
        if (v->f)
            fclose(v->f);
        else if (fd >= 0)
            close(fd);
        if (fd >= 0)
            unlink(v->part);
        free(v->index);
        pthread_mutex_destroy(&v->lock);
        free(v);
        return rc;
    }
    m->video = v;
    eous_buf_printf(&out->text, NULL, "Video recording started (the current tab, %d fps); browser_stop_video saves it "
                    "to %s\n", fps, v->path);
    return EOUS_OK;
}

static eous_rc tool_stop_video(mcp_server *m, const cJSON *args, mcp_tool_out *out, eous_err *err)
{
    (void)args;
    if (!m->video)
        return eous_err_set(err, EOUS_E_INVALID, "browser_stop_video: no video is recording (browser_start_video "
                                                 "starts one)");
    struct mcp_video *v = m->video;
    m->video = NULL;
    return video_end(m, v, &out->text, err);
}

static const mcp_tool_def video_tools[] = {
    {"browser_start_video", "Start video recording of the current tab (Motion JPEG AVI in the session's output "
                            "folder).",
     "{\"type\":\"object\",\"properties\":{\"filename\":{\"type\":\"string\",\"description\":\"a file name ending in "
     ".avi in the output folder (default video-TIME.avi)\"},\"size\":{\"type\":\"object\",\"properties\":{\"width\":"
     "{\"type\":\"number\"},\"height\":{\"type\":\"number\"}},\"description\":\"the largest frame size\"},"
     "\"fps\":{\"type\":\"number\",\"description\":\"frames per second, 1 to 30, default 10\"}}}",
     1, tool_start_video, 0, "devtools"},
    {"browser_stop_video", "Stop video recording and save it; the answer names the file.",
     "{\"type\":\"object\",\"properties\":{}}", 1, tool_stop_video, 0, "devtools"},
};

const mcp_tool_table mcp_video_tools = {video_tools, sizeof video_tools / sizeof video_tools[0]};
