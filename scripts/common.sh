# Shared by scripts/demo, scripts/test, scripts/bench, scripts/update-refs
# (sourced).  Installs what is missing on Debian (apt-get as root, otherwise
# prints the line to run and stops), bootstraps, configures and builds in
# build/ (out of tree).  Set BONEBAKE_CONFIGURE_FLAGS for extra configure
# flags (e.g. --enable-asan).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build"
JOBS=$(nproc 2>/dev/null || echo 2)

PACKAGES="build-essential autoconf automake libtool pkg-config libcairo2-dev \
libpng-dev libdeflate-dev libjansson-dev libexpat1-dev check python3 help2man parallel \
libwebp-dev libgif-dev zlib1g-dev fonts-dejavu-core \
libavcodec-dev libavformat-dev libavutil-dev libswscale-dev"
# What scripts/test adds: pngcheck (the fast PNG encoder's files), headless
# Chromium (diff HTML report, the gallery, engine round
# trips), man (the man page test), ffmpeg (ffprobe reads the videos
# back); nodejs and npm only where no node/npm
# is on the PATH (NodeSource's nodejs bundles npm and conflicts with
# Debian's).
TEST_PACKAGES="chromium man-db clang libclang-rt-14-dev ffmpeg pngcheck time"
command -v node >/dev/null 2>&1 || TEST_PACKAGES="$TEST_PACKAGES nodejs"
command -v npm >/dev/null 2>&1 || TEST_PACKAGES="$TEST_PACKAGES npm"
# npm packages the tests compare against, pinned by tests/node/package-lock.json
# and installed once into build/node (reinstalled when the lock changes).
NODE_DIR="$BUILD/node"

say() { printf '==> %s\n' "$*" >&2; }

# install_deps [PACKAGES [optional]]: installs what is missing of PACKAGES
# (default: what the build needs).  With "optional" (the test tools), a
# machine where they cannot be installed goes on: the tests that need them
# say so (and fail when CI is set).
install_deps() {
	packages=${1:-$PACKAGES}
	optional=${2:-}
	if ! command -v dpkg-query >/dev/null 2>&1; then
		[ -n "$optional" ] && return 0
		video="libavcodec libavformat libavutil libswscale"
		case "${BONEBAKE_CONFIGURE_FLAGS:-}" in *--without-video*) video= ;; esac
		for pc in cairo libpng jansson expat check libwebpmux libwebpdemux zlib $video; do
			pkg-config --exists "$pc" 2>/dev/null ||
				{ echo "missing $pc (not a Debian system: install it with your package manager)" >&2; exit 1; }
		done
		return 0
	fi
	missing=""
	for p in $packages; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -eq 0 ]; then
		say "installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		if apt-get update -qq &&
			# shellcheck disable=SC2086
			apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
			return 0
		fi
		[ -n "$optional" ] || exit 1
		say "could not install$missing: the tests that need them will say so"
	elif [ -n "$optional" ]; then
		say "the tests that need$missing will not run; to run them:  sudo apt-get install -y$missing"
	else
		echo "bonebake needs these Debian packages:$missing" >&2
		echo "run:  sudo apt-get install -y$missing" >&2
		exit 1
	fi
}

# Installs the npm packages of tests/node into $NODE_DIR with `npm ci` (the
# committed lock: exact versions and integrity hashes) unless the same lock
# is already installed there, and exports BONEBAKE_NODE_MODULES for the
# tests.  Without npm or a registry the tests that need them say so (and
# fail when CI is set).
node_deps() {
	BONEBAKE_NODE_MODULES="$NODE_DIR/node_modules"
	export BONEBAKE_NODE_MODULES
	lock="$ROOT/tests/node/package-lock.json"
	if [ -d "$NODE_DIR/node_modules" ] && cmp -s "$lock" "$NODE_DIR/package-lock.json"; then
		return 0
	fi
	if ! command -v npm >/dev/null 2>&1; then
		say "npm not found: tests that need npm packages will not run"
		return 0
	fi
	say "installing npm packages for the tests into build/node (npm ci)"
	rm -rf "$NODE_DIR"
	mkdir -p "$NODE_DIR"
	cp "$ROOT/tests/node/package.json" "$NODE_DIR/package.json"
	cp "$lock" "$NODE_DIR/package-lock.json"
	if ! (cd "$NODE_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts \
		--no-audit --no-fund --loglevel=error >npm.log 2>&1); then
		say "npm ci failed (no registry?): $(tail -n 3 "$NODE_DIR/npm.log")"
		rm -rf "$NODE_DIR/node_modules"
		rm -f "$NODE_DIR/package-lock.json"
	fi
	return 0
}

build() {
	install_deps
	cd "$ROOT"
	if [ ! -x configure ] || [ configure.ac -nt configure ] || [ ! -f build-aux/test-driver ]; then
		say "bootstrapping (autoreconf)"
		autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	fi
	mkdir -p "$BUILD"
	cd "$BUILD"
	if [ ! -f Makefile ] || [ "$ROOT/configure" -nt Makefile ]; then
		say "configuring in build/"
		# shellcheck disable=SC2086
		"$ROOT/configure" -q ${BONEBAKE_CONFIGURE_FLAGS:-}
	fi
	say "building"
	make -s -j"$JOBS" >/dev/null
	BONEBAKE="$BUILD/src/bonebake"
	export BONEBAKE
	cd "$ROOT"
}
