/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cmd_run.c -- `redlock run` end to end: cmd/redlock started against real
 * redis-servers, its commands small shell scripts that tell the test what
 * they see through files and FIFOs in a directory of the test's own. */
#include "itest.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <hiredis/hiredis.h>

#define REDLOCK_BIN "cmd/redlock"

struct rl {
    pid_t pid;
    int err;                    /* its stderr (a pipe) */
};

/* A directory of the test's own (under run.sh's TMPDIR): *dir, and $D
 * for the commands' scripts. */
static void test_dir(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, n, "%s/cmdrun.XXXXXX", t && *t ? t : "/tmp");
    CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    CHECK_EQ(setenv("D", dir, 1), 0);
}

/* "--nodes" and the servers' addresses, comma-separated, into buf. */
static const char *nodes_of(rlt_servers *s, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < rlt_servers_count(s); i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "," : "", rlt_servers_addr(s, i));
    CHECK_LT(len, n);
    return buf;
}

/* Start cmd/redlock with argv (argv[0] "redlock", NULL-ended). */
static struct rl rl_start(const char *const *argv)
{
    int p[2];
    struct rl r;
    CHECK_EQ(pipe(p), 0);
    fflush(NULL);
    r.pid = fork();
    CHECK(r.pid >= 0);
    if (r.pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        execv(REDLOCK_BIN, (char *const *)argv);
        _exit(111);
    }
    close(p[1]);
    r.err = p[0];
    return r;
}

/* Wait for it (the test fails after timeout_ms, killing it); its wait
 * status; its stderr into err. */
static int rl_wait(struct rl *r, int64_t timeout_ms, char *err, size_t n)
{
    int st = 0;
    int64_t end = check_now_ms() + timeout_ms;
    pid_t got;
    while ((got = waitpid(r->pid, &st, WNOHANG)) == 0 && check_now_ms() < end)
        it_sleep_ms(5);
    if (got == 0) {
        kill(r->pid, SIGKILL);
        waitpid(r->pid, &st, 0);
    }
    ssize_t k = read(r->err, err, n - 1);
    err[k > 0 ? k : 0] = '\0';
    close(r->err);
    check_note("redlock said: %s", err);
    CHECK_MSG(got == r->pid, "redlock still running after %lld ms", (long long)timeout_ms);
    return st;
}

/* Run it to its end: its exit code (the test fails if a signal ended it). */
static int rl_run(const char *const *argv, char *err, size_t n, int64_t timeout_ms)
{
    struct rl r = rl_start(argv);
    int st = rl_wait(&r, timeout_ms, err, n);
    CHECK_MSG(WIFEXITED(st), "redlock ended by signal %d", WTERMSIG(st));
    return WEXITSTATUS(st);
}

/* One line on stderr, "redlock: run: ...", that contains `what`. */
static void one_line(const char *err, const char *what)
{
    CHECK_MSG(strncmp(err, "redlock: run: ", 14) == 0, "stderr: %s", err);
    CHECK_MSG(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
    CHECK_MSG(it_has(err, what), "stderr without \"%s\": %s", what, err);
}

/* Wait until the file exists (a command's sign of life). */
static void await_file(const char *path, int64_t timeout_ms)
{
    int64_t end = check_now_ms() + timeout_ms;
    while (access(path, F_OK) != 0) {
        CHECK_MSG(check_now_ms() < end, "%s did not appear within %lld ms", path,
                  (long long)timeout_ms);
        it_sleep_ms(5);
    }
}

/* A FIFO in dir, opened for reading (not blocking): the commands write
 * lines to it, and its end of file says that every writer has gone. */
static int fifo_open(const char *dir, const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    CHECK_EQ(mkfifo(path, 0600), 0);
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    CHECK(fd >= 0);
    return fd;
}

/* Read from the FIFO until `line` has been read (or, line NULL, until its
 * end of file); the time it came.  The test fails after timeout_ms. */
static int64_t fifo_until(int fd, const char *line, char *acc, size_t n, int64_t timeout_ms)
{
    int64_t end = check_now_ms() + timeout_ms;
    size_t len = strlen(acc);
    for (;;) {
        if (line && it_has(acc, line))
            return check_now_ms();
        int64_t left = end - check_now_ms();
        CHECK_MSG(left > 0, "FIFO: no \"%s\" within %lld ms (read \"%s\")",
                  line ? line : "end of file", (long long)timeout_ms, acc);
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        ssize_t k = read(fd, acc + len, n - 1 - len);
        if (k == 0 && !line && (p.revents & POLLHUP))
            return check_now_ms();
        if (k > 0)
            acc[len += (size_t)k] = '\0';
        else if (k == 0)
            it_sleep_ms(2);     /* no writer yet */
    }
}

/* A lock of the test's own on res: free (acquired at once) or not. */
static int free_now(struct it_fix *f, const char *res)
{
    redlock_lock *l = it_fix_lock(f, f->c, res);
    int rc = redlock_try_acquire(l, 10000);
    if (rc == 0)
        CHECK_RC(l, redlock_release(l), 0);
    return rc == 0;
}

/* ---- mutual exclusion ------------------------------------------------------ */

/* Each command takes an exclusive marker (mkdir is atomic) and fails with
 * 99 when another command holds it: the runs must never overlap. */
TEST(cmd_run_never_overlaps)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], err[2048];
    const char *script = "mkdir \"$D/held\" || exit 99; echo in >> \"$D/log\"; sleep 0.1; "
                         "rmdir \"$D/held\"";
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    const char *argv[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                          "-w", "60", "overlap", "--", "sh", "-c", script, NULL};
    struct rl r[6];
    for (int i = 0; i < 6; i++)
        r[i] = rl_start(argv);
    for (int i = 0; i < 6; i++) {
        int st = rl_wait(&r[i], 60000, err, sizeof err);
        CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d: status %d", i, st);
    }
    char out[256];
    CHECK_EQ(it_shell("wc -l < \"$D/log\"", out, sizeof out), 0);
    CHECK_EQ(atoi(out), 6);
    it_fix_stop(&f);
}

