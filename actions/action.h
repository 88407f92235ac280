/* actions/action.h — the one action type every planner produces, and its parsers.
 *
 * Ownership: an act_action owns its strings and params; act_action_clear frees
 * them (and is safe on a zeroed or already-cleared action).  Parsers fill an
 * action the caller initialised with act_action_init; on failure the action is
 * left cleared and err says what was expected, in one line a model can act on. */
#ifndef EOUS_ACT_ACTION_H
#define EOUS_ACT_ACTION_H

#include "core/core.h"

typedef enum act_kind {
    ACT_NONE = 0,
    ACT_CALL,        /* call(k, tool, params): semantic, component tool */
    ACT_CLICK,       /* click(id) */
    ACT_TYPE,        /* type(id, text, enter?) — clears first unless clear == 0 */
    ACT_HOVER,       /* hover(id) */
    ACT_PRESS,       /* press(keys) e.g. "Enter", "Control+a" */
    ACT_SCROLL,      /* scroll(up|down) */
    ACT_SELECT,      /* select(id, option) — option by label or value */
    ACT_GOTO,        /* goto(url) */
    ACT_GO_BACK,
    ACT_GO_FORWARD,
    ACT_TAB_FOCUS,   /* tab_focus(index) */
    ACT_CLOSE_TAB,
    ACT_STOP,        /* stop(answer) */
    /* RPA steps (actions/wait.c, read.c, expect.c, files.c); their options
     * live in params.  Only read is offered to models as well. */
    ACT_WAIT,        /* wait {text|target|url|gone|network_idle, timeout_ms} */
    ACT_READ,        /* read(target, as, what): data into the task's output */
    ACT_EXPECT,      /* expect {text|url|value|count}: an assertion */
    ACT_UPLOAD,      /* upload(target, files): files from --files DIR */
    ACT_DOWNLOAD     /* download(target): click and wait for the file */
} act_kind;

/* The last kind, for tables indexed by kind. */
#define ACT_KIND_LAST ACT_DOWNLOAD
/* 1 for the RPA kinds (wait, read, expect, upload, download). */
#define act_kind_is_rpa(k) ((k) >= ACT_WAIT && (k) <= ACT_KIND_LAST)

typedef struct act_action {
    act_kind kind;
    /* ACT_CALL: k — a view id of a triplet node ("c3") or a component key or,
     * from scripts, a label or kind.  Atomic kinds: a view id ("12") or, from
     * scripts, a target "role 'name'" / "role 'name' #2" / "css=SELECTOR". */
    char *target;
    char *tool;        /* ACT_CALL */
    cJSON *params;     /* ACT_CALL: a JSON object (owned); the RPA kinds: their
                        * options ({"text": …, "timeout_ms": N}, {"as", "what"}, {"files"}) */
    /* ACT_TYPE text, ACT_PRESS keys, ACT_SCROLL "up"|"down", ACT_SELECT option,
     * ACT_GOTO url, ACT_STOP answer. May hold {{secret:NAME}} placeholders. */
    char *text;
    int enter;         /* ACT_TYPE: press Enter after typing */
    int clear;         /* ACT_TYPE: clear the field first (default 1) */
    int index;         /* ACT_TAB_FOCUS */
    int from_script;   /* 1: target is a script target, not an observation id */
    int retries;       /* a script step's "retries": attempts after the first (0) */
    int timeout_ms;    /* a script step's "timeout_ms": bound on its attempts (0 = none) */
    int expect_dialog; /* a script step's "expect_dialog": 1: an alert it opens does not fail it */
} act_action;

/* ---- the action vocabulary ---------------------------------------------------
 * One row per verb, in actions/vocab.c: the parsers take argument names and
 * signatures from it, act_kind_name names kinds by it, and llm/prompt.c writes
 * the model's tool schemas and the prompt's list of actions from it.  A new
 * verb is a row there, a kind above, its cases in parse.c and the executor. */
