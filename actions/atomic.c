/* actions/atomic.c — element actions as a person would do them (click,
 * type, hover, select in native and popup widgets) and keys and scrolling.
 * Popup widgets are found through the table in widgets.js. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "actions/act_int.h"
#include "actions/secrets.h"
#include "actions/active_js.h"
#include "actions/atomic_check_js.h"
#include "actions/file_focus_js.h"
#include "actions/mark_secret_js.h"
#include "actions/native_option_js.h"
#include "actions/native_set_js.h"
#include "actions/popup_option_js.h"

/* W3C element click (real input events); when another element would get the
 * click, a pointer click at the target's centre — what a person would hit. */
static eous_rc click_elem(act_exec *x, const char *elem, double cx, double cy, double w, double h, char *note,
                          size_t nn, eous_err *err)
{
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc rc = wd_element_click(x->s, elem, &e2);
    if (rc == EOUS_E_PAGE && w >= 1 && h >= 1 &&
        (!strcmp(e2.code, "element click intercepted") || !strcmp(e2.code, "element not interactable"))) {
        if (note)
            snprintf(note, nn, " (pointer click at %.0f,%.0f: %s)", cx, cy, e2.code);
        return act_input_click_at(x, cx, cy, err);
    }
    if (rc && err)
        *err = e2;
    return rc;
}

/* atomic_check.js on element elem: what it found (caller frees), or NULL. */
static cJSON *check_elem(act_exec *x, const char *elem, const char *what, const char *text)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, wd_element_ref(elem));
    cJSON_AddItemToArray(args, cJSON_CreateString(what));
    cJSON_AddItemToArray(args, cJSON_CreateString(text ? text : ""));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_quiet_ms));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(x->o.settle_cap_ms));
    eous_err e2;
    if (wd_execute(x->s, ACT_ATOMIC_CHECK_JS, args, &v, &e2) != EOUS_OK) {
        cJSON_Delete(v);
        v = NULL;
    }
    act_secret_json_free(args);
    return v;
}

static int is_submit_button(const act_target *t)
{
    return (!strcmp(t->tag, "button") && (!t->input_type[0] || !strcasecmp(t->input_type, "submit"))) ||
           (!strcmp(t->tag, "input") && (!strcasecmp(t->input_type, "submit") || !strcasecmp(t->input_type, "image")));
}

static eous_rc do_click(act_exec *x, act_target *t, act_result *res, eous_err *err)
{
    char note[160] = "";
    /* a submit the browser's validation will block: the click still goes
     * (the page may act on it), and the step is an error with the message */
    cJSON *blocked = is_submit_button(t) && !t->prepared ? check_elem(x, t->elem, "validity", NULL) : NULL;
    if (!eous_json_bool(blocked, "blocked", 0)) {
        cJSON_Delete(blocked);
        blocked = NULL;
    }
    eous_rc rc = click_elem(x, t->elem, t->x, t->y, t->w, t->h, note, sizeof note, err);
    if (rc) {
        cJSON_Delete(blocked);
        return eous_err_prefix(err, "click %s", t->what);
    }
    if (blocked) {
        rc = eous_err_set(err, EOUS_E_PAGE, "click %s: the browser's validation blocks the form: field '%s': %s",
                          t->what, eous_json_str(blocked, "label") ? eous_json_str(blocked, "label") : "",
                          eous_json_str(blocked, "message") ? eous_json_str(blocked, "message") : "invalid");
        cJSON_Delete(blocked);
        return rc;
    }
    if (t->blocked)
        return eous_err_set(err, EOUS_E_PAGE, "click %s: the browser's validation blocks the form: %s", t->what,
                            t->block_msg);
    /* a checkbox or radio: its state once the page settled (a page may undo the click) */
    if (!strcmp(t->tag, "input") && (!strcasecmp(t->input_type, "checkbox") || !strcasecmp(t->input_type, "radio"))) {
        cJSON *v = check_elem(x, t->elem, "checked", NULL);
        const cJSON *on = cJSON_GetObjectItemCaseSensitive(v, "checked");
        if (cJSON_IsBool(on)) {
            act_res_msg(res, "clicked %s%s; it is %s now", t->what, note, cJSON_IsTrue(on) ? "checked" : "not checked");
            cJSON_Delete(v);
            return EOUS_OK;
        }
        cJSON_Delete(v);
    }
    act_res_msg(res, "clicked %s%s", t->what, note);
    return EOUS_OK;
}

