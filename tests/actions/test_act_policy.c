/* tests/actions/test_act_policy.c — policy (navigation, rules, people), secrets, audit log. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actions/audit.h"
#include "actions/policy.h"
#include "actions/secrets.h"

static act_policy *load(const char *text, eous_err *err, eous_rc *rc)
{
    act_policy *p = NULL;
    cr_assert_eq(act_policy_new(&p, err), EOUS_OK);
    *rc = act_policy_load_text(p, text, strlen(text), "pol.json", err);
    return p;
}

Test(act_policy, navigation_schemes_are_never_allowed)
{
    eous_err err;
    act_policy *p = NULL;
    act_policy_new(&p, &err);
    cr_assert_eq(act_policy_allow_origin(p, "http://127.0.0.1:8080/start?x=1", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_url(p, "http://127.0.0.1:8080/orders", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_url(p, "about:blank", &err), EOUS_OK);
    const char *bad[] = {"file:///etc/passwd", "javascript:alert(1)", " JaVa\tScRipt:alert(1)", "chrome://settings",
                         "data:text/html,<b>x</b>", "about:config", "view-source:http://127.0.0.1:8080/",
                         "blob:http://127.0.0.1:8080/x", "/relative", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(act_policy_check_url(p, bad[i], &err), EOUS_E_POLICY, "%s allowed", bad[i]);
        cr_assert(strstr(err.msg, "refused"), "%s", err.msg);
    }
    cr_assert_eq(act_policy_check_url(p, "file:///etc/passwd", &err), EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "goto: 'file:///etc/passwd' is refused: the file: scheme is never allowed");
    /* other origins: other port, other host, userinfo tricks, backslashes */
    const char *other[] = {"http://127.0.0.1:8081/", "https://127.0.0.1:8080/", "http://evil.com/",
                           "http://127.0.0.1:8080@evil.com/", "http:\\\\evil.com\\@127.0.0.1:8080/"};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++)
        cr_assert_eq(act_policy_check_url(p, other[i], &err), EOUS_E_POLICY, "%s allowed", other[i]);
    cr_assert(strstr(err.msg, "origin http://evil.com:80 is not allowed (allowed: http://127.0.0.1:8080)"), "%s",
              err.msg);
    act_policy_free(p);
}

