/* actions/history.h — the value history of a session (issue 53, ui-sdk's
 * createHistory): every value change of a CI4A component (value, checked,
 * pressed) or of a plain form control, with who made it.  The MCP server's
 * browser_history and browser_undo (mcp/mcp_history.c) and `eous run`'s trace
 * (agent/loop.c) read the same record.
 *
 * The page records every change itself (actions/history_hook.js, installed on
 * every new document), so changes by the page's own scripts and by a person in
 * a headed browser are seen as well as the agent's.  Who made one is decided
 * here from its time: each action of the agent is a window
 * (act_history_begin/end) and a change inside one is the agent's; outside, a
 * person's when a trusted event came first, else the page's.  Entries are
 * pulled from the page (act_history_pull) and kept here, merged: consecutive
 * changes of one control by one source on one page are one entry (a typed
 * word, not its letters) unless act_history_take cut between them.
 *
 * An entry (cJSON object, as the page sent it plus what is decided here):
 * {id, doc, url, t (ms since the epoch), provider, component, key, label,
 * value, previous, secret, trusted, source ("agent", "page" or "person"),
 * seq}; a secret control's value and previous are "[redacted]" or "" (filled
 * or not, never what: the page never sends them).  A caller may add "reverted"
 * or "left" to an entry (browser_undo): a later change of that control then
 * starts an entry of its own.
 *
 * Ownership: act_history owns its entries; the session is borrowed by each
 * call.  One act_history per session/thread. */
#ifndef EOUS_ACT_HISTORY_H
#define EOUS_ACT_HISTORY_H

#include "core/core.h"
#include "webdriver/wd.h"

typedef struct act_history act_history;

/* NULL when out of memory.  from_now: changes the page made before this call
 * are not recorded (an earlier task's, kept in the tab's sessionStorage). */
act_history *act_history_new(int from_now);
/* Removes the hook act_history_install added (when s is not NULL) and frees h. */
void act_history_free(act_history *h, wd_session *s);

/* Installs the recorder on every new document of s from now (CDP); without
 * CDP the first act_history_pull installs it, missing what came before. */
void act_history_install(act_history *h, wd_session *s);

/* An action of the agent (undo: browser_undo's own restoring, never
 * recorded) begins or ends: what the page's values do meanwhile is its. */
void act_history_begin(act_history *h, int undo);
void act_history_end(act_history *h);

/* Reads the page's record into h.  Returns the page's answer (caller deletes):
 * {installed, doc, url, entries, current: {"provider\tcomponent\tkey":
 * {label, value, secret, nk, gone?}}, sent: [...]}; NULL on failure (err). */
cJSON *act_history_pull(act_history *h, wd_session *s, eous_err *err);

/* h's entries, oldest first (borrowed; the oldest dropped past 2000). */
cJSON *act_history_entries(act_history *h);

/* The entries merged since the last take, as a trace shows them (caller
 * deletes; an empty array when none): [{provider, component, label, key,
 * value, previous, source, time (ISO 8601 UTC), secret?}], secret values
 * "[redacted]".  A later change of one of them starts a new entry. */
cJSON *act_history_take(act_history *h);

#endif