/* date, time, month, week, datetime-local: typed digits land in whatever
 * parts the locale shows, so the value is set whole and read back */
static int is_dated_input(const act_target *t)
{
    static const char *const T[] = {"date", "time", "datetime-local", "month", "week", NULL};
    if (strcmp(t->tag, "input"))
        return 0;
    for (const char *const *p = T; *p; p++)
        if (!strcasecmp(t->input_type, *p))
            return 1;
    return 0;
}

static const char *dated_format(const char *type)
{
    return !strcasecmp(type, "date")             ? "YYYY-MM-DD"
           : !strcasecmp(type, "time")           ? "HH:mm"
           : !strcasecmp(type, "month")          ? "YYYY-MM"
           : !strcasecmp(type, "week")           ? "YYYY-Www"
                                                 : "YYYY-MM-DDTHH:mm";
}

/* Types into a dated input by setting its value; a value that did not take
 * is an error naming what the field holds and the format it takes. */
static eous_rc type_dated(act_exec *x, const act_action *a, act_target *t, const char *text, act_result *res,
                          eous_err *err)
{
    cJSON *v = check_elem(x, t->type_elem, "set", text);
    const char *got = eous_json_str(v, "value");
    eous_rc rc = EOUS_OK;
    if (!got)
        rc = eous_err_set(err, EOUS_E_PAGE, "type into %s: the page did not answer", t->what);
    else if (strcmp(got, text))
        rc = eous_err_set(err, EOUS_E_PAGE, "type into %s: '%s' did not take: the field holds '%s' (a %s field takes %s)",
                          t->what, text, *got ? got : "nothing", t->input_type, dated_format(t->input_type));
    else
        act_res_msg(res, "set %s to '%s' (a %s field's value)%s", t->what, got, t->input_type,
                    a->enter ? "; Enter not pressed" : "");
    cJSON_Delete(v);
    return rc;
}

/* Where the last character of text starts when the rest can go as one edit:
 * at least MIN_INSERT characters, none a control character or one of
 * WebDriver's key codes (U+E000..U+F8FF: a newline or a Tab is a key press),
 * nor a comma or semicolon (a tags field makes a tag on that key);
 * 0 when the text goes key by key (act_exec_opts.type_by_key). */
#define MIN_INSERT 4
static size_t last_of_plain(const char *text)
{
    size_t n = 0, last = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || *p == ',' || *p == ';')
            return 0;
        if (*p == 0xEE || (*p == 0xEF && p[1] >= 0x80 && p[1] <= 0xA3))
            return 0;
        if ((*p & 0xC0) != 0x80) {
            last = (size_t)(p - (const unsigned char *)text);
            n++;
        }
    }
    return n >= MIN_INSERT ? last : 0;
}

/* The last character's real key press (text + last) carrying the whole text: CDP keyDown
 * without text (no character of its own), the text as one edit, keyUp.  The page gets
 * keydown, one input with the whole text, keyup: it renders once where an edit and then
 * the key rendered twice (a key's event carries at most 4 characters of text).  The
 * key's code as chromedriver gives it for letters, digits and space, 0 for the rest. */
