#!/bin/sh
# Regenerates coverage.info and lcov-summary.txt from src/ with Debian's gcc
# and lcov (apt-get install -y lcov). Run from anywhere:
#   sh ingest/coverage/testdata/lcov/make.sh
# The build runs in a fixed directory so that the report's SF: paths are the
# same on every machine (the tests strip /tmp/plumb-lcov-fixture).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=/tmp/plumb-lcov-fixture
rm -rf "$build"
mkdir -p "$build"
cp "$here"/src/*.c "$here"/src/*.h "$build"/
cd "$build"
gcc --coverage -O0 -o calc main.c calc.c
./calc >/dev/null
lcov --quiet --capture --directory . --output-file coverage.info --rc lcov_branch_coverage=1
lcov --summary coverage.info --rc lcov_branch_coverage=1 >lcov-summary.txt 2>&1
cp coverage.info lcov-summary.txt "$here"/
{ gcc --version | head -n1; lcov --version; } >"$here"/tools.txt
cat "$here"/lcov-summary.txt
