/* webarena/eval_text.c — the Python text semantics WebArena's evaluators rely on:
 * str.strip/str.lower (Unicode), str() of a page.evaluate value, html.unescape
 * and the part of NLTK's word_tokenize the must_include token rule needs.
 * See eval.h for what each covers. */
#define _GNU_SOURCE
#include "webarena/eval.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webarena/html_entities.inc"
#include "webarena/unicode_tables.inc"

/* ---- growable string ---------------------------------------------------------- */

typedef struct sbuf {
    char *d;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_putn(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *d = realloc(b->d, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->d = d;
        b->cap = cap;
    }
    memcpy(b->d + b->n, s, n);
    b->n += n;
    b->d[b->n] = '\0';
}
static void sb_puts(sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_putn(b, &c, 1); }

/* Returns the finished string (caller frees) or NULL when out of memory. */
static char *sb_done(sbuf *b)
{
    if (b->oom) {
        free(b->d);
        return NULL;
    }
    return b->d ? b->d : strdup("");
}

/* ---- UTF-8 --------------------------------------------------------------------- */

/* One code point at s (n bytes left); an invalid byte decodes as itself, length 1. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 1 || len == 0 || len > n) {
        *cp = c;
        return 1;
    }
    uint32_t v = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = c;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return len;
}

static void utf8_put(sbuf *b, uint32_t cp)
{
    char o[4];
    if (cp < 0x80) {
        o[0] = (char)cp;
        sb_putn(b, o, 1);
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        sb_putn(b, o, 2);
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        sb_putn(b, o, 3);
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        sb_putn(b, o, 4);
    }
}

size_t wa_py_len(const char *s)
{
    size_t n = strlen(s), count = 0;
    uint32_t cp;
    for (size_t i = 0; i < n; i += utf8_next((const unsigned char *)s + i, n - i, &cp))
        count++;
    return count;
}

/* ---- str.strip / str.lower ---------------------------------------------------- */

static int in_ranges(const struct cp_range *r, size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid].lo)
            hi = mid;
        else if (c > r[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}
#define IN(table, c) in_ranges(table, sizeof table / sizeof *table, c)

/* Python's str.isspace set (what str.strip() and str.split() remove). */
static int py_isspace(uint32_t c) { return IN(unicode_space, c); }
static int is_cased(uint32_t c) { return IN(unicode_cased, c); }
static int is_case_ignorable(uint32_t c) { return IN(unicode_case_ignorable, c); }

/* str.lower() of one code point (U+0130 and final sigma are handled by the caller). */
static uint32_t lower_cp(uint32_t c)
{
    size_t lo = 0, hi = sizeof unicode_lower / sizeof *unicode_lower;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < unicode_lower[mid].from)
            hi = mid;
        else if (c > unicode_lower[mid].from)
            lo = mid + 1;
        else
            return unicode_lower[mid].to;
    }
    return c;
}

/* Final_Sigma: a cased letter before (through case-ignorables), none after. */
static int final_sigma(const char *s, size_t n, size_t after, uint32_t before)
{
    if (!is_cased(before))
        return 0;
    uint32_t next;
    for (size_t i = after; i < n;) {
        i += utf8_next((const unsigned char *)s + i, n - i, &next);
        if (!is_case_ignorable(next))
            return !is_cased(next);
    }
    return 1;
}

char *wa_py_lower(const char *s, size_t n)
{
    sbuf b = {0};
    uint32_t before = 0, cp; /* the last code point that is not case-ignorable */
    for (size_t i = 0; i < n;) {
        size_t len = utf8_next((const unsigned char *)s + i, n - i, &cp);
        if (len == 1 && cp >= 0x80) {
            sb_putc(&b, (char)cp); /* invalid byte: kept as is */
        } else if (cp == 0x130) {
            utf8_put(&b, 'i'); /* İ lowers to i + combining dot above */
            utf8_put(&b, 0x307);
        } else if (cp == 0x3A3) {
            utf8_put(&b, final_sigma(s, n, i + len, before) ? 0x3C2 : 0x3C3);
        } else {
            utf8_put(&b, lower_cp(cp));
        }
        if (!is_case_ignorable(cp))
            before = cp;
        i += len;
    }
    return sb_done(&b);
}

