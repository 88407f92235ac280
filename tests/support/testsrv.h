/* tests/support/testsrv.h — a loopback static file server for tests and
 * benchmarks (thread per connection, Connection: close).
 *
 * Serves ROOT's files; a path with no extension that is not a file falls back
 * to ROOT/index.html (single-page apps).  Special routes for hostile-page
 * tests: /__slow?ms=N (or /__slow/NAME?ms=N) answers after N ms (with &head=1 its
 * headers at once and its body after N ms); /__status?code=N answers status N
 * (a site that is down behind its proxy: 502, 503); /__flaky?codes=404,503&then=/P
 * answers its nth request with the nth code (0: a blank 200 page) and later
 * ones with the file P (a site coming up); a file asked for with ?bfcache is
 * sent no-cache, not no-store (the back/forward cache may keep it).  ts_server_stop joins nothing it
 * cannot: connections finish on their own within their 5 s socket timeout, and
 * the last one to end frees the server. */
#ifndef EOUS_TESTSRV_H
#define EOUS_TESTSRV_H

typedef struct ts_server ts_server;

/* NULL on failure (message on stderr). */
ts_server *ts_server_start(const char *root);
/* "http://127.0.0.1:PORT" (borrowed). */
const char *ts_server_url(const ts_server *s);
int ts_server_port(const ts_server *s);
/* Requests served so far. */
unsigned long ts_server_requests(const ts_server *s);
/* Waits until every connection made before this call has been served (a
 * request of its own, /__quiet, not counted, goes behind them in the accept
 * backlog; then the server waits for no open connection): a test that asserts
 * a request never came asks after this, once its client is gone.  0, or -1
 * past limit_ms. */
int ts_server_quiesce(ts_server *s, int limit_ms);
void ts_server_stop(ts_server *s);

#endif
