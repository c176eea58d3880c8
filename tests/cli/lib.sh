# Shared setup for CLI tests (sourced).  Provides:
#   $BONEBAKE        the binary under test
#   $T               a fresh temporary folder, removed on exit
#   $SAMPLES         the source tree's samples/
#   $SHARED          ../shared (the corpus, the oracle): $BB_SHARED when set
#                    (scripts/test exports it, so `make distcheck` finds it),
#                    else $top_srcdir/../shared
#   run CMD...       runs CMD, capturing $out (stdout), $err (stderr), $rc
#   expect_rc N      fails unless the last run exited N
#   expect_err RE    fails unless stderr matches the extended regex RE
#   expect_out RE    same for stdout
#   expect_absent P  fails if path P exists
#   fail MSG         prints MSG and exits 1
#   skip MSG         prints MSG and exits 77
#   need_shared P M  skips (M) when path P is absent, or fails when $CI is
#                    set: CI always has ../shared, so a missing one is a
#                    broken checkout, not a reason to pass
#   unavailable MSG  a tool the test needs is missing: skip, but fail when
#                    CI is set (scripts/test installs what tests need, so
#                    in CI a missing tool is a defect, not a reason)
# A test ends with `pass` (prints the count of checks).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BONEBAKE:=$top_builddir/src/bonebake}"
SAMPLES="$top_srcdir/samples"
SHARED="${BB_SHARED:-$top_srcdir/../shared}"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbcli.XXXXXX")
trap 'rm -rf "$T"' EXIT
checks=0

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
skip() { printf 'SKIP: %s\n' "$*"; exit 77; }
need_shared() {
	[ -e "$1" ] && return 0
	[ -n "${CI:-}" ] && fail "$2, and CI is set (CI always has ../shared; set BB_SHARED or BB_CORPUS)"
	skip "$2"
}
unavailable() {
	[ -z "${CI:-}" ] || fail "$* (CI is set: this test must run)"
	skip "$*"
}
run() {
	"$@" >"$T/.out" 2>"$T/.err"
	rc=$?
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
	last="$*"
}
expect_rc() {
	checks=$((checks + 1))
	[ "$rc" -eq "$1" ] || fail "$last: exit $rc, expected $1; stderr: $err"
}
expect_err() {
	checks=$((checks + 1))
	printf '%s\n' "$err" | grep -Eq -- "$1" || fail "$last: stderr does not match /$1/: $err"
}
expect_out() {
	checks=$((checks + 1))
	printf '%s\n' "$out" | grep -Eq -- "$1" || fail "$last: stdout does not match /$1/: $(printf '%s' "$out" | head -c 400)"
}
expect_absent() {
	checks=$((checks + 1))
	[ ! -e "$1" ] || fail "$last: $1 exists but should not"
}
pass() { printf 'ok: %d checks\n' "$checks"; exit 0; }
