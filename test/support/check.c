/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* check.c -- the runner of check.h's tests: one fork()ed child per test. */
#include "check.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef REDLOCK_MUTANTS
#include "floor/mutant.h"
#endif

static struct check_test *check_list;
static size_t check_count;
static const char *check_current = "";

/* The first failed check's message, written by the test's child into a page
 * shared with the runner, which repeats it in the recap at the end (the tail
 * of a long log is often all there is to read). */
#define CHECK_WHY_LEN 400
static char *check_why;

void check_register(struct check_test *t)
{
    t->next = check_list;
    check_list = t;
    check_count++;
}

int64_t check_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t check_now_ms(void)
{
    return check_now_us() / 1000;
}

int check_streq_(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

__attribute__((noreturn)) static void check_end_failed(void)
{
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

/* Keeps "file:line: expr: message" for the recap, cut to CHECK_WHY_LEN. */
static void check_keep_why(const char *file, int line, const char *expr, const char *fmt,
                           va_list ap)
{
    if (check_why == NULL || check_why[0] != '\0')
        return;
    int n = snprintf(check_why, CHECK_WHY_LEN, "%s:%d: %s%s", file, line, expr != NULL ? expr : "",
                     expr != NULL ? ": " : "");
    if (n >= 0 && n < CHECK_WHY_LEN)
        vsnprintf(check_why + n, (size_t)(CHECK_WHY_LEN - n), fmt, ap);
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    va_start(ap, fmt);
    check_keep_why(file, line, NULL, fmt, ap);
    va_end(ap);
    check_end_failed();
}

void check_fail_msg_(const char *file, int line, const char *expr, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: %s: ", file, line, expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    va_start(ap, fmt);
    check_keep_why(file, line, expr, fmt, ap);
    va_end(ap);
    check_end_failed();
}

void check_note(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "  [%s] ", check_current);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int check_cmp(const void *pa, const void *pb)
{
    const struct check_test *a = *(const struct check_test *const *)pa;
    const struct check_test *b = *(const struct check_test *const *)pb;
    int c = strcmp(a->file, b->file);
    if (c != 0)
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

/* The suite CHECK_SUITE names: 0 the README's (`short`, the default
 * without arguments), 1 the long one (`long`), 2 both (`all`, the default
 * with test names as arguments); -1 for another value. */
static int check_suite(int argc)
{
    const char *s = getenv("CHECK_SUITE");
    if (!s || !*s)
        return argc > 1 ? 2 : 0;
    if (strcmp(s, "short") == 0)
        return 0;
    if (strcmp(s, "long") == 0)
        return 1;
    if (strcmp(s, "all") == 0)
        return 2;
    fprintf(stderr, "check: CHECK_SUITE=%s: short, long or all\n", s);
    return -1;
}

static int check_selected(const struct check_test *t, int suite, int argc, char **argv)
{
    if (suite != 2 && t->long_run != suite)
        return 0;
    if (argc <= 1)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strstr(t->name, argv[i]) != NULL)
            return 1;
    return 0;
}

/* Forks the child that runs t, in its own process group; -1 if fork failed. */
static pid_t check_fork_test(const struct check_test *t, const sigset_t *oldmask)
{
    pid_t parent = getpid();
    if (check_why != NULL)
        check_why[0] = '\0';
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        /* Die with the runner, even when it is killed. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        check_current = t->name;
        t->fn();
        fflush(stdout);
        fflush(stderr);
        exit(0);
    }
    /* Both sides set the group, so that kill(-pid) works whoever runs first. */
    if (pid > 0)
        setpgid(pid, pid);
    return pid;
}

/* Waits for the child until deadline (us), killing it then: 0 when it
 * ended by itself, 1 when it timed out, -1 when waitpid failed. */
static int check_wait_child(pid_t pid, int64_t deadline, const sigset_t *chld, int *status)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        int64_t left = deadline - check_now_us();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return 1;
        }
        struct timespec ts = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        sigtimedwait(chld, NULL, &ts);
    }
}

/* Whatever the test left in its process group (servers of a failed test)
 * was re-parented to the runner (a subreaper): kill and reap it. */
static void check_reap_group(pid_t pid)
{
    kill(-pid, SIGKILL);
    for (;;) {
        pid_t r = waitpid(-pid, NULL, 0);
        if (r < 0 && errno != EINTR)
            break;
    }
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* The test's line: "ok   name (N ms)" or "FAIL name (why)"; 1 if it passed. */
static int check_report(const struct check_test *t, int status, int64_t ms)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("ok   %s (%lld ms)\n", t->name, (long long)ms);
        return 1;
    }
    if (WIFSIGNALED(status))
        printf("FAIL %s (%lld ms, killed by signal %d: %s)\n", t->name, (long long)ms,
               WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        printf("FAIL %s (%lld ms, exit status %d)\n", t->name, (long long)ms,
               WEXITSTATUS(status));
    return 0;
}

