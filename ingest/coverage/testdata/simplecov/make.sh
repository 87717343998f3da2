#!/bin/sh
# Regenerates .resultset.json with the real SimpleCov: Debian bookworm's
# ruby-simplecov 0.22.0 on ruby 3.1 (apt-get install ruby ruby-simplecov).
# Two test commands ("part-a", "part-b") run one after the other, as parallel
# CI jobs would, so the resultset holds two command names that SimpleCov
# merges by adding; summary.json is what SimpleCov computed for that merged
# result (test/helper.rb's formatter), .last_run.json its own last-run record.
#
# project/ is copied to the fixed directory /tmp/plumb-fixture/ruby first, so
# the absolute paths in the report are the same whoever regenerates it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/plumb-fixture/ruby
rm -rf "$work"
mkdir -p "$work"
cp -R "$here/project/." "$work/"
cd "$work"
PART=part-a ruby test/part_a.rb
PART=part-b ruby test/part_b.rb
cp coverage/.resultset.json coverage/.last_run.json coverage/summary.json "$here/"
ruby -e 'require "simplecov"; puts "simplecov #{SimpleCov::VERSION}, #{RUBY_DESCRIPTION}"' >"$here/versions.txt"
