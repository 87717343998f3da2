#!/bin/sh
# Regenerates coveragepy.xml and coveragepy-report.txt with Debian's
# coverage.py (apt-get install -y python3-coverage). Run from anywhere:
#   sh ingest/coverage/testdata/cobertura/py/make.sh
# The run happens in a fixed directory; coverage.py writes the measured
# directory as an absolute <source> (/tmp/plumb-coveragepy-fixture/src) and
# filenames relative to it (shapes/area.py), so the repository path needs
# StripPrefix /tmp/plumb-coveragepy-fixture (see cobResolve).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=/tmp/plumb-coveragepy-fixture
rm -rf "$build"
mkdir -p "$build"
cp -r "$here"/src "$here"/run.py "$build"/
cd "$build"
python3-coverage run --source=src run.py >/dev/null
python3-coverage xml -o coveragepy.xml
python3-coverage report >coveragepy-report.txt
cp coveragepy.xml coveragepy-report.txt "$here"/
python3-coverage --version | head -n1 >"$here"/tools.txt
cat "$here"/coveragepy-report.txt
