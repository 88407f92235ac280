/* webdriver/input.c — keyboard chords, wheel, pointer and click-then-type
 * through W3C actions. */
#include "webdriver/wd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct key_name {
    const char *name;
    unsigned code; /* WebDriver private-use code point */
} key_name;

/* WebDriver's normalised key table (W3C spec, "keyboard actions"). */
static const key_name KEYS[] = {
    {"Cancel", 0xE001}, {"Help", 0xE002}, {"Backspace", 0xE003}, {"Tab", 0xE004},
    {"Clear", 0xE005}, {"Return", 0xE006}, {"Enter", 0xE007}, {"Shift", 0xE008},
    {"Control", 0xE009}, {"Ctrl", 0xE009}, {"Alt", 0xE00A}, {"Pause", 0xE00B},
    {"Escape", 0xE00C}, {"Esc", 0xE00C}, {"Space", 0xE00D}, {"PageUp", 0xE00E},
    {"PageDown", 0xE00F}, {"End", 0xE010}, {"Home", 0xE011}, {"ArrowLeft", 0xE012},
    {"ArrowUp", 0xE013}, {"ArrowRight", 0xE014}, {"ArrowDown", 0xE015}, {"Left", 0xE012},
    {"Up", 0xE013}, {"Right", 0xE014}, {"Down", 0xE015}, {"Insert", 0xE016},
    {"Delete", 0xE017}, {"Del", 0xE017}, {"F1", 0xE031}, {"F2", 0xE032}, {"F3", 0xE033},
    {"F4", 0xE034}, {"F5", 0xE035}, {"F6", 0xE036}, {"F7", 0xE037}, {"F8", 0xE038},
    {"F9", 0xE039}, {"F10", 0xE03A}, {"F11", 0xE03B}, {"F12", 0xE03C}, {"Meta", 0xE03D},
    {"Command", 0xE03D}, {"Cmd", 0xE03D},
};

static int utf8_encode(unsigned cp, char out[8])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        out[1] = 0;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        out[2] = 0;
    } else {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        out[3] = 0;
    }
    return 0;
}

int wd_key_code(const char *name, char out[8])
{
    if (!name || !*name)
        return -1;
    for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++)
        if (!strcasecmp(name, KEYS[i].name))
            return utf8_encode(KEYS[i].code, out);
    /* A single character (possibly multi-byte UTF-8) stands for itself. */
    size_t n = strlen(name);
    unsigned char c = (unsigned char)name[0];
    size_t want = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (want && n == want && n < 8) {
        memcpy(out, name, n + 1);
        return 0;
    }
    return -1;
}

/* cJSON builders return NULL when memory runs out; *bad remembers it, so an
 * action list is never sent with a key or a move silently missing. */
static cJSON *put_str(cJSON *o, const char *k, const char *v, int *bad)
{
    cJSON *r = o ? cJSON_AddStringToObject(o, k, v) : NULL;
    *bad |= !r;
    return r;
}

static cJSON *put_num(cJSON *o, const char *k, double v, int *bad)
{
    cJSON *r = o ? cJSON_AddNumberToObject(o, k, v) : NULL;
    *bad |= !r;
    return r;
}

static void put_item(cJSON *arr, cJSON *item, int *bad)
{
    if (!arr || !item || !cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        *bad = 1;
    }
}

/* A new action source {"type": TYPE, "id": ID, "actions": []}, appended to sources. */
static cJSON *new_source(cJSON *sources, const char *type, const char *id, cJSON **acts, int *bad)
{
    cJSON *src = cJSON_CreateObject();
    put_str(src, "type", type, bad);
    put_str(src, "id", id, bad);
    *acts = src ? cJSON_AddArrayToObject(src, "actions") : NULL;
    *bad |= !*acts;
    put_item(sources, src, bad);
    return src;
}

/* Sends the sources unless a builder failed. */
static eous_rc perform(wd_session *s, cJSON *sources, int bad, eous_err *err)
{
    eous_rc rc = bad || !sources ? eous_err_set(err, EOUS_E_NOMEM, "out of memory building input actions")
                                 : wd_perform_actions(s, sources, err);
    cJSON_Delete(sources);
    return rc;
}

static cJSON *key_action(const char *type, const char *value, int *bad)
{
    cJSON *a = cJSON_CreateObject();
    put_str(a, "type", type, bad);
    put_str(a, "value", value, bad);
    return a;
}

