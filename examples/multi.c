/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* examples/multi.c -- (being written) */
int main(void)
{
    return 0;
}
