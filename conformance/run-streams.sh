#!/usr/bin/env bash
# Runs a Kafka Streams application on a real Kafka 4.4.0 broker and keeps its logs for the log
# explainer (see conformance/README.md, "Kafka Streams logs"): instances i1, i2, i3 (2 stream
# threads each) start, i2 is killed with SIGKILL at KILL_MS, a new instance i4 starts at START_MS.
#
#   bash conformance/run-streams.sh classic   # group.protocol=classic (StreamsPartitionAssignor)
#   bash conformance/run-streams.sh streams   # group.protocol=streams (KIP-1071 streams group)
#
# The whole logs and ground-truth.json go to WORKDIR (printed at the end); trimming them into
# tests/fixtures/real-kafka-logs/streams-*-crash/ is done by hand (see the fixture's README).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
protocol="${1:?classic or streams}"
kill_ms="${KILL_MS:-30000}"
start_ms="${START_MS:-90000}"
until_ms="${UNTIL_MS:-180000}"
(cd "$here" && nice -n 10 mvn -q -B package -DskipTests)
rm -f "$here"/target/lib/slf4j-api-1.*.jar   # the clients' SLF4J 1.7 would hide log4j's SLF4J 2 binding
work="$(mktemp -d "${TMPDIR:-/tmp}/groupscope-streams-$protocol-XXXX")"
nice -n 10 java -Xmx256m -XX:+UseSerialGC -cp "$here/target/classes:$here/target/lib/*" \
  groupscope.conformance.StreamsRunner "$protocol" "$work" "$kill_ms" "$start_ms" "$until_ms"
rm -rf "$work/kafka-data" "$work"/state-*
echo "logs in $work"
