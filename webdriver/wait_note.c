/* webdriver/wait_note.c — see wait_int.h: a browser start that takes more
 * than a few seconds says what it is waiting for, so a newcomer on a loaded
 * machine does not stare at a silent terminal for a minute. */
#define _GNU_SOURCE
#include "webdriver/wait_int.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct wd_wait_note {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;   /* on CLOCK_MONOTONIC: a clock change neither hurries nor holds a note */
    int done;              /* guarded by lock */
    struct timespec t0;
    char what[300];
};

static struct timespec plus_ms(struct timespec t, long ms)
{
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void *note_thread(void *arg)
{
    wd_wait_note *n = arg;
    long at = WD_WAIT_NOTE_FIRST_MS;
    pthread_mutex_lock(&n->lock);
    while (!n->done) {
        struct timespec due = plus_ms(n->t0, at);
        if (pthread_cond_timedwait(&n->cond, &n->lock, &due) == 0 || n->done)
            continue;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec < due.tv_sec || (now.tv_sec == due.tv_sec && now.tv_nsec < due.tv_nsec))
            continue;
        /* one whole line per write: workers starting browsers at once do not interleave */
        fprintf(stderr, "eous: still waiting for %s (%ld s)…\n", n->what, (long)(now.tv_sec - n->t0.tv_sec));
        at += WD_WAIT_NOTE_EVERY_MS;
    }
    pthread_mutex_unlock(&n->lock);
    return NULL;
}

wd_wait_note *wd_wait_note_start(const char *fmt, ...)
{
    wd_wait_note *n = calloc(1, sizeof *n);
    pthread_condattr_t ca;
    if (!n || pthread_condattr_init(&ca)) {
        free(n);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->what, sizeof n->what, fmt, ap);
    va_end(ap);
    clock_gettime(CLOCK_MONOTONIC, &n->t0);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int ok = !pthread_mutex_init(&n->lock, NULL) && !pthread_cond_init(&n->cond, &ca);
    pthread_condattr_destroy(&ca);
    if (!ok || pthread_create(&n->thread, NULL, note_thread, n)) {
        free(n); /* a mutex and condition variable without waiters hold nothing to destroy */
        return NULL;
    }
    return n;
}

void wd_wait_note_stop(wd_wait_note *n)
{
    if (!n)
        return;
    pthread_mutex_lock(&n->lock);
    n->done = 1;
    pthread_cond_signal(&n->cond);
    pthread_mutex_unlock(&n->lock);
    pthread_join(n->thread, NULL);
    pthread_cond_destroy(&n->cond);
    pthread_mutex_destroy(&n->lock);
    free(n);
}
