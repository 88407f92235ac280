/* llm/image.c — the vision step's image part: the set-of-marks screenshot as
 * an OpenAI image_url (data URL, optional detail) or an Anthropic image block
 * (base64 source), followed by its legend as text.  Cassettes and their keys
 * see "sha256:<hex>" in place of the bytes, so a recording stays small, holds
 * no pixels, and replays when the same image comes again. */
#include "llm/llm_int.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define DATA_URL "data:image/png;base64,"

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
    img->b64 = eous_base64_encode(png, len);
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

/* The image as the provider takes it: OpenAI a data URL, Anthropic the bare base64. */
static char *image_value(int provider, const llm_image *img)
{
    if (provider != LLM_OPENAI)
        return strdup(img->b64);
    char *url = malloc(strlen(img->b64) + sizeof DATA_URL);
    if (url) {
        memcpy(url, DATA_URL, sizeof DATA_URL - 1);
        strcpy(url + sizeof DATA_URL - 1, img->b64);
    }
    return url;
}

cJSON *llm_image_content(int provider, const char *user, const llm_image *img)
{
    cJSON *content = cJSON_CreateArray();
    char *value = image_value(provider, img);
    if (!content || !value) {
        cJSON_Delete(content);
        free(value);
        return NULL;
    }
    add_text(content, user);
    cJSON *part = cJSON_CreateObject();
    if (provider == LLM_OPENAI) {
        cJSON_AddStringToObject(part, "type", "image_url");
        cJSON *iu = cJSON_AddObjectToObject(part, "image_url");
        cJSON_AddStringToObject(iu, "url", value);
        if (img->detail)
            cJSON_AddStringToObject(iu, "detail", img->detail);
    } else {
        cJSON_AddStringToObject(part, "type", "image");
        cJSON *src = cJSON_AddObjectToObject(part, "source");
        cJSON_AddStringToObject(src, "type", "base64");
        cJSON_AddStringToObject(src, "media_type", "image/png");
        cJSON_AddStringToObject(src, "data", value);
    }
    free(value);
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

char *llm_image_key_body(const llm_image *img, int provider, const char *body)
{
    /* base64 and the data-URL prefix print without JSON escapes, so the
     * quoted value occurs in the body exactly as made */
    char *value = image_value(provider, img);
    const char *at = value ? strstr(body, value) : NULL;
    char *out = NULL;
    if (at && at > body && at[-1] == '"') {
        size_t vl = strlen(value), hl = strlen(img->sha256), n = strlen(body) - vl + hl + 1;
        if ((out = malloc(n)))
            snprintf(out, n, "%.*s%s%s", (int)(at - body), body, img->sha256, at + vl);
    }
    free(value);
    return out;
}
