#!/bin/sh
# Review the animations a pull request changes: render the head and the
# base branch with bonebake, compare them per animation, and leave a report
# a reviewer reads.  Run it from the repository's top folder, at the pull
# request's head:
#
#   examples/ci/bonebake-review.sh [-b BASE_REF] [-o OUT] [-u REPORT_URL] FILE...
#
# FILE...      the animation files to render (paths in the repository);
#              a file missing on one side becomes added/removed animations
# -b BASE_REF  what to compare against (default origin/main)
# -o OUT       where the results go (default review/):
#                OUT/head/, OUT/base/   the renders of both sides
#                OUT/report/            the HTML report (upload it)
#                OUT/summary.md         the Markdown summary
#                OUT/diff.json, OUT/junit.xml, OUT/diff-images/
# -u URL       where OUT/report will be published: the summary links there
#
# Environment: BONEBAKE (the binary, default `bonebake`); REVIEW_OPTIONS, a
# JSON object of render options for every file (default {}: each
# animation's own canvas; the diff aligns frames on the origin pixel, so
# a motion that changes the canvas still compares); REVIEW_CACHE, a folder
# kept between runs (a CI cache): the base renders are restored from it,
# `bonebake batch` re-renders only the files whose content hashes changed
# (its .bonebake-batch.json records), and the result is saved back.
# GITHUB_STEP_SUMMARY, when set, gets the summary appended.
#
# Exit code: bonebake diff's (0 nothing changed, 1 animations changed,
# 6 animations added or removed, 3 bad input ...), or 2 for bad usage.
set -u
BONEBAKE=${BONEBAKE:-bonebake}
base_ref=origin/main
out=review
url=
while getopts b:o:u: opt; do
	case $opt in
	b) base_ref=$OPTARG ;;
	o) out=$OPTARG ;;
	u) url=$OPTARG ;;
	*) echo "usage: $0 [-b BASE_REF] [-o OUT] [-u REPORT_URL] FILE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "$0: no animation files given" >&2; exit 2; }
top=$(git rev-parse --show-toplevel) || exit 2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
rm -rf "$out"
mkdir -p "$out" || exit 4

json_str() {  # a JSON string literal of $1
	printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# render TREE DEST FILE...: the files that exist in TREE, each into
# DEST/<file>/, through one batch manifest written at TREE's top (paths
# relative to it, so the batch records stay valid wherever TREE is)
render() {
	tree=$1 dest=$2
	shift 2
	opts=${REVIEW_OPTIONS:-}
	[ -n "$opts" ] || opts='{}'
	manifest=$tree/.bonebake-review.json
	{
		printf '{ "jobs": [\n'
		sep=
		for f in "$@"; do
			[ -f "$tree/$f" ] || continue
			printf '%s  { "name": %s, "command": "render", "input": %s, "output": %s,\n    "options": %s }' \
				"$sep" "$(json_str "$f")" "$(json_str "$f")" \
				"$(json_str "review-renders/$f")" "$opts"
			sep=',
'
		done
		printf '\n] }\n'
	} >"$manifest" || return 4
	mkdir -p "$tree/review-renders"
	(cd "$tree" && "$BONEBAKE" batch .bonebake-review.json --quiet) || return $?
	rm -f "$manifest"
	mv "$tree/review-renders" "$dest"
}

# the head: this checkout
render "$top" "$out/head" "$@" || { echo "$0: rendering the head failed" >&2; exit 3; }

# the base: a worktree of BASE_REF, its renders restored from the cache
basetree=$out/base-tree
git -C "$top" worktree add --detach --quiet "$basetree" "$base_ref" ||
	{ echo "$0: cannot check out $base_ref" >&2; exit 2; }
if [ -n "${REVIEW_CACHE:-}" ] && [ -d "$REVIEW_CACHE/renders" ]; then
	mkdir -p "$basetree/review-renders"
	cp -Rp "$REVIEW_CACHE/renders/." "$basetree/review-renders/"
fi
render "$basetree" "$out/base" "$@"
rc=$?
git -C "$top" worktree remove --force "$basetree"
[ $rc -eq 0 ] || { echo "$0: rendering $base_ref failed" >&2; exit 3; }
if [ -n "${REVIEW_CACHE:-}" ]; then
	rm -rf "$REVIEW_CACHE/renders"
	mkdir -p "$REVIEW_CACHE"
	cp -Rp "$out/base" "$REVIEW_CACHE/renders"
fi

# compare, per animation
set -- "$out/base" "$out/head" --quiet --json "$out/diff.json" -o "$out/diff-images" \
	--junit "$out/junit.xml" --markdown "$out/summary.md" --html "$out/report"
[ -z "$url" ] || set -- "$@" --report-url "$url"
"$BONEBAKE" diff "$@"
rc=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/summary.md" ]; then
	cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi
exit $rc
