#!/usr/bin/env bash
# The corpus hash: the trace hash of every soak run over seeds 0..COUNT of
# each group type (classic, KIP-848, Connect; 1,000 each by default, plus the
# seeds that once failed), sorted and hashed into one line. A refactoring
# that changes no behaviour leaves it equal; compare it before and after.
#   bash scripts/corpus-hash.sh [COUNT]
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

count=${1:-1000}
cargo test --release --test native --no-run
hashes=$(mktemp)
trap 'rm -f "$hashes"' EXIT
SOAK_FROM=0 SOAK_SCHEDULES=$count SOAK_THREADS=$(nproc) SOAK_HASHES=$hashes \
  cargo test --release --test native -- --exact --test-threads=1 \
  soak::random_fault_schedules_keep_every_invariant_and_recover \
  soak::random_fault_schedules_keep_every_invariant_and_recover_under_the_consumer_protocol \
  soak::random_connect_fault_schedules_keep_every_invariant_and_recover >/dev/null
echo "corpus: $(wc -l <"$hashes") runs, $(sort "$hashes" | sha256sum | cut -c1-16)"