/* What the masters have seen of attempts on a resource (SET or, a waiter
 * looking first, EXISTS). */
static long long attempts(struct it_fix *f)
{
    long long n = 0;
    for (int i = 0; i < 3; i++)
        n += it_calls(f->s, i, "set") + it_calls(f->s, i, "exists");
    return n;
}

/* 1 when process pid catches signal sig (its SigCgt mask, Linux). */
static int catches(pid_t pid, int sig)
{
    char path[64], line[256];
    unsigned long long mask = 0;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "SigCgt: %llx", &mask) == 1)
            break;
    fclose(fp);
    return (int)(mask >> (sig - 1) & 1);
}

/* Start a run (argv) that waits for a held lock: returns once its
 * attempts reach the masters and it catches the signals it forwards (an
 * earlier waiter's polls alone could count as its attempts). */
static struct rl start_waiting(struct it_fix *f, const char *const *argv)
{
    long long before = attempts(f);
    struct rl r = rl_start(argv);
    int64_t end = check_now_ms() + 10000;
    while (attempts(f) <= before || !catches(r.pid, SIGTERM)) {
        CHECK_MSG(check_now_ms() < end, "no attempt of the waiter reached the masters");
        it_sleep_ms(5);
    }
    return r;
}

/* While one run holds the lock: -n fails at once with 1 (or -E's code),
 * -w fails with 1 when its wait runs out; the holder's exit frees it. */
TEST(cmd_run_conflict_exit_codes)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], up[300], go[300], err[2048];
    const char *script = "touch \"$D/up\"; while [ ! -e \"$D/go\" ]; do sleep 0.01; done";
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    snprintf(up, sizeof up, "%.250s/up", dir);
    snprintf(go, sizeof go, "%.250s/go", dir);
    const char *holder[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                            "busy", "--", "sh", "-c", script, NULL};
    struct rl h = rl_start(holder);
    await_file(up, 10000);
    const char *try1[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "-n",
                          "busy", "--", "true", NULL};
    CHECK_EQ(rl_run(try1, err, sizeof err, 10000), 1);
    one_line(err, "held elsewhere");
    const char *try2[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "-n",
                          "-E", "42",
                          "busy", "--", "true", NULL};
    CHECK_EQ(rl_run(try2, err, sizeof err, 10000), 42);
    const char *wait1[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "-w", "0.5",
                           "busy", "--", "true", NULL};
    CHECK_EQ(rl_run(wait1, err, sizeof err, 10000), 1);
    CHECK(!free_now(&f, "busy"));
    /* a waiter without a limit gets it once the holder's command exits */
    const char *waiter[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                            "busy", "--",
                            "true", NULL};
    struct rl w = start_waiting(&f, waiter);
    CHECK_EQ(kill(w.pid, SIGWINCH), 0);                 /* a terminal resized */
    it_sleep_ms(100);
    int wst = 0;
    CHECK_MSG(waitpid(w.pid, &wst, WNOHANG) == 0, "the waiter ended: status %d", wst);
    struct rl w2 = start_waiting(&f, waiter);
    CHECK_EQ(kill(w2.pid, SIGTERM), 0);                 /* ends the wait */
    CHECK_EQ(WEXITSTATUS(rl_wait(&w2, 10000, err, sizeof err)), 128 + SIGTERM);
    CHECK(creat(go, 0600) >= 0);
    CHECK_EQ(WEXITSTATUS(rl_wait(&h, 10000, err, sizeof err)), 0);
    CHECK_EQ(WEXITSTATUS(rl_wait(&w, 10000, err, sizeof err)), 0);
    CHECK(free_now(&f, "busy"));
    it_fix_stop(&f);
}

/* ---- a lost lock stops the command before the validity ends ----------------- */

/* Start `redlock run --ttl ttl --kill-after 60 lost -- sh -c script` on f
 * with the FIFO $D/fifo open; wait for "up".  *t0: before the start (the
 * lock's keys were set after it, so its validity ends after t0 + ttl, the
 * watchdog's first extend coming only ttl/3 after the acquire). */
