/* actions/audit.h — the append-only audit log: one JSON line per executed
 * (or refused) action.
 *
 * Line fields: time (UTC, ISO 8601 with ms), url (the page acted on), action
 * (act_format text: secret placeholders NOT expanded), path
 * (semantic|atomic|none), result ("ok" or the error kind: rejected, policy,
 * stale ...), message (one line), act_ms, settle_ms, and fallback_reason
 * when a call ran atomically.  The whole line passes through eous_redact
 * before it is written, in a single write(2) on an O_APPEND descriptor, so
 * concurrent writers never interleave within a line.
 *
 * Ownership: act_audit is an opaque handle (_open / _close); entry strings
 * are borrowed. */
#ifndef EOUS_ACT_AUDIT_H
#define EOUS_ACT_AUDIT_H

#include "actions/action.h"
#include "core/core.h"

typedef struct act_audit act_audit;

typedef struct act_audit_entry {
    const char *url;
    const char *action;
    act_path path;
    eous_rc result;
    const char *message;
    const char *fallback_reason; /* NULL or "" when none */
    double act_ms, settle_ms;
    const char *result_name;     /* overrides result's name when set ("not_run" for a batch's skipped action) */
} act_audit_entry;

/* Opens (creating with mode 0600) path for appending; EOUS_E_IO naming it. */
eous_rc act_audit_open(const char *path, act_audit **out, eous_err *err);
eous_rc act_audit_write(act_audit *a, const act_audit_entry *e, eous_err *err);
void act_audit_close(act_audit *a);

#endif
