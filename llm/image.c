/* llm/image.c — the vision step's image part: the set-of-marks screenshot as
 * an OpenAI image_url (data URL, optional detail) or an Anthropic image block
 * (base64 source), followed by its legend as text.  Cassettes and their keys
 * see "sha256:<hex>" in place of the bytes, so a recording stays small, holds
 * no pixels, and replays when the same image comes again. */
#include "llm/llm_int.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

static char *base64(const unsigned char *p, size_t n)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        *o++ = tbl[v >> 18 & 63], *o++ = tbl[v >> 12 & 63], *o++ = tbl[v >> 6 & 63], *o++ = tbl[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        *o++ = tbl[v >> 18 & 63], *o++ = tbl[v >> 12 & 63];
        *o++ = i + 1 < n ? tbl[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return out;
}

eous_rc llm_image_init(llm_image *img, const unsigned char *png, size_t len, const char *legend, const char *detail,
                       eous_err *err)
{
    memset(img, 0, sizeof *img);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    if (!EVP_Digest(png, len, md, &mdlen, EVP_sha256(), NULL))
        return eous_err_set(err, EOUS_E_NOMEM, "sha256 of the screenshot failed");
    memcpy(img->sha256, "sha256:", 7);
    for (unsigned i = 0; i < mdlen && i < 32; i++)
        snprintf(img->sha256 + 7 + 2 * i, 3, "%02x", md[i]);
    img->b64 = base64(png, len);
    img->legend = eous_redact(legend ? legend : "");
    img->detail = detail;
    if (!img->b64 || !img->legend) {
        llm_image_clear(img);
        return eous_err_set(err, EOUS_E_NOMEM, "out of memory");
    }
    return EOUS_OK;
}

void llm_image_clear(llm_image *img)
{
    if (!img)
        return;
    free(img->b64);
    free(img->legend);
    memset(img, 0, sizeof *img);
}

static void add_text(cJSON *content, const char *text)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", text);
    cJSON_AddItemToArray(content, t);
}

cJSON *llm_image_content(int provider, const char *user, const llm_image *img, int as_ref)
{
    cJSON *content = cJSON_CreateArray();
    if (!content)
        return NULL;
    add_text(content, user);
    cJSON *part = cJSON_CreateObject();
    if (provider == LLM_OPENAI) {
        cJSON_AddStringToObject(part, "type", "image_url");
        cJSON *iu = cJSON_AddObjectToObject(part, "image_url");
        if (as_ref) {
            cJSON_AddStringToObject(iu, "url", img->sha256);
        } else {
            char *url = malloc(strlen(img->b64) + 32);
            if (url) {
                strcpy(url, "data:image/png;base64,");
                strcat(url, img->b64);
            }
            cJSON_AddStringToObject(iu, "url", url ? url : "");
            free(url);
        }
        if (img->detail)
            cJSON_AddStringToObject(iu, "detail", img->detail);
    } else {
        cJSON_AddStringToObject(part, "type", "image");
        cJSON *src = cJSON_AddObjectToObject(part, "source");
        cJSON_AddStringToObject(src, "type", "base64");
        cJSON_AddStringToObject(src, "media_type", "image/png");
        cJSON_AddStringToObject(src, "data", as_ref ? img->sha256 : img->b64);
    }
    cJSON_AddItemToArray(content, part);
    size_t n = strlen(img->legend) + 64;
    char *legend = malloc(n);
    if (legend) {
        snprintf(legend, n, "Labels on the screenshot (id, role or kind, name):\n%s", img->legend);
        add_text(content, legend);
        free(legend);
    }
    return content;
}