static struct rl held_start(struct it_fix *f, const char *script, int64_t ttl, int *fd,
                            char *acc, size_t n, int64_t *t0)
{
    char nodes[256], dir[256], fifo[300], ttls[32];
    it_fix_start(f, 3, NULL, 0);
    nodes_of(f->s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    *fd = fifo_open(dir, "fifo", fifo, sizeof fifo);
    snprintf(ttls, sizeof ttls, "%lld", (long long)ttl);
    const char *argv[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                          "--ttl", ttls, "--kill-after", "60", "--node-timeout", "500",
                          "lost", "--",
                          "sh", "-c", script, NULL};
    *t0 = check_now_ms();
    struct rl r = rl_start(argv);
    int64_t up = fifo_until(*fd, "up", acc, n, 10000);
    CHECK_MSG(up - *t0 < ttl / 4, "the command started %lld ms after redlock: too late to "
              "take the lock away before the watchdog's first extend", (long long)(up - *t0));
    return r;
}

/* ... then kill the majority of the masters. */
static struct rl lost_start(struct it_fix *f, const char *script, int64_t ttl, int *fd,
                            char *acc, size_t n, int64_t *t0)
{
    struct rl r = held_start(f, script, ttl, fd, acc, n, t0);
    CHECK_EQ(rlt_servers_kill(f->s, 0), 0);
    CHECK_EQ(rlt_servers_kill(f->s, 1), 0);
    return r;
}

/* The command ignores SIGTERM and so does the process it left running in
 * its group: both get SIGKILL before the lock's validity ends, though
 * --kill-after is 60 s.  A process that left the group (setsid) is not
 * stopped. */
TEST(cmd_run_lost_lock_kills_before_validity_ends)
{
    struct it_fix f = {0};
    char acc[512] = "", err[2048];
    const char *script = "trap '' TERM; exec > \"$D/fifo\"; sleep 60 & "
                         "setsid sh -c 'echo $$ > \"$D/away\"; exec sleep 60' > /dev/null & "
                         "while [ ! -s \"$D/away\" ]; do sleep 0.01; done; echo up; exec sleep 60";
    const int64_t ttl = 6000;
    int fd;
    int64_t t0;
    struct rl r = lost_start(&f, script, ttl, &fd, acc, sizeof acc, &t0);
    int64_t dead = fifo_until(fd, NULL, acc, sizeof acc, ttl + 20000);
    check_note("the command and its group ended %lld ms after redlock started (ttl %lld)",
               (long long)(dead - t0), (long long)ttl);
    /* SIGKILL a node timeout (500 ms) before the validity ends, at the
     * latest; the test allows half of that for a late timer */
    CHECK_LT(dead, t0 + ttl - 250);
    int st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 75, "status %d", st);
    one_line(err, "the lock was lost");
    char out[64];
    CHECK_EQ(it_shell("cat \"$D/away\"", out, sizeof out), 0);
    pid_t away = (pid_t)atoi(out);
    CHECK_GT(away, 1);
    CHECK_MSG(kill(away, 0) == 0, "the process outside the group was stopped too");
    kill(away, SIGKILL);
    close(fd);
    it_fix_stop(&f);
}

/* SIGTERM comes at once: a command that exits on it ends long before the
 * validity, and redlock still exits 75 (not the command's 3).  What it
 * left in its group gets SIGKILL then, even if it ignores SIGTERM. */
TEST(cmd_run_lost_lock_terms_the_command)
{
    struct it_fix f = {0};
    char acc[512] = "", err[2048];
    const char *script = "exec > \"$D/fifo\"; (trap '' TERM; exec sleep 60) & "
                         "trap 'echo term; exit 3' TERM; echo up; while :; do sleep 0.02; done";
    const int64_t ttl = 6000;
    int fd;
    int64_t t0;
    struct rl r = lost_start(&f, script, ttl, &fd, acc, sizeof acc, &t0);
    int64_t term = fifo_until(fd, "term", acc, sizeof acc, ttl + 20000);
    int64_t dead = fifo_until(fd, NULL, acc, sizeof acc, 20000);
    check_note("SIGTERM after %lld ms, ended after %lld ms (ttl %lld)", (long long)(term - t0),
               (long long)(dead - t0), (long long)ttl);
    CHECK_LT(dead, t0 + ttl);
    int st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 75, "status %d", st);
    close(fd);
    it_fix_stop(&f);
}

/* An operator's DEL of the lock's key on every master (no restart) takes
 * the lock away: the watchdog's next extend (ttl/3 after the acquire) is
 * refused rather than re-growing the keys, and the command is stopped,
 * redlock exiting 75. */
TEST(cmd_run_key_deleted_on_every_master_stops_the_command)
{
    enum { TTL = 4500 };
    static const char script[] = "exec > \"$D/fifo\"; trap 'echo term; exit 3' TERM; "
                                 "echo up; while :; do sleep 0.02; done";
    struct it_fix f = {0};
    int64_t t0;
    int fd;
    char acc[512] = "", err[2048];
    struct rl r = held_start(&f, script, TTL, &fd, acc, sizeof acc, &t0);

    for (int i = 0; i < 3; i++)
        it_del(f.s, i, "lost");
    int64_t term = fifo_until(fd, "term", acc, sizeof acc, TTL);
    check_note("SIGTERM %lld ms after redlock started (ttl %d)", (long long)(term - t0), TTL);
    CHECK_LT(term, t0 + TTL / 3 + 1000);      /* at the watchdog's first extend */
    int st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 75, "status %d", st);
    CHECK_MSG(it_has(err, "the lock was lost"), "stderr: %s", err);
    CHECK_EQ(rlt_servers_count_key(f.s, "lost", 4), 0);      /* not re-grown */
    close(fd);
    it_fix_stop(&f);
}

/* ---- exit status and signals ----------------------------------------------- */

