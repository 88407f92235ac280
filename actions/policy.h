/* actions/policy.h — what the runtime may do, whatever the planner asks:
 * navigation allowlist, allow/deny/confirm rules, page marks.
 *
 * Policy file (JSON; every key optional, unknown keys are errors):
 *
 *   {
 *     "navigation": {"allow": ["https://shop.example.com",
 *                              "http://127.0.0.1:*",
 *                              "*.example.org"]},
 *     "rules": [
 *       {"effect": "deny",    "kind": "button", "label": "Delete*",
 *        "reason": "deleting needs a person"},
 *       {"effect": "confirm", "action": "submit", "url": "*checkout*",
 *        "reason": "Places the order"},
 *       {"effect": "allow",   "kind": "table", "action": "sort"}
 *     ],
 *     "default": "allow",
 *     "redact_params": ["private_token", "feed_token"]
 *   }
 *
 * navigation.allow: origins "scheme://host[:port]"; host and port may use
 *   '*' ("*.example.org" matches subdomains only, "127.0.0.1:*" any port);
 *   without a scheme both http and https are meant.  The task's own origins
 *   are added with act_policy_allow_origin.  Only http(s) pages and
 *   about:blank can ever be reached: file:, javascript:, chrome:, data:,
 *   about: (other than about:blank), blob:, view-source: ... are refused
 *   whatever the file says.
 * rules: tried in order, the first whose fields all match wins; absent
 *   fields match anything.  Fields are globs ('*', '?') compared regardless
 *   of case and accents:
 *     kind   component kind ("datepicker") for call, else the target's
 *            accessibility role ("button", "link", "textbox")
 *     label  component label or the target's accessible name
 *     action action name (click, type, hover, press, scroll, select, goto,
 *            go_back, go_forward, tab_focus, close_tab, stop, call) or, for
 *            call, the tool name ("setValue"); "tool" is a synonym
 *     url    the page URL
 *   effect: allow | deny (refused with the reason) | confirm (needs a
 *   person, like a data-agent-confirm mark, with the reason as its sentence).
 *   An atomic action inside a component is checked against the element and
 *   then against the component.
 * default: allow | deny for actions no rule matches (default allow).
 * redact_params: query parameters whose values are credentials on this site,
 *   redacted in every view, trace, log and report like the built-in ones
 *   (key, token, api_key, access_token, auth, sig; core/log.h).
 *
 * Page marks: targets inside data-agent-hidden are always refused;
 * data-agent-confirm="sentence" on the target or an ancestor needs a
 * person: when the caller said a person is there (act_policy_set_interactive;
 * the CLI passes isatty(0)) eous asks "Needs a person: <sentence> [y/N]" on stderr;
 * otherwise the action is refused with EOUS_E_POLICY "Needs a person:
 * <sentence>".
 *
 * Ownership: act_policy is an opaque handle (act_policy_new / _free); string
 * arguments are borrowed and copied when kept. */
#ifndef EOUS_ACT_POLICY_H
#define EOUS_ACT_POLICY_H

#include "core/core.h"

typedef struct act_policy act_policy;

/* An empty policy: no origins, no rules, default allow, interactivity auto. */
eous_rc act_policy_new(act_policy **out, eous_err *err);
void act_policy_free(act_policy *p);

/* Adds a policy file's origins and rules to p.  Malformed file or bad
 * content → EOUS_E_INVALID "FILE:LINE:COL: what was expected". */
eous_rc act_policy_load(act_policy *p, const char *path, eous_err *err);
/* The same from text; name is used in messages in place of a file name. */
eous_rc act_policy_load_text(act_policy *p, const char *text, size_t len, const char *name, eous_err *err);

/* Allows an origin: a full URL (its origin is taken, e.g. a task's start
 * URL) or a pattern as in navigation.allow.  EOUS_E_INVALID when unusable. */
eous_rc act_policy_allow_origin(act_policy *p, const char *url_or_pattern, eous_err *err);
size_t act_policy_n_origins(const act_policy *p);

/* EOUS_OK when navigating to url is allowed; EOUS_E_POLICY naming the URL
 * and why otherwise. */
eous_rc act_policy_check_url(const act_policy *p, const char *url, eous_err *err);

/* Rules over one action.  kind/label/url may be NULL (they then match only
 * patterns that are absent or "*").  action is the action name, tool the
 * tool for call (else NULL).  EOUS_OK, EOUS_E_POLICY for deny; for a confirm
 * rule *confirm_out (if not NULL) gets the sentence (borrowed from p) and
 * EOUS_OK is returned so the caller asks through act_policy_confirm. */
eous_rc act_policy_check_action(const act_policy *p, const char *kind, const char *label, const char *action,
                                const char *tool, const char *url, const char **confirm_out, eous_err *err);

/* A person decides: returns 1 to go ahead, 0 to refuse.  `what` is the
 * action in words ("click [12] button 'Buy credits'"). */
typedef int (*act_confirm_fn)(void *ud, const char *sentence, const char *what);
/* Replaces the TTY prompt (GUIs, tests).  fn NULL restores it. */
void act_policy_set_confirm(act_policy *p, act_confirm_fn fn, void *ud);
/* 1: may ask a person on stdin/stderr; 0 (default): never ask, refuse. */
void act_policy_set_interactive(act_policy *p, int interactive);

/* Asks for a data-agent-confirm sentence (or a confirm rule).  EOUS_OK when
 * a person said yes; EOUS_E_POLICY "Needs a person: <sentence>" when nobody
 * can be asked, or "The person said no to \"<sentence>\"". */
eous_rc act_policy_confirm(act_policy *p, const char *sentence, const char *what, eous_err *err);

/* The refusal for targets inside data-agent-hidden (always EOUS_E_POLICY). */
eous_rc act_policy_hidden(const char *what, eous_err *err);

#endif