eous_rc wd_press_keys(wd_session *s, const char *chord, eous_err *err)
{
    /* "Control+Shift+a": all keys down in order, then up in reverse. */
    char copy[256];
    if (!chord || !*chord || strlen(chord) >= sizeof copy)
        return eous_err_set(err, EOUS_E_INVALID, "press: expected a key chord like 'Enter' or 'Control+a', got '%s'",
                            chord ? chord : "");
    snprintf(copy, sizeof copy, "%s", chord);
    char codes[8][8];
    int n = 0;
    char *save = NULL;
    /* a literal "+" key is written "Plus" or as the whole chord "+" */
    if (!strcmp(copy, "+")) {
        strcpy(codes[0], "+");
        n = 1;
    } else {
        for (char *tok = strtok_r(copy, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
            if (n == 8)
                return eous_err_set(err, EOUS_E_INVALID, "press: too many keys in '%s'", chord);
            if (!strcasecmp(tok, "Plus"))
                tok = "+";
            if (wd_key_code(tok, codes[n]) != 0)
                return eous_err_set(err, EOUS_E_INVALID,
                                    "press: unknown key '%s' in '%s' (expected names like Enter, Tab, Escape, "
                                    "ArrowDown, PageDown, Control, Shift, Alt, Meta, or one character)",
                                    tok, chord);
            n++;
        }
    }
    if (n == 0)
        return eous_err_set(err, EOUS_E_INVALID, "press: no key in '%s'", chord);
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *acts = NULL;
    new_source(sources, "key", "eous-keyboard", &acts, &bad);
    for (int i = 0; i < n; i++)
        put_item(acts, key_action("keyDown", codes[i], &bad), &bad);
    for (int i = n - 1; i >= 0; i--)
        put_item(acts, key_action("keyUp", codes[i], &bad), &bad);
    return perform(s, sources, bad, err);
}

eous_rc wd_wheel(wd_session *s, int x, int y, int dx, int dy, eous_err *err)
{
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *acts = NULL;
    new_source(sources, "wheel", "eous-wheel", &acts, &bad);
    cJSON *a = cJSON_CreateObject();
    put_str(a, "type", "scroll", &bad);
    put_num(a, "x", x, &bad);
    put_num(a, "y", y, &bad);
    put_num(a, "deltaX", dx, &bad);
    put_num(a, "deltaY", dy, &bad);
    put_num(a, "duration", 0, &bad);
    put_str(a, "origin", "viewport", &bad);
    put_item(acts, a, &bad);
    return perform(s, sources, bad, err);
}

/* A mouse source that moves to (x, y); its actions array in *acts for more. */
static void pointer_source(cJSON *sources, double x, double y, cJSON **acts, int *bad)
{
    cJSON *p = new_source(sources, "pointer", "eous-mouse", acts, bad);
    cJSON *params = p ? cJSON_AddObjectToObject(p, "parameters") : NULL;
    *bad |= !params;
    put_str(params, "pointerType", "mouse", bad);
    cJSON *mv = cJSON_CreateObject();
    put_str(mv, "type", "pointerMove", bad);
    put_num(mv, "duration", 0, bad);
    put_num(mv, "x", (int)(x + 0.5), bad);
    put_num(mv, "y", (int)(y + 0.5), bad);
    put_str(mv, "origin", "viewport", bad);
    put_item(*acts, mv, bad);
}

eous_rc wd_move_to(wd_session *s, double x, double y, eous_err *err)
{
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *acts = NULL;
    pointer_source(sources, x, y, &acts, &bad);
    return perform(s, sources, bad, err);
}

eous_rc wd_click_at(wd_session *s, double x, double y, eous_err *err)
{
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *acts = NULL;
    pointer_source(sources, x, y, &acts, &bad);
    static const char *const steps[] = {"pointerDown", "pointerUp"};
    for (int i = 0; i < 2; i++) {
        cJSON *b = cJSON_CreateObject();
        put_str(b, "type", steps[i], &bad);
        put_num(b, "button", 0, &bad);
        put_item(acts, b, &bad);
    }
    return perform(s, sources, bad, err);
}

/* One UTF-8 code point of *p (advanced past it) into out; 0 at the end or on
 * a broken sequence. */
static size_t next_code_point(const char **p, char out[8], unsigned *cp)
{
    const unsigned char *s = (const unsigned char *)*p;
    size_t n = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3 : (s[0] >> 3) == 30 ? 4 : 0;
    if (!s[0] || !n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    memcpy(out, s, n);
    out[n] = '\0';
    *cp = n == 1 ? s[0] : n == 2 ? (s[0] & 0x1Fu) << 6 | (s[1] & 0x3Fu)
                : n == 3 ? (s[0] & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu)
                         : (s[0] & 0x07u) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 | (s[3] & 0x3Fu);
    *p += n;
    return n;
}

/* Appends `keys` (see wd_click_type_at) to a key source's actions; a
 * modifier still down at the end is released. */
static eous_rc add_keys(cJSON *kacts, const char *keys, int *bad, eous_err *err)
{
    /* WebDriver's modifier codes (Shift, Control, Alt, Meta) and their state */
    static const unsigned MODS[4] = {0xE008, 0xE009, 0xE00A, 0xE03D};
    int down[4] = {0, 0, 0, 0};
    char ch[8], code[8];
    unsigned cp;
    const char *p = keys ? keys : "";
    while (*p) {
        if (!next_code_point(&p, ch, &cp)) {
            memset(ch, 0, sizeof ch); /* a secret's bytes may be in it */
            return eous_err_set(err, EOUS_E_INVALID, "type: the text is not valid UTF-8");
        }
        int m = -1;
        for (int i = 0; i < 4; i++)
            if (cp == MODS[i])
                m = i;
        if (m >= 0) { /* a modifier toggles */
            put_item(kacts, key_action(down[m] ? "keyUp" : "keyDown", ch, bad), bad);
            down[m] = !down[m];
        } else if (cp == 0xE000) { /* the NULL key releases every modifier */
            for (int i = 0; i < 4; i++)
                if (down[i] && !utf8_encode(MODS[i], code)) {
                    put_item(kacts, key_action("keyUp", code, bad), bad);
                    down[i] = 0;
                }
        } else {
            put_item(kacts, key_action("keyDown", ch, bad), bad);
            put_item(kacts, key_action("keyUp", ch, bad), bad);
        }
    }
    for (int i = 0; i < 4; i++)
        if (down[i] && !utf8_encode(MODS[i], code))
            put_item(kacts, key_action("keyUp", code, bad), bad);
    memset(ch, 0, sizeof ch);
    return EOUS_OK;
}

/* Adds `keys` to the key source kacts of sources and sends them; key values
 * are wiped after (they may hold a secret). Frees sources. */
static eous_rc send_keys_wiped(wd_session *s, cJSON *sources, cJSON *kacts, const char *keys, int bad,
                               eous_err *err)
{
    eous_rc rc = add_keys(kacts, keys, &bad, err);
    if (!rc)
        rc = bad || !sources ? eous_err_set(err, EOUS_E_NOMEM, "out of memory building input actions")
                             : wd_perform_actions(s, sources, err);
    eous_json_wipe_free(sources); /* key values hold what is typed (a secret's characters) */
    return rc;
}

eous_rc wd_click_type_at(wd_session *s, double x, double y, const char *keys, eous_err *err)
{
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *pacts = NULL, *kacts = NULL;
    pointer_source(sources, x, y, &pacts, &bad);
    static const char *const steps[] = {"pointerDown", "pointerUp"};
    for (int i = 0; i < 2; i++) {
        cJSON *b = cJSON_CreateObject();
        put_str(b, "type", steps[i], &bad);
        put_num(b, "button", 0, &bad);
        put_item(pacts, b, &bad);
    }
    new_source(sources, "key", "eous-keyboard", &kacts, &bad);
    /* the keys wait for the click: one pause per pointer tick */
    for (int i = 0; i < 3; i++) {
        cJSON *pz = cJSON_CreateObject();
        put_str(pz, "type", "pause", &bad);
        put_item(kacts, pz, &bad);
    }
    return send_keys_wiped(s, sources, kacts, keys, bad, err);
}

eous_rc wd_type_keys(wd_session *s, const char *keys, eous_err *err)
{
    int bad = 0;
    cJSON *sources = cJSON_CreateArray(), *kacts = NULL;
    new_source(sources, "key", "eous-keyboard", &kacts, &bad);
    return send_keys_wiped(s, sources, kacts, keys, bad, err);
}