TEST(cmd_run_passes_exit_status_through)
{
    struct it_fix f = {0};
    char nodes[256], err[2048];
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    const char *seven[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "st",
                           "--", "sh", "-c", "exit 7", NULL};
    CHECK_EQ(rl_run(seven, err, sizeof err, 10000), 7);
    CHECK_STREQ(err, "");
    const char *killed[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "st",
                            "--", "sh", "-c", "kill -KILL $$", NULL};
    CHECK_EQ(rl_run(killed, err, sizeof err, 10000), 128 + SIGKILL);
    CHECK(free_now(&f, "st"));
    it_fix_stop(&f);
}

/* The signals forwarded besides TERM, TSTP and CONT (and USR1, which ends
 * the script), each caught by the script's trap. */
static const struct {
    int sig;
    const char *name;
} caught[] = {{SIGINT, "INT"},     {SIGHUP, "HUP"},   {SIGQUIT, "QUIT"},
              {SIGUSR2, "USR2"},   {SIGWINCH, "WINCH"}, {SIGALRM, "ALRM"}};

/* The script forks once, before "up", then only waits: a shell that forks
 * in its loop can be caught in vfork, its child stopped before its exec,
 * and a vfork's parent cannot stop until the child execs or exits.  Every
 * trapped signal ends the wait at once (POSIX), and the loop waits again. */
static const char forward_script[] =
    "exec > \"$D/fifo2\"; for s in INT HUP QUIT USR2 WINCH ALRM CONT; do "
    "trap \"echo [$s]\" $s; done; sleep 600 & trap 'kill $!; exit 5' USR1; "
    "echo \"up $$ .\"; while :; do wait $!; done";

/* Process pid's state letter (/proc/pid/stat), 0 if unknown. */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp)
        fclose(fp);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

/* 1 when every process of group pgid is stopped (and it has one). */
static int group_stopped(pid_t pgid)
{
    DIR *d = opendir("/proc");
    int members = 0, stopped = 0;
    struct dirent *e;
    CHECK(d != NULL);
    while ((e = readdir(d)) != NULL) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0 || getpgid(pid) != pgid)
            continue;
        members++;
        stopped += proc_state(pid) == 'T';
    }
    closedir(d);
    return members > 0 && stopped == members;
}

/* TSTP stops the command's whole group (not redlock, which keeps the
 * lock), CONT lets it go on. */
static void stop_and_go(struct it_fix *f, struct rl *r, pid_t cmd, int fd, char *acc, size_t n)
{
    CHECK_EQ(kill(r->pid, SIGTSTP), 0);
    int64_t end = check_now_ms() + 10000;
    while (!group_stopped(cmd)) {
        CHECK_MSG(check_now_ms() < end, "the command did not stop on TSTP");
        it_sleep_ms(5);
    }
    CHECK_EQ(waitpid(r->pid, NULL, WNOHANG), 0);
    CHECK_NE(proc_state(r->pid), 'T');
    CHECK(!free_now(f, "sig"));
    CHECK_EQ(kill(r->pid, SIGCONT), 0);
    fifo_until(fd, "[CONT]", acc, n, 10000);
}

/* Signals sent to redlock reach the command (in a process group of its
 * own): TERM ends it (143), the others reach its traps (USR1: exit 5). */
TEST(cmd_run_forwards_signals)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], fifo[300], acc[512] = "", err[2048];
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    int fd = fifo_open(dir, "fifo", fifo, sizeof fifo);
    const char *term[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "sig",
                          "--", "sh", "-c", "exec > \"$D/fifo\"; echo \"up $$ .\"; exec sleep 60",
                          NULL};
    struct rl r = rl_start(term);
    fifo_until(fd, " .", acc, sizeof acc, 10000);
    pid_t cmd = (pid_t)atoi(acc + 3);
    CHECK_GT(cmd, 1);
    CHECK_EQ(getpgid(cmd), cmd);                 /* a group of its own */
    CHECK_NE(getpgid(r.pid), cmd);
    CHECK_EQ(kill(r.pid, SIGTERM), 0);
    int st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM, "status %d", st);
    CHECK(free_now(&f, "sig"));
    close(fd);

    acc[0] = '\0';
    fd = fifo_open(dir, "fifo2", fifo, sizeof fifo);
    const char *usr1[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "sig",
                          "--", "sh", "-c", forward_script, NULL};
    r = rl_start(usr1);
    fifo_until(fd, " .", acc, sizeof acc, 10000);
    stop_and_go(&f, &r, (pid_t)atoi(acc + 3), fd, acc, sizeof acc);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        char name[16];
        snprintf(name, sizeof name, "[%s]", caught[i].name);
        CHECK_EQ(kill(r.pid, caught[i].sig), 0);
        fifo_until(fd, name, acc, sizeof acc, 10000);
    }
    CHECK_EQ(kill(r.pid, SIGUSR1), 0);
    st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 5, "status %d", st);
    close(fd);

    /* redlock killed (nothing keeps the lock then): the command dies too */
    acc[0] = '\0';
    fd = fifo_open(dir, "fifo3", fifo, sizeof fifo);
    const char *orphan[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "sig",
                            "--", "sh", "-c", "exec > \"$D/fifo3\"; echo up; exec sleep 60",
                            NULL};
    r = rl_start(orphan);
    fifo_until(fd, "up", acc, sizeof acc, 10000);
    CHECK_EQ(kill(r.pid, SIGKILL), 0);
    fifo_until(fd, NULL, acc, sizeof acc, 10000);       /* the command's end */
    st = rl_wait(&r, 10000, err, sizeof err);
    CHECK(WIFSIGNALED(st));
    close(fd);
    it_fix_stop(&f);
}

