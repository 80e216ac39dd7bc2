/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fault.c -- the run's faults, at seeded times in its first 5 s: up to
 * three connections reset, up to two stalled (50 ms to 2 s, often past
 * node_timeout_ms), in half the runs a master restarted, and with
 * --jumps a master's clock jumping 0.1 to 30 s ahead; up to two pauses
 * of the client's own process (1 ms to 3 s).  Each fault
 * picks its victim when it happens, from the connections open then.
 */
#include <stdint.h>
#include "sim/sim.h"

enum { FAULT_RESET, FAULT_STALL, FAULT_RESTART, FAULT_JUMP, FAULT_PAUSE };

#define MAX_PAUSES 2

static size_t nmasters;
static int keeps;       /* the masters keep their keys across a restart */
static int npauses;
static int64_t pause_from[MAX_PAUSES], pause_to[MAX_PAUSES];

/* The client's process pauses (a GC, a swap-in, a descheduled VM): virtual
 * time jumps by d while nothing of the library runs.  The events due in
 * between run now, in their order, before the library's next turn: what
 * the masters were sent arrives late, the timers due fire late, at once. */
static void pause_process(int64_t d)
{
    if (npauses < MAX_PAUSES) {
        pause_from[npauses] = sim_now_us;
        pause_to[npauses++] = sim_now_us + d;
    }
    sim_trace("fault: the client's process paused for %.3f ms", (double)d / 1000);
    sim_now_us += d;
    /* now and then it resumes with its clock stepped back (CLOCK_BOOTTIME
     * should never step: the library guards against it all the same).
     * Further back than the run is long: every client's next reading is
     * below its last one, so every client sees it. */
    if (sim_rand(SIM_RNG_FAULT) % 3 == 0) {
        int64_t back = sim_now_us - SIM_START_US + sim_rand_range(SIM_RNG_FAULT, 1000, 1000000);
        sim_clock_back_us += back;
        sim_trace("fault: the client's clock stepped back %.3f ms", (double)back / 1000);
        sim_work_clock_stepped();
    }
}

int64_t sim_fault_resumed(int64_t t)
{
    for (int i = 0; i < npauses; i++)
        if (pause_from[i] <= t && t < pause_to[i])
            t = pause_to[i];
    return t;
}

static void fault(void *ctx, long long kind, sim_buf *data)
{
    (void)ctx, (void)data;
    if (kind == FAULT_RESET) {
        sim_net_reset(sim_rand(SIM_RNG_FAULT));
    } else if (kind == FAULT_STALL) {
        /* one draw after the other: the order of a call's arguments is
         * the compiler's (gcc and clang differ) */
        uint64_t pick = sim_rand(SIM_RNG_FAULT);
        sim_net_stall(pick, sim_rand_range(SIM_RNG_FAULT, 50000, 2000000));
    } else if (kind == FAULT_PAUSE) {
        pause_process(sim_rand_range(SIM_RNG_FAULT, 1000, 3000000));
    } else if (kind == FAULT_JUMP) {
        size_t i = (size_t)sim_rand_range(SIM_RNG_FAULT, 0, (int64_t)nmasters - 1);
        sim_net_jump(i, sim_rand_range(SIM_RNG_FAULT, 100, 30000));
    } else {
        sim_net_restart((size_t)sim_rand_range(SIM_RNG_FAULT, 0, (int64_t)nmasters - 1), keeps);
    }
}

static int64_t when(void)
{
    return SIM_START_US + sim_rand_range(SIM_RNG_FAULT, 0, 5000000);
}

void sim_faults_schedule(size_t n, int durable)
{
    nmasters = n;
    keeps = durable;
    for (int i = (int)sim_rand_range(SIM_RNG_FAULT, 0, 3); i > 0; i--)
        sim_at(when(), fault, NULL, FAULT_RESET, NULL);
    for (int i = (int)sim_rand_range(SIM_RNG_FAULT, 0, 2); i > 0; i--)
        sim_at(when(), fault, NULL, FAULT_STALL, NULL);
    if (sim_rand(SIM_RNG_FAULT) % 2)
        sim_at(when(), fault, NULL, FAULT_RESTART, NULL);
    if (sim_set.jumps)
        sim_at(when(), fault, NULL, FAULT_JUMP, NULL);
    /* (the faults added since are drawn after the ones above, so that
     * those stay where a seed put them) */
    npauses = 0;
    for (int i = (int)sim_rand_range(SIM_RNG_FAULT, 0, MAX_PAUSES); i > 0; i--)
        sim_at(when(), fault, NULL, FAULT_PAUSE, NULL);
}
