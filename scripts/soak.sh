#!/usr/bin/env bash
# A wide soak, not part of CI: random fault schedules for every group type
# (classic, KIP-848 consumer groups, KIP-932 share groups, KIP-1071
# streams groups, Kafka Connect) over COUNT seeds starting
# at FROM, on every core, with one summary line per group type naming the
# failing seeds. Rerun one with SOAK_SEEDS=N (and SOAK_TRACE=DIR for its
# narrated trace): see tests/soak/mod.rs.
#   bash scripts/soak.sh FROM COUNT [classic|consumer|share|streams|streams-classic|connect ...]
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [[ $# -lt 2 || ! $1 =~ ^[0-9]+$ || ! $2 =~ ^[0-9]+$ ]]; then
  echo "usage: bash scripts/soak.sh FROM COUNT [classic|consumer|share|streams|streams-classic|connect ...]" >&2
  exit 2
fi
from=$1 count=$2
shift 2
kinds=("${@:-classic}")
[[ $# -gt 0 ]] || kinds=(classic consumer share streams streams-classic connect)
tests=()
for k in "${kinds[@]}"; do
  case $k in
    classic) tests+=(soak::random_fault_schedules_keep_every_invariant_and_recover) ;;
    consumer) tests+=(soak::random_fault_schedules_keep_every_invariant_and_recover_under_the_consumer_protocol) ;;
    share) tests+=(soak::random_share_fault_schedules_keep_every_invariant_and_recover) ;;
    streams) tests+=(soak::random_streams_fault_schedules_keep_every_invariant_and_recover) ;;
    streams-classic) tests+=(soak::random_classic_streams_fault_schedules_keep_every_invariant_and_recover) ;;
    connect) tests+=(soak::random_connect_fault_schedules_keep_every_invariant_and_recover) ;;
    *) echo "unknown group type '$k' (classic, consumer, share, streams, streams-classic or connect)" >&2; exit 2 ;;
  esac
done

cargo test --release --test native --no-run
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One group type at a time, each on every core.
status=0
SOAK_FROM=$from SOAK_SCHEDULES=$count SOAK_THREADS=$(nproc) \
  cargo test --release --test native -- --exact --test-threads=1 --nocapture "${tests[@]}" >"$log" 2>&1 || status=$?
# Each group type's summary line (the harness prints the test's name before it on the same line).
grep -oE 'soak (classic|consumer|share|streams|streams-classic|connect): .*' "$log"
if [[ $status -ne 0 ]]; then
  grep -E '^(classic|consumer|share|streams|connect) seed' "$log" || tail -20 "$log"
fi
exit $status