typedef struct act_verb {
    const char *name;             /* "click" */
    act_kind kind;
    /* as a model tool call */
    const char *tool_keys[4];     /* argument names, in schema order, all required */
    const char *tool_sig;         /* the arguments as error messages show them */
    const char *tool_optional[2]; /* tool-call argument names it may also take (not required) */
    const char *tool_description; /* the tool's description in its schema */
    const char *tool_props;       /* JSON Schema "properties" of the arguments (one per tool_keys) */
    /* as WebArena text */
    const char *text_sig;         /* as error messages show it */
    const char *text_usage;       /* as the prompt shows it; NULL: text_sig */
    const char *text_help;        /* the prompt's line is "<usage>: <help>" */
    /* as a script step */
    const char *script_keys[4];   /* keys besides the verb */
    const char *script_sig;
    int script_only;              /* 1: a script step only, not offered to models (wait, expect, files) */
} act_verb;

/* The rows, in prompt order; *n gets their count.  Static storage. */
const act_verb *act_verbs(size_t *n);
/* The row named s[0..n) (exact case), or NULL. */
const act_verb *act_verb_find(const char *s, size_t n);
/* "call, click, type, ..." for messages.  Static storage. */
const char *act_verb_names(void);

void act_action_init(act_action *a);
void act_action_clear(act_action *a);
/* Deep copy into out (initialised); EOUS_E_NOMEM on failure. */
eous_rc act_action_copy(act_action *out, const act_action *in, eous_err *err);
/* "call", "click", ... */
const char *act_kind_name(act_kind k);
/* How an action was carried out: the page's own tool or setter, or WebDriver's atomic operations. */
typedef enum act_path { ACT_PATH_NONE, ACT_PATH_SEMANTIC, ACT_PATH_ATOMIC } act_path;
/* "none", "semantic", "atomic": the word traces, audit logs and results carry.  Static storage. */
const char *act_path_name(act_path p);
/* 1 for the kinds that act on something in the view (call, click, type,
 * hover, select); press, scroll, navigation, tabs and stop name nothing. */
int act_kind_has_target(act_kind k);
/* Canonical WebArena-style text ("click [12]", "type [12] [Ada] [1]",
 * "call [c3] [setValue] [{\"date\":\"2025-12-31\"}]", "stop [answer]").
 * Placeholders stay unexpanded, so the result is safe for traces.  Caller frees. */
char *act_format(const act_action *a);
/* 1 when both actions are the same action (kind, target, tool, params, text...). */
int act_equal(const act_action *a, const act_action *b);
/* A script's element target "role 'name'" or "role \"name\"", with an optional
 * " #N" (the Nth match, default 1) and an optional " under 'Heading'" (see
 * act_target_under): 0 with role, name and nth filled, -1 when s is not of
 * that form or a part does not fit its buffer. */
int act_parse_role_name(const char *s, char *role, size_t rn, char *name, size_t nn, int *nth);
/* The heading or named form, region or group a script target stands under
 * ("button 'Save' under 'Billing'") into under: 1, or 0 when s names none. */
int act_target_under(const char *s, char *under, size_t n);
/* 1 when a page's name (its first n bytes) is want followed by a parenthesized count, " (N)" with N
 * digits only, and want names no count itself ("Delete" names "Delete (3)"; "Delete (2)" does not):
 * the resolver (actions/target.c) and grounding (agent/grounding.c) take one rule. */
int act_name_counted(const char *name, size_t n, const char *want);

/* A model tool call: name is one of call, click, type, hover, press, scroll,
 * select, goto, go_back, go_forward, tab_focus, close_tab, stop; args_json
 * its JSON arguments as in DESIGN.md ({k, tool, params}, {id}, {id, text, enter} ...). */
eous_rc act_parse_tool_call(const char *name, const char *args_json, act_action *out, eous_err *err);
/* WebArena's text syntax, found anywhere in a model's answer (the last action
 * inside ``` fences wins, else the first line that parses):
 * click [12], type [12] [text] [1], hover [12], press [Control+a],
 * scroll [down], select [12] [France], goto [url], go_back, go_forward,
 * tab_focus [1], close_tab, stop [answer], call [c3] [setValue] [{json}]. */
eous_rc act_parse_text(const char *text, act_action *out, eous_err *err);
/* One script step object from a task file (DESIGN.md "script" syntax);
 * out->from_script is set. */
eous_rc act_parse_script_step(const cJSON *step, act_action *out, eous_err *err);

#endif
