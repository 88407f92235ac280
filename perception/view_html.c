/* perception/view_html.c — the html observation mode: the page source parsed
 * with libxml2's HTML parser and pruned (scripts, styles, hidden nodes and
 * non-semantic attributes removed), ids on interactive elements.
 *
 * The ids are the data-eous-id attributes perc_observe stamps on interactive
 * elements just before reading the source, so they resolve back to backend
 * node ids through the DOM snapshot. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "perception/perc_int.h"

static const char *DROP_TAGS[] = {"script", "style", "noscript", "template", "head", "meta", "link", "svg",
                                  "path", "iframe", "object", "embed", "canvas"};
static const char *KEEP_ATTRS[] = {"href", "type", "name", "value", "placeholder", "aria-label", "title", "alt",
                                   "role", "checked", "selected", "disabled", "for", "aria-expanded",
                                   "aria-selected", "aria-checked", "aria-valuenow", "required"};

static int in_list(const char *s, const char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(s, l[i]))
            return 1;
    return 0;
}

typedef struct hctx {
    const perc_obs *obs;
    eous_buf *b;
    eous_err *err;
    eous_rc rc;
} hctx;

static void hput(hctx *c, const char *s)
{
    if (!c->rc)
        c->rc = eous_buf_puts(c->b, s, c->err);
}

static void put_escaped(hctx *c, const char *s, int attr)
{
    for (const char *p = s; *p && !c->rc; p++) {
        if (*p == '<')
            hput(c, "&lt;");
        else if (*p == '&')
            hput(c, "&amp;");
        else if (attr && *p == '"')
            hput(c, "&quot;");
        else if (*p == '\n' || *p == '\r' || *p == '\t')
            c->rc = eous_buf_putc(c->b, ' ', c->err);
        else
            c->rc = eous_buf_putc(c->b, *p, c->err);
    }
}

/* data-eous-vh as perc_observe stamped it (perception/vis_hidden.js): 1 the
 * element shows no text a person can see, 2 its own text is not seen. */
static int vis_hidden(const xmlNode *n, const char *which)
{
    xmlChar *v = n && n->type == XML_ELEMENT_NODE ? xmlGetProp((xmlNode *)n, BAD_CAST "data-eous-vh") : NULL;
    int r = v && !xmlStrcmp(v, BAD_CAST which);
    xmlFree(v);
    return r;
}

static int is_hidden(xmlNode *n)
{
    if (xmlHasProp(n, BAD_CAST "hidden") || xmlHasProp(n, BAD_CAST "data-agent-hidden") || vis_hidden(n, "1"))
        return 1;
    xmlChar *ah = xmlGetProp(n, BAD_CAST "aria-hidden");
    int hidden = ah && !xmlStrcmp(ah, BAD_CAST "true");
    xmlFree(ah);
    if (hidden)
        return 1;
    xmlChar *st = xmlGetProp(n, BAD_CAST "style");
    if (st) {
        const char *s = (const char *)st;
        hidden = strstr(s, "display:none") || strstr(s, "display: none") || strstr(s, "visibility:hidden") ||
                 strstr(s, "visibility: hidden");
        xmlFree(st);
    }
    if (!xmlStrcasecmp(n->name, BAD_CAST "input")) {
        xmlChar *t = xmlGetProp(n, BAD_CAST "type");
        if (t && !xmlStrcasecmp(t, BAD_CAST "hidden"))
            hidden = 1;
        xmlFree(t);
    }
    return hidden;
}

/* The same rule as the AX views (perc_is_secret_field), plus data-agent-secret regions. */
static int is_secret(xmlNode *n, int inherited)
{
    if (inherited || xmlHasProp(n, BAD_CAST "data-agent-secret"))
        return 1;
    xmlChar *t = xmlGetProp(n, BAD_CAST "type");
    xmlChar *ac = xmlGetProp(n, BAD_CAST "autocomplete");
    int s = perc_is_secret_field((const char *)n->name, (const char *)t, (const char *)ac);
    xmlFree(t);
    xmlFree(ac);
    return s;
}

