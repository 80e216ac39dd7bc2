/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* redlock.pml -- the lock protocol as libredlock implements it, for Spin.
 *
 * C clients (client.pml) run the acquire fan-out, the decision at the
 * quorum, the roll-back on every master, a retry, one extend (the
 * watchdog's is the same operation) and the release, against N masters
 * that run SET NX PX and the compare-and-act scripts and crash and restart
 * with or without persistence, over connections that delay, drop and
 * reorder.  Time is a tick counter.  docs/model.md maps every part to the
 * code and gives the properties, the configurations and the mutants.
 *
 * Configuration (cpp, -D on spin's command line; model/model.mk):
 *   KIND      0 mutex, 1 semaphore of P permits, 2 read/write (client 0
 *             writes, the others read)
 *   C, N, P   clients (1 to 4), masters (3 or 5), permits
 *   CRASHES   master crashes in a run; PERSIST 1: the keys survive one,
 *             2: either (each crash chooses)
 *   LOSSES    connections dropped in a run
 *   EXTENDS   client 0's extends (0 .. 2), each with the full or a short ttl
 *   NOTICE    1: the lost-lock notice may come while an extend is out
 *   ATTEMPTS0, ATTEMPTS1  acquire attempts of client 0, of the others
 *   FAST      the masters whose clocks run fast (keys expire EARLY ticks
 *             sooner): masters 0 .. FAST-1; unset, any number of them
 *   JUMPS     1: master 0's clock may jump ahead by more than the ttl once
 *             (its keys expire at once), seen by the clients at once
 *   JUMP_ANYTIME  the jump also while a tally counted master 0's OK
 *   EXCLUSION_ONLY  only the exclusion is checked (a mutant's extra holders)
 * Mutants, each without one safety measure (model/model.mk):
 *   NO_DRIFT, NO_ROLLBACK, NO_GUARD, HALF_QUORUM, KEEP_VALIDITY,
 *   NO_EXTEND_KILL (the kill precedes only deletes, as before 0.2.0),
 *   SEM_MAJORITY (a semaphore's quorum taken as the majority),
 *   CLOCK_MAJORITY (the clock jump's check against the majority, not the
 *   lock's quorum)
 */

#ifndef KIND
#define KIND 0
#endif
#ifndef C
#define C 2
#endif
#ifndef N
#define N 3
#endif
#ifndef P
#define P 1
#endif
#ifndef CRASHES
#define CRASHES 0
#endif
#ifndef PERSIST
#define PERSIST 0
#endif
#ifndef LOSSES
#define LOSSES 0
#endif
#ifndef EXTENDS
#define EXTENDS 1
#endif
#ifndef NOTICE
#define NOTICE 1
#endif
#ifndef JUMPS
#define JUMPS 0
#endif
#ifndef ATTEMPTS0
#define ATTEMPTS0 1
#endif
#ifndef ATTEMPTS1
#define ATTEMPTS1 2
#endif
#define ATTEMPTS_OF(cl) ((cl) == 0 -> ATTEMPTS0 : ATTEMPTS1)
#ifndef MAXT
#define MAXT 6
#endif

/* Time, in ticks of the clients' clocks.  A master's clock may run fast
 * against them: its keys then expire up to EARLY ticks early (ttl x
 * drift_factor).  The client takes DRIFT off the validity: ttl x
 * drift_factor + drift_min_ms, the latter one tick. */
#ifndef TTL
#define TTL     4
#endif
#ifndef SHORT
#define SHORT   2       /* the short ttl an extend may ask for */
#endif
#define EARLY   1
#ifdef NO_DRIFT
#define DRIFT   0
#else
#define DRIFT   (EARLY + 1)
#endif
#ifndef TIMEOUT
#define TIMEOUT 1       /* node_timeout_ms */
#endif
#define WINDOW  (TTL + DRIFT)   /* the restart guard's window: the largest ttl + its drift */

#if KIND == 1
/* redlock__semaphore_quorum: N + 1 - ceil(N / (P + 1)) */
#define QUORUM  (N + 1 - (N + P) / (P + 1))
#define SLOTS   P
#elif KIND == 2
#define QUORUM  (N / 2 + 1)
#define SLOTS   C
#else
#define QUORUM  (N / 2 + 1)
#define SLOTS   1
#endif
#ifdef HALF_QUORUM
#undef QUORUM
#define QUORUM  (N / 2)
#endif
#ifdef SEM_MAJORITY     /* a semaphore counted like a lock: a majority */
#undef QUORUM
#define QUORUM  (N / 2 + 1)
#endif

/* A master's clock seen jumping ahead ends every held lock that counted
 * its OK and whose other OK masters are fewer than the lock's quorum
 * (redlock__locks_clock_ahead). */
#ifdef CLOCK_MAJORITY   /* compared with the majority, whatever the kind */
#define CLOCK_QUORUM  (N / 2 + 1)
#else
#define CLOCK_QUORUM  QUORUM
#endif

#define NONE    255

mtype = { SET, EXT, DEL, KILL };

byte now;                               /* real time = the clients' clocks */

/* A master.  A slot is one holder's key: its value and the tick it expires
 * at.  since: 0, or 1 + the tick of its last restart (INFO's uptime). */
typedef master_t {
    byte val[SLOTS];
    byte exp[SLOTS];
    bool up;
    bool fast;                          /* its clock runs fast: keys expire EARLY sooner */
    bool durable;                       /* its last crash kept its keys */
    byte since;
};
master_t m[N];

/* Requests: one FIFO connection per client and master. */
chan req[C * N] = [3] of { mtype, byte, byte, byte };  /* op, value, ttl, tag */

/* The replies, as the client's tally of the operation it is deciding
 * (tag cur[c]): counted OKs, refusals, OKs the restart guard does not
 * count and masters that are down; answered[] keeps one vote per master.
 * A reply may also come too late for the decision: it then counts for
 * nothing, like a lost one. */
byte cur[C], oks[C], nos[C], bad[C];
bool answered[C * N];
#if JUMPS
/* the masters whose OK the tally counted (bit j), and those of the held
 * lock's last decided acquire or extend (the code's l->nodes->votes) */
byte okset[C], okm[C];
byte jumps;
/* each a statement with its ';', or nothing without JUMPS (the other runs
 * keep their states and depths) */
#define OK_FROM(cl, j)  okset[cl] = okset[cl] | (1 << (j));
#define VOTES_KEPT(cl)  okm[cl] = okset[cl];
#define VOTES_GONE(cl)  okm[cl] = 0;
/* No client is deciding an operation with master 0's OK counted: the code
 * keeps a vote it counted before the jump was seen (JUMP_ANYTIME drops
 * this condition: docs/model.md). */
#ifdef JUMP_ANYTIME
#define JUMP_OK  1
#elif C == 1
#define JUMP_OK  ((okset[0] & 1) == 0)
#elif C == 2
#define JUMP_OK  (((okset[0] | okset[1]) & 1) == 0)
#elif C == 3
#define JUMP_OK  (((okset[0] | okset[1] | okset[2]) & 1) == 0)
#else
#define JUMP_OK  (((okset[0] | okset[1] | okset[2] | okset[3]) & 1) == 0)
#endif
#else
#define OK_FROM(cl, j)
#define VOTES_KEPT(cl)
#define VOTES_GONE(cl)
#endif

/* A dropped connection's SET or extend that the master had not read yet
 * may still run, until the client's CLIENT KILL reaches the master (a
 * zombie); broken tells the client to send the kill first on its new
 * connection. */
mtype zop[C * N];
byte zval[C * N], zttl[C * N];
bool broken[C * N];

/* What the clients believe: the value held (0: none) and until when
 * (held while now < until), and each client's role: 0 exclusive (mutex,
 * writer), 1 shared (reader), 2 a permit. */
byte held[C], until[C], role[C];

/* Values of lost attempts whose roll-back completed on every master:
 * none may be on a master from then on (property 3). */
bool dead[C * 4];

byte crashes, losses;
bool started;

/* Scratch of the atomic steps: not part of the state (Spin's breadth-first
 * search takes no hidden variables; these are 0 between steps anyway). */
#ifdef BFS_SEARCH
#define hidden
#endif
hidden byte mc, mv, mt, mtag, mres, s, s1, busy, writer, k;
hidden byte ck_q, ck_i, ck_j, ck_s, ck_nh, ck_nw, ck_ok, ck_g, jc, jn;
hidden mtype mop;

#define VAL(cl, a)  ((cl) * 4 + (a))
#define OWNER(val)  ((val) / 4)

/* ---------- the properties ---------- */

/* Does master j keep every other client out until tick e, for value v?
 * It holds v until at least e, or it is down, or (the restart guard) no
 * client counts its votes before e. */
inline grants(j, v, e, r)
{
    r = 0;
    for (ck_s : 0 .. SLOTS - 1) {
        if
        :: m[j].val[ck_s] == v && m[j].exp[ck_s] >= e -> r = 1
        :: else
        fi
    }
#ifndef NO_GUARD
    if
    :: m[j].since > 0 && m[j].since - 1 + WINDOW >= e -> r = 1
    :: else
    fi
#endif
    if
    :: !m[j].up -> r = 1
    :: else
    fi
}

/* The kind's exclusion among the clients that believe they hold now. */
inline exclusion(ok)
{
    ck_nh = 0;
    ck_nw = 0;
    for (ck_i : 0 .. C - 1) {
        if
        :: held[ck_i] != 0 && now < until[ck_i] ->
            ck_nh++;
            if
            :: role[ck_i] == 0 -> ck_nw++
            :: else
            fi
        :: else
        fi
    }
#if KIND == 1
    ok = (ck_nh <= P);
#else
    ok = (ck_nw == 0 || ck_nh == 1);
#endif
}

/* The properties, after every step that can change what they read (a
 * master's step, a crash, a tick, a client's decision):
 *   1, 4  the kind's exclusion in real time;
 *   2     every holder's believed validity is kept by a quorum;
 *   3     no value whose roll-back completed is on a master, or in a
 *         zombie SET that could still put it there. */
inline check()
{
    exclusion(ck_ok);
    assert(ck_ok);
#ifndef EXCLUSION_ONLY  /* a mutant's run that looks for extra holders only */
    for (ck_i : 0 .. C - 1) {
        if
        :: held[ck_i] != 0 && now < until[ck_i] ->
            ck_q = 0;
            for (ck_j : 0 .. N - 1) {
                grants(ck_j, held[ck_i], until[ck_i], ck_g);
                if
                :: ck_g -> ck_q++
                :: else
                fi
            }
            assert(ck_q >= QUORUM)
        :: else
        fi
    }
    for (ck_j : 0 .. N - 1) {
        for (ck_s : 0 .. SLOTS - 1) {
            assert(m[ck_j].val[ck_s] == 0 || !dead[m[ck_j].val[ck_s]])
        }
    }
    for (ck_j : 0 .. C * N - 1) {
        assert(zval[ck_j] == 0 || !dead[zval[ck_j]])
    }
#endif
    ck_q = 0; ck_i = 0; ck_j = 0; ck_s = 0; ck_nh = 0; ck_nw = 0; ck_ok = 0; ck_g = 0
}

#include "master.pml"
#include "client.pml"

/* ---------- time and the network ---------- */

active proctype World()
{
end:
    do
    :: atomic {     /* a tick: keys whose time is up expire.  The first
                     * comes after a client started: time shifts. */
        now < MAXT && (now > 0 || started) ->
        now++;
        for (k : 0 .. N - 1) {
            for (mt : 0 .. SLOTS - 1) {
                if
                :: m[k].val[mt] != 0 && m[k].exp[mt] <= now ->
                    m[k].val[mt] = 0;
                    m[k].exp[mt] = 0
                :: else
                fi
            }
        }
        check();
        k = 0; mt = 0
       }
    :: atomic {     /* a connection drops: what it carried is lost, but a SET
                     * or an extend the master had not read yet may still
                     * run (zombie) */
        losses < LOSSES ->
        losses++;
        select (k : 0 .. C * N - 1);
        if
        :: nempty(req[k]) ->
            req[k]?mop, mv, mt, mtag;
            if
            :: mop == SET || mop == EXT -> zop[k] = mop; zval[k] = mv; zttl[k] = mt
            :: else
            fi
        :: empty(req[k])
        fi;
        do
        :: nempty(req[k]) -> req[k]?_, _, _, _
        :: empty(req[k]) -> break
        od;
        broken[k] = 1;
        k = 0; mv = 0; mt = 0; mtag = 0; mop = 0
       }
#if JUMPS
    :: atomic {     /* master 0's clock jumps ahead by more than the ttl:
                     * its keys expire at once.  The clients see it (their
                     * TIME probes) and end every held lock that counted
                     * master 0's OK and whose other OK masters are fewer
                     * than its quorum; votes already counted stay. */
        jumps < JUMPS && JUMP_OK ->
        jumps++;
        for (mt : 0 .. SLOTS - 1) {
            m[0].val[mt] = 0;
            m[0].exp[mt] = 0
        }
        for (jc : 0 .. C - 1) {
            if
            :: held[jc] != 0 && until[jc] != 0 && (okm[jc] & 1) ->
                jn = 0;
                for (k : 1 .. N - 1) {
                    if
                    :: (okm[jc] & (1 << k)) != 0 -> jn++
                    :: else
                    fi
                }
                if
                :: jn < CLOCK_QUORUM -> until[jc] = 0
                :: else
                fi
            :: else
            fi
        }
        check();
        k = 0; mt = 0; jc = 0; jn = 0
       }
#endif
    od
}

init
{
    byte i;
    atomic {
        for (i : 0 .. N - 1) {
            m[i].up = 1;
#ifdef FAST
            m[i].fast = (i < FAST)
#else
            /* the masters' clocks: any number of them (they are alike) fast
             * by the whole allowance, the others exact */
            if
            :: m[i].fast = 0
            :: i == 0 || m[i - 1].fast -> m[i].fast = 1
            fi
#endif
        }
        for (i : 0 .. C - 1) {
#if KIND == 1
            role[i] = 2;
#elif KIND == 2
            role[i] = (i > 0);
#endif
            run Client(i)
        }
        for (i : 0 .. N - 1) {
            run Master(i)
        }
        i = 0
    }
}
