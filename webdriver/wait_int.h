/* webdriver/wait_int.h — one line on stderr while a browser start is slow:
 * "eous: still waiting for WHAT (N s)…" once the wait passes
 * WD_WAIT_NOTE_FIRST_MS, then every WD_WAIT_NOTE_EVERY_MS, from a thread of
 * its own (the wait itself is a blocking poll or HTTP call).  Never stdout:
 * that may be JSON (eous observe, eous mcp).  The note owns its thread;
 * wd_wait_note_stop joins and frees it. */
#ifndef EOUS_WEBDRIVER_WAIT_INT_H
#define EOUS_WEBDRIVER_WAIT_INT_H

#define WD_WAIT_NOTE_FIRST_MS 5000
#define WD_WAIT_NOTE_EVERY_MS 10000

typedef struct wd_wait_note wd_wait_note;

/* Starts the note; what is printf-formatted ("chromedriver on port 9515 to
 * answer").  NULL when no thread could start (the wait goes on unannounced). */
wd_wait_note *wd_wait_note_start(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the note (prints nothing more); NULL is fine. */
void wd_wait_note_stop(wd_wait_note *n);

#endif
