#!/bin/sh
# Regenerates branches/.resultset.json: the same project and test commands as
# ../make.sh, with SimpleCov's branch coverage on (BRANCHES=1: helper.rb's
# enable_coverage :branch), and summary.json with SimpleCov's own covered and
# total branches per file. Needs ruby and ruby-simplecov (0.22.0 here).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/plumb-fixture/ruby
rm -rf "$work"
mkdir -p "$work"
cp -R "$here/../project/." "$work/"
cd "$work"
BRANCHES=1 PART=part-a ruby test/part_a.rb
BRANCHES=1 PART=part-b ruby test/part_b.rb
cp coverage/.resultset.json coverage/summary.json "$here/"
