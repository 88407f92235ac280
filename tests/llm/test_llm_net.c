/* tests/llm/test_llm_net.c — transport: TLS verification, retries and backoff,
 * Retry-After, budgets, dropped connections, cancellation (HTTPS mock). */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"
#include "mock/llm_mock.h"

static llm_mock M;
static llm_client *C;
static act_action A;
static llm_usage U;
static eous_err E;
static llm_opts O;

static void setup(void)
{
    cr_assert_eq(mock_setup(&M), 0);
    setenv("OPENAI_API_KEY", "sk-test-net-KEY-000111222", 1);
    setenv("ANTHROPIC_API_KEY", "sk-ant-net-KEY-333444555", 1);
    unsetenv("OPENAI_BASE_URL");
    unsetenv("EOUS_LLM_CA");
    act_action_init(&A);
    memset(&U, 0, sizeof U);
    eous_err_clear(&E);
    C = NULL;
    llm_opts_init(&O);
    O.model = "gpt-4o";
    O.max_retries = 3;
}

static void teardown(void)
{
    act_action_clear(&A);
    llm_client_free(C);
    mock_teardown(&M);
}

TestSuite(llm_net, .init = setup, .fini = teardown, .timeout = 120); /* bounds the two tests whose answer would come after it */

static void start(const char *responses)
{
    char scen[8192];
    snprintf(scen, sizeof scen, "{\"responses\": %s}", responses);
    cr_assert_eq(mock_start(&M, scen, 0), 0);
    O.base_url = M.base;
    if (!O.ca_file)
        O.ca_file = M.ca;
    cr_assert_eq(llm_client_new(&O, &C, &E), EOUS_OK, "%s", E.msg);
}

static eous_rc next(void)
{
    llm_step_input in = {.objective = "o", .url = "http://127.0.0.1/", .observation = "[1] RootWebArea 'x'",
                         .mode = PERC_MODE_ATOMIC};
    return llm_next_action(C, &in, &A, &U, &E);
}

/* Arrival times (ms) of the requests the mock saw. */
static int arrivals(double *t, int max)
{
    cJSON *reqs = mock_requests(&M);
    int n = 0;
    for (const cJSON *r = reqs->child; r && n < max; r = r->next)
        t[n++] = eous_json_num(r, "t_ms", 0);
    cJSON_Delete(reqs);
    return n;
}

#define OK_CLICK "{\"kind\":\"tool\",\"calls\":[{\"name\":\"click\",\"args\":{\"id\":\"9\"}}]}"

Test(llm_net, without_the_ca_verification_fails)
{
    O.ca_file = "/etc/ssl/certs/ca-certificates.crt"; /* the system bundle: does not know our CA */
    if (access(O.ca_file, R_OK) != 0)
        O.ca_file = NULL;
    start("[" OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_INFRA);
    cr_expect_str_eq(E.code, "transport");
    cr_expect(strstr(E.msg, "certificate") != NULL || strstr(E.msg, "SSL") != NULL, "%s", E.msg);
    cr_expect(strstr(E.msg, "EOUS_LLM_CA") != NULL && !strstr(E.msg, "--"), "%s", E.msg);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 0, "no request got through");
    cr_expect_eq(U.retries, 0, "a verification failure is not retried");
}