TEST(cmd_run_max_hold_ends_the_command)
{
    struct it_fix f = {0};
    char nodes[256], err[2048];
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    const char *argv[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                          "--max-hold", "0.5", "hold", "--", "sleep", "60", NULL};
    int64_t t0 = check_now_ms();
    CHECK_EQ(rl_run(argv, err, sizeof err, 20000), 124);
    CHECK_GE(check_now_ms() - t0, 500);
    one_line(err, "--max-hold");
    CHECK(free_now(&f, "hold"));
    it_fix_stop(&f);
}

/* ---- what cannot start ----------------------------------------------------- */

TEST(cmd_run_command_not_started_releases)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], err[2048];
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    const char *missing[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "nx",
                             "--", "no-such-command-here", NULL};
    CHECK_EQ(rl_run(missing, err, sizeof err, 10000), 127);
    one_line(err, "no-such-command-here: No such file or directory");
    CHECK(free_now(&f, "nx"));
    const char *noexec[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0", "nx",
                            "--", dir, NULL};                /* a directory */
    CHECK_EQ(rl_run(noexec, err, sizeof err, 10000), 126);
    one_line(err, "Permission denied");
    CHECK(free_now(&f, "nx"));
    const char *badres[] = {"redlock", "run", "--nodes", nodes, "{nx", "--", "true", NULL};
    CHECK_EQ(rl_run(badres, err, sizeof err, 10000), 64);
    one_line(err, "starts with '{'");
    const char *nocmd[] = {"redlock", "run", "--nodes", nodes, "nx", NULL};
    CHECK_EQ(rl_run(nocmd, err, sizeof err, 10000), 64);
    one_line(err, "usage");
    it_fix_stop(&f);
}