void wa_py_strip(const char *s, size_t *start, size_t *len)
{
    size_t n = strlen(s), a = 0, e = n;
    uint32_t cp;
    while (a < n) {
        size_t l = utf8_next((const unsigned char *)s + a, n - a, &cp);
        if (!py_isspace(cp) || (l == 1 && cp >= 0x80))
            break;
        a += l;
    }
    while (e > a) {
        size_t k = e - 1;
        while (k > a && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;
        size_t l = utf8_next((const unsigned char *)s + k, e - k, &cp);
        if (k + l != e || !py_isspace(cp) || (l == 1 && cp >= 0x80))
            break;
        e = k;
    }
    *start = a;
    *len = e - a;
}

/* ---- html.unescape ------------------------------------------------------------- */

static int entity_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const struct html_entity *)elem)->name);
}

static const char *entity_lookup(const char *name, size_t n)
{
    char key[40];
    if (n >= sizeof key)
        return NULL;
    memcpy(key, name, n);
    key[n] = '\0';
    const struct html_entity *e =
        bsearch(key, html_entities, sizeof html_entities / sizeof *html_entities, sizeof *html_entities, entity_cmp);
    return e ? e->text : NULL;
}

static void numeric_charref(sbuf *b, uint64_t num)
{
    for (size_t i = 0; i < sizeof html_invalid_charrefs / sizeof *html_invalid_charrefs; i++)
        if (html_invalid_charrefs[i].num == num) {
            sb_puts(b, html_invalid_charrefs[i].text);
            return;
        }
    if ((num >= 0xD800 && num <= 0xDFFF) || num > 0x10FFFF) {
        utf8_put(b, 0xFFFD);
        return;
    }
    for (size_t i = 0; i < sizeof html_invalid_codepoints / sizeof *html_invalid_codepoints; i++)
        if (html_invalid_codepoints[i] == num)
            return;
    utf8_put(b, (uint32_t)num);
}

/* One reference at s ('&' already seen at s[-1]); returns bytes consumed or 0
 * when this is no reference (Python's _charref pattern does not match). */
static size_t charref(sbuf *b, const char *s)
{
    if (s[0] == '#') {
        int hex = s[1] == 'x' || s[1] == 'X';
        size_t i = hex ? 2 : 1, start = i;
        uint64_t num = 0;
        for (;; i++) {
            int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
                    : hex && s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                    : hex && s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10
                    : -1;
            if (d < 0)
                break;
            if (num <= 0x10FFFFFF)
                num = num * (hex ? 16 : 10) + (uint64_t)d; /* capped: anything larger is U+FFFD anyway */
        }
        if (i == start)
            return 0;
        if (s[i] == ';')
            i++;
        numeric_charref(b, num);
        return i;
    }
    /* [^\t\n\f <&#;]{1,32};? */
    size_t n = 0;
    while (n < 32 && s[n] && !strchr("\t\n\f <&#;", s[n]))
        n++;
    if (!n)
        return 0;
    size_t full = n + (s[n] == ';');
    const char *t = entity_lookup(s, full);
    if (t) {
        sb_puts(b, t);
        return full;
    }
    /* the longest name that is a prefix, at least 2 characters (Python's rule) */
    for (size_t x = full - 1; x > 1; x--) {
        if ((t = entity_lookup(s, x))) {
            sb_puts(b, t);
            sb_putn(b, s + x, full - x);
            return full;
        }
    }
    sb_putc(b, '&'); /* no such entity: the text stays as it was */
    sb_putn(b, s, full);
    return full;
}

