#!/bin/sh
# Regenerates gcovr.xml and gcovr-summary.txt with Debian's gcc and gcovr
# (apt-get install -y gcovr), from the same C program as the LCOV fixture
# (../lcov/src). Run from anywhere:
#   sh ingest/coverage/testdata/cobertura/make.sh
# The build runs in a fixed directory, /tmp/plumb-cobertura-fixture, given as
# --root; gcovr 5.2 writes it relative to the working directory, as
# <source>.</source>, and filenames relative to it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=/tmp/plumb-cobertura-fixture
rm -rf "$build"
mkdir -p "$build"
cp "$here"/../lcov/src/*.c "$here"/../lcov/src/*.h "$build"/
cd "$build"
gcc --coverage -O0 -o calc main.c calc.c
./calc >/dev/null
gcovr --root "$build" --xml-pretty --output gcovr.xml
gcovr --root "$build" --print-summary --output /dev/null >gcovr-summary.txt
cp gcovr.xml gcovr-summary.txt "$here"/
{ gcc --version | head -n1; gcovr --version | head -n1; } >"$here"/tools.txt
cat "$here"/gcovr-summary.txt