Test(act_policy, file_origins_and_globs)
{
    eous_err err;
    eous_rc rc;
    act_policy *p = load("{\"navigation\": {\"allow\": [\"http://127.0.0.1:*\", \"*.example.org\","
                         " \"https://shop.example.com\"]}}", &err, &rc);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_n_origins(p), 3);
    cr_assert_eq(act_policy_check_url(p, "http://127.0.0.1:9999/x", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_url(p, "https://a.example.org/", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_url(p, "http://a.b.example.org/", &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_url(p, "https://example.org/", &err), EOUS_E_POLICY);
    cr_assert_eq(act_policy_check_url(p, "https://a.example.org:8443/", &err), EOUS_E_POLICY);
    cr_assert_eq(act_policy_check_url(p, "https://shop.example.com/cart", &err), EOUS_OK);
    cr_assert_eq(act_policy_check_url(p, "http://shop.example.com/cart", &err), EOUS_E_POLICY);
    act_policy_free(p);
}

Test(act_policy, rules_first_match_wins)
{
    eous_err err;
    eous_rc rc;
    act_policy *p = load("{\"rules\": ["
                         " {\"effect\": \"allow\", \"kind\": \"button\", \"label\": \"Delete draft\"},"
                         " {\"effect\": \"deny\", \"kind\": \"button\", \"label\": \"Delete*\", \"reason\": \"no deleting\"},"
                         " {\"effect\": \"deny\", \"tool\": \"setValue\", \"kind\": \"slider\"},"
                         " {\"effect\": \"confirm\", \"action\": \"submit\", \"reason\": \"Places the order\"},"
                         " {\"effect\": \"deny\", \"url\": \"*/admin*\"}]}", &err, &rc);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    const char *c = NULL;
    cr_assert_eq(act_policy_check_action(p, "button", "Delete draft", "click", NULL, NULL, &c, &err), EOUS_OK);
    cr_assert_eq(act_policy_check_action(p, "button", "Délete account", "click", NULL, NULL, &c, &err),
                 EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "click on button \"Délete account\" is refused by policy rule 2: no deleting");
    cr_assert_eq(act_policy_check_action(p, "link", "Delete account", "click", NULL, NULL, &c, &err), EOUS_OK);
    cr_assert_eq(act_policy_check_action(p, "slider", "Volume", "call", "setValue", NULL, &c, &err), EOUS_E_POLICY);
    cr_assert(strstr(err.msg, "call setValue on slider"), "%s", err.msg);
    cr_assert_eq(act_policy_check_action(p, "form", "Order", "call", "submit", NULL, &c, &err), EOUS_OK);
    cr_assert_str_eq(c, "Places the order");
    cr_assert_eq(act_policy_check_action(p, "link", "Users", "click", NULL, "http://h/admin/users", &c, &err),
                 EOUS_E_POLICY);
    cr_assert_eq(act_policy_check_action(p, "link", "Users", "click", NULL, "http://h/users", &c, &err), EOUS_OK);
    cr_assert_null(c);
    act_policy_free(p);

    p = load("{\"default\": \"deny\", \"rules\": [{\"effect\": \"allow\", \"action\": \"click\"}]}", &err, &rc);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_policy_check_action(p, "button", "Go", "click", NULL, NULL, &c, &err), EOUS_OK);
    cr_assert_eq(act_policy_check_action(p, "textbox", "Name", "type", NULL, NULL, &c, &err), EOUS_E_POLICY);
    cr_assert(strstr(err.msg, "default deny"), "%s", err.msg);
    act_policy_free(p);
}

Test(act_policy, malformed_files_name_line_and_column)
{
    eous_err err;
    eous_rc rc;
    act_policy *p = load("{\n  \"rules\": [\n    {\"effect\": \"deny\",}\n  ]\n}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(!strncmp(err.msg, "pol.json:3:", 11), "%s", err.msg);
    act_policy_free(p);
    p = load("{\n  \"rules\": [\n    {\"effect\": \"deny\"},\n    {\"effect\": \"maybe\"}\n  ]\n}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert_str_eq(err.msg, "pol.json:4:16: \"effect\" must be \"allow\", \"deny\" or \"confirm\"");
    act_policy_free(p);
    p = load("{\"navigation\": {\"allow\": [\n  \"file:///\"]}}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(!strncmp(err.msg, "pol.json:2:3: expected an origin", 32), "%s", err.msg);
    act_policy_free(p);
    p = load("{\"rulez\": []}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert_str_eq(err.msg, "pol.json:1:2: unknown policy field \"rulez\" (expected navigation, rules, default, "
                                 "redact_params)");
    act_policy_free(p);
    p = load("{\"rules\": [{\"effect\": \"deny\", \"lable\": \"x\"}]}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "pol.json:1:31: "), "%s", err.msg);
    cr_assert(strstr(err.msg, "unknown rule field \"lable\""), "%s", err.msg);
    act_policy_free(p);
    p = load("{} trailing", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(!strncmp(err.msg, "pol.json:1:4:", 13), "%s", err.msg);
    act_policy_free(p);

    p = load("{\"redact_params\": [\"private_token\", \"a b\"]}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "expected a query parameter name"), "%s", err.msg);
    act_policy_free(p);
    p = load("{\"redact_params\": \"private_token\"}", &err, &rc);
    cr_assert_eq(rc, EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "must be a list of query parameter names"), "%s", err.msg);
    act_policy_free(p);
    eous_redact_clear();

    act_policy_new(&p, &err);
    cr_assert_eq(act_policy_load(p, "/nonexistent/pol.json", &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "/nonexistent/pol.json"), "%s", err.msg);
    act_policy_free(p);
}

/* A site's own credential parameter, named by the policy, is redacted like the built-in ones. */
Test(act_policy, redact_params_names_a_sites_credential_parameters)
{
    eous_err err;
    eous_rc rc;
    const char *url = "http://127.0.0.1:8929/api/v4/projects?private_token=glpat-Zx81&per_page=5";
    char *before = eous_redact(url);
    cr_assert_str_eq(before, url, "not a credential until the policy says so");
    free(before);
    act_policy *p = load("{\"redact_params\": [\"Private_Token\"]}", &err, &rc);
    cr_assert_eq(rc, EOUS_OK, "%s", err.msg);
    char *after = eous_redact(url);
    cr_expect_str_eq(after, "http://127.0.0.1:8929/api/v4/projects?private_token=[redacted]&per_page=5");
    free(after);
    act_policy_free(p);
    eous_redact_clear();
}

static int say(void *ud, const char *sentence, const char *what)
{
    (void)what;
    snprintf((char *)ud, 256, "%s", sentence);
    return !strstr(sentence, "Charges");
}

Test(act_policy, people_confirm_and_hidden)
{
    eous_err err;
    act_policy *p = NULL;
    act_policy_new(&p, &err);
    act_policy_set_interactive(p, 0);
    cr_assert_eq(act_policy_confirm(p, "Deletes the project", "click [3]", &err), EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "Needs a person: Deletes the project");
    /* page text reaches a terminal: control characters are neutralised */
    cr_assert_eq(act_policy_confirm(p, "Pay\x1b[2J now", "x", &err), EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "Needs a person: Pay [2J now");
    char heard[256] = "";
    act_policy_set_confirm(p, say, heard);
    cr_assert_eq(act_policy_confirm(p, "Sends the invoice", "click", &err), EOUS_OK);
    cr_assert_str_eq(heard, "Sends the invoice");
    cr_assert_eq(act_policy_confirm(p, "Charges $20", "click", &err), EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "The person said no to \"Charges $20\"");
    cr_assert_eq(act_policy_hidden("click [4]", &err), EOUS_E_POLICY);
    cr_assert(strstr(err.msg, "data-agent-hidden"), "%s", err.msg);
    /* no policy at all: nobody to ask unless stdin is a TTY (it is not under ctest) */
    if (!isatty(0))
        cr_assert_eq(act_policy_confirm(NULL, "x y", "", &err), EOUS_E_POLICY);
    act_policy_free(p);
}

/* ---- secrets ---------------------------------------------------------------- */

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    chmod(path, mode);
}

Test(act_secrets, file_mode_lines_and_expansion)
{
    char dir[] = "/tmp/eous-act-secrets-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/s.env", dir);
    write_file(path,
               "# comment\n\nexport API_KEY=sk-test-4242\nPASSWORD = \"p@ss \\\"word\\\"\" # trailing\n"
               "SHOP_PW@shop.example.com,*.example.org=hunter2-shop\nLOCAL_PW@127.0.0.1=loopback-pw\n",
               0644);
    act_secrets *s = NULL;
    eous_err err;
    cr_assert_eq(act_secrets_new(&s, &err), EOUS_OK);
    cr_assert_eq(act_secrets_load_file(s, path, &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, path) && strstr(err.msg, "mode 0644"), "%s", err.msg);
    chmod(path, 0600);
    cr_assert_eq(act_secrets_load_file(s, path, &err), EOUS_OK, "%s", err.msg);
    cr_assert_eq(act_secrets_count(s), 4);

    char *out = NULL;
    cr_assert_eq(act_secrets_expand(s, "key={{secret:API_KEY}};pw={{secret:PASSWORD}}", "http://any/", &out, &err),
                 EOUS_OK, "%s", err.msg);
    cr_assert_str_eq(out, "key=sk-test-4242;pw=p@ss \"word\"");
    /* every value is registered for redaction, raw and JSON-escaped */
    char *red = eous_redact(out);
    cr_assert_str_eq(red, "key=[redacted];pw=[redacted]");
    free(red);
    red = eous_redact("{\"pw\":\"p@ss \\\"word\\\"\"}");
    cr_assert(!strstr(red, "word"), "%s", red);
    free(red);
    act_secret_free(out);

    /* domain scoping */
    cr_assert_eq(act_secrets_expand(s, "{{secret:SHOP_PW}}", "https://shop.example.com/login", &out, &err), EOUS_OK);
    act_secret_free(out);
    cr_assert_eq(act_secrets_expand(s, "{{secret:SHOP_PW}}", "https://a.example.org/", &out, &err), EOUS_OK);
    act_secret_free(out);
    cr_assert_eq(act_secrets_expand(s, "{{secret:SHOP_PW}}", "https://evil.com/", &out, &err), EOUS_E_POLICY);
    cr_assert_str_eq(err.msg, "secret SHOP_PW is only for shop.example.com,*.example.org, not for the page at "
                              "https://evil.com/");
    cr_assert_null(out);
    cr_assert_eq(act_secrets_expand(s, "{{secret:LOCAL_PW}}", "http://127.0.0.1:41234/x", &out, &err), EOUS_OK);
    act_secret_free(out);
    /* what a model is told it may type: names usable on the page, never values */
    char names[256];
    act_secrets_names(s, "https://evil.com/", names, sizeof names);
    cr_assert_str_eq(names, "API_KEY, PASSWORD");
    act_secrets_names(s, "https://shop.example.com/login", names, sizeof names);
    cr_assert_str_eq(names, "API_KEY, PASSWORD, SHOP_PW");

    /* unknown and malformed placeholders */
    cr_assert_eq(act_secrets_expand(s, "{{secret:NOPE}}", NULL, &out, &err), EOUS_E_INVALID);
    cr_assert_str_eq(err.msg, "unknown secret NOPE: set EOUS_SECRET_NOPE or add NOPE=... to the secrets file");
    cr_assert_eq(act_secrets_expand(s, "{{secret:A B}}", NULL, &out, &err), EOUS_E_INVALID);
    cr_assert_eq(act_secrets_expand(s, "{{secret:API_KEY", NULL, &out, &err), EOUS_E_INVALID);
    cr_assert_eq(act_secrets_expand(s, "plain text", NULL, &out, &err), EOUS_OK);
    cr_assert_str_eq(out, "plain text");
    act_secret_free(out);

    /* JSON params */
    cJSON *in = cJSON_Parse("{\"user\": \"ada\", \"pw\": \"{{secret:API_KEY}}\", \"list\": [\"{{secret:API_KEY}}\"]}");
    cJSON *x = NULL;
    cr_assert(act_secrets_json_has_placeholder(in));
    cr_assert_eq(act_secrets_expand_json(s, in, "http://h/", &x, &err), EOUS_OK, "%s", err.msg);
    cr_assert_str_eq(cJSON_GetObjectItem(x, "pw")->valuestring, "sk-test-4242");
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(x, "list"), 0)->valuestring, "sk-test-4242");
    cr_assert_str_eq(cJSON_GetObjectItem(in, "pw")->valuestring, "{{secret:API_KEY}}");
    act_secret_json_free(x);
    cJSON_Delete(in);
    act_secrets_free(s);

    /* bad lines name file:line; short values are refused */
    write_file(path, "OK_ONE=abcdefg\nnot a line\n", 0600);
    act_secrets_new(&s, &err);
    cr_assert_eq(act_secrets_load_file(s, path, &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, ":2: expected NAME=value"), "%s", err.msg);
    act_secrets_free(s);
    write_file(path, "PIN=123\n", 0600);
    act_secrets_new(&s, &err);
    cr_assert_eq(act_secrets_load_file(s, path, &err), EOUS_E_INVALID);
    cr_assert(strstr(err.msg, "shorter than 4"), "%s", err.msg);
    act_secrets_free(s);
    unlink(path);
    rmdir(dir);
}

Test(act_secrets, environment_and_scoping)
{
    setenv("EOUS_SECRET_ENV_TOKEN", "env-token-777", 1);
    setenv("EOUS_SECRET_DOMAINS_ENV_TOKEN", "127.0.0.1", 1);
    act_secrets *s = NULL;
    eous_err err;
    cr_assert_eq(act_secrets_new(&s, &err), EOUS_OK);
    /* registered at creation, before any use */
    cr_assert(eous_redact_contains("x env-token-777 y"));
    char *out = NULL;
    cr_assert_eq(act_secrets_expand(s, "{{secret:ENV_TOKEN}}", "http://127.0.0.1:9/", &out, &err), EOUS_OK,
                 "%s", err.msg);
    cr_assert_str_eq(out, "env-token-777");
    act_secret_free(out);
    cr_assert_eq(act_secrets_expand(s, "{{secret:ENV_TOKEN}}", "http://localhost:9/", &out, &err), EOUS_E_POLICY);
    char names[128];
    act_secrets_names(s, "http://127.0.0.1:9/", names, sizeof names);
    cr_assert(strstr(names, "ENV_TOKEN") && !strstr(names, "DOMAINS"), "%s", names);
    act_secrets_names(s, "http://localhost:9/", names, sizeof names);
    cr_assert_null(strstr(names, "ENV_TOKEN"), "scoped to 127.0.0.1: %s", names);
    /* NULL secrets: environment only */
    cr_assert_eq(act_secrets_expand(NULL, "{{secret:ENV_TOKEN}}", "http://127.0.0.1/", &out, &err), EOUS_OK);
    act_secret_free(out);
    act_secrets_free(s);
}

/* ---- audit ------------------------------------------------------------------ */

Test(act_audit, appends_redacted_json_lines)
{
    char path[] = "/tmp/eous-act-audit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    eous_redact_add("audit-secret-value");
    act_audit *a = NULL;
    eous_err err;
    cr_assert_eq(act_audit_open(path, &a, &err), EOUS_OK, "%s", err.msg);
    act_audit_entry e = {.url = "http://h/", .action = "type [3] [{{secret:PW}}] [1]", .path = ACT_PATH_ATOMIC,
                         .result = EOUS_OK, .message = "typed audit-secret-value", .act_ms = 12.34};
    cr_assert_eq(act_audit_write(a, &e, &err), EOUS_OK);
    e.result = EOUS_E_POLICY;
    e.message = "Needs a person: x";
    cr_assert_eq(act_audit_write(a, &e, &err), EOUS_OK);
    act_audit_close(a);
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(eous_read_file(path, 0, &text, &len, &err), EOUS_OK);
    cr_assert_null(strstr(text, "audit-secret-value"));
    cr_assert(strstr(text, "{{secret:PW}}"), "%s", text);
    char *nl = strchr(text, '\n');
    cr_assert(nl && strchr(nl + 1, '\n'), "two lines: %s", text);
    *nl = '\0';
    cJSON *l1 = cJSON_Parse(text), *l2 = cJSON_Parse(nl + 1);
    cr_assert(l1 && l2);
    cr_assert_str_eq(eous_json_str(l1, "result"), "ok");
    cr_assert_str_eq(eous_json_str(l1, "path"), "atomic");
    cr_assert_str_eq(eous_json_str(l2, "result"), "policy");
    cr_assert(eous_json_str(l1, "time") && strlen(eous_json_str(l1, "time")) == 24);
    cJSON_Delete(l1);
    cJSON_Delete(l2);
    free(text);
    unlink(path);
}

Test(act_audit, a_full_disk_leaves_no_torn_entry)
{
    char path[] = "/tmp/eous-act-audit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    pid_t child = fork();
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        act_audit *a = NULL;
        eous_err err;
        if (act_audit_open(path, &a, &err))
            _exit(1);
        act_audit_entry e = {.url = "http://h/", .action = "click [1]", .path = ACT_PATH_ATOMIC, .message = "m"};
        if (act_audit_write(a, &e, &err))
            _exit(2);
        struct stat st;
        stat(path, &st);
        struct rlimit rl = {(rlim_t)st.st_size + 20, (rlim_t)st.st_size + 20}; /* the next entry half fits */
        setrlimit(RLIMIT_FSIZE, &rl);
        if (act_audit_write(a, &e, &err) != EOUS_E_IO || !strstr(err.msg, path))
            _exit(3);
        act_audit_close(a);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exit %d", WEXITSTATUS(status));
    char *text = NULL;
    size_t len = 0;
    eous_err err;
    cr_assert_eq(eous_read_file(path, 0, &text, &len, &err), EOUS_OK);
    cr_assert(len > 0 && text[len - 1] == '\n' && strchr(text, '\n') == text + len - 1, "one whole line: %s", text);
    free(text);
    unlink(path);
}