/* Runs one test in a child; returns 1 if it passed. */
static int check_run_one(const struct check_test *t, int64_t timeout_s,
                         const sigset_t *oldmask, const sigset_t *chld)
{
    int64_t start = check_now_us();
    int status = 0;
    pid_t pid = check_fork_test(t, oldmask);
    if (pid < 0) {
        printf("FAIL %s (fork: %s)\n", t->name, strerror(errno));
        return 0;
    }
    int waited = check_wait_child(pid, start + timeout_s * 1000000, chld, &status);
    if (waited < 0) {
        printf("FAIL %s (waitpid: %s)\n", t->name, strerror(errno));
        kill(-pid, SIGKILL);
        return 0;
    }
    check_reap_group(pid);
    if (waited == 1) {
        printf("FAIL %s (timeout after %lld s)\n", t->name, (long long)timeout_s);
        return 0;
    }
    return check_report(t, status, (check_now_us() - start) / 1000);
}

/* $CHECK_TIMEOUT in seconds (60 when unset); -1 when it is not a positive
 * number. */
static int64_t check_timeout(void)
{
    const char *env = getenv("CHECK_TIMEOUT");
    if (env == NULL || *env == '\0')
        return 60;
    char *end;
    long long v = strtoll(env, &end, 10);
    if (*end != '\0' || v <= 0) {
        fprintf(stderr, "check: bad CHECK_TIMEOUT \"%s\"\n", env);
        return -1;
    }
    return v;
}

/* $CHECK_RETRY: how many more times a failed test runs (1 when unset, 0
 * turns it off); -1 when it is not a number from 0 to 9. */
static int check_retries(void)
{
    const char *env = getenv("CHECK_RETRY");
    if (env == NULL || *env == '\0')
        return 1;
    if (env[0] < '0' || env[0] > '9' || env[1] != '\0') {
        fprintf(stderr, "check: bad CHECK_RETRY \"%s\" (0 .. 9)\n", env);
        return -1;
    }
    return env[0] - '0';
}

#ifdef REDLOCK_MUTANTS
/* The library's mutant (docs/mutants.md): $REDLOCK_MUTANT names it, none
 * when unset.  0, or -1 for a name the library does not know. */
static int check_mutant(void)
{
    const char *env = getenv("REDLOCK_MUTANT");
    int m = env && *env ? redlock__mutant_by_name(env) : 0;

    if (m < 0) {
        fprintf(stderr, "check: no mutant \"%s\"; they are:\n", env);
        for (int i = 1; redlock__mutant_name(i); i++)
            fprintf(stderr, "  %-18s %s\n", redlock__mutant_name(i), redlock__mutant_what(i));
        return -1;
    }
    redlock__mutant = m;
    if (m)
        fprintf(stderr, "check: mutant %s: %s\n", redlock__mutant_name(m), redlock__mutant_what(m));
    return 0;
}
#endif

int main(int argc, char **argv)
{
    static struct check_test *tests[4096];
    size_t n = 0;
#ifdef REDLOCK_MUTANTS
    if (check_mutant() != 0)
        return 2;
#endif
    for (struct check_test *t = check_list; t != NULL && n < sizeof tests / sizeof tests[0];
         t = t->next)
        tests[n++] = t;
    if (n < check_count) {
        fprintf(stderr, "check: too many tests (%zu)\n", check_count);
        return 2;
    }
    qsort(tests, n, sizeof tests[0], check_cmp);

    if (argc == 2 && strcmp(argv[1], "--list") == 0) {     /* "name" or "name long" */
        for (size_t i = 0; i < n; i++)
            printf("%s%s\n", tests[i]->name, tests[i]->long_run ? " long" : "");
        return 0;
    }

    int64_t timeout_s = check_timeout();
    int suite = check_suite(argc);
    if (timeout_s < 0 || suite < 0)
        return 2;

    /* SIGCHLD stays blocked in the runner: sigtimedwait() waits for it. */
    sigset_t chld, oldmask;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &oldmask);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* Orphans of a test (its servers, when it crashed) become our children,
     * so that they can be reaped rather than left as zombies. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    int retries = check_retries();
    if (retries < 0)
        return 2;
    void *page = mmap(NULL, CHECK_WHY_LEN, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
    check_why = page != MAP_FAILED ? page : NULL;

    /* The recap: every test that failed at least once, and why. */
    static char recap[64][CHECK_WHY_LEN + 160];
    int nrecap = 0;
    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!check_selected(tests[i], suite, argc, argv))
            continue;
        int ok = check_run_one(tests[i], timeout_s, &oldmask, &chld);
        int runs = 1;
        char why[CHECK_WHY_LEN];
        snprintf(why, sizeof why, "%s", check_why != NULL && check_why[0] ? check_why : "no check failed");
        while (!ok && runs <= retries) {
            printf("again %s (run %d of %d)\n", tests[i]->name, runs + 1, retries + 1);
            ok = check_run_one(tests[i], timeout_s, &oldmask, &chld);
            runs++;
        }
        ok ? passed++ : failed++;
        if ((!ok || runs > 1) && nrecap < (int)(sizeof recap / sizeof recap[0]))
            snprintf(recap[nrecap++], sizeof recap[0], "%s %s after %d run%s; first: %s",
                     ok ? "flaky " : "FAILED", tests[i]->name, runs, runs > 1 ? "s" : "", why);
    }
    if (argc > 1 && passed + failed == 0)
        fprintf(stderr, "check: no test name contains any of the arguments\n");
    for (int i = 0; i < nrecap; i++)
        printf("%s\n", recap[i]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed + failed > 0 ? 0 : 1;
}
