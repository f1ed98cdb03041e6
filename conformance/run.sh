#!/usr/bin/env bash
# Runs conformance scenarios on a real Kafka 4.4.0 broker with real clients, then the same
# scenarios in `simulate`, and compares them outcome by outcome (see conformance/README.md).
#
#   bash conformance/run.sh                 every scenario in conformance/scenarios/
#   bash conformance/run.sh NAME...         these scenarios (file names without .json)
#   bash conformance/run.sh --smoke         the CI subset (conformance/smoke.txt); fails on any difference
#                                           but times (on a loaded machine real clients start late);
#                                           keeps no logs
#   bash conformance/run.sh --strict ...    fail on any difference, times included
#   bash conformance/run.sh --compare-only  no Kafka: compare simulate with the real runs kept in
#                                           tests/fixtures/real-kafka-logs/ (seconds; after a model change)
#
# SIMULATE=path/to/simulate uses that binary instead of building the release one.
# Results: conformance/results/<name>.json; the real logs: tests/fixtures/real-kafka-logs/<name>/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
strict=0
strict_times=0
compare_only=0
keep=1
names=()
for a in "$@"; do
  case "$a" in
    --smoke) strict=1; keep=0; mapfile -t smoke < <(grep -v '^#' "$here/smoke.txt" | grep .); names+=("${smoke[@]}") ;;
    --strict) strict=1; strict_times=1 ;;
    --compare-only) compare_only=1 ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) names+=("$(basename "$a" .json)") ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/scenarios/*.json; do names+=("$(basename "$f" .json)"); done
fi

start=$(date +%s)
echo "== build: the harness (Maven) and simulate (cargo)"
if [ "$compare_only" = 0 ]; then
  (cd "$here" && nice -n 10 mvn -q -B package -DskipTests)
  rm -f "$here"/target/lib/slf4j-api-1.*.jar   # the clients' SLF4J 1.7 would hide log4j's SLF4J 2 binding
fi
if [ -n "${SIMULATE:-}" ]; then
  sim="$SIMULATE"   # a simulate binary built already (for example by cargo test, in target/debug)
else
  target="${CARGO_TARGET_DIR:-$root/target}"
  (cd "$root" && nice -n 10 cargo build --release --quiet --bin simulate)
  sim="$target/release/simulate"
fi
echo "   built in $(( $(date +%s) - start )) s"

mkdir -p "$here/results"
TMPDIR_CMP="$(mktemp "${TMPDIR:-/tmp}/groupscope-compare-XXXX")"
trap 'rm -f "$TMPDIR_CMP"' EXIT
failed=0
summary=()
for n in "${names[@]}"; do
  file="$here/scenarios/$n.json"
  [ -f "$file" ] || { echo "no scenario $file" >&2; exit 2; }
  t=$(date +%s)
  echo "== $n"
  if [ "$compare_only" = 1 ]; then
    kept="$root/tests/fixtures/real-kafka-logs/$n"
    [ -f "$kept/ground-truth.json" ] || { echo "   no kept run in $kept"; failed=1; continue; }
    python3 "$here/compare.py" "$file" "$kept" "$sim" --json "$here/results/$n.json" | tee "$TMPDIR_CMP"
    diffs=$(grep -c ' differ$' "$TMPDIR_CMP" || true)
    timediffs=$(grep -c '^  times *differ$' "$TMPDIR_CMP" || true)
    summary+=("$n: $(grep -c ' match$' "$TMPDIR_CMP" || true) match, $diffs differ (kept run)")
    if [ "$strict_times" = 1 ]; then [ "$diffs" = 0 ] || failed=$((failed | strict)); else [ "$diffs" = "$timediffs" ] || failed=$((failed | strict)); fi
    continue
  fi
  work="$(mktemp -d "${TMPDIR:-/tmp}/groupscope-conf-$n-XXXX")"
  if ! nice -n 10 java -Xmx256m -XX:+UseSerialGC -cp "$here/target/classes:$here/target/lib/*" \
      groupscope.conformance.Runner "$file" "$work/real.json" "$work" 2> "$work/runner.txt"; then
    echo "   the real run failed; see $work/runner.txt"; tail -5 "$work/runner.txt"; failed=1
    summary+=("$n: real run failed"); continue
  fi
  python3 "$here/compare.py" "$file" "$work" "$sim" --json "$here/results/$n.json" | tee "$work/compare.txt"
  # The smoke (CI) compares only; a full run keeps the real logs as test data.
  if [ "$keep" = 1 ]; then
    logs="$root/tests/fixtures/real-kafka-logs/$n"
    rm -rf "$logs"; mkdir -p "$logs"
    cp "$work/broker.log" "$logs/broker.log"
    for f in "$work"/c*.log; do cp "$f" "$logs/"; done
    python3 - "$work/real.json" "$logs/ground-truth.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
json.dump({"until": d["until"], "events": d["events"], "admin": d["admin"], "harness": d["harness"]},
          open(sys.argv[2], "w"), indent=1)
PY
  fi
  diffs=$(grep -c ' differ$' "$work/compare.txt" || true)
  timediffs=$(grep -c '^  times *differ$' "$work/compare.txt" || true)
  summary+=("$n: $(grep -c ' match$' "$work/compare.txt" || true) match, $diffs differ ($(( $(date +%s) - t )) s)")
  if [ "$strict_times" = 1 ]; then
    [ "$diffs" = 0 ] || failed=$((failed | strict))
  else
    [ "$diffs" = "$timediffs" ] || failed=$((failed | strict))
  fi
  rm -rf "$work/kafka-data"
done
echo "== summary ($(( $(date +%s) - start )) s in all)"
printf '   %s\n' "${summary[@]}"
exit $failed
