/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* sock.c -- the simulated connections' streams, in the process: no kernel.
 *
 * A connection the dial hook hands the library is a descriptor whose
 * number is reserved (a duplicate of /dev/null, kept open) but whose
 * reads, writes, polls and close never reach the kernel: the simulator
 * defines read, readv, write, writev, send, recv, ioctl, getsockopt, close
 * and poll itself (the library and libevent are linked statically, as for
 * clock_gettime in world.c) and serves its own descriptors from two byte
 * queues; any other descriptor goes to the kernel as a plain system call.
 * The definitions are hidden (-fvisibility=hidden): the shared libraries
 * (Lua, OpenSSL) keep libc's.
 *
 * The streams behave as the AF_UNIX socketpairs they replace (Linux's
 * af_unix.c): bytes in order, a read takes what is queued up to its size;
 * a read past a closed peer gives 0 once the bytes are taken; a write to
 * a closed peer fails with EPIPE; a side closed with bytes it never read
 * leaves ECONNRESET to its peer (given once, by a read or SO_ERROR, after
 * the bytes); poll reports POLLIN, POLLOUT (always: the queue has no
 * bound), POLLHUP once the peer closed, POLLERR while an error waits.
 * So a run is the same run as over socketpairs, trace for trace.
 */
#undef _FORTIFY_SOURCE      /* read and poll are defined here, not wrapped */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "sim/sim.h"

/* one direction: bytes written, the first `off` of them read already */
typedef struct queue {
    char *p;
    size_t off, len, cap;
} queue;

struct sim_sock {
    long long id;           /* the simulator's number for it */
    int fd;                 /* the library's descriptor; -1 once it closed it */
    int sim_open;           /* the simulator's side is open */
    queue to_lib, to_sim;
    int lib_err, sim_err;   /* an error waiting for that side (ECONNRESET) */
    int unread;             /* counted in n_unread */
    int lib_ready;          /* counted in n_lib_ready */
    int dirty;              /* in the dirty list */
    sim_sock *next_free;
};

static sim_sock **by_fd;    /* the library's descriptors: their streams */
static size_t nby_fd;
static int *spare;          /* reserved descriptor numbers not in use */
static size_t nspare, capspare;
static sim_sock *free_socks;
static int devnull = -1;
/* Kept as they change, so that a turn costs little when nothing moved:
 * the streams both sides hold open with bytes the library has not read;
 * the library's descriptors poll would find readable (bytes, an end, an
 * error); the streams the library wrote to or closed since the
 * simulator last looked. */
static size_t n_unread, n_lib_ready;
static sim_sock **dirty;
static size_t ndirty, capdirty;

static size_t queued(const queue *q)
{
    return q->len - q->off;
}

static int put(queue *q, const void *p, size_t len)
{
    if (q->off == q->len)
        q->off = q->len = 0;
    if (q->len + len > q->cap) {
        size_t cap = q->cap ? q->cap : 512;
        char *n;
        while (cap < q->len + len)
            cap *= 2;
        if (!(n = realloc(q->p, cap)))
            return -1;
        q->p = n, q->cap = cap;
    }
    memcpy(q->p + q->len, p, len);
    q->len += len;
    return 0;
}

static size_t take(queue *q, void *p, size_t len)
{
    size_t n = queued(q) < len ? queued(q) : len;
    memcpy(p, q->p + q->off, n);
    q->off += n;
    return n;
}

/* after any change of s: the counts and the dirty list */
static void note(sim_sock *s)
{
    int unread = s->fd >= 0 && s->sim_open && queued(&s->to_lib) > 0;
    int ready = s->fd >= 0 && (queued(&s->to_lib) || !s->sim_open || s->lib_err);
    int wants = s->sim_open && (queued(&s->to_sim) || s->fd < 0 || s->sim_err);

    n_unread += (size_t)unread - (size_t)s->unread;
    s->unread = unread;
    n_lib_ready += (size_t)ready - (size_t)s->lib_ready;
    s->lib_ready = ready;
    if (wants && !s->dirty) {
        if (ndirty == capdirty) {
            size_t cap = capdirty ? 2 * capdirty : 64;
            sim_sock **d = realloc(dirty, cap * sizeof *d);
            if (!d)
                abort();        /* (a stream left unseen would hang the run) */
            dirty = d, capdirty = cap;
        }
        dirty[ndirty++] = s;
        s->dirty = 1;
    }
}

static sim_sock *lookup(int fd)
{
    return fd >= 0 && (size_t)fd < nby_fd ? by_fd[fd] : NULL;
}

/* The lowest reserved number not in use (as the kernel would pick), or a
 * new one: a duplicate of /dev/null, so that no real descriptor takes it. */
