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
libpng-dev libdeflate-dev libjansson-dev libexpat1-dev check python3"

say() { printf '==> %s\n' "$*" >&2; }

install_deps() {
	if ! command -v dpkg-query >/dev/null 2>&1; then
		for pc in cairo libpng jansson expat check; do
			pkg-config --exists "$pc" 2>/dev/null ||
				{ echo "missing $pc (not a Debian system: install it with your package manager)" >&2; exit 1; }
		done
		return 0
	fi
	missing=""
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -eq 0 ]; then
		say "installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null
	else
		echo "bonebake needs these Debian packages:$missing" >&2
		echo "run:  sudo apt-get install -y$missing" >&2
		exit 1
	fi
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