char *wa_html_unescape(const char *s)
{
    if (!strchr(s, '&'))
        return strdup(s);
    sbuf b = {0};
    for (const char *p = s; *p;) {
        if (*p == '&') {
            size_t used = charref(&b, p + 1);
            if (used) {
                p += 1 + used;
                continue;
            }
        }
        sb_putc(&b, *p++);
    }
    return sb_done(&b);
}

/* ---- str() of a page.evaluate value ------------------------------------------- */

/* Python's repr(float): the shortest digits that round-trip, exponent form
 * when the exponent is < -4 or >= 16. */
static void py_float_repr(sbuf *b, double d)
{
    if (isnan(d)) {
        sb_puts(b, "nan");
        return;
    }
    if (isinf(d)) {
        sb_puts(b, d < 0 ? "-inf" : "inf");
        return;
    }
    char digits[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(digits, sizeof digits, "%.*e", prec - 1, d);
        if (strtod(digits, NULL) == d)
            break;
    }
    /* digits = [-]D[.DDD]e[+-]XX */
    char *e = strchr(digits, 'e');
    int exp = atoi(e + 1);
    *e = '\0';
    char mant[32];
    size_t m = 0;
    int neg = digits[0] == '-';
    for (const char *p = digits + neg; *p; p++)
        if (*p != '.')
            mant[m++] = *p;
    mant[m] = '\0';
    while (m > 1 && mant[m - 1] == '0')
        mant[--m] = '\0';
    if (neg)
        sb_putc(b, '-');
    if (exp < -4 || exp >= 16) {
        sb_putc(b, mant[0]);
        if (m > 1) {
            sb_putc(b, '.');
            sb_puts(b, mant + 1);
        }
        char x[8];
        snprintf(x, sizeof x, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        sb_puts(b, x);
    } else if (exp < 0) {
        sb_puts(b, "0.");
        for (int i = -1; i > exp; i--)
            sb_putc(b, '0');
        sb_puts(b, mant);
    } else {
        for (int i = 0; i <= exp; i++)
            sb_putc(b, i < (int)m ? mant[i] : '0');
        sb_putc(b, '.');
        if ((int)m > exp + 1)
            sb_puts(b, mant + exp + 1);
        else
            sb_putc(b, '0');
    }
}

/* A JS number as Python sees it after the JSON round trip: integral values
 * below 1e21 arrive as int, the rest as float. */
static void py_number(sbuf *b, double d)
{
    if (d == floor(d) && fabs(d) < 1e21) {
        char x[32];
        snprintf(x, sizeof x, "%.0f", d == 0 ? 0.0 : d);
        sb_puts(b, x);
    } else {
        py_float_repr(b, d);
    }
}

/* str.isprintable's complement for the code points repr() escapes (C0/C1
 * controls, the Zs/Zl/Zp separators other than space, common Cf format
 * characters); unassigned code points are treated as printable. */
static int py_unprintable(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD || c == 0x1680 || c == 0x180E ||
           (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x2064) ||
           (c >= 0x2066 && c <= 0x206F) || c == 0x3000 || c == 0xFEFF || (c >= 0xD800 && c <= 0xF8FF) ||
           (c >= 0xFFF9 && c <= 0xFFFB);
}

static void py_str_repr(sbuf *b, const char *s)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    sb_putc(b, q);
    size_t n = strlen(s);
    uint32_t cp;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_next((const unsigned char *)s + i, n - i, &cp);
        char x[16];
        if (cp == (uint32_t)q || cp == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)cp);
        } else if (cp == '\n') {
            sb_puts(b, "\\n");
        } else if (cp == '\r') {
            sb_puts(b, "\\r");
        } else if (cp == '\t') {
            sb_puts(b, "\\t");
        } else if (py_unprintable(cp)) {
            snprintf(x, sizeof x, cp < 0x100 ? "\\x%02x" : cp < 0x10000 ? "\\u%04x" : "\\U%08x", cp);
            sb_puts(b, x);
        } else {
            sb_putn(b, s + i, len);
        }
        i += len;
    }
    sb_putc(b, q);
}

