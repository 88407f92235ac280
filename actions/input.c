/* actions/input.c — an atomic action's clicks and keys on act_exec_set_input's hook (eous mcp's own
 * DevTools connection), as the Input events chromedriver dispatches for the same W3C actions (its
 * parameters copied from its verbose log: the same trusted events, coordinates, key values, codes and
 * modifiers reach the page), one ~1 ms command each instead of a driver request.  What has no
 * event in the table below, a W3C-only session, no hook, or a hook that sent nothing: the driver. */
#include <stdio.h>
#include <string.h>

#include "actions/act_int.h"

/* Appends {"method": m, "params": p} (p owned) to cmds; 0 when memory ran out. */
static int add_cmd(cJSON *cmds, const char *m, cJSON *p)
{
    cJSON *c = cJSON_CreateObject();
    if (!c || !p || !cJSON_AddStringToObject(c, "method", m) || !cJSON_AddItemToObject(c, "params", p)) {
        cJSON_Delete(c);
        cJSON_Delete(p);
        return 0;
    }
    return cJSON_AddItemToArray(cmds, c);
}

/* The mouse's move, press and release at (x, y), chromedriver's values for a W3C pointer click
 * (its press carries buttons 0 and force 0.5, its release buttons 1). */
static int add_click(cJSON *cmds, double x, double y)
{
    static const char *const type[] = {"mouseMoved", "mousePressed", "mouseReleased"};
    int ok = 1;
    for (int i = 0; i < 3 && ok; i++) {
        cJSON *p = cJSON_CreateObject();
        ok = p && cJSON_AddStringToObject(p, "button", i ? "left" : "none") &&
             cJSON_AddNumberToObject(p, "buttons", i == 2) && cJSON_AddNumberToObject(p, "clickCount", i > 0) &&
             cJSON_AddNumberToObject(p, "force", i == 1 ? 0.5 : 0) && cJSON_AddNumberToObject(p, "modifiers", 0) &&
             cJSON_AddStringToObject(p, "pointerType", "mouse") &&
             cJSON_AddNumberToObject(p, "tangentialPressure", 0) && cJSON_AddNumberToObject(p, "tiltX", 0) &&
             cJSON_AddNumberToObject(p, "tiltY", 0) && cJSON_AddNumberToObject(p, "twist", 0) &&
             cJSON_AddStringToObject(p, "type", type[i]) && cJSON_AddNumberToObject(p, "x", (int)(x + 0.5)) &&
             cJSON_AddNumberToObject(p, "y", (int)(y + 0.5));
        ok = add_cmd(cmds, "Input.dispatchMouseEvent", ok ? p : (cJSON_Delete(p), NULL));
    }
    return ok;
}

/* One key as chromedriver sends it: key, code, Windows key code, the text it types (unmodified:
 * without Shift).  0 when the byte has no entry: the whole input goes through the driver. */
typedef struct key_ev {
    char key[12], code[16], text[4], unmod[4];
    int vk, shift, location;
} key_ev;

static int key_of_char(unsigned char c, key_ev *k)
{
    static const struct { char c; const char *code; int vk; } PUNCT[] = {
        {' ', "Space", 32}, {',', "Comma", 188}, {'.', "Period", 190}, {'-', "Minus", 189}, {';', "Semicolon", 186}};
    memset(k, 0, sizeof *k);
    snprintf(k->key, sizeof k->key, "%c", c);
    snprintf(k->text, sizeof k->text, "%c", c);
    snprintf(k->unmod, sizeof k->unmod, "%c", c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        k->vk = c >= 'a' ? c - 'a' + 'A' : c;
        k->shift = c < 'a';
        snprintf(k->code, sizeof k->code, "Key%c", k->vk);
        return 1;
    }
    if (c >= '0' && c <= '9') {
        k->vk = c;
        snprintf(k->code, sizeof k->code, "Digit%c", c);
        return 1;
    }
    for (size_t i = 0; i < sizeof PUNCT / sizeof *PUNCT; i++)
        if (PUNCT[i].c == (char)c) {
            k->vk = PUNCT[i].vk;
            snprintf(k->code, sizeof k->code, "%s", PUNCT[i].code);
            return 1;
        }
    return 0;
}

/* WebDriver's Backspace (U+E003) and Enter (U+E007): chromedriver's Enter is the keypad's. */
static int key_of_special(unsigned cp, key_ev *k)
{
    memset(k, 0, sizeof *k);
    if (cp == 0xE003) {
        snprintf(k->key, sizeof k->key, "Backspace");
        snprintf(k->code, sizeof k->code, "Backspace");
        k->vk = 8;
        return 1;
    }
    if (cp == 0xE007) {
        snprintf(k->key, sizeof k->key, "Enter");
        snprintf(k->code, sizeof k->code, "NumpadEnter");
        snprintf(k->text, sizeof k->text, "\r");
        snprintf(k->unmod, sizeof k->unmod, "\r");
        k->vk = 13;
        k->location = 1;
        return 1;
    }
    return 0;
}

/* keyDown and keyUp of k; with Control held (ctrl) only 'a' (select all) has an entry. */
static int add_key(cJSON *cmds, const key_ev *k, int ctrl)
{
    if (ctrl && strcmp(k->key, "a"))
        return 0;
    int ok = 1;
    for (int up = 0; up < 2 && ok; up++) {
        cJSON *p = cJSON_CreateObject(), *cm = NULL;
        ok = p && cJSON_AddStringToObject(p, "code", k->code) && cJSON_AddStringToObject(p, "key", k->key) &&
             (!k->location || cJSON_AddNumberToObject(p, "location", k->location)) &&
             cJSON_AddNumberToObject(p, "modifiers", (ctrl ? 2 : 0) | (k->shift ? 8 : 0)) &&
             cJSON_AddStringToObject(p, "text", k->text) && cJSON_AddStringToObject(p, "type", up ? "keyUp" : "keyDown") &&
             cJSON_AddStringToObject(p, "unmodifiedText", k->unmod) &&
             cJSON_AddNumberToObject(p, "windowsVirtualKeyCode", k->vk);
        if (ok && ctrl)
            ok = (cm = cJSON_AddArrayToObject(p, "commands")) && cJSON_AddItemToArray(cm, cJSON_CreateString("SelectAll"));
        ok = add_cmd(cmds, "Input.dispatchKeyEvent", ok ? p : (cJSON_Delete(p), NULL));
    }
    return ok;
}