static eous_rc key_inserting(act_exec *x, const char *text, size_t last, eous_err *err)
{
    char key[8] = "", code[16] = "";
    size_t kn = strlen(text + last);
    memcpy(key, text + last, kn < sizeof key ? kn : sizeof key - 1);
    unsigned char c = (unsigned char)key[0];
    int vk = key[1]                   ? 0
             : c >= 'a' && c <= 'z'   ? c - 'a' + 'A'
             : (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ? c
                                      : 0;
    if (vk >= 'A' && vk <= 'Z')
        snprintf(code, sizeof code, "Key%c", vk);
    else if (vk >= '0' && vk <= '9')
        snprintf(code, sizeof code, "Digit%c", vk);
    else if (vk == ' ')
        snprintf(code, sizeof code, "Space");
    cJSON *p[3] = {NULL, NULL, NULL};
    int ok = 1;
    for (int step = 0; step < 3 && ok; step++) {
        ok = (p[step] = cJSON_CreateObject()) != NULL;
        if (step == 1) {
            ok = ok && cJSON_AddStringToObject(p[step], "text", text);
        } else {
            ok = ok && cJSON_AddStringToObject(p[step], "type", step ? "keyUp" : "rawKeyDown") &&
                 cJSON_AddStringToObject(p[step], "key", key) && cJSON_AddStringToObject(p[step], "code", code) &&
                 cJSON_AddNumberToObject(p[step], "windowsVirtualKeyCode", vk) &&
                 cJSON_AddNumberToObject(p[step], "nativeVirtualKeyCode", vk);
        }
    }
    static const char *const methods[3] = {"Input.dispatchKeyEvent", "Input.insertText", "Input.dispatchKeyEvent"};
    /* on eous mcp's own DevTools connection when it has one, else each through the driver */
    eous_rc rc = ok ? act_input_cdp(x, 3, methods, p, err) : eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    for (int step = 0; step < 3; step++)
        act_secret_json_free(p[step]); /* the text and its key may be a secret's */
    memset(key, 0, sizeof key);
    return rc;
}

#define KEY_CONTROL "\xEE\x80\x89"
#define KEY_BACKSPACE "\xEE\x80\x83"
#define KEY_ENTER "\xEE\x80\x87"
#define KEY_END "\xEE\x80\x90"

/* A field about to receive a {{secret:NAME}} value is marked as the page would
 * mark a secret region (data-agent-secret): every view then redacts it and
 * every screenshot masks it, whatever kind of field it is. */
static eous_rc mark_secret_field(act_exec *x, const act_target *t, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *ref = wd_element_ref(t->type_elem), *v = NULL;
    if (!args || !ref || !cJSON_AddItemToArray(args, ref)) {
        cJSON_Delete(args);
        cJSON_Delete(ref);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    eous_rc rc = wd_execute(x->s, ACT_MARK_SECRET_JS, args, &v, err);
    cJSON_Delete(args);
    cJSON_Delete(v);
    /* not marked, not typed: the value would show in the next screenshot */
    return rc ? eous_err_prefix(err, "type a secret into %s: cannot mark the field secret", t->what) : EOUS_OK;
}

/* A type's keys never reach a file input through Element Send Keys, which
 * sets its files from the text.  Asked after the focus (a field may become one
 * then), right before the keys: files come only through upload, from --files. */
static eous_rc refuse_file_input(act_exec *x, const act_target *t, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *ref = wd_element_ref(t->type_elem), *v = NULL;
    if (!args || !ref || !cJSON_AddItemToArray(args, ref)) {
        cJSON_Delete(args);
        cJSON_Delete(ref);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    eous_rc rc = wd_execute(x->s, ACT_FILE_FOCUS_JS, args, &v, err);
    int file = cJSON_IsTrue(v);
    cJSON_Delete(args);
    cJSON_Delete(v);
    if (rc) /* not known, not typed */
        return eous_err_prefix(err, "type into %s: cannot tell whether the focused field is a file input", t->what);
    if (file)
        return eous_err_set(err, EOUS_E_POLICY, "type: the focused field is a file input; use upload (%s)", t->what);
    return EOUS_OK;
}

static eous_rc do_type(act_exec *x, const act_action *a, act_target *t, act_result *res, eous_err *err)
{
    if (!t->type_elem || !t->editable)
        return eous_err_set(err, EOUS_E_PAGE, "type: %s does not take text (it is a %s%s%s); click it or pick a "
                                              "textbox",
                            t->what, t->tag, t->role[0] ? " with role " : "", t->role);
    if (t->type_disabled)
        return eous_err_set(err, EOUS_E_PAGE, "type: %s is disabled or read-only", t->what);
    if (!strcasecmp(t->input_type, "file"))
        return eous_err_set(err, EOUS_E_POLICY, "type: the focused field is a file input; use upload (%s)", t->what);
    if (act_secrets_has_placeholder(a->text)) {
        eous_rc mrc = mark_secret_field(x, t, err);
        if (mrc)
            return mrc;
    }
    char *text = NULL;
    eous_buf keys;
    eous_buf_init(&keys, 16 * 1024 * 1024);
    /* secrets are filled in here, on the page they are typed into, and nowhere else */
    eous_rc rc = act_secrets_expand(x->secrets, a->text ? a->text : "", x->url, &text, err);
    if (rc)
        goto done;
    char note[160] = "";
    if (is_dated_input(t) && !act_secrets_has_placeholder(a->text)) {
        rc = type_dated(x, a, t, text, res, err);
        goto done;
    }
    /* nothing covers the field: the click and the keys in one request (below) */
    if (!t->hit && (rc = click_elem(x, t->type_elem, t->x, t->y, t->w, t->h, note, sizeof note, err))) {
        eous_err_prefix(err, "type into %s", t->what);
        goto done;
    }
    /* the whole text as one edit carried by its last character's real key press, after the
     * click and the clearing keys: what a page reads per key it reads once, at the end */
    size_t last = t->hit && !x->o.type_by_key && wd_session_has_cdp(x->s) ? last_of_plain(text) : 0;
    /* React inputs ignore a programmatic clear: select all and delete, as a person would (an edit
     * that follows replaces the selection itself: no delete, so the page does not render the field
     * empty in between); an empty field has nothing to clear and no end to reach */
    if (!t->empty && a->clear)
        eous_buf_puts(&keys, last ? KEY_CONTROL "a" KEY_CONTROL : KEY_CONTROL "a" KEY_CONTROL KEY_BACKSPACE, NULL);
    else if (!t->empty) /* the click left the caret where it landed: append at the end */
        eous_buf_puts(&keys, KEY_CONTROL KEY_END KEY_CONTROL, NULL);
    if (last) {
        if (!(rc = act_input_click_type_at(x, t->hx, t->hy, keys.data, err)))
            rc = key_inserting(x, text, last, err);
        eous_buf_reset(&keys); /* the clearing keys, sent */
    }
    /* W3C Element Send Keys sets a file input's files from the text: ask first,
     * after the click's focus (key actions and CDP key events never set files) */
    if (!rc && !last && !t->hit && (rc = refuse_file_input(x, t, err)))
        goto done;
    if (!rc && !(rc = last ? EOUS_OK : eous_buf_puts(&keys, text, err)) &&
        !(rc = a->enter ? eous_buf_puts(&keys, KEY_ENTER, err) : EOUS_OK) && (keys.len || !last))
        rc = last     ? act_input_type_keys(x, keys.data, err)
             : t->hit ? act_input_click_type_at(x, t->hx, t->hy, keys.data, err)
                      : wd_element_send_keys(x->s, t->type_elem, keys.data, err);
    if (rc) {
        eous_err_prefix(err, "type into %s", t->what);
        goto done;
    }
    /* a number field holds what it understood of the keys */
    if (!strcmp(t->tag, "input") && !strcasecmp(t->input_type, "number") && a->clear && !a->enter) {
        cJSON *v = check_elem(x, t->type_elem, "readback", NULL);
        const char *got = eous_json_str(v, "value");
        if (got && strcmp(got, text)) {
            rc = eous_err_set(err, EOUS_E_PAGE, "type into %s: '%s' did not take: the field holds '%s'%s%s", t->what,
                              text, *got ? got : "nothing", eous_json_str(v, "message") && *eous_json_str(v, "message") ? " — " : "",
                              eous_json_str(v, "message") ? eous_json_str(v, "message") : "");
            cJSON_Delete(v);
            goto done;
        }
        cJSON_Delete(v);
    }
    act_res_msg(res, "typed %zu characters into %s%s%s", strlen(a->text ? a->text : ""), t->what,
            a->enter ? " and pressed Enter" : "", note);
done:
    if (keys.data)
        memset(keys.data, 0, keys.len);
    eous_buf_free(&keys);
    act_secret_free(text);
    return rc;
}

static eous_rc do_hover(act_exec *x, act_target *t, act_result *res, eous_err *err)
{
    if (t->w < 1 || t->h < 1)
        return eous_err_set(err, EOUS_E_PAGE, "hover: %s has no size on screen", t->what);
    eous_rc rc = wd_move_to(x->s, t->x, t->y, err);
    if (rc)
        return eous_err_prefix(err, "hover %s", t->what);
    act_res_msg(res, "hovered %s", t->what);
    return EOUS_OK;
}

/* "select: no option 'X' in [12] ... (options: 'A', 'B')" from a script's
 * answer {options: [...]}; `what` says how the option failed. */
static eous_rc option_not_found(const cJSON *v, const char *what, const char *want, const act_target *t,
                                eous_err *err)
{
    eous_buf b;
    eous_buf_init(&b, 8192);
    int i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItem(v, "options")) {
        if (!cJSON_IsString(o) || !o->valuestring[0])
            continue;
        eous_buf_printf(&b, NULL, "%s'%s'", i++ ? ", " : "", o->valuestring);
    }
    eous_rc rc = eous_err_set(err, EOUS_E_NOT_FOUND, "select: %s '%s' in %s (options: %s)", what, want, t->what,
                              i && b.data ? b.data : "none visible");
    eous_buf_free(&b);
    return rc;
}

static eous_rc select_native(act_exec *x, const char *want, act_target *t, act_result *res, eous_err *err)
{
    cJSON *args = cJSON_CreateArray(), *v = NULL;
    cJSON_AddItemToArray(args, wd_element_ref(t->elem));
    cJSON_AddItemToArray(args, cJSON_CreateString(want));
    eous_rc rc = wd_execute(x->s, ACT_NATIVE_OPTION_JS, args, &v, err);
    cJSON_Delete(args);
    args = NULL;
    if (rc)
        goto done;
    if (!eous_json_bool(v, "found", 0)) {
        rc = option_not_found(v, eous_json_bool(v, "disabled", 0) ? "the option is disabled:" : "no option", want,
                              t, err);
        goto done;
    }
    const char *label = eous_json_str(v, "label");
    if (!eous_json_bool(v, "already", 0)) {
        const char *opt = wd_element_id_of(cJSON_GetObjectItem(v, "option"));
        eous_err e2;
        eous_err_clear(&e2);
        /* clicking an <option> selects it with real events (W3C element click) */
        if (!opt || wd_element_click(x->s, opt, &e2) != EOUS_OK) {
            args = cJSON_CreateArray();
            cJSON_AddItemToArray(args, wd_element_ref(t->elem));
            cJSON_AddItemToArray(args, cJSON_Duplicate(cJSON_GetObjectItem(v, "option"), 1));
            if ((rc = wd_execute(x->s, ACT_NATIVE_SET_JS, args, NULL, err)))
                goto done;
        }
    }
    act_res_msg(res, "selected '%s' in %s", label ? label : want, t->what);
done:
    cJSON_Delete(args);
    cJSON_Delete(v);
    return rc;
}

static eous_rc find_popup_option(act_exec *x, const char *want, double wait_ms, cJSON **out, eous_err *err)
{
    cJSON *args = cJSON_CreateArray();
    cJSON_AddItemToArray(args, cJSON_CreateString(want));
    cJSON_AddItemToArray(args, cJSON_CreateNumber(wait_ms));
    eous_rc rc = wd_execute(x->s, ACT_POPUP_OPTION_JS, args, out, err);
    cJSON_Delete(args);
    return rc;
}

/* antd Select / Cascader / ARIA comboboxes: open, type to filter when the
 * popup has a search box, click the option whose accessible name is the
 * wanted text.  "A / B" walks a cascader level by level. */
static eous_rc select_popup(act_exec *x, const char *want, act_target *t, act_result *res, eous_err *err)
{
    char note[160] = "";
    /* nothing covers it: a pointer click at its centre, without the driver's element checks */
    eous_rc rc = t->hit ? act_input_click_at(x, t->hx, t->hy, err)
                        : click_elem(x, t->elem, t->x, t->y, t->w, t->h, note, sizeof note, err);
    if (rc)
        return eous_err_prefix(err, "select: opening %s", t->what);
    char path[1024];
    snprintf(path, sizeof path, "%s", want);
    int level = 0;
    char *save = NULL;
    const char *sep = strstr(path, " / ") ? " / " : strstr(path, " > ") ? " > " : NULL;
    char *part = path;
    while (part) {
        char *next = NULL;
        if (sep && (next = strstr(part, sep))) {
            *next = '\0';
            next += strlen(sep);
        }
        (void)save;
        cJSON *v = NULL;
        if ((rc = find_popup_option(x, part, level ? 800 : 400, &v, err)))
            return rc;
        if (!eous_json_bool(v, "found", 0) && eous_json_bool(v, "canType", 0)) {
            cJSON *active = NULL;
            if (wd_command(x->s, "GET", "/element/active", NULL, &active, NULL) == EOUS_OK &&
                wd_element_id_of(active)) {
                wd_element_send_keys(x->s, wd_element_id_of(active), part, NULL);
                cJSON_Delete(v);
                v = NULL;
                rc = find_popup_option(x, part, 1500, &v, err);
            }
            cJSON_Delete(active);
            if (rc)
                return rc;
        }
        if (!eous_json_bool(v, "found", 0)) {
            rc = option_not_found(v, "no option", part, t, err);
            cJSON_Delete(v);
            wd_press_keys(x->s, "Escape", NULL);
            return rc;
        }
        if (eous_json_bool(v, "disabled", 0)) {
            rc = eous_err_set(err, EOUS_E_REJECTED, "select: option '%s' in %s is disabled", part, t->what);
            cJSON_Delete(v);
            wd_press_keys(x->s, "Escape", NULL);
            return rc;
        }
        const char *conf = eous_json_str(v, "confirm");
        if (conf) {
            char what[512];
            snprintf(what, sizeof what, "select '%s' in %s", part, t->what);
            if ((rc = act_ask(x, conf, what, err))) {
                cJSON_Delete(v);
                wd_press_keys(x->s, "Escape", NULL);
                return rc;
            }
        }
        const char *opt = wd_element_id_of(cJSON_GetObjectItem(v, "el"));
        double ox = eous_json_num(v, "x", 0), oy = eous_json_num(v, "y", 0);
        /* nothing covers it where the script found it: a pointer click there */
        rc = eous_json_bool(v, "hit", 0) ? act_input_click_at(x, ox, oy, err)
             : opt ? click_elem(x, opt, ox, oy, 1, 1, NULL, 0, err)
                   : eous_err_set(err, EOUS_E_PAGE, "select: the page did not hand back option '%s'", part);
        cJSON_Delete(v);
        if (rc)
            return eous_err_prefix(err, "select '%s' in %s", part, t->what);
        part = next;
        level++;
    }
    act_res_msg(res, "selected '%s' in %s%s", want, t->what, note);
    return EOUS_OK;
}

static eous_rc do_select(act_exec *x, const act_action *a, act_target *t, act_result *res, eous_err *err)
{
    const char *want = a->text ? a->text : "";
    if (!*want)
        return eous_err_set(err, EOUS_E_INVALID, "select %s: expected an option's label or value", t->what);
    if (t->disabled)
        return eous_err_set(err, EOUS_E_PAGE, "select: %s is disabled", t->what);
    if (!strcmp(t->tag, "select"))
        return select_native(x, want, t, res, err);
    if (t->combobox || !strcmp(t->role, "listbox") || !strcmp(t->role, "button"))
        return select_popup(x, want, t, res, err);
    return eous_err_set(err, EOUS_E_INVALID,
                        "select: %s is a <%s>, not a <select> or a combobox; click the option instead", t->what,
                        t->tag);
}

/* Target resolution, marks, policy, then the action itself.  A click or a
 * type whose target nothing covers goes as one script (found, checked,
 * scrolled, hit-tested) and one input request; a popup select opens its
 * widget the same way. */
eous_rc act_run_atomic(act_exec *x, const perc_obs *obs, const act_action *a, act_target *t, act_result *res,
                          eous_err *err)
{
    res->path = ACT_PATH_ATOMIC;
    eous_rc rc = a->kind == ACT_CLICK || a->kind == ACT_TYPE || a->kind == ACT_SELECT
                     ? act_acquire_click(x, t, a->kind == ACT_TYPE, err)
                     : EOUS_OK;
    if (!rc && t->hit && a->kind == ACT_CLICK) {
        /* nothing covers it: real input events at its centre, one request */
        if ((rc = act_check_target_policy(x, obs, a, t, err)))
            return rc;
        if ((rc = act_input_click_at(x, t->hx, t->hy, err)))
            return eous_err_prefix(err, "click %s", t->what);
        if (t->blocked) /* the click went (the page may act on it); the form did not submit */
            return eous_err_set(err, EOUS_E_PAGE, "click %s: the browser's validation blocks the form: %s", t->what,
                                t->block_msg);
        act_res_msg(res, "clicked %s", t->what);
        return EOUS_OK;
    }
    if (!rc && !t->prepared)
        rc = act_acquire(x, t, a->kind == ACT_TYPE, err);
    if (rc)
        return rc;
    if ((rc = act_check_target_policy(x, obs, a, t, err)))
        return rc;
    switch (a->kind) {
    case ACT_CLICK: return do_click(x, t, res, err);
    case ACT_TYPE: return do_type(x, a, t, res, err);
    case ACT_HOVER: return do_hover(x, t, res, err);
    case ACT_SELECT: return do_select(x, a, t, res, err);
    default: return eous_err_set(err, EOUS_E_INVALID, "%s is not an element action", act_kind_name(a->kind));
    }
}

eous_rc act_run_press(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    cJSON *v = NULL;
    eous_rc rc = wd_execute(x->s, ACT_ACTIVE_JS, NULL, &v, err);
    if (rc)
        return rc;
    act_remember_url(x, v);
    char what[300];
    snprintf(what, sizeof what, "press %s on %s '%s'", a->text ? a->text : "",
             eous_json_str(v, "role") ? eous_json_str(v, "role") : "the page",
             eous_json_str(v, "name") ? eous_json_str(v, "name") : "");
    /* keys reach the focused element: its marks apply as if it were clicked */
    if (eous_json_bool(v, "hidden", 0))
        rc = act_policy_hidden(what, err);
    const char *confirm = NULL;
    if (!rc)
        rc = act_policy_check_action(x->policy, eous_json_str(v, "role"), eous_json_str(v, "name"), "press", NULL,
                                     x->url, &confirm, err);
    if (!rc && eous_json_str(v, "confirm"))
        rc = act_ask(x, eous_json_str(v, "confirm"), what, err);
    if (!rc && confirm)
        rc = act_ask(x, confirm, what, err);
    cJSON_Delete(v);
    if (rc)
        return rc;
    res->path = ACT_PATH_ATOMIC;
    if ((rc = wd_press_keys(x->s, a->text, err)))
        return rc;
    act_res_msg(res, "pressed %s", a->text);
    return EOUS_OK;
}

eous_rc act_run_scroll(act_exec *x, const act_action *a, act_result *res, eous_err *err)
{
    const char *d = a->text ? a->text : "down";
    int dx = 0, dy = 0;
    if (!strcasecmp(d, "down"))
        dy = 600;
    else if (!strcasecmp(d, "up"))
        dy = -600;
    else if (!strcasecmp(d, "right"))
        dx = 600;
    else if (!strcasecmp(d, "left"))
        dx = -600;
    else
        return eous_err_set(err, EOUS_E_INVALID, "scroll: expected up or down, got '%s'", d);
    eous_rc rc = act_policy_check_action(x->policy, NULL, NULL, "scroll", NULL, x->url, NULL, err);
    if (rc)
        return rc;
    res->path = ACT_PATH_ATOMIC;
    if ((rc = wd_wheel(x->s, x->vw / 2, x->vh / 2, dx, dy, err)))
        return rc;
    act_res_msg(res, "scrolled %s", d);
    return EOUS_OK;
}