static void py_value(sbuf *b, const cJSON *v, int nested)
{
    if (!v || cJSON_IsNull(v)) {
        sb_puts(b, "None");
    } else if (cJSON_IsBool(v)) {
        sb_puts(b, cJSON_IsTrue(v) ? "True" : "False");
    } else if (cJSON_IsNumber(v)) {
        py_number(b, v->valuedouble);
    } else if (cJSON_IsString(v)) {
        if (nested)
            py_str_repr(b, v->valuestring);
        else
            sb_puts(b, v->valuestring);
    } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        int obj = cJSON_IsObject(v);
        sb_putc(b, obj ? '{' : '[');
        const cJSON *it;
        int first = 1;
        cJSON_ArrayForEach(it, v) {
            if (!first)
                sb_puts(b, ", ");
            first = 0;
            if (obj) {
                py_str_repr(b, it->string ? it->string : "");
                sb_puts(b, ": ");
            }
            py_value(b, it, 1);
        }
        sb_putc(b, obj ? '}' : ']');
    } else {
        sb_puts(b, "None");
    }
}

char *wa_py_str(const cJSON *v)
{
    sbuf b = {0};
    py_value(&b, v, 0);
    return sb_done(&b);
}

/* ---- NLTK word_tokenize (the subset the token rule needs) --------------------- */

static int is_word_byte(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Punkt's period decision for a word ending in '.' before next: a number
 * ("9.", "1,5.") or an initial ("j.") is no break when the next word starts
 * lower-case or with ;:,.!? (the orthographic heuristic on lower-cased text);
 * an ellipsis is no break; any other word is a break (no abbreviation list). */
static int punkt_breaks_after(const char *w, size_t n, const char *next)
{
    while (n && strchr("(\"`{[:;&#*@)}]-,", *w)) {
        w++;
        n--;
    }
    if (n >= 2 && w[n - 2] == '.')
        return 0;
    size_t core = n - 1;
    int numeric = core > 0, initial = core == 1 && !is_digit(w[0]) && is_word_byte((unsigned char)w[0]) && w[0] != '_';
    size_t i = 0;
    if (i < core && w[i] == '-')
        i++;
    if (i < core && (w[i] == '.' || w[i] == ','))
        i++;
    if (i >= core || !is_digit(w[i]))
        numeric = 0;
    for (; numeric && i < core; i++)
        if (!is_digit(w[i]) && !strchr(",.-", w[i]))
            numeric = 0;
    if (!numeric && !initial)
        return 1;
    unsigned char c = (unsigned char)next[0];
    return !(strchr(";:,.!?", c) || (c >= 'a' && c <= 'z') || c >= 0x80);
}

/* Treebank padding of one sentence: spaces around the characters NLTK always
 * splits off, around ':' and ',' unless a digit follows, around '..' runs and
 * '--', and the sentence-final period. */
static void treebank_pad(sbuf *b, const char *s, size_t n)
{
    size_t end = n, fin = (size_t)-1;
    while (end && strchr(" \t\n\r\f\v", s[end - 1]))
        end--;
    size_t k = end;
    while (k && strchr("])}>\"'", s[k - 1]))
        k--;
    if (k >= 2 && s[k - 1] == '.' && s[k - 2] != '.')
        fin = k - 1;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        const unsigned char *u = (const unsigned char *)s + i;
        int quote3 = n - i >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
                     (u[2] == 0x9C || u[2] == 0x98 || u[2] == 0x9E || u[2] == 0x9D || u[2] == 0x99);
        int quote2 = n - i >= 2 && u[0] == 0xC2 && (u[1] == 0xAB || u[1] == 0xBB);
        if (quote3 || quote2) { /* “ ‘ „ ” ’ « » */
            sb_putc(b, ' ');
            sb_putn(b, s + i, quote3 ? 3 : 2);
            sb_putc(b, ' ');
            i += quote3 ? 2 : 1;
        } else if (i == fin || strchr(";@#$%&?!*[](){}<>\"`", c) ||
                   ((c == ':' || c == ',') && (i + 1 >= n || !is_digit(s[i + 1])))) {
            sb_putc(b, ' ');
            sb_putc(b, c);
            sb_putc(b, ' ');
        } else if ((c == '.' && i + 1 < n && s[i + 1] == '.') || (c == '-' && i + 1 < n && s[i + 1] == '-')) {
            size_t j = i;
            while (j < n && s[j] == c && (c == '.' || j - i < 2))
                j++;
            sb_putc(b, ' ');
            sb_putn(b, s + i, j - i);
            sb_putc(b, ' ');
            i = j - 1;
        } else {
            sb_putc(b, c);
        }
    }
}