static int reserve(void)
{
    size_t low = 0;
    int fd;

    if (nspare) {
        for (size_t i = 1; i < nspare; i++)
            if (spare[i] < spare[low])
                low = i;
        fd = spare[low];
        spare[low] = spare[--nspare];
        return fd;
    }
    if (devnull < 0 && (devnull = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
        return -1;
    if ((fd = (int)syscall(SYS_fcntl, devnull, F_DUPFD_CLOEXEC, 0)) < 0)
        return -1;
    if ((size_t)fd >= nby_fd) {
        size_t n = (size_t)fd + 16;
        sim_sock **b = realloc(by_fd, n * sizeof *b);
        if (!b)
            return -1;
        memset(b + nby_fd, 0, (n - nby_fd) * sizeof *b);
        by_fd = b, nby_fd = n;
    }
    return fd;
}

static void release(int fd)
{
    if (nspare == capspare) {
        size_t cap = capspare ? 2 * capspare : 32;
        int *s = realloc(spare, cap * sizeof *s);
        if (!s)
            return;     /* the number stays reserved, unused */
        spare = s, capspare = cap;
    }
    spare[nspare++] = fd;
}

/* both sides closed: back to the pool */
static void recycle(sim_sock *s)
{
    if (s->fd >= 0 || s->sim_open)
        return;
    s->to_lib.off = s->to_lib.len = s->to_sim.off = s->to_sim.len = 0;
    s->next_free = free_socks;
    free_socks = s;
}

sim_sock *sim_sock_open(long long id, int *lib_fd)
{
    sim_sock *s = free_socks;
    int fd = reserve();

    if (fd < 0)
        return NULL;
    if (s)
        free_socks = s->next_free;
    else if (!(s = calloc(1, sizeof *s))) {
        release(fd);
        return NULL;
    }
    s->id = id;
    s->fd = fd;
    s->sim_open = 1;
    s->lib_err = s->sim_err = 0;
    s->unread = s->lib_ready = s->dirty = 0;
    by_fd[fd] = s;
    *lib_fd = fd;
    return s;
}

/* ---- the simulator's side -------------------------------------------------- */

static int by_id(const void *a, const void *b)
{
    long long x = (*(sim_sock *const *)a)->id, y = (*(sim_sock *const *)b)->id;
    return (x > y) - (x < y);
}

size_t sim_sock_changed(sim_sock ***list)
{
    size_t n = 0;

    /* (a stream closed by both sides since it was listed is left out) */
    for (size_t i = 0; i < ndirty; i++)
        if (dirty[i]->dirty) {
            dirty[i]->dirty = 0;
            dirty[n++] = dirty[i];
        }
    qsort(dirty, n, sizeof *dirty, by_id);
    ndirty = 0;
    *list = dirty;
    return n;
}

int sim_sock_take(sim_sock *s, sim_buf *out)
{
    size_t n = queued(&s->to_sim);
    int end = s->fd < 0;

    if (n) {
        sim_buf_put(out, s->to_sim.p + s->to_sim.off, n);
        s->to_sim.off = s->to_sim.len = 0;
    }
    if (s->sim_err) {       /* given once, before the end is seen */
        s->sim_err = 0;
        end = 0;
    }
    note(s);
    return end;
}

int sim_sock_unread_any(void)
{
    return n_unread > 0;
}

int sim_sock_write(sim_sock *s, const void *p, size_t len)
{
    int rc;
    if (s->fd < 0)
        return -1;          /* EPIPE: the library closed its side */
    rc = put(&s->to_lib, p, len);
    note(s);
    return rc;
}

void sim_sock_close(sim_sock *s)
{
    if (!s->sim_open)
        return;
    s->sim_open = 0;
    if (queued(&s->to_sim) && s->fd >= 0)
        s->lib_err = ECONNRESET;
    s->to_sim.off = s->to_sim.len = 0;
    note(s);
    recycle(s);
}

/* ---- the library's side: the calls it and libevent make ------------------- */

static ssize_t lib_read(sim_sock *s, const struct iovec *iov, int cnt)
{
    size_t n = 0;

    if (!queued(&s->to_lib)) {
        if (s->lib_err) {
            errno = s->lib_err;
            s->lib_err = 0;
            note(s);
            return -1;
        }
        if (!s->sim_open)
            return 0;
        errno = EAGAIN;
        return -1;
    }
    for (int i = 0; i < cnt && queued(&s->to_lib); i++)
        n += take(&s->to_lib, iov[i].iov_base, iov[i].iov_len);
    note(s);
    return (ssize_t)n;
}

static ssize_t lib_write(sim_sock *s, const struct iovec *iov, int cnt)
{
    size_t n = 0;

    if (!s->sim_open) {
        errno = EPIPE;      /* (SIGPIPE: the library ignores it) */
        return -1;
    }
    for (int i = 0; i < cnt; i++) {
        if (put(&s->to_sim, iov[i].iov_base, iov[i].iov_len) != 0) {
            if (n)
                break;
            errno = ENOBUFS;
            return -1;
        }
        n += iov[i].iov_len;
    }
    note(s);
    return (ssize_t)n;
}

ssize_t read(int fd, void *buf, size_t len)
{
    sim_sock *s = lookup(fd);
    struct iovec v = { buf, len };
    return s ? lib_read(s, &v, 1) : syscall(SYS_read, fd, buf, len);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    sim_sock *s = lookup(fd);
    struct iovec v = { buf, len };
    return s ? lib_read(s, &v, 1) : syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
    sim_sock *s = lookup(fd);
    return s ? lib_read(s, iov, cnt) : syscall(SYS_readv, fd, iov, cnt);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    sim_sock *s = lookup(fd);
    struct iovec v = { (void *)buf, len };
    return s ? lib_write(s, &v, 1) : syscall(SYS_write, fd, buf, len);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
    sim_sock *s = lookup(fd);
    struct iovec v = { (void *)buf, len };
    return s ? lib_write(s, &v, 1) : syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    sim_sock *s = lookup(fd);
    return s ? lib_write(s, iov, cnt) : syscall(SYS_writev, fd, iov, cnt);
}

int ioctl(int fd, unsigned long req, ...)
{
    sim_sock *s = lookup(fd);
    va_list ap;
    void *arg;

    va_start(ap, req);
    arg = va_arg(ap, void *);
    va_end(ap);
    if (!s)
        return (int)syscall(SYS_ioctl, fd, req, arg);
    if (req != FIONREAD) {
        errno = ENOTTY;
        return -1;
    }
    *(int *)arg = (int)queued(&s->to_lib);
    return 0;
}

int getsockopt(int fd, int level, int name, void *restrict val, socklen_t *restrict len)
{
    sim_sock *s = lookup(fd);

    if (!s)
        return (int)syscall(SYS_getsockopt, fd, level, name, val, len);
    if (level != SOL_SOCKET || name != SO_ERROR || *len < (socklen_t)sizeof(int)) {
        errno = ENOPROTOOPT;
        return -1;
    }
    *(int *)val = s->lib_err;
    s->lib_err = 0;
    *len = sizeof(int);
    note(s);
    return 0;
}

int close(int fd)
{
    sim_sock *s = lookup(fd);

    if (!s)
        return (int)syscall(SYS_close, fd);
    by_fd[fd] = NULL;
    release(fd);
    s->fd = -1;
    if (queued(&s->to_lib) && s->sim_open)
        s->sim_err = ECONNRESET;
    s->to_lib.off = s->to_lib.len = 0;
    note(s);
    recycle(s);
    return 0;
}

static short lib_events(const sim_sock *s)
{
    short ev = POLLOUT;         /* no bound: always writable */
    if (queued(&s->to_lib) || !s->sim_open)
        ev |= POLLIN;
    if (!s->sim_open)
        ev |= POLLHUP;
    if (s->lib_err)
        ev |= POLLERR;
    return ev;
}

/* libevent's poll backend waits here.  Our descriptors are ready or not
 * now: the driver never asks it to wait (EVLOOP_NONBLOCK).  Any other
 * descriptor in the set (none, today: the loop has no notification pipe
 * in one thread) goes to the kernel with the rest's result. */
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    int ready = 0, real = 0;

    static const struct pollfd *last;
    static nfds_t nlast;

    if (!n_lib_ready) {
        /* The common turn: none of ours readable.  If libevent's set is
         * the one found idle last time and no code of its or the
         * library's ran since (sim_poll_stale), nothing is ready. */
        nfds_t i;
        if (!sim_poll_stale && !sim_poll_hold && fds == last && n == nlast)
            return 0;
        /* else one waiting to write is ready at once (then the full pass
         * below), or nothing is, and libevent reads no revents */
        for (i = 0; i < n; i++) {
            sim_sock *s = lookup(fds[i].fd);
            if (s ? (fds[i].events & POLLOUT) != 0 : fds[i].fd >= 0)
                break;
        }
        if (i == n) {
            last = fds, nlast = n;
            sim_poll_stale = sim_poll_hold;
            return 0;
        }
    }
    last = NULL;
    for (nfds_t i = 0; i < n; i++) {
        sim_sock *s = lookup(fds[i].fd);
        if (s) {
            fds[i].revents = (short)(lib_events(s) & (fds[i].events | POLLERR | POLLHUP));
            ready += fds[i].revents != 0;
        } else {
            real += fds[i].fd >= 0;
            fds[i].revents = 0;
        }
    }
    if (real) {
        struct pollfd *r = malloc(n * sizeof *r);
        int got;
        if (!r)
            return -1;
        for (nfds_t i = 0; i < n; i++) {
            r[i] = fds[i];
            if (lookup(fds[i].fd))
                r[i].fd = -1;
        }
        got = (int)syscall(SYS_poll, r, n, ready ? 0 : timeout);
        for (nfds_t i = 0; i < n && got > 0; i++)
            if (r[i].fd >= 0)
                fds[i].revents = r[i].revents;
        free(r);
        if (got < 0)
            return -1;
        ready += got;
    }
    if (ready)
        sim_loop_touched = sim_poll_stale = 1;
    return ready;
}

long long sim_sock_id(const sim_sock *s)
{
    return s->id;
}