/* ---- configuration --------------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text, char *path,
                       size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    fputs(text, fp);
    CHECK_EQ(fclose(fp), 0);
}

/* A port nothing listens on (bound, then closed). */
static int dead_port(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    CHECK_EQ(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    CHECK_EQ(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

/* Every configuration error: exit 78 and one line; a value on the command
 * line that is not one: 64; masters that do not answer -n's one try: 69,
 * at once. */
TEST(cmd_run_config_errors)
{
    char dir[256], cfg[300], err[2048], dead[64];
    test_dir(dir, sizeof dir);
    const char *badaddr[] = {"redlock", "run", "--nodes", "bad::addr:x", "r", "--", "true", NULL};
    CHECK_EQ(rl_run(badaddr, err, sizeof err, 10000), 78);
    one_line(err, "invalid address");
    const char *nofile[] = {"redlock", "run", "--config", "/nonexistent/redlock.conf", "r", "--",
                            "true", NULL};
    CHECK_EQ(rl_run(nofile, err, sizeof err, 10000), 78);
    one_line(err, "config file /nonexistent/redlock.conf: No such file");
    write_file(dir, "bogus.conf", "# a comment\nnodes = 127.0.0.1:1\nbogus = 1\n", cfg, sizeof cfg);
    const char *bogus[] = {"redlock", "run", "--config", cfg, "r", "--", "true", NULL};
    CHECK_EQ(rl_run(bogus, err, sizeof err, 10000), 78);
    one_line(err, "bogus.conf:3: unknown option 'bogus'");
    write_file(dir, "ttl.conf", "nodes = 127.0.0.1:1\nttl = soon\n", cfg, sizeof cfg);
    const char *ttlfile[] = {"redlock", "run", "--config", cfg, "r", "--", "true", NULL};
    CHECK_EQ(rl_run(ttlfile, err, sizeof err, 10000), 78);
    one_line(err, "ttl.conf:2: ttl = soon");
    const char *ttlarg[] = {"redlock", "run", "--config", cfg, "--ttl", "soon", "r", "--",
                            "true", NULL};
    CHECK_EQ(rl_run(ttlarg, err, sizeof err, 10000), 64);
    const char *nopw[] = {"redlock", "run", "--nodes", "127.0.0.1:1", "--password-file",
                          "/nonexistent/pw", "r", "--", "true", NULL};
    CHECK_EQ(rl_run(nopw, err, sizeof err, 10000), 78);
    one_line(err, "--password-file /nonexistent/pw: No such file");
    const char *noca[] = {"redlock", "run", "--nodes", "rediss://127.0.0.1:1", "--tls-ca",
                          "/nonexistent/ca.pem", "r", "--", "true", NULL};
    CHECK_EQ(rl_run(noca, err, sizeof err, 10000), 78);
    one_line(err, "/nonexistent/ca.pem");
    const char *password[] = {"redlock", "run", "--nodes", "127.0.0.1:1", "--password", "x",
                              "r", "--", "true", NULL};
    CHECK_EQ(rl_run(password, err, sizeof err, 10000), 64);     /* it would show in ps */
    one_line(err, "unknown option --password");
    const char *nonodes[] = {"redlock", "run", "r", "--", "true", NULL};
    unsetenv("REDLOCK_NODES");
    unsetenv("REDLOCK_CONFIG");
    CHECK_EQ(rl_run(nonodes, err, sizeof err, 10000), 78);
    one_line(err, "no masters");
    snprintf(dead, sizeof dead, "127.0.0.1:%d", dead_port());
    const char *deadaddr[] = {"redlock", "run", "-n", "--nodes", dead, "r", "--", "true", NULL};
    int64_t t0 = check_now_ms();
    CHECK_EQ(rl_run(deadaddr, err, sizeof err, 20000), 69);
    CHECK_LT(check_now_ms() - t0, 6000);        /* one try: the refused connection */
    one_line(err, "masters unreachable");
}

/* The command line wins over the environment, which wins over the config
 * file; the password comes from a file or $REDLOCK_PASSWORD. */
TEST(cmd_run_config_precedence)
{
    static const char *const extra[] = {"--requirepass", "s3cret", NULL};
    struct it_fix f = {.extra = extra};
    char nodes[256], dir[256], cfg[300], pw[300], text[1024], err[2048];
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    write_file(dir, "pw", "s3cret\n", pw, sizeof pw);
    snprintf(text, sizeof text, "nodes = %s  # the masters\nrestart-guard = 0\nttl = 5000\n"
             "password-file = %s\n", nodes, pw);
    write_file(dir, "good.conf", text, cfg, sizeof cfg);
    unsetenv("REDLOCK_NODES");
    unsetenv("REDLOCK_PASSWORD");
    CHECK_EQ(setenv("REDLOCK_CONFIG", cfg, 1), 0);
    const char *plain[] = {"redlock", "run", "r", "--", "true", NULL};
    CHECK_EQ(rl_run(plain, err, sizeof err, 10000), 0);
    CHECK_EQ(setenv("REDLOCK_NODES", "bad::addr:x", 1), 0);     /* env over the file */
    CHECK_EQ(rl_run(plain, err, sizeof err, 10000), 78);
    const char *cmdline[] = {"redlock", "run", "--nodes", nodes, "r", "--", "true", NULL};
    CHECK_EQ(rl_run(cmdline, err, sizeof err, 10000), 0);       /* the command line over env */
    /* the password: $REDLOCK_PASSWORD over the file's password-file */
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "wrong", 1), 0);
    CHECK_EQ(rl_run(cmdline, err, sizeof err, 10000), 78);      /* refused: configuration */
    one_line(err, "WRONGPASS");
    const char *pwfile[] = {"redlock", "run", "--nodes", nodes, "--password-file", pw, "r", "--",
                            "true", NULL};
    CHECK_EQ(rl_run(pwfile, err, sizeof err, 10000), 0);        /* --password-file over env */
    CHECK_EQ(setenv("REDLOCK_PASSWORD", "s3cret", 1), 0);
    CHECK_EQ(rl_run(cmdline, err, sizeof err, 10000), 0);
    /* the command does not inherit the password (3: it did) */
    const char *peek[] = {"redlock", "run", "--nodes", nodes, "r", "--", "sh", "-c",
                          "test -z \"${REDLOCK_PASSWORD+set}\" || exit 3", NULL};
    CHECK_EQ(rl_run(peek, err, sizeof err, 10000), 0);
    unsetenv("REDLOCK_PASSWORD");
    it_fix_stop(&f);
}

/* ---- what the command sees ------------------------------------------------- */

/* Read "K=V" from line into out (up to a space or the end). */
static void field(const char *line, const char *k, char *out, size_t n)
{
    const char *p = strstr(line, k);
    CHECK_MSG(p != NULL, "no %s in \"%s\"", k, line);
    p += strlen(k);
    size_t len = strcspn(p, " .\n");
    CHECK_LT(len, n);
    memcpy(out, p, len);
    out[len] = '\0';
}

static const char env_script[] =
    "exec > \"$D/$F\"; echo \"R=$REDLOCK_RESOURCE; V=$REDLOCK_VALUE T=${REDLOCK_TOKEN-unset} .\"; "
    "while [ ! -e \"$D/go$F\" ]; do sleep 0.01; done";

/* Run env_script with FIFO $D/$F and the options given; its line into acc
 * while it holds the lock. */
static struct rl env_run(const char *dir, const char *fifo_name, const char *const *argv,
                         int *fd, char *acc, size_t n)
{
    char fifo[300];
    *fd = fifo_open(dir, fifo_name, fifo, sizeof fifo);
    CHECK_EQ(setenv("F", fifo_name, 1), 0);
    acc[0] = '\0';
    struct rl r = rl_start(argv);
    fifo_until(*fd, " .", acc, n, 10000);
    return r;
}

TEST(cmd_run_environment)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], acc[512], v[128], t[64], go[320], err[2048];
    int fd;
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    const char *fenced[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                            "--fencing", "envres", "--", "sh", "-c", env_script, NULL};
    struct rl r = env_run(dir, "a", fenced, &fd, acc, sizeof acc);
    CHECK_MSG(it_has(acc, "R=envres;"), "%s", acc);
    field(acc, "V=", v, sizeof v);
    field(acc, "T=", t, sizeof t);
    CHECK_GE(it_count_value(f.s, "envres", 6, v, strlen(v)), 2);
    /* the token is the masters' counter (a master late to the quorum's
     * decision may not have counted) */
    int counted = 0;
    for (int i = 0; i < 3; i++) {
        redisReply *fence = rlt_servers_command(f.s, i, "GET {envres}:fence");
        CHECK(fence != NULL);
        if (fence->type == REDIS_REPLY_STRING) {
            CHECK_STREQ(fence->str, t);
            counted++;
        }
        freeReplyObject(fence);
    }
    CHECK_GE(counted, 2);
    snprintf(go, sizeof go, "%s/goa", dir);
    CHECK(creat(go, 0600) >= 0);
    CHECK_EQ(WEXITSTATUS(rl_wait(&r, 10000, err, sizeof err)), 0);
    close(fd);

    const char *multi[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                           "env-a", "env-b", "--", "sh", "-c", env_script, NULL};
    r = env_run(dir, "b", multi, &fd, acc, sizeof acc);
    CHECK_MSG(it_has(acc, "R=env-a env-b;") && it_has(acc, "T=unset"), "%s", acc);
    field(acc, "V=", v, sizeof v);
    CHECK_GE(it_count_value(f.s, "env-a", 5, v, strlen(v)), 2);
    CHECK_GE(it_count_value(f.s, "env-b", 5, v, strlen(v)), 2);
    CHECK(!free_now(&f, "env-b"));
    snprintf(go, sizeof go, "%s/gob", dir);
    CHECK(creat(go, 0600) >= 0);
    CHECK_EQ(WEXITSTATUS(rl_wait(&r, 10000, err, sizeof err)), 0);
    CHECK(free_now(&f, "env-b"));
    close(fd);
    /* one token cannot order the writes to several resources */
    const char *multifence[] = {"redlock", "run", "--nodes", nodes, "--fencing", "env-a",
                                "env-b", "--", "true", NULL};
    CHECK_EQ(rl_run(multifence, err, sizeof err, 10000), 64);
    one_line(err, "several resources take no");
    it_fix_stop(&f);
}

