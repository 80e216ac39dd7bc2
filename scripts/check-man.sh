#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/check-man.sh -- the manual pages in man/ lint clean and name
# everything they document.  Run by `make man-lint`.
#
#   - every page: `mandoc -Tlint -Wwarning` and `groff -ww -Tutf8 -z -mandoc`
#     print nothing (and `man -l`, where man is installed, prints nothing on
#     stderr at MANWIDTH=80);
#   - redlock(3): every function redlock.h exports (REDLOCK_API) and every
#     function-like redlock_ macro is named; the names a program calls (the
#     macros, the functions without a trailing _) each in the NAME section
#     (so `man NAME` finds the page once installed), with a prototype in
#     SYNOPSIS and described after it (.Fn);
#   - redlock-bench(1): every option of bench/opts.c's table has an .It item;
#   - redlock(1), once cmd/redlock is built: every option that
#     `cmd/redlock --help` (and `cmd/redlock SUBCOMMAND --help`) prints has an
#     .It item, and every subcommand its usage names has a .Cm.
# Prints every omission and exits 1 when there is one (2: cannot check).
#
#   sh scripts/check-man.sh [DIR]     check DIR (default: this tree)
#   sh scripts/check-man.sh --self-test
#         the check must pass on a copy of this tree and fail on copies with
#         one seeded defect each
set -u
here=$(cd "$(dirname "$0")/.." && pwd) || exit 2

if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d) || exit 2
    trap 'rm -rf "$tmp"' EXIT
    fails=0
    copy() {   # the files the check reads; a stand-in cmd/redlock when none is built
        rm -rf "$tmp/t" && mkdir -p "$tmp/t/bench" "$tmp/t/cmd" &&
            cp -R "$here/man" "$tmp/t/" && cp "$here/redlock.h" "$tmp/t/" &&
            cp "$here/bench/opts.c" "$tmp/t/bench/" || exit 2
        if [ -x "$here/cmd/redlock" ]; then
            cp "$here/cmd/redlock" "$tmp/t/cmd/" || exit 2
        else
            printf '#!/bin/sh\necho "usage: redlock run [options] RESOURCE... -- COMMAND"\necho "  --ttl MS   -w, --wait SECS"\n' \
                > "$tmp/t/cmd/redlock" && chmod +x "$tmp/t/cmd/redlock"
        fi
    }
    expect() {   # expect pass|fail WHAT
        sh "$here/scripts/check-man.sh" "$tmp/t" > "$tmp/out" 2>&1
        case $? in 0) got=pass ;; 1) got=fail ;; *) got=error ;; esac
        if [ "$got" = "$1" ]; then
            echo "self-test: $2: the check says $1 ($(head -n 1 "$tmp/out"))"
        else
            echo "self-test: $2: expected the check to $1, it did not:"; cat "$tmp/out"; fails=1
        fi
    }
    drop() {   # drop FILE LINE: delete the lines equal to LINE
        grep -vxF -- "$2" "$1" > "$tmp/x" && mv "$tmp/x" "$1"
    }
    copy; expect pass "the tree as it is"
    copy; printf '.Pp\n.Pp\nA paragraph.\n' >> "$tmp/t/man/redlock-bench.1"
    expect fail "redlock-bench.1 has two .Pp in a row (mandoc warns)"
    copy; printf '.Pp\n%0300d\n' 0 >> "$tmp/t/man/redlock.1"
    expect fail "redlock.1 has a word too long to break (groff warns)"
    copy; printf 'REDLOCK_API int redlock_seeded(void);\n' >> "$tmp/t/redlock.h"
    expect fail "redlock.h exports redlock_seeded, redlock.3 does not name it"
    copy; printf '#define redlock_seeded_m(x) redlock_seeded_m_((x), 1)\n' >> "$tmp/t/redlock.h"
    expect fail "redlock.h has a macro redlock_seeded_m, redlock.3 does not name it"
    copy; drop "$tmp/t/man/redlock.3" '.Nm redlock_lock_holds ,'
    expect fail "redlock.3 lacks redlock_lock_holds in NAME"
    copy; drop "$tmp/t/man/redlock.3" '.Fn redlock_release "redlock_lock *lock"'
    expect fail "redlock.3 lacks the prototype of redlock_release"
    copy; sed 's/^\.Fn redlock_lock_token$/.Nm redlock_lock_token/' "$tmp/t/man/redlock.3" > "$tmp/x" &&
        mv "$tmp/x" "$tmp/t/man/redlock.3"
    expect fail "redlock.3 does not describe redlock_lock_token"
    copy; printf 'FLAG("seeded-flag", cfg.json, 1, NULL, "seeded"),\n' >> "$tmp/t/bench/opts.c"
    expect fail "bench/opts.c accepts --seeded-flag, redlock-bench.1 lacks it"
    copy; drop "$tmp/t/man/redlock-bench.1" '.It Fl -rounds Ar R'
    expect fail "redlock-bench.1 lacks its --rounds item"
    copy; drop "$tmp/t/man/redlock.1" '.It Fl -ttl Ar MS'
    expect fail "redlock.1 lacks the --ttl item that cmd/redlock --help lists"
    copy; printf '#!/bin/sh\necho "  --seeded-option X   -Z"\n' > "$tmp/t/cmd/redlock"
    expect fail "cmd/redlock --help lists --seeded-option and -Z, redlock.1 lacks them"
    copy; printf '#!/bin/sh\necho "usage: redlock seeded [options]"\n' > "$tmp/t/cmd/redlock"
    expect fail "cmd/redlock's usage names a subcommand seeded, redlock.1 lacks it"
    exit $fails
