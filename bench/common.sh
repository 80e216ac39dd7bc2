# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/common.sh -- shell shared by bench/scale.sh and bench/regress.sh
# (sourced, not run).

# Is $1 a whole number above 0?
posint() {
    case $1 in '' | *[!0-9]* | 0) return 1 ;; esac
    return 0
}

# Is $1 a number of seconds (digits and a point)?
seconds() {
    case $1 in '' | *[!0-9.]* | .) return 1 ;; esac
    return 0
}

# The options both scripts take: -r ROUNDS and -d SECONDS ($1, the value in
# $2) into rounds and duration; a missing or bad value calls the script's
# usage.
round_opts() {
    [ $# -ge 2 ] || usage
    case $1 in
    -r) posint "$2" || usage; rounds=$2 ;;
    -d) seconds "$2" || usage; duration=$2 ;;
    esac
}

# awk functions for summaries over rounds: sort(a, n) sorts a[1..n] in
# place; median(a, n) sorts and returns the median; range(a, n) sets the
# globals lo and hi to the smallest and largest.
rlb_awk_stats='
function sort(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function median(a, n) {
    sort(a, n)
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function range(a, n,    i) {
    lo = hi = a[1]
    for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
}'
