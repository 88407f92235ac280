/* tests/mock/llm_mock.h — start the HTTPS model mock (llm_mock.mjs) for a test.
 *
 * Header-only (static inline) so each test binary takes what it uses without
 * a CMake change.  mock_setup makes a temp dir with a throwaway CA and a
 * server certificate for 127.0.0.1/localhost (openssl CLI); mock_start forks
 * node with a scenario and reads the port it prints; mock_stop signals that
 * PID only; mock_teardown stops it and removes the dir. */
#ifndef EOUS_TEST_LLM_MOCK_H
#define EOUS_TEST_LLM_MOCK_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "support/service.h"
#include "support/testsrv.h"

typedef struct llm_mock {
    char dir[256];
    char ca[300], cert[300], key[300], log[300], scenario[300];
    char base[128];  /* "https://127.0.0.1:PORT" */
    pid_t pid;
    int port;
} llm_mock;

static inline int mock_sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Temp dir + CA + server cert.  0 or -1 (message on stderr). */
static inline int mock_setup(llm_mock *m)
{
    memset(m, 0, sizeof *m);
    m->pid = -1;
    snprintf(m->dir, sizeof m->dir, "/tmp/eous-llm-test-XXXXXX");
    if (!mkdtemp(m->dir)) {
        perror("mkdtemp");
        return -1;
    }
    snprintf(m->ca, sizeof m->ca, "%s/ca.pem", m->dir);
    snprintf(m->cert, sizeof m->cert, "%s/server.pem", m->dir);
    snprintf(m->key, sizeof m->key, "%s/server.key", m->dir);
    snprintf(m->log, sizeof m->log, "%s/requests.jsonl", m->dir);
    snprintf(m->scenario, sizeof m->scenario, "%s/scenario.json", m->dir);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\n"
             "keyUsage=digitalSignature,keyEncipherment\\nextendedKeyUsage=serverAuth\\n' > ext.cnf && "
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key "
             "-out ca.pem -days 2 -subj '/CN=eous test CA' "
             "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign && "
             "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key "
             "-out server.csr -subj '/CN=localhost' && "
             "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
             "-days 2 -extfile ext.cnf",
             m->dir);
    char quiet[4200];
    snprintf(quiet, sizeof quiet, "(%s) >/dev/null 2>&1", cmd);
    if (mock_sh(quiet) != 0) {
        fprintf(stderr, "llm_mock: openssl failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* Starts the mock with scenario_json ({"responses": [...]}).  plain: http. */
static inline int mock_start(llm_mock *m, const char *scenario_json, int plain)
{
    FILE *f = fopen(m->scenario, "w");
    if (!f)
        return -1;
    fputs(scenario_json, f);
    fclose(f);
    unlink(m->log);
    const char *script = EOUS_SOURCE_DIR "/tests/mock/llm_mock.mjs";
    const char *plain_argv[] = {"node", script, "--scenario", m->scenario, "--log", m->log, "--plain", NULL};
    const char *tls_argv[] = {"node", script, "--scenario", m->scenario, "--log", m->log,
                              "--cert", m->cert, "--key", m->key, NULL};
    if (ts_service_start(plain ? plain_argv : tls_argv, &m->pid, &m->port))
        return -1;
    snprintf(m->base, sizeof m->base, "%s://127.0.0.1:%d", plain ? "http" : "https", m->port);
    return 0;
}

static inline void mock_stop(llm_mock *m)
{
    ts_service_stop(m->pid);
    m->pid = -1;
}

static inline void mock_teardown(llm_mock *m)
{
    mock_stop(m);
    if (m->dir[0])
        eous_rmtree(m->dir);
}

/* The model e2e suites' shared fixture: a scratch dir NAME-XXXXXX under /tmp
 * with the CLI's stdout/stderr files in it, the mock's certificates,
 * tests/fixtures/pages served as EOUS_SITE_FIXTURE, the fake provider keys in
 * the environment and any base-URL or CA override cleared, so a request can
 * only go where the test points it.  0 or -1 (message on stderr). */
typedef struct mock_suite {
    char tmpdir[256], out_path[300], err_path[300];
    llm_mock mock;
    ts_server *srv;
} mock_suite;

static inline int mock_suite_setup(mock_suite *s, const char *name, const char *openai_key, const char *anthropic_key)
{
    memset(s, 0, sizeof *s);
    snprintf(s->tmpdir, sizeof s->tmpdir, "/tmp/%s-XXXXXX", name);
    if (!mkdtemp(s->tmpdir)) {
        fprintf(stderr, "mock_suite_setup: %s: %s\n", s->tmpdir, strerror(errno));
        s->tmpdir[0] = '\0';
        return -1;
    }
    snprintf(s->out_path, sizeof s->out_path, "%s/stdout", s->tmpdir);
    snprintf(s->err_path, sizeof s->err_path, "%s/stderr", s->tmpdir);
    if (mock_setup(&s->mock) || !(s->srv = ts_server_start(EOUS_SOURCE_DIR "/tests/fixtures/pages")))
        return -1;
    setenv("EOUS_SITE_FIXTURE", ts_server_url(s->srv), 1);
    setenv("OPENAI_API_KEY", openai_key, 1);
    setenv("ANTHROPIC_API_KEY", anthropic_key, 1);
    unsetenv("OPENAI_BASE_URL");
    unsetenv("ANTHROPIC_BASE_URL");
    unsetenv("EOUS_LLM_CA");
    return 0;
}

static inline void mock_suite_teardown(mock_suite *s)
{
    mock_teardown(&s->mock);
    if (s->srv)
        ts_server_stop(s->srv);
    s->srv = NULL;
    if (s->tmpdir[0])
        eous_rmtree(s->tmpdir);
}

/* mock_start with the scenario {"responses": RESPONSES} over HTTPS. */
static inline int mock_start_responses(llm_mock *m, const char *responses)
{
    size_t n = strlen(responses) + 32;
    char *scen = malloc(n);
    if (!scen)
        return -1;
    snprintf(scen, n, "{\"responses\": %s}", responses);
    int rc = mock_start(m, scen, 0);
    free(scen);
    return rc;
}

/* The recorded requests as a JSON array (caller cJSON_Deletes); [] when none. */
static inline cJSON *mock_requests(const llm_mock *m)
{
    cJSON *arr = cJSON_CreateArray();
    char *text = NULL;
    size_t len = 0;
    if (eous_read_file(m->log, 0, &text, &len, NULL))
        return arr;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *r = cJSON_Parse(line);
        if (r)
            cJSON_AddItemToArray(arr, r);
    }
    free(text);
    return arr;
}

/* Whole file as a string (caller frees); "" when missing. */
static inline char *mock_slurp(const char *path)
{
    char *text = NULL;
    if (eous_read_file(path, 0, &text, NULL, NULL))
        return strdup("");
    return text;
}

#endif
