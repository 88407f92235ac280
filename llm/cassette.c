/* llm/cassette.c — record/replay of model calls as JSON lines.
 *
 * One line per call:
 *   {"key": K, "step": N, "provider": P, "model": M, "request": {...},
 *    "response": {...provider response JSON...}, "usage": {...}}
 * K is the FNV-1a hash of the request body as sent (already redacted, and
 * keys travel in headers, never in bodies).  Everything written is redacted
 * again — every string in the tree, then the line — so neither registered
 * secrets nor the API key reach the file. */
#define _GNU_SOURCE
#include "llm/llm_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct entry {
    char key[17];
    char *response; /* compact JSON */
    int used;
} entry;

struct llm_cassette {
    int mode;
    char *path;
    FILE *f;          /* record: opened for append */
    entry *entries;   /* replay */
    size_t n, cap;
    char *provider, *model; /* of the first recorded call */
};

char *llm_scrub(char *text, const char *secret)
{
    if (!text || !secret || strlen(secret) < 4)
        return text;
    size_t sl = strlen(secret);
    char *hit;
    while ((hit = strstr(text, secret)) != NULL) {
        static const char rep[] = "[redacted]";
        size_t tl = strlen(text), off = (size_t)(hit - text);
        char *n = malloc(tl - sl + sizeof rep);
        if (!n) {
            /* cannot grow: overwrite in place so the secret is still gone */
            memset(hit, '*', sl);
            continue;
        }
        memcpy(n, text, off);
        memcpy(n + off, rep, sizeof rep - 1);
        memcpy(n + off + sizeof rep - 1, hit + sl, tl - off - sl + 1);
        free(text);
        text = n;
    }
    return text;
}

eous_rc llm_json_redact(cJSON *node, const char *secret)
{
    for (cJSON *it = node; it; it = it->next) {
        if (cJSON_IsString(it) && it->valuestring) {
            char *r = llm_scrub(eous_redact(it->valuestring), secret);
            if (!r)
                return EOUS_E_NOMEM;
            if (strcmp(r, it->valuestring) != 0) {
                free(it->valuestring);
                it->valuestring = r;
            } else {
                free(r);
            }
        }
        if (it->child && llm_json_redact(it->child, secret))
            return EOUS_E_NOMEM;
    }
    return EOUS_OK;
}

static eous_rc load(llm_cassette *c, eous_err *err)
{
    char *text = NULL;
    size_t len = 0;
    eous_rc rc = eous_read_file(c->path, (size_t)1 << 30, &text, &len, err);
    if (rc) {
        if (err)
            eous_err_prefix(err, "cassette");
        return rc == EOUS_E_IO ? rc : EOUS_E_INVALID;
    }
    size_t line_no = 0;
    char *p = text;
    while (p && *p) {
        line_no++;
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < p + n) {
            char what[64];
            snprintf(what, sizeof what, "line %zu", line_no);
            cJSON *row = eous_json_parse(p, n, what, err);
            if (!row && !nl && c->n > 0) {
                /* a torn last line: eous died while recording it; what came
                 * before is whole and replays */
                EOUS_WARN("llm", "cassette %s: ignoring the incomplete last line %zu", c->path, line_no);
                if (err)
                    eous_err_clear(err);
                break;
            }
            if (!row) {
                eous_err_prefix(err, "cassette %s", c->path);
                rc = EOUS_E_INVALID; /* a broken cassette is bad input */
                if (err)
                    err->rc = rc;
                goto done;
            }
            const char *key = eous_json_str(row, "key");
            const cJSON *resp = eous_json_obj(row, "response");
            if (!key || strlen(key) != 16 || !resp) {
                cJSON_Delete(row);
                rc = eous_err_set(err, EOUS_E_INVALID,
                                  "cassette %s: line %zu: expected {\"key\": <16 hex digits>, \"response\": "
                                  "<object>, ...}",
                                  c->path, line_no);
                goto done;
            }
            if (c->n == c->cap) {
                size_t nc = c->cap ? c->cap * 2 : 16;
                entry *g = realloc(c->entries, nc * sizeof *g);
                if (!g) {
                    cJSON_Delete(row);
                    rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory loading cassette");
                    goto done;
                }
                c->entries = g;
                c->cap = nc;
            }
            if (c->n == 0 && eous_json_str(row, "provider") && eous_json_str(row, "model")) {
                c->provider = strdup(eous_json_str(row, "provider"));
                c->model = strdup(eous_json_str(row, "model"));
            }
            entry *e = &c->entries[c->n];
            memcpy(e->key, key, 17);
            e->used = 0;
            e->response = eous_json_print(resp);
            cJSON_Delete(row);
            if (!e->response) {
                rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory loading cassette");
                goto done;
            }
            c->n++;
        }
        p = nl ? nl + 1 : NULL;
    }
done:
    free(text);
    return rc;
}

/* Before appending: a torn last line (eous died mid-write) would glue onto
 * the next exchange, so it is cut; a whole one missing its newline gets it. */
