# Unit tests (Check), one binary per module.
EXTRA_DIST += tests/cli/lib.sh
