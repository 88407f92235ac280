/* actions/bgym.h — BrowserGym's action strings as eous actions, so an AgentLab
 * agent's output runs unchanged under --planner exec (agent/planner_exec.h).
 *
 *   click('12')                  click [12]
 *   fill('12', 'text')           type [12] [text] [0]   (replaces the field's text)
 *   select_option('12', 'Opt')   select [12] [Opt]
 *   hover('12')                  hover [12]
 *   goto('url')                  goto [url]
 *   go_back() / go_forward()     go_back / go_forward
 *   keyboard_press('Enter')      press [Enter]          (ControlOrMeta → Control)
 *   scroll(0, 200)               scroll [down]          (dy < 0: up)
 *   tab_focus(1) / tab_close()   tab_focus [1] / close_tab
 *   send_msg_to_user('answer')   stop [answer]
 *   report_infeasible('why')     stop [N/A]             (WebArena's answer for an infeasible task)
 *
 * Strings are Python literals as repr writes them: single or double quotes,
 * backslash escapes (\\ \' \" \n \t \r \xHH \uHHHH \UHHHHHHHH); numbers are
 * integers.  Anything else (another function, keyword arguments, a list of
 * options, text after the closing parenthesis) is EOUS_E_PARSE naming what
 * was expected.  Ownership as act_parse_text: out initialised by the caller,
 * left cleared on failure. */
#ifndef EOUS_ACT_BGYM_H
#define EOUS_ACT_BGYM_H

#include "actions/action.h"

/* 1 when s (leading blanks skipped) starts with one of the function names
 * above and '(' : the string is meant as BrowserGym's syntax. */
int act_bgym_looks_like(const char *s);
eous_rc act_parse_bgym(const char *s, act_action *out, eous_err *err);

#endif