/* Does one padded word, after NLTK's apostrophe rules, contain token? */
static int word_has_token(const char *w, size_t n, const char *tok)
{
    size_t tl = strlen(tok);
    /* a leading quote before a one-character word: "'9" → "'", "9" */
    if (n == 2 && w[0] == '\'' && is_word_byte((unsigned char)w[1]))
        return (tl == 1 && (tok[0] == '\'' || tok[0] == w[1]));
    /* clitics and a closing quote split off the end: 9's, 9', can't */
    static const char *const clitics[] = {"'ll", "'re", "'ve", "n't", "'s", "'m", "'d", "'"};
    for (size_t i = 0; i < sizeof clitics / sizeof *clitics; i++) {
        size_t cl = strlen(clitics[i]);
        if (n > cl && !strncmp(w + n - cl, clitics[i], cl) && w[n - cl - 1] != '\'') {
            if (tl == cl && !strncmp(tok, clitics[i], cl))
                return 1;
            return tl == n - cl && !strncmp(w, tok, tl);
        }
    }
    return tl == n && !strncmp(w, tok, n);
}

static int sentence_has_token(const char *s, size_t n, const char *tok)
{
    sbuf b = {0};
    treebank_pad(&b, s, n);
    char *p = sb_done(&b);
    if (!p)
        return 0;
    int found = 0;
    size_t len = strlen(p);
    for (size_t i = 0; i < len && !found;) {
        size_t st, wl;
        wa_py_strip(p + i, &st, &wl);
        (void)wl;
        i += st;
        size_t j = i;
        uint32_t cp;
        while (j < len) {
            size_t l = utf8_next((const unsigned char *)p + j, len - j, &cp);
            if (py_isspace(cp) && !(l == 1 && cp >= 0x80))
                break;
            j += l;
        }
        if (j > i)
            found = word_has_token(p + i, j - i, tok);
        i = j;
    }
    free(p);
    return found;
}

int wa_word_tokenize_contains(const char *text, const char *tok)
{
    size_t n = strlen(text), start = 0;
    /* Punkt sentence splitting: only where a word ends in '.' and another follows */
    for (size_t i = 0; i < n; i++) {
        if (text[i] != '.' || i + 1 >= n || !strchr(" \t\n\r\f\v", text[i + 1]))
            continue;
        size_t ws = i;
        while (ws > start && !strchr(" \t\n\r\f\v", text[ws - 1]))
            ws--;
        size_t nx = i + 1;
        while (nx < n && strchr(" \t\n\r\f\v", text[nx]))
            nx++;
        if (nx >= n || !punkt_breaks_after(text + ws, i + 1 - ws, text + nx))
            continue;
        if (sentence_has_token(text + start, i + 1 - start, tok))
            return 1;
        start = nx;
    }
    return sentence_has_token(text + start, n - start, tok);
}