Test(llm_net, ca_from_environment)
{
    setenv("EOUS_LLM_CA", M.ca, 1);
    O.ca_file = "";
    char scen[512];
    snprintf(scen, sizeof scen, "{\"responses\": [" OK_CLICK "]}");
    cr_assert_eq(mock_start(&M, scen, 0), 0);
    O.base_url = M.base;
    O.ca_file = NULL;
    cr_assert_eq(llm_client_new(&O, &C, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_CLICK);
}

Test(llm_net, retry_after_429_is_honoured)
{
    start("[{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"slow down\","
          "\"headers\":{\"Retry-After\":\"1\"}}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_CLICK);
    cr_expect_eq(U.retries, 1);
    double t[4];
    cr_assert_eq(arrivals(t, 4), 2);
    cr_expect_geq(t[1] - t[0], 1000.0 - 5, "retried %.0f ms later, Retry-After said 1 s", t[1] - t[0]);
}

Test(llm_net, retries_500_and_529_then_succeeds)
{
    O.provider = "anthropic";
    O.model = "claude-3-5-haiku-20241022";
    start("[{\"kind\":\"error\",\"status\":500,\"type\":\"api_error\",\"message\":\"boom\"},"
          "{\"kind\":\"error\",\"status\":529,\"type\":\"overloaded_error\",\"message\":\"Overloaded\"},"
          "{\"kind\":\"tool\",\"calls\":[{\"name\":\"scroll\",\"args\":{\"direction\":\"down\"}}]}]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_SCROLL);
    cr_expect_eq(U.retries, 2);
    double t[4];
    cr_assert_eq(arrivals(t, 4), 3);
    /* exponential backoff: first wait >= 250 ms (half of 500), second >= 500 ms */
    cr_expect_geq(t[1] - t[0], 250.0 - 5, "%.0f", t[1] - t[0]);
    cr_expect_geq(t[2] - t[1], 500.0 - 5, "%.0f", t[2] - t[1]);
}

Test(llm_net, dropped_connection_is_retried)
{
    start("[{\"kind\":\"drop\"}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(U.retries, 1);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 2);
}

Test(llm_net, retries_are_capped)
{
    O.max_retries = 1;
    start("[{\"kind\":\"error\",\"status\":503,\"type\":\"server_error\",\"message\":\"down for maintenance\"},"
          "{\"kind\":\"error\",\"status\":502,\"type\":\"server_error\",\"message\":\"bad gateway\"}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_INFRA);
    cr_expect_eq(E.http_status, 502);
    cr_expect(strstr(E.msg, "failed after 1 retries: HTTP 502 server_error: bad gateway") != NULL, "%s", E.msg);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 2, "1 try + 1 retry");
}

Test(llm_net, bad_request_is_not_retried)
{
    start("[{\"kind\":\"error\",\"status\":400,\"type\":\"invalid_request_error\",\"message\":\"context length "
          "exceeded\"}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_INFRA);
    cr_expect_eq(E.http_status, 400);
    cr_expect(strstr(E.msg, "context length exceeded") != NULL, "%s", E.msg);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 1);
}

Test(llm_net, slow_answer_times_out_and_is_retried)
{
    O.request_timeout_ms = 300;
    start("[{\"kind\":\"text\",\"text\":\"click [1]\",\"delay_ms\":3000}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_str_eq(A.target, "9", "the second, prompt answer was used");
    cr_expect_eq(U.retries, 1);
}

/* Retry-After asks for an hour, past the test's timeout: the budget must refuse the wait. */
Test(llm_net, total_budget_stops_retries)
{
    O.total_budget_ms = 1500;
    start("[{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"quota\","
          "\"headers\":{\"Retry-After\":\"3600\"}}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_TIMEOUT);
    cr_expect(strstr(E.msg, "would pass the 1500 ms budget (HTTP 429 rate_limit_exceeded: quota)") != NULL, "%s",
              E.msg);
    cr_expect_eq(E.http_status, 429);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 1);
}

/* Interrupts once the mock holds the request: the call is in flight. */
static void *interrupt_in_flight(void *arg)
{
    (void)arg;
    double t[1];
    while (arrivals(t, 1) < 1)
        sched_yield();
    eous_interrupt_set();
    return NULL;
}

/* The answer would take ten minutes, past the test's timeout: only a
 * cancelled request lets it end. */
Test(llm_net, interruption_cancels_the_request)
{
    start("[{\"kind\":\"text\",\"text\":\"click [1]\",\"delay_ms\":600000}]");
    pthread_t th;
    pthread_create(&th, NULL, interrupt_in_flight, NULL);
    eous_rc rc = next();
    pthread_join(th, NULL);
    eous_interrupt_reset();
    cr_assert_eq(rc, EOUS_E_INTERRUPTED, "%s", E.msg);
}

Test(llm_net, plain_http_to_loopback)
{
    char scen[512];
    snprintf(scen, sizeof scen, "{\"responses\": [" OK_CLICK "]}");
    cr_assert_eq(mock_start(&M, scen, 1), 0);
    O.base_url = M.base;
    cr_assert(eous_starts_with(M.base, "http://127.0.0.1:"));
    cr_assert_eq(llm_client_new(&O, &C, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_CLICK);
}

Test(llm_net, base_url_from_environment)
{
    char scen[512];
    snprintf(scen, sizeof scen, "{\"responses\": [" OK_CLICK "]}");
    cr_assert_eq(mock_start(&M, scen, 0), 0);
    char base[200];
    snprintf(base, sizeof base, "%s/v1/", M.base);
    setenv("OPENAI_BASE_URL", base, 1);
    O.ca_file = M.ca;
    cr_assert_eq(llm_client_new(&O, &C, &E), EOUS_OK, "%s", E.msg);
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cJSON *reqs = mock_requests(&M);
    cr_expect_str_eq(eous_json_str(cJSON_GetArrayItem(reqs, 0), "path"), "/v1/chat/completions");
    cJSON_Delete(reqs);
}

/* ---- retry cases to exhaustion and the less common answers ---- */

Test(llm_net, retry_after_ms_header_is_honoured)
{
    start("[{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"slow down\","
          "\"headers\":{\"retry-after-ms\":\"900\"}}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    double t[4];
    cr_assert_eq(arrivals(t, 4), 2);
    /* our own first backoff is at most 500 ms: a longer wait is the header's */
    cr_expect_geq(t[1] - t[0], 900.0 - 5, "retried %.0f ms later, retry-after-ms said 900", t[1] - t[0]);
}

Test(llm_net, retry_after_http_date_is_honoured)
{
    start("[{\"kind\":\"error\",\"status\":503,\"type\":\"server_error\",\"message\":\"maintenance\","
          "\"headers\":{\"Retry-After\":\"HTTP-DATE+2\"}}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    double t[4];
    cr_assert_eq(arrivals(t, 4), 2);
    /* a date 2 s ahead at 1 s resolution: at least 1 s, more than our 500 ms backoff */
    cr_expect_geq(t[1] - t[0], 1000.0 - 5, "retried %.0f ms later, the date was 2 s ahead", t[1] - t[0]);
    cr_expect_lt(t[1] - t[0], 5000.0, "%.0f", t[1] - t[0]);
}

Test(llm_net, rate_limited_without_retry_after_until_retries_run_out)
{
    O.max_retries = 2;
    start("[{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"q1\"},"
          "{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"q2\"},"
          "{\"kind\":\"error\",\"status\":429,\"type\":\"rate_limit_exceeded\",\"message\":\"q3\"}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_INFRA);
    cr_expect_eq(E.http_status, 429);
    cr_expect_str_eq(E.code, "http");
    cr_expect(strstr(E.msg, "failed after 2 retries: HTTP 429 rate_limit_exceeded: q3") != NULL, "%s", E.msg);
    double t[4];
    cr_assert_eq(arrivals(t, 4), 3, "1 try + 2 retries, the OK answer never asked for");
    cr_expect_geq(t[1] - t[0], 250.0 - 5, "backoff 1: %.0f", t[1] - t[0]);
    cr_expect_geq(t[2] - t[1], 500.0 - 5, "backoff 2 doubles: %.0f", t[2] - t[1]);
}

Test(llm_net, connection_refused_until_retries_run_out)
{
    /* a port that was free a moment ago: nobody listens there */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    cr_assert_eq(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
    close(fd);
    char url[64];
    snprintf(url, sizeof url, "https://127.0.0.1:%d/v1", ntohs(sa.sin_port));
    O.base_url = url;
    O.ca_file = M.ca;
    O.max_retries = 2;
    cr_assert_eq(llm_client_new(&O, &C, &E), EOUS_OK, "%s", E.msg);
    double t0 = eous_now_ms();
    cr_assert_eq(next(), EOUS_E_INFRA);
    cr_expect_str_eq(E.code, "transport");
    cr_expect(strstr(E.msg, "failed after 2 retries") != NULL, "%s", E.msg);
    cr_expect(strstr(E.msg, url) != NULL, "names the endpoint: %s", E.msg);
    cr_expect(strstr(E.msg, "connect") != NULL, "%s", E.msg);
    cr_expect_geq(eous_now_ms() - t0, 750.0 - 5, "two backoffs were waited");
}

Test(llm_net, every_attempt_timing_out_is_a_timeout)
{
    O.request_timeout_ms = 300;
    O.max_retries = 1;
    start("[{\"kind\":\"text\",\"text\":\"click [1]\",\"delay_ms\":3000},"
          "{\"kind\":\"text\",\"text\":\"click [1]\",\"delay_ms\":3000}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_E_TIMEOUT);
    cr_expect(strstr(E.msg, "failed after 1 retries") != NULL, "%s", E.msg);
    cr_expect(strstr(E.msg, "imeout") != NULL, "%s", E.msg);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 2);
}

Test(llm_net, truncated_answer_is_retried)
{
    start("[{\"kind\":\"truncate\"}," OK_CLICK "]");
    cr_assert_eq(next(), EOUS_OK, "%s", E.msg);
    cr_expect_eq(A.kind, ACT_CLICK);
    cr_expect_eq(U.retries, 1);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 2);
}

Test(llm_net, oversized_answer_is_refused_not_retried)
{
    /* 16 MiB is the cap; a valid answer padded past it */
    char scen[256];
    snprintf(scen, sizeof scen, "[{\"kind\":\"raw\",\"status\":200,\"body\":\"{}\",\"pad\":%d}," OK_CLICK "]",
             17 * 1024 * 1024);
    start(scen);
    cr_assert_eq(next(), EOUS_E_LIMIT);
    cr_expect(strstr(E.msg, "larger than") != NULL, "%s", E.msg);
    double t[4];
    cr_expect_eq(arrivals(t, 4), 1, "the same answer would come again: no retry");
}