fi
cd "${1:-$here}" || exit 2

for tool in mandoc groff; do
    command -v $tool > /dev/null || { echo "check-man: $tool is not installed" >&2; exit 2; }
done
bad=0
miss() { echo "$1"; bad=1; }

# ---- lint: no output from mandoc, groff or man --------------------------------
for page in man/*.[1-9]; do
    out=$(mandoc -Tlint -Wwarning "$page" 2>&1) || true
    [ -z "$out" ] || miss "$out"
    out=$(groff -ww -Tutf8 -z -mandoc "$page" 2>&1)
    [ -z "$out" ] || miss "$page: groff: $out"
    if command -v man > /dev/null; then
        out=$(MANWIDTH=80 man -l "$page" 2>&1 > /dev/null)
        [ -z "$out" ] || miss "$page: man -l: $out"
    fi
done

# ---- redlock(3): what redlock.h exports ----------------------------------------
# the NAME section's .Nm names, the prototypes (.Fn / .Fo) in SYNOPSIS, and
# the .Fn names in the sections after it
sect() {   # sect SECTION-AWK-TEST MACRO-AWK-TEST
    awk "/^\\.Sh /{ s = \$2 } $1 && ($2) { print \$2 }" man/redlock.3 | sort -u
}
names=$(sect 's == "NAME"' '$1 == ".Nm"')
protos=$(sect 's == "SYNOPSIS"' '$1 == ".Fn" || $1 == ".Fo"')
texts=$(sect 's != "NAME" && s != "SYNOPSIS"' '$1 == ".Fn"')
api=$(sed -n 's/^REDLOCK_API[^(]*[ *]\(redlock_[a-z0-9_]*\)(.*/\1/p' redlock.h)
macros=$(sed -n 's/^#define \(redlock_[a-z0-9_]*\)(.*/\1/p' redlock.h)
[ -n "$api" ] || miss "redlock.h: no REDLOCK_API function found (has its form changed?)"
for f in $api $macros; do
    grep -qw -- "$f" man/redlock.3 || { miss "man/redlock.3: $f (redlock.h) is not named"; continue; }
    case "$f" in *_) continue ;; esac   # called through its macro
    echo "$names" | grep -qx -- "$f" || miss "man/redlock.3: $f is not in NAME (.Nm $f ,)"
    echo "$protos" | grep -qx -- "$f" || miss "man/redlock.3: $f has no prototype in SYNOPSIS"
    echo "$texts" | grep -qx -- "$f" || miss "man/redlock.3: $f is not described (no .Fn $f after SYNOPSIS)"
done

# ---- an option is documented when an .It line names it: .It Fl -NAME ----------
documented() {   # documented PAGE OPTION (--long or -s)
    grep -E -- "^\.It .*Fl $(echo "${2#-}" | sed 's/[.]/\\./g')( |$)" "$1" > /dev/null
}

# ---- redlock-bench(1): bench/opts.c's options[] --------------------------------
opts=$(sed -n 's/^[[:space:]]*\(INT\|LONG\|INT64\|UINT64\|DOUBLE\|FLAG\|CHOICE\|STRING\|ACTION\)("\([a-z0-9-]*\)".*/\2/p' \
    bench/opts.c)
[ -n "$opts" ] || miss "bench/opts.c: no option found (has the table's form changed?)"
for o in $opts; do
    documented man/redlock-bench.1 "--$o" || miss "man/redlock-bench.1: --$o (bench/opts.c) has no .It"
done
for s in $(sed -n "s/^[[:space:]]*ACTION(\"[a-z0-9-]*\", '\\(.\\)'.*/\\1/p" bench/opts.c); do
    documented man/redlock-bench.1 "-$s" || miss "man/redlock-bench.1: -$s (bench/opts.c) has no .It"
done

# ---- redlock(1): what cmd/redlock --help prints -------------------------------
if [ -x cmd/redlock ]; then
    help=$(cmd/redlock --help 2>&1)
    subs=$(echo "$help" | sed -n 's/^.*usage:[[:space:]]*redlock[[:space:]]\{1,\}\([a-z][a-z-]*\).*/\1/p;
        s/^[[:space:]]\{1,\}redlock[[:space:]]\{1,\}\([a-z][a-z-]*\)[[:space:]].*/\1/p' | sort -u)
    for s in $subs; do
        grep -qE "^\.(Cm $s|It Cm $s)( |$)" man/redlock.1 || miss "man/redlock.1: the subcommand $s has no .Cm"
        help="$help
$(cmd/redlock "$s" --help 2>&1)"
    done
    for o in $(echo "$help" | grep -oE -- '(^|[[:space:],[])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u); do
        documented man/redlock.1 "$o" || miss "man/redlock.1: $o (cmd/redlock --help) has no .It"
    done
    for o in $(echo "$help" | grep -oE -- '(^|[[:space:],[])-[A-Za-z]([],[:space:]]|$)' |
            sed 's/^[^-]*//; s/[],[:space:]]*$//' | sort -u); do
        documented man/redlock.1 "$o" || miss "man/redlock.1: $o (cmd/redlock --help) has no .It"
    done
fi

if [ $bad -ne 0 ]; then
    echo "check-man: the pages in man/ fail the checks above"
    exit 1
fi
echo "check-man: $(ls man/*.[1-9] | wc -l) pages lint clean; redlock(3) names redlock.h's $(echo $api $macros | wc -w) functions and macros, redlock-bench(1) bench's $(echo $opts | wc -w) options$([ -x cmd/redlock ] && echo ", redlock(1) cmd/redlock's options")"
