/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* check.h -- a tiny test framework for libredlock's tests.
 *
 *   TEST(acquire_release) {
 *       CHECK_EQ(redlock_acquire(lock, 1000), REDLOCK_OK);
 *   }
 *
 * TEST() registers the test from a static constructor.  check.c's main()
 * runs every test (or those whose name contains one of the command-line
 * arguments) in its own fork()ed child, in its own process group, with a
 * timeout of $CHECK_TIMEOUT seconds (default 60).  A failed CHECK* prints
 * "file:line: expression (a=..., b=...)" to stderr and ends the child with
 * status 1; the summary line is "N passed, N failed".
 *
 * Tests run in a child of the runner, so a test may leave processes or
 * memory behind when it fails: the runner kills the child's process group.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdint.h>

typedef void check_fn(void);

struct check_test {
    const char *name;
    const char *file;
    int line;
    check_fn *fn;
    struct check_test *next;
    int long_run;       /* TEST_LONG: `make test-long`, not `make test` */
};

void check_register(struct check_test *t);

/* Print "file:line: message" to stderr and end the test as failed. */
__attribute__((noreturn, format(printf, 3, 4)))
void check_fail(const char *file, int line, const char *fmt, ...);

/* Print a note (prefixed with the test's name) to stderr. */
__attribute__((format(printf, 1, 2)))
void check_note(const char *fmt, ...);

/* Monotonic time. */
int64_t check_now_us(void);
int64_t check_now_ms(void);

#define CHECK_CAT2_(a, b) a##b
#define CHECK_CAT_(a, b) CHECK_CAT2_(a, b)

#define CHECK_DEFINE_TEST(name, long_run)                                     \
    static void check_test_fn_##name(void);                                   \
    static struct check_test check_test_desc_##name = {                       \
        #name, __FILE__, __LINE__, check_test_fn_##name, 0, long_run};        \
    __attribute__((constructor)) static void check_test_reg_##name(void)     \
    {                                                                         \
        check_register(&check_test_desc_##name);                              \
    }                                                                         \
    static void check_test_fn_##name(void)

/* A test of the README's suite (`make test`). */
#define TEST(name) CHECK_DEFINE_TEST(name, 0)
/* A test of the long suite (`make test-long`): a real-time schedule the
 * simulator covers, a soak, a long failover (test/README.md, "Two
 * suites").  Named on the command line, it runs in either. */
#define TEST_LONG(name) CHECK_DEFINE_TEST(name, 1)

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond))                                                          \
            check_fail(__FILE__, __LINE__, "%s", #cond);                      \
    } while (0)

/* Like CHECK, with a printf-style explanation appended on failure. */
#define CHECK_MSG(cond, ...)                                                  \
    do {                                                                      \
        if (!(cond))                                                          \
            check_fail_msg_(__FILE__, __LINE__, #cond, __VA_ARGS__);          \
    } while (0)

__attribute__((noreturn, format(printf, 4, 5)))
void check_fail_msg_(const char *file, int line, const char *expr,
                     const char *fmt, ...);

#define CHECK_OP_(a, op, b)                                                   \
    do {                                                                      \
        long long check_a_ = (long long)(a);                                  \
        long long check_b_ = (long long)(b);                                  \
        if (!(check_a_ op check_b_))                                          \
            check_fail(__FILE__, __LINE__, "%s %s %s (a=%lld, b=%lld)", #a,   \
                       #op, #b, check_a_, check_b_);                          \
    } while (0)

#define CHECK_EQ(a, b) CHECK_OP_(a, ==, b)
#define CHECK_NE(a, b) CHECK_OP_(a, !=, b)
#define CHECK_LE(a, b) CHECK_OP_(a, <=, b)
#define CHECK_GE(a, b) CHECK_OP_(a, >=, b)
#define CHECK_LT(a, b) CHECK_OP_(a, <, b)
#define CHECK_GT(a, b) CHECK_OP_(a, >, b)

/* Strings; NULL equals only NULL. */
#define CHECK_STREQ(a, b)                                                     \
    do {                                                                      \
        const char *check_sa_ = (a);                                          \
        const char *check_sb_ = (b);                                          \
        if (!check_streq_(check_sa_, check_sb_))                              \
            check_fail(__FILE__, __LINE__, "%s == %s (a=\"%s\", b=\"%s\")",   \
                       #a, #b, check_sa_ ? check_sa_ : "(null)",              \
                       check_sb_ ? check_sb_ : "(null)");                     \
    } while (0)

int check_streq_(const char *a, const char *b);

#endif /* CHECK_H */
