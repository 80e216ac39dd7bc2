/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.pml -- a Redis master of redlock.pml: the scripts it runs, one
 * request at a time, and its crashes and restarts. */

/* The slot the kind's acquire script would give a new holder with role rl
 * on master j, or NONE: the mutex and a writer need no holder there, a
 * reader no writer, a permit a free slot. */
inline free_slot(j, rl, s0)
{
    s0 = NONE;
    busy = 0;
    writer = 0;
    for (s : 0 .. SLOTS - 1) {
        if
        :: m[j].val[s] != 0 ->
            busy++;
            if
            :: role[OWNER(m[j].val[s])] == 0 -> writer++
            :: else
            fi
        :: else -> s0 = s
        fi
    }
#if KIND == 2
    if
    :: rl == 0 && busy > 0 -> s0 = NONE
    :: rl == 1 && writer > 0 -> s0 = NONE
    :: else
    fi
#endif
}

/* the slot that holds value v on master j, or NONE */
inline find(j, v, s0)
{
    s0 = NONE;
    for (s : 0 .. SLOTS - 1) {
        if
        :: m[j].val[s] == v -> s0 = s
        :: else
        fi
    }
}

/* the key's expiry: ttl on master j's clock */
#define EXPIRY(j, t)  (now + (t) - (m[j].fast -> EARLY : 0))

/* One request as master j runs it; res: 1 OK, 2 refused.
 *   SET  SET key v NX PX t (the acquire script of the kind)
 *   EXT  the extend script: PEXPIRE t if the key is v; where it is gone
 *        and t carries 128 (the lock still valid), SET NX PX again
 *   DEL  the compare-and-delete script (release and roll-back) */
inline execute(j, op, v, t, res)
{
    res = 2;
    find(j, v, s1);
    if
    :: op == SET && s1 == NONE ->
        free_slot(j, role[OWNER(v)], s1);
        if
        :: s1 != NONE -> m[j].val[s1] = v; m[j].exp[s1] = EXPIRY(j, t); res = 1
        :: else
        fi
    :: op == EXT && s1 != NONE ->
        m[j].exp[s1] = EXPIRY(j, t & 127);
        res = 1
    :: op == EXT && s1 == NONE && (t & 128) != 0 ->
        free_slot(j, role[OWNER(v)], s1);
        if
        :: s1 != NONE -> m[j].val[s1] = v; m[j].exp[s1] = EXPIRY(j, t & 127); res = 1
        :: else
        fi
    :: op == DEL && s1 != NONE ->
        m[j].val[s1] = 0;
        m[j].exp[s1] = 0;
        res = 1
    :: else
    fi;
    s1 = 0; busy = 0; writer = 0
}

/* the restart guard (redlock__guard_*): an OK from a master restarted less
 * than WINDOW ago is not counted */
#ifdef NO_GUARD
#define COUNTED(j) 1
#else
#define COUNTED(j) (m[j].since == 0 || now + 1 - m[j].since >= WINDOW)
#endif

/* Client cl's next request to master j, run and answered in one step.  The
 * answer counts if it comes while the client is deciding that operation
 * (once it decided, answers count for nothing); it may be lost (LOSSES). */
#define SERVE(cl)                                                           \
    :: atomic {                                                             \
        m[j].up && nempty(req[(cl) * N + j]) ->                             \
        mc = cl;                                                            \
        req[mc * N + j]?mop, mv, mt, mtag;                                  \
        if                                                                  \
        :: mop == KILL -> zop[mc * N + j] = 0; zval[mc * N + j] = 0;        \
                          zttl[mc * N + j] = 0                              \
        :: else -> execute(j, mop, mv, mt, mres)                            \
        fi;                                                                 \
        if                                                                  \
        :: mop == KILL || mtag != cur[mc] || answered[mc * N + j]           \
        :: mop != KILL && mtag == cur[mc] && !answered[mc * N + j] ->       \
            answered[mc * N + j] = 1;                                       \
            if                                                              \
            :: mres == 2 -> nos[mc]++                                       \
            :: mres == 1 && COUNTED(j) -> OK_FROM(mc, j) oks[mc]++         \
            :: mres == 1 && !COUNTED(j) -> bad[mc]++                        \
            fi                                                              \
        :: losses < LOSSES -> losses++      /* the answer is lost */        \
        fi;                                                                 \
        check();                                                            \
        mc = 0; mv = 0; mt = 0; mtag = 0; mres = 0; mop = 0                 \
       }                                                                    \
    :: atomic {     /* a dropped connection's SET or extend runs late */    \
        m[j].up && zval[(cl) * N + j] != 0 ->                               \
        mc = cl;                                                            \
        execute(j, zop[mc * N + j], zval[mc * N + j], zttl[mc * N + j], mres); \
        zop[mc * N + j] = 0;                                                \
        zval[mc * N + j] = 0;                                               \
        zttl[mc * N + j] = 0;                                               \
        check();                                                            \
        mc = 0; mres = 0                                                    \
       }

proctype Master(byte j)
{
end:
    do
    SERVE(0)
#if C > 1
    SERVE(1)
#endif
#if C > 2
    SERVE(2)
#endif
#if C > 3
    SERVE(3)
#endif
    :: atomic {     /* a crash: its connections die; without persistence its keys too */
        m[j].up && crashes < CRASHES ->
        crashes++;
        m[j].up = 0;
        for (mc : 0 .. C - 1) {
            do
            :: nempty(req[mc * N + j]) -> req[mc * N + j]?_, _, _, _
            :: empty(req[mc * N + j]) -> break
            od;
            zop[mc * N + j] = 0;
            zval[mc * N + j] = 0;
            zttl[mc * N + j] = 0;
            broken[mc * N + j] = 1
        }
#if PERSIST == 2
        if      /* either kind of master */
        :: m[j].durable = 1
        :: m[j].durable = 0
        fi;
#else
        m[j].durable = PERSIST;
#endif
        if
        :: !m[j].durable ->
            for (mc : 0 .. SLOTS - 1) {
                m[j].val[mc] = 0;
                m[j].exp[mc] = 0
            }
        :: else
        fi;
        check();
        mc = 0
       }
    :: atomic {     /* the restart; a durable master (appendonly, appendfsync
                     * always) is counted at once */
        !m[j].up -> m[j].up = 1; m[j].since = (m[j].durable -> 0 : now + 1)
       }
    od
}
