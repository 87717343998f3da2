#!/bin/sh
# Regenerates clover.xml with the real PHPUnit: Debian bookworm's phpunit
# 9.6.7 on PHP 8.2 with the pcov extension (apt-get install phpunit
# php-pcov). coverage.txt is PHPUnit's own text report of the same run
# (--coverage-text): its Summary "Lines: …% (covered/total)" is the tool's
# summary the tests compare with.
#
# project/ is copied to the fixed directory /tmp/plumb-fixture/php first, so
# the absolute paths in the report are the same whoever regenerates it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/plumb-fixture/php
rm -rf "$work"
mkdir -p "$work"
cp -R "$here/project/." "$work/"
cd "$work"
php -d pcov.enabled=1 -d pcov.directory="$work/src" /usr/bin/phpunit \
	--coverage-clover out/clover.xml --coverage-text=out/coverage.txt
cp out/clover.xml out/coverage.txt "$here/"
{
	phpunit --version | head -1
	php --version | head -1
	echo "pcov $(php -r 'echo phpversion("pcov");')"
} >"$here/versions.txt"