/* --read shares the lock with other readers, --write holds it alone. */
TEST(cmd_run_read_write)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], acc[512], go[320], err[2048];
    int fd;
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    const char *reader[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                            "--read", "rw", "--", "sh", "-c", env_script, NULL};
    struct rl r = env_run(dir, "a", reader, &fd, acc, sizeof acc);
    const char *reader2[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                             "--read", "-n", "rw", "--", "true", NULL};
    CHECK_EQ(rl_run(reader2, err, sizeof err, 10000), 0);
    const char *writer[] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0",
                            "--write", "-n", "rw", "--", "true", NULL};
    CHECK_EQ(rl_run(writer, err, sizeof err, 10000), 1);
    one_line(err, "held");
    snprintf(go, sizeof go, "%s/goa", dir);
    CHECK(creat(go, 0600) >= 0);
    CHECK_EQ(WEXITSTATUS(rl_wait(&r, 10000, err, sizeof err)), 0);
    CHECK_EQ(rl_run(writer, err, sizeof err, 10000), 0);
    close(fd);
    it_fix_stop(&f);
}

/* --help: every option on a line of its own; --version: the library's. */
TEST(cmd_help_and_version)
{
    char out[8192], want[64];
    CHECK_EQ(it_shell(REDLOCK_BIN " --help", out, sizeof out), 0);
    static const char *const opts[] = {
        "--nodes LIST", "--config FILE", "--password-file FILE", "--user NAME", "--prefix P",
        "--ttl MS", "-w, --wait SECS", "-n, --nonblock", "-E, --conflict-exit-code N",
        "--fencing", "--read", "--write", "--json", "--node-timeout MS", "--tls-ca FILE",
        "--tls-ca-dir DIR", "--tls-cert FILE", "--tls-key FILE", "--tls-server-name NAME",
        "--restart-guard MS", "--clock-guard MS", "--strict", "--no-wake", "--value V",
        "--metrics", "--max-hold SECS", "--kill-after SECS", "-h, --help"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        snprintf(want, sizeof want, "\n  %s ", opts[i]);
        const char *p = strstr(out, want);
        if (!p) {   /* long-only options are indented past the short ones */
            snprintf(want, sizeof want, "\n      %s ", opts[i]);
            p = strstr(out, want);
        }
        CHECK_MSG(p != NULL, "--help has no line for %s", opts[i]);
    }
    CHECK_EQ(it_shell(REDLOCK_BIN " --version", out, sizeof out), 0);
    snprintf(want, sizeof want, "redlock %s\n", redlock_version());
    CHECK_STREQ(out, want);
}

/* Read redlock's stderr until it says `what`, into buf; the time then. */
static int64_t err_until(struct rl *r, const char *what, char *buf, size_t n)
{
    size_t len = 0;
    int64_t end = check_now_ms() + 30000;
    buf[0] = '\0';
    while (!it_has(buf, what)) {
        int64_t left = end - check_now_ms();
        CHECK_MSG(left > 0, "redlock never said \"%s\" (it said \"%s\")", what, buf);
        struct pollfd p = {r->err, POLLIN, 0};
        ssize_t k = poll(&p, 1, (int)left) > 0 ? read(r->err, buf + len, n - 1 - len) : 0;
        CHECK_MSG(k != 0 || !(p.revents & POLLHUP), "redlock's stderr closed: \"%s\"", buf);
        if (k > 0)
            buf[len += (size_t)k] = '\0';
    }
    return check_now_ms();
}

