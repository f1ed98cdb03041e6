#!/usr/bin/env bash
# Fails if the gzipped site (wasm + JS, as scripts/build.sh counts them) has
# grown more than 2 % over the budget recorded in scripts/size-budget.txt.
# Run after `bash scripts/build.sh` (not a PROFILE=1 build, which keeps names); `bash scripts/size-check.sh --record`
# writes the current size as the new budget (after a cut, or a growth the
# lead accepts: say why in the commit).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
budget_file=scripts/size-budget.txt
# The wasm counts as the page downloads it: the gzipped file the build writes
# (static/boot.js unzips it in the browser).
wasm=dist/pkg/groupscope_bg.wasm.gz
[[ -f $wasm ]] || { echo "size-check: $wasm missing; run bash scripts/build.sh first" >&2; exit 1; }
wasm_gz=$(stat -c %s "$wasm")
js_gz=$(find dist/pkg dist/static -name '*.js' | sort | xargs cat | gzip -9 -c | wc -c)
total=$((wasm_gz + js_gz))
if [[ ${1:-} == --record ]]; then
  printf '%s\n' "$total" > "$budget_file"
  echo "size-check: recorded budget $total bytes gzipped (wasm $wasm_gz + JS $js_gz)"
  exit 0
fi
budget=$(tr -dc '0-9' < "$budget_file")
limit=$((budget + budget / 50))
printf 'size-check: %s bytes gzipped (wasm %s + JS %s); budget %s, limit +2 %% = %s\n' "$total" "$wasm_gz" "$js_gz" "$budget" "$limit"
if ((total > limit)); then
  echo "size-check: FAILED: the site grew $(( (total - budget) * 1000 / budget / 10 )).$(( (total - budget) * 1000 / budget % 10 )) % over its budget; cut it back, or record a new budget with --record and say why" >&2
  exit 1
fi