static void mend_last_line(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (eous_read_file(path, (size_t)1 << 30, &text, &len, NULL) || !len) {
        free(text);
        return;
    }
    size_t keep = len;
    while (keep && text[keep - 1] != '\n')
        keep--;
    if (keep < len) {
        cJSON *row = cJSON_ParseWithLength(text + keep, len - keep);
        int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (row && fd >= 0 && write(fd, "\n", 1) != 1)
            EOUS_WARN("llm", "cassette %s: cannot end the last line", path);
        if (!row && fd >= 0 && ftruncate(fd, (off_t)keep) == 0)
            EOUS_WARN("llm", "cassette %s: cut an incomplete last line before recording", path);
        if (fd >= 0)
            close(fd);
        cJSON_Delete(row);
    }
    free(text);
}

eous_rc llm_cassette_open(const char *path, int mode, llm_cassette **out, eous_err *err)
{
    *out = NULL;
    if (!path || !*path)
        return eous_err_set(err, EOUS_E_INVALID, "cassette: a file is needed to %s",
                            mode == LLM_CASSETTE_REPLAY ? "replay" : "record");
    llm_cassette *c = calloc(1, sizeof *c);
    if (!c || !(c->path = strdup(path))) {
        free(c);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    c->mode = mode;
    eous_rc rc = EOUS_OK;
    if (mode == LLM_CASSETTE_RECORD) {
        mend_last_line(path);
        c->f = fopen(path, "ae");
        if (!c->f)
            rc = eous_err_set(err, EOUS_E_IO, "cassette %s: cannot open for appending: %s", path, strerror(errno));
    } else {
        rc = load(c, err);
    }
    if (rc) {
        llm_cassette_free(c);
        return rc;
    }
    *out = c;
    return EOUS_OK;
}

void llm_cassette_free(llm_cassette *c)
{
    if (!c)
        return;
    if (c->f)
        fclose(c->f);
    for (size_t i = 0; i < c->n; i++)
        free(c->entries[i].response);
    free(c->entries);
    free(c->path);
    free(c->provider);
    free(c->model);
    free(c);
}

int llm_cassette_recorded_model(const llm_cassette *c, const char **provider, const char **model)
{
    *provider = c->provider;
    *model = c->model;
    return c->provider && c->model;
}

const char *llm_cassette_find(llm_cassette *c, const char *key)
{
    /* the same request may have been made twice (a repeated step): answers are
     * handed out in recorded order, the last one again once all were used */
    entry *last = NULL;
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(c->entries[i].key, key) != 0)
            continue;
        if (!c->entries[i].used) {
            c->entries[i].used = 1;
            return c->entries[i].response;
        }
        last = &c->entries[i];
    }
    return last ? last->response : NULL;
}

eous_rc llm_cassette_append(llm_cassette *c, const char *key, const char *provider, const char *model,
                            unsigned long step, const char *request_body, const char *response_body,
                            const llm_usage *usage, const char *secret, eous_err *err)
{
    eous_rc rc = EOUS_OK;
    char *line = NULL;
    cJSON *row = cJSON_CreateObject();
    cJSON *req = request_body ? cJSON_Parse(request_body) : NULL;
    cJSON *resp = response_body ? cJSON_Parse(response_body) : NULL;
    if (!row || !resp) {
        rc = eous_err_set(err, row ? EOUS_E_PARSE : EOUS_E_NOMEM, "cassette %s: %s", c->path,
                          row ? "the response to record is not JSON" : "out of memory");
        goto done;
    }
    cJSON_AddStringToObject(row, "key", key);
    cJSON_AddNumberToObject(row, "step", (double)step);
    cJSON_AddStringToObject(row, "provider", provider);
    cJSON_AddStringToObject(row, "model", model);
    if (req) {
        cJSON_AddItemToObject(row, "request", req);
        req = NULL;
    }
    cJSON_AddItemToObject(row, "response", resp);
    resp = NULL;
    if (usage) {
        cJSON *u = cJSON_AddObjectToObject(row, "usage");
        cJSON_AddNumberToObject(u, "prompt_tokens", (double)usage->prompt_tokens);
        cJSON_AddNumberToObject(u, "completion_tokens", (double)usage->completion_tokens);
        cJSON_AddNumberToObject(u, "cached_tokens", (double)usage->cached_tokens);
        cJSON_AddNumberToObject(u, "latency_ms", usage->latency_ms);
        cJSON_AddNumberToObject(u, "retries", usage->retries);
    }
    if (llm_json_redact(row->child, secret)) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    char *printed = eous_json_print(row);
    /* second pass over the text: a secret split across JSON escapes in one
     * string is caught by the tree pass, one spanning fields by this one */
    line = printed ? llm_scrub(eous_redact(printed), secret) : NULL;
    free(printed);
    if (!line) {
        rc = eous_err_set(err, EOUS_E_NOMEM, "out of memory");
        goto done;
    }
    char what[4200];
    snprintf(what, sizeof what, "cassette %s", c->path);
    rc = eous_append_line(fileno(c->f), line, what, err); /* whole exchanges only */
done:
    cJSON_Delete(row);
    cJSON_Delete(req);
    cJSON_Delete(resp);
    free(line);
    return rc;
}