/* Run a command that ignores SIGTERM with extra options (NULL-ended);
 * at t0 + after_ms, overwrite its key on every master: the watchdog's
 * next extend is refused.  How long after redlock said that the lock was
 * lost the command ended; redlock must exit 75. */
static int64_t taken_from_under(const char *const *opts, int64_t after_ms)
{
    struct it_fix f = {0};
    char nodes[256], dir[256], fifo[300], acc[512] = "", err[2048];
    const char *argv[32] = {"redlock", "run", "--nodes", nodes, "--restart-guard", "0"};
    int n = 6;
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    test_dir(dir, sizeof dir);
    int fd = fifo_open(dir, "fifo", fifo, sizeof fifo);
    while (*opts)
        argv[n++] = *opts++;
    const char *tail[] = {"taken", "--", "sh", "-c",
                          "trap '' TERM; exec > \"$D/fifo\"; echo up; exec sleep 60", NULL};
    for (int i = 0; tail[i]; i++)
        argv[n++] = tail[i];
    int64_t t0 = check_now_ms();
    struct rl r = rl_start(argv);
    fifo_until(fd, "up", acc, sizeof acc, 10000);
    it_sleep_ms((long)(t0 + after_ms - check_now_ms()));
    CHECK_EQ(waitpid(r.pid, NULL, WNOHANG), 0);
    for (int i = 0; i < 3; i++)
        it_set(f.s, i, "taken", "someone-else");
    char line[512];
    int64_t lost = err_until(&r, "the lock was lost", line, sizeof line);
    one_line(line, "taken or expired");
    int64_t dead = fifo_until(fd, NULL, acc, sizeof acc, 30000);
    check_note("ended %lld ms after the lost-lock notice", (long long)(dead - lost));
    int st = rl_wait(&r, 10000, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 75, "status %d", st);
    close(fd);
    it_fix_stop(&f);
    return dead - lost;
}

/* The lock taken from under the command after the acquire's own validity
 * is over: the watchdog's extends kept it, and redlock knows their
 * validity, so the command (which ignores SIGTERM) gets SIGKILL
 * --kill-after (1 s) after the loss, not at once. */
TEST(cmd_run_kill_after_follows_the_watchdog)
{
    static const char *const opts[] = {"--ttl", "3000", "--kill-after", "1", NULL};
    int64_t ms = taken_from_under(opts, 3500);
    CHECK_GE(ms, 900);
    CHECK_LT(ms, 1000 + 1500);
}

/* --kill-after is 5 s by default (the validity left, ~8 s, allows it). */
TEST(cmd_run_kill_after_default)
{
    static const char *const opts[] = {"--ttl", "12000", NULL};
    int64_t ms = taken_from_under(opts, 500);
    CHECK_GE(ms, 4900);
    CHECK_LT(ms, 5000 + 1500);
}

/* ---- a terminal ------------------------------------------------------------ */

/* In the child: a session of its own with the pty's slave `name` as its
 * controlling terminal (in the foreground), then the shell script. */
static void on_terminal(const char *name, const char *script)
{
    setsid();
    int s = open(name, O_RDWR);
    if (s < 0 || ioctl(s, TIOCSCTTY, 0) != 0)
        _exit(111);
    dup2(s, 0);
    dup2(s, 1);
    dup2(s, 2);
    execl("/bin/sh", "sh", "-c", script, (char *)NULL);
    _exit(111);
}

/* Type `line` on the terminal m, then read it until `want` shows. */
static void type_and_see(int m, const char *line, const char *want, char *out, size_t n)
{
    size_t len = strlen(out);
    int64_t end = check_now_ms() + 10000;
    CHECK_EQ(write(m, line, strlen(line)), (ssize_t)strlen(line));
    while (!it_has(out, want)) {
        CHECK_MSG(check_now_ms() < end, "the terminal never showed \"%s\" (it showed "
                  "\"%s\"): the command could not read it", want, out);
        struct pollfd p = {m, POLLIN, 0};
        ssize_t k = poll(&p, 1, 100) > 0 ? read(m, out + len, n - 1 - len) : 0;
        if (k > 0)
            out[len += (size_t)k] = '\0';
    }
}

/* A redlock run in the foreground of a terminal hands it to the command,
 * which can read it (a command of a background group would be stopped by
 * SIGTTIN), and takes it back when the command exits: the next run on the
 * terminal can do the same. */
TEST(cmd_run_terminal_goes_to_the_command)
{
    struct it_fix f = {0};
    char nodes[256], script[1024], out[2048] = "";
    it_fix_start(&f, 3, NULL, 0);
    nodes_of(f.s, nodes, sizeof nodes);
    snprintf(script, sizeof script,
             "R='" REDLOCK_BIN " run --nodes %s --restart-guard 0 tty --'; "
             "$R sh -c 'read x; echo \"got1 $x\"'; $R sh -c 'read y; echo \"got2 $y\"; exit 4'",
             nodes);
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    CHECK(m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        on_terminal(ptsname(m), script);
    type_and_see(m, "a\n", "got1 a", out, sizeof out);
    type_and_see(m, "b\n", "got2 b", out, sizeof out);
    int st = 0;
    int64_t end = check_now_ms() + 10000;
    while (waitpid(pid, &st, WNOHANG) == 0 && check_now_ms() < end)
        it_sleep_ms(5);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 4, "status %d", st);
    close(m);
    it_fix_stop(&f);
}
