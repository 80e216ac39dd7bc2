/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* client.pml -- a client of redlock.pml: acquire (fan-out, decision at the
 * quorum, roll-back on every master, retry), one extend, the release. */

#ifndef RB_ROUNDS
#define RB_ROUNDS 2     /* roll-back rounds (the code tries 30 times) */
#endif

/* A new operation to decide: a fresh tag, an empty tally. */
inline begin_op()
{
    tag++;
    cur[c] = tag;
    oks[c] = 0;
    nos[c] = 0;
    bad[c] = 0;
#if JUMPS
    okset[c] = 0;
#endif
    for (j : 0 .. N - 1) {
        answered[c * N + j] = 0
    }
    j = 0
}

/* The operation is decided: later answers count for nothing. */
inline end_op()
{
    cur[c] = 0;
    oks[c] = 0;
    nos[c] = 0;
    bad[c] = 0;
#if JUMPS
    okset[c] = 0;
#endif
    for (j : 0 .. N - 1) {
        answered[c * N + j] = 0
    }
    j = 0
}

/* A request to master j on c's connection.  On a new connection (the old
 * one dropped) CLIENT KILL goes first (the code kills every dropped
 * connection at the next handshake, before anything else).  A master that
 * is down answers at once (it votes "down"); a full queue (the code's
 * max_pending) drops the request. */
#ifdef NO_EXTEND_KILL
#define KILLS_FIRST(op) ((op) == DEL)   /* only before an undo or a release */
#else
#define KILLS_FIRST(op) 1
#endif
inline send(j, op, v, t)
{
    if
    :: !m[j].up ->
        /* a vote "down"; a roll-back's DEL waits for the master's own answer */
        if
        :: op != DEL && !answered[c * N + j] -> answered[c * N + j] = 1; bad[c]++
        :: else
        fi
    :: m[j].up ->
        if
        :: broken[c * N + j] && KILLS_FIRST(op) ->
            broken[c * N + j] = 0;
            if
            :: nfull(req[c * N + j]) -> req[c * N + j]!KILL, 0, 0, tag
            :: full(req[c * N + j])
            fi
        :: else
        fi;
        if
        :: nfull(req[c * N + j]) -> req[c * N + j]!op, v, t, tag
        :: full(req[c * N + j])
        fi
    fi
}

/* The outcome is known: a quorum of counted OKs, too few masters left to
 * make one, or the node timeout. */
#define DECIDED  (oks[c] >= QUORUM || N - nos[c] - bad[c] < QUORUM || now >= dl)

/* every master answered the roll-back, in this round or an earlier one */
#define IN(j)   (answered[c * N + (j)] || (done & (1 << (j))) != 0)
#if N == 3
#define ALL_IN  (IN(0) && IN(1) && IN(2))
#elif N == 5
#define ALL_IN  (IN(0) && IN(1) && IN(2) && IN(3) && IN(4))
#endif

/* The roll-back of a lost attempt's value v: the compare-and-delete on
 * every master, again where no answer came, up to RB_ROUNDS rounds;
 * complete when every master answered. */
inline rollback(v)
{
#ifndef NO_ROLLBACK
    done = 0;
    rounds = 0;
    do
    :: rounds == RB_ROUNDS || done == (1 << N) - 1 -> break
    :: else ->
        rounds++;
        atomic {
            begin_op();
            dl = now + TIMEOUT;
            for (j : 0 .. N - 1) {
                if
                :: (done & (1 << j)) == 0 -> send(j, DEL, v, 0)
                :: else
                fi
            }
            j = 0
        }
        atomic {
            (now >= dl || ALL_IN) ->
            for (j : 0 .. N - 1) {
                if
                :: answered[c * N + j] && m[j].up -> done = done | (1 << j)
                :: else
                fi
            }
            end_op();
            dl = 0
        }
    od;
    atomic {
        if
        :: done == (1 << N) - 1 -> dead[v] = 1; check()   /* property 3 from here on */
        :: else
        fi;
        done = 0;
        rounds = 0
    }
#else
    atomic { dead[v] = 1; check() }
#endif
}

proctype Client(byte c)
{
    byte a, v, tag, start, dl, t2, j, done, rounds, x;
    bool told;                  /* the lost-lock notice came */

    /* acquire: up to ATTEMPTS attempts */
    do
    :: a == ATTEMPTS_OF(c) -> goto finish
    :: a < ATTEMPTS_OF(c) ->
        a++;
        atomic {
            started = 1;
            v = VAL(c, a);
            begin_op();
            start = now;
            dl = now + TIMEOUT;
            for (j : 0 .. N - 1) {
                send(j, SET, v, TTL)
            }
            j = 0
        }
        if
        :: atomic { DECIDED && oks[c] >= QUORUM && start + TTL - DRIFT > now ->
            /* won: the validity counts from before the first request */
            held[c] = v;
            until[c] = start + TTL - DRIFT;
            VOTES_KEPT(c)
            end_op();
            start = 0;
            dl = 0;
            check() }
            break
        :: atomic { DECIDED && !(oks[c] >= QUORUM && start + TTL - DRIFT > now) ->
            end_op();
            start = 0;
            dl = 0 }
            rollback(v)
        fi
    od;

#if EXTENDS
    /* client 0's extends (the watchdog's or the application's), each with
     * the full or a short ttl, while the validity lasts */
    do
    :: atomic { c == 0 && x < EXTENDS && now < until[c] ->
        x++;
        if
        :: t2 = TTL
        :: t2 = SHORT
        fi;
        begin_op();
        start = now;
        dl = now + TIMEOUT;
#ifndef KEEP_VALIDITY
        /* masters may run the new PEXPIRE at once: a shorter ttl shortens the key */
        if
        :: start + t2 - DRIFT < until[c] -> until[c] = start + t2 - DRIFT
        :: else
        fi;
#endif
        for (j : 0 .. N - 1) {
            send(j, EXT, v, t2 | 128)       /* 128: re-grow, the lock is valid */
        }
        j = 0 }
        do
#if NOTICE
        :: atomic { !told && now < until[c] ->
            /* the watchdog's notice (UNREACHABLE) while the extend is out:
             * the validity is 0 from here, whatever the extend brings */
            told = 1;
            until[c] = 0 }
#endif
        :: atomic { DECIDED && oks[c] >= QUORUM && start + t2 - DRIFT > now ->
            if
            :: !told -> until[c] = start + t2 - DRIFT
            :: else
            fi;
            VOTES_KEPT(c)
            check() }
            break
        :: atomic { DECIDED && !(oks[c] >= QUORUM && start + t2 - DRIFT > now) ->
            VOTES_KEPT(c)
            if
            :: nos[c] > N - QUORUM -> until[c] = 0; held[c] = 0     /* refused: the lost-lock notice */
            :: else
            fi }
            break
        od;
        atomic { end_op(); start = 0; dl = 0; t2 = 0 }
    :: x > 0 -> break       /* no more extends: the release */
    :: else -> break
    od;
#endif

    /* release: the validity is 0 from its start */
    atomic {
        if
        :: held[c] != 0 ->
            held[c] = 0;
            until[c] = 0;
            VOTES_GONE(c)
            begin_op();
            for (j : 0 .. N - 1) {
                send(j, DEL, v, 0)
            }
            end_op()
        :: else
        fi
    }
finish:
end:
    skip
}
