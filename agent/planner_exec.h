/* agent/planner_exec.h — --planner exec: the user's own agent program, one
 * process per task × mode, speaking JSON lines (protocol 1) on its stdin and
 * stdout.  The protocol is the README's "Bring your own agent":
 *
 *   eous → agent, once   {"type":"task","protocol":1,"task_id","intent","mode","start_url","sites",
 *                         "secrets":[names],"max_steps","max_batch","actions":{"text":[…],"json":[…]}}
 *   eous → agent, a step {"type":"observation","step","text","delta","base","url","tabs","last":[…],"tokens"}
 *   agent → eous         {"actions":["click [12]", {"name":"click","arguments":{"id":"12"}}, "fill('12','x')"]}
 *                        or {"stop":"answer"} (or an AgentResponse object), optional "usage"
 *   eous → agent, last   {"type":"done","status","score","evaluators"}
 *
 * The command is split into words by eous (agent_exec_split), never by a
 * shell; the agent runs in its own process group with its stderr in a file,
 * and agent_exec_free ends the whole group.
 *
 * Ownership: agent_exec owns its process, pipes and line buffer;
 * agent_exec_free (NULL is fine) closes its stdin, gives it a moment to exit,
 * then kills the group and reaps it.  Messages passed in are borrowed. */
#ifndef EOUS_AGENT_PLANNER_EXEC_H
#define EOUS_AGENT_PLANNER_EXEC_H

#include <stddef.h>

#include "actions/action.h"
#include "core/core.h"

#define AGENT_EXEC_PROTOCOL 1
#define AGENT_EXEC_MAX_LINE (8u << 20)   /* an agent's reply line past this is garbage */
#define AGENT_EXEC_MAX_ARGS 256
#define AGENT_EXEC_DEFAULT_REPLY_S 300.0 /* one reply's bound when --agent-timeout is not given */

typedef struct agent_exec agent_exec;

/* cmd as argv, split like a POSIX shell splits one simple command but with no
 * expansion of any kind: blanks separate words, '…' keeps everything, "…" and
 * bare words take \-escapes; $ ` ; | & < > * are plain characters.  *argv is
 * NULL-terminated (caller frees with agent_exec_argv_free).  EOUS_E_INVALID
 * naming cmd for an empty command or an unclosed quote. */
eous_rc agent_exec_split(const char *cmd, char ***argv, eous_err *err);
void agent_exec_argv_free(char **argv);

/* cmd split (agent_exec_split) and its program found: a path that is an
 * executable file, or a name on PATH.  EOUS_E_INVALID naming cmd and why, so
 * `eous run` refuses it before a browser starts. */
eous_rc agent_exec_check(const char *cmd, eous_err *err);

/* Starts cmd with stdin and stdout on pipes and stderr written afresh to
 * stderr_path (NULL: /dev/null), in a new process group.  A program that
 * cannot be run is EOUS_E_INVALID naming it and why. */
eous_rc agent_exec_start(const char *cmd, const char *stderr_path, agent_exec **out, eous_err *err);
/* msg as one line on the agent's stdin, through the secret redactor.
 * EOUS_E_IO when the agent no longer reads (it exited). */
eous_rc agent_exec_send(agent_exec *x, const cJSON *msg, eous_err *err);
/* The agent's next line (caller frees, no newline), waiting until
 * deadline_ms (eous_now_ms's clock).  EOUS_E_TIMEOUT past it; EOUS_E_IO when
 * the agent closed its stdout or exited (err says how it ended); EOUS_E_LIMIT
 * for a line longer than AGENT_EXEC_MAX_LINE; EOUS_E_INTERRUPTED on SIGINT. */
eous_rc agent_exec_read_line(agent_exec *x, double deadline_ms, char **line, eous_err *err);
void agent_exec_free(agent_exec *x);

/* The agent's own model bill, when its reply says it ("usage"). */
typedef struct agent_exec_usage {
    long input_tokens, output_tokens;
    double cost_usd;
} agent_exec_usage;

/* One reply line as up to cap actions (out[0..cap) initialised by the
 * caller; *n_out filled, *dropped counts actions beyond cap).  Each action is
 * eous's text syntax (act_parse_text), a BrowserGym call (actions/bgym.h) or
 * a tool call object {"name", "arguments"} (act_parse_tool_call);
 * {"stop": X} is one stop action (X a string or a WebArena-Verified
 * AgentResponse object).  Anything else is EOUS_E_PARSE naming what failed;
 * nothing is left in out then. */
eous_rc agent_exec_parse_reply(const char *line, act_action *out, size_t cap, size_t *n_out, size_t *dropped,
                               agent_exec_usage *usage, eous_err *err);

/* The task message (what agent_exec_send writes first).  secret_names "A, B"
 * (names only, never values; NULL = none); objective and answer_schema: a
 * WebArena-Verified task's answer format (NULL otherwise).  Caller deletes. */
cJSON *agent_exec_task_msg(const char *task_id, const char *intent, const char *objective, const cJSON *answer_schema,
                           const char *mode, int with_call, const char *start_url, const cJSON *sites,
                           const char *secret_names, int max_steps, int max_batch);

/* One step's observation message.  text is the view or, when is_delta, its
 * delta against the observation of step base; last[0..n_last) the previous
 * reply's results ("ok: …", "error: …", "not run: …").  Caller deletes. */
cJSON *agent_exec_obs_msg(int step, const char *text, int is_delta, int base, const char *url, int tabs,
                          const char *const *last, size_t n_last, size_t tokens);

/* The "actions" member of the task message: the verbs a mode offers, as
 * text ("click [id]: …") and as tool schemas ({"name","description","parameters"}).
 * with_call: 0 for modes without components (atomic, html).  Caller deletes. */
cJSON *agent_exec_grammar(int with_call);

#endif