/* Control (U+E009) going down (its own modifier set, an empty command) or up. */
static int add_control(cJSON *cmds, int down)
{
    cJSON *p = cJSON_CreateObject(), *cm = NULL;
    int ok = p && cJSON_AddStringToObject(p, "code", "ControlLeft") && cJSON_AddStringToObject(p, "key", "Control") &&
             cJSON_AddNumberToObject(p, "location", 1) && cJSON_AddNumberToObject(p, "modifiers", down ? 2 : 0) &&
             cJSON_AddStringToObject(p, "text", "") && cJSON_AddStringToObject(p, "type", down ? "keyDown" : "keyUp") &&
             cJSON_AddStringToObject(p, "unmodifiedText", "") && cJSON_AddNumberToObject(p, "windowsVirtualKeyCode", 17);
    if (ok && down)
        ok = (cm = cJSON_AddArrayToObject(p, "commands")) && cJSON_AddItemToArray(cm, cJSON_CreateString(""));
    return add_cmd(cmds, "Input.dispatchKeyEvent", ok ? p : (cJSON_Delete(p), NULL));
}

/* keys in wd_click_type_at's syntax (Control toggles; a modifier still down at the end is released,
 * as webdriver/input.c's add_keys does); 0 at a key without an entry here. */
static int add_keys(cJSON *cmds, const char *keys)
{
    int ctrl = 0;
    key_ev k;
    for (const unsigned char *p = (const unsigned char *)(keys ? keys : ""); *p;) {
        if (p[0] == 0xEE && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
            unsigned cp = (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
            p += 3;
            if (cp == 0xE009) {
                if (!add_control(cmds, !ctrl))
                    return 0;
                ctrl = !ctrl;
            } else if (!key_of_special(cp, &k) || !add_key(cmds, &k, ctrl)) {
                return 0;
            }
        } else if (*p >= 0x80 || !key_of_char(*p++, &k) || !add_key(cmds, &k, ctrl)) {
            return 0;
        }
    }
    memset(&k, 0, sizeof k);
    return !ctrl || add_control(cmds, 0);
}

/* cmds on the hook: 1 when it took them (*rc its answer), 0 when the driver is to send the input
 * (no hook, a W3C-only session, or the hook sent nothing). */
static int on_hook(act_exec *x, const cJSON *cmds, eous_rc *rc, eous_err *err)
{
    if (!x->input || !wd_session_has_cdp(x->s))
        return 0;
    int sent = 0;
    eous_err e2;
    eous_err_clear(&e2);
    eous_rc hrc = x->input(x->input_ctx, cmds, &sent, &e2);
    if (hrc && !sent) {
        EOUS_DEBUG("actions", "input through the driver: %s", e2.msg);
        return 0;
    }
    if (hrc && err)
        *err = e2;
    *rc = hrc;
    return 1;
}

eous_rc act_input_click_at(act_exec *x, double cx, double cy, eous_err *err)
{
    cJSON *cmds = x->input ? cJSON_CreateArray() : NULL;
    eous_rc rc = EOUS_OK;
    int done = cmds && add_click(cmds, cx, cy) && on_hook(x, cmds, &rc, err);
    eous_json_wipe_free(cmds); /* key values hold what is typed (a secret's characters) */
    return done ? rc : wd_click_at(x->s, cx, cy, err);
}

eous_rc act_input_click_type_at(act_exec *x, double cx, double cy, const char *keys, eous_err *err)
{
    cJSON *cmds = x->input ? cJSON_CreateArray() : NULL;
    eous_rc rc = EOUS_OK;
    int done = cmds && add_click(cmds, cx, cy) && add_keys(cmds, keys) && on_hook(x, cmds, &rc, err);
    eous_json_wipe_free(cmds); /* key values hold what is typed (a secret's characters) */
    return done ? rc : wd_click_type_at(x->s, cx, cy, keys, err);
}

eous_rc act_input_type_keys(act_exec *x, const char *keys, eous_err *err)
{
    cJSON *cmds = x->input ? cJSON_CreateArray() : NULL;
    eous_rc rc = EOUS_OK;
    int done = cmds && add_keys(cmds, keys) && on_hook(x, cmds, &rc, err);
    eous_json_wipe_free(cmds); /* key values hold what is typed (a secret's characters) */
    return done ? rc : wd_type_keys(x->s, keys, err);
}

eous_rc act_input_cdp(act_exec *x, int n, const char *const *methods, cJSON *const *params, eous_err *err)
{
    cJSON *cmds = x->input ? cJSON_CreateArray() : NULL;
    int ok = cmds != NULL;
    for (int i = 0; i < n && ok; i++)
        ok = add_cmd(cmds, methods[i], cJSON_Duplicate(params[i], 1));
    eous_rc rc = EOUS_OK;
    int done = ok && on_hook(x, cmds, &rc, err);
    eous_json_wipe_free(cmds); /* key values hold what is typed (a secret's characters) */
    for (int i = 0; i < n && !done && !rc; i++)
        rc = wd_cdp(x->s, methods[i], params[i], NULL, err);
    return rc;
}