static int only_whitespace(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\n' && *s != '\t' && *s != '\r')
            return 0;
    return 1;
}

static void walk(hctx *c, xmlNode *n, int depth, int secret)
{
    for (; n && !c->rc; n = n->next) {
        if (n->type == XML_TEXT_NODE) {
            const char *t = (const char *)n->content;
            if (!t || only_whitespace(t) || vis_hidden(n->parent, "2"))
                continue;
            for (int i = 0; i < depth; i++)
                hput(c, " ");
            if (secret)
                hput(c, "[redacted]");
            else
                put_escaped(c, t, 0);
            hput(c, "\n");
            continue;
        }
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *tag = (const char *)n->name;
        if (in_list(tag, DROP_TAGS, sizeof DROP_TAGS / sizeof *DROP_TAGS) || is_hidden(n))
            continue;
        int sec = is_secret(n, secret);
        int plain_wrapper = (!strcasecmp(tag, "div") || !strcasecmp(tag, "span")) && !xmlHasProp(n, BAD_CAST "role") &&
                            !xmlHasProp(n, BAD_CAST "data-eous-id") && !xmlHasProp(n, BAD_CAST "aria-label");
        if (plain_wrapper || !strcasecmp(tag, "html") || !strcasecmp(tag, "body")) {
            walk(c, n->children, depth, sec);
            continue;
        }
        for (int i = 0; i < depth; i++)
            hput(c, " ");
        hput(c, "<");
        hput(c, tag);
        xmlChar *eid = xmlGetProp(n, BAD_CAST "data-eous-id");
        if (eid) {
            hput(c, " id=\"");
            hput(c, (const char *)eid);
            hput(c, "\"");
            xmlFree(eid);
        }
        for (xmlAttr *a = n->properties; a && !c->rc; a = a->next) {
            const char *an = (const char *)a->name;
            if (!in_list(an, KEEP_ATTRS, sizeof KEEP_ATTRS / sizeof *KEEP_ATTRS))
                continue;
            xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
            hput(c, " ");
            hput(c, an);
            hput(c, "=\"");
            if (sec && !strcasecmp(an, "value"))
                hput(c, "[redacted]");
            else if (v)
                put_escaped(c, (const char *)v, 1);
            hput(c, "\"");
            xmlFree(v);
        }
        hput(c, ">\n");
        walk(c, n->children, depth + 1, sec);
    }
}

eous_rc perc_render_html(const perc_obs *obs, const char *html, size_t len, perc_view *view, eous_err *err)
{
    htmlDocPtr doc = htmlReadMemory(html, (int)len, obs->url ? obs->url : "about:blank", "UTF-8",
                                    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                        HTML_PARSE_NONET | HTML_PARSE_COMPACT);
    if (!doc)
        return eous_err_set(err, EOUS_E_PARSE, "html: libxml2 could not parse the page source (%zu bytes)", len);
    eous_buf b;
    eous_buf_init(&b, 0);
    hctx c = {obs, &b, err, EOUS_OK};
    c.rc = perc_put_tab_header(&b, obs, err);
    if (!c.rc)
        c.rc = eous_buf_puts(&b, "\n\n", err);
    walk(&c, xmlDocGetRootElement(doc), 0, 0);
    xmlFreeDoc(doc);
    if (c.rc) {
        eous_buf_free(&b);
        return c.rc;
    }
    /* html ids resolve through the data-eous-id marks of the DOM snapshot */
    for (size_t i = 0; i < obs->n_marks; i++)
        if (obs->marks[i].eous_id)
            if (perc_view_add_id(view, obs->marks[i].eous_id, obs->marks[i].backend_id)) {
                eous_buf_free(&b);
                return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
            }
    view->text_len = b.len;
    view->text = eous_buf_steal(&b);
    return EOUS_OK;
}
