/* itest.h -- helpers shared by the integration and fault tests (itest.c). */
#ifndef ITEST_H
#define ITEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "redlock.h"
#include "servers.h"

struct event_base;

/* Options for fast tests: node_timeout 100 ms, connect_timeout 500 ms,
 * 3 retries 10 +- 5 ms apart, reconnection back-off 5 .. 50 ms. */
void it_opts(redlock_options *o);

/* Start n servers; the test fails when they do not start. */
rlt_servers *it_start(int n, const char *const *extra);

/* A blocking client on all of s's servers (opts NULL: it_opts()), connected
 * to all of them (the test fails otherwise). */
redlock_client *it_client(rlt_servers *s, const redlock_options *opts);
/* A blocking client on the given addresses; waits for `wait_min` nodes. */
redlock_client *it_client_addrs(const char *const *addrs, size_t n,
                                const redlock_options *opts, size_t wait_min);
/* A client on the caller's event base, connected to all of s's servers
 * (runs the loop until they are). */
redlock_client *it_async_client(struct event_base *base, rlt_servers *s,
                                const redlock_options *opts);

redlock_lock *it_lock(redlock_client *c, const void *res, size_t len);
#define IT_LOCK(c, str) it_lock((c), (str), strlen(str))

/* "" for NULL, else redlock_lock_errstr(). */
const char *it_errstr(const redlock_lock *lock);

/* Server i's value of key equals val?  1/0, -1 when the server fails. */
int it_has_value(rlt_servers *s, int i, const void *key, size_t klen,
                 const void *val, size_t vlen);
/* On how many running servers the key holds exactly val. */
int it_count_value(rlt_servers *s, const void *key, size_t klen,
                   const void *val, size_t vlen);
/* On how many running servers the key holds the lock's current value. */
int it_count_lock(rlt_servers *s, const void *key, size_t klen, const redlock_lock *lock);
/* PTTL of key on server i (-2: no key, -1: no ttl, -3: error). */
long long it_pttl(rlt_servers *s, int i, const void *key, size_t klen);

/* Poll the servers (every few ms) until the key exists on exactly `want`
 * running servers, or timeout_ms passed; returns the last count. */
int it_wait_count(rlt_servers *s, const void *key, size_t klen, int want, int64_t timeout_ms);
/* Same, until the key holds the lock's value on at least `want` servers. */
int it_wait_lock_count(rlt_servers *s, const void *key, size_t klen,
                       const redlock_lock *lock, int want, int64_t timeout_ms);

/* Run the event loop until event_base_loopbreak() or timeout_ms; returns 1
 * when the timeout ended it. */
int it_dispatch(struct event_base *base, int64_t timeout_ms);
/* Run the loop until the client has at least `min` connected nodes;
 * 0, or -1 after timeout_ms. */
int it_async_wait_connected(struct event_base *base, redlock_client *c,
                            size_t min, int64_t timeout_ms);

/* Check a status code; on failure print it and the lock's errstr. */
#define CHECK_RC(lock, expr, want)                                            \
    do {                                                                      \
        int it_rc_ = (expr);                                                  \
        int it_want_ = (want);                                                \
        if (it_rc_ != it_want_)                                               \
            check_fail(__FILE__, __LINE__,                                    \
                       "%s == %s (got %d \"%s\", errstr \"%s\")", #expr,      \
                       #want, it_rc_, redlock_strerror(it_rc_),               \
                       it_errstr(lock));                                      \
    } while (0)

#endif /* ITEST_H */
