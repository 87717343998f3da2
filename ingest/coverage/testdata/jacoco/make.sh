#!/bin/sh
# Regenerates jacoco.xml with the real JaCoCo tool (Debian bookworm's
# libjacoco-java 0.8.6: the agent plus JaCoCo's own Ant "report" task, since
# Debian does not package the jacoco CLI jar; the Ant task and the CLI share
# org.jacoco.report's XMLFormatter). Needs: apt-get install default-jdk
# libjacoco-java ant unzip. Build output goes to a temporary directory, never into
# the repository.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# JaCoCo 0.8.6 reads class files up to Java 15: compile for Java 11.
javac --release 11 -d "$work/classes" $(cd "$here" && find src -name '*.java' | sed "s|^|$here/|")
# The runnable agent (jacocoagent.jar) ships inside org.jacoco.agent.jar.
(cd "$work" && unzip -q /usr/share/java/org.jacoco.agent.jar jacocoagent.jar)
agent="-javaagent:$work/jacocoagent.jar=destfile=$work/jacoco.exec,append=true"
java "$agent" -cp "$work/classes" com.acme.Main
java "$agent" -cp "$work/classes" Tool one two
ant -q -f "$here/build.xml" -Dwork="$work" report
# JaCoCo's CSV summary of the same data, per class (LINE_MISSED, LINE_COVERED).
cp "$work/jacoco.csv" "$here/jacoco.csv"
{
	dpkg-query -W -f='${Package} ${Version}\n' libjacoco-java ant
	java -version 2>&1 | head -1
} >"$here/versions.txt"
