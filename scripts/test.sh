#!/usr/bin/env bash
# README command 2: every test. Native core tests, wasm tests in headless
# Chromium, then the release site and the Playwright end-to-end tests.
# Each phase prints how long the one before it took (CI must finish within 20 minutes, setup included).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

t0=$SECONDS
t=$SECONDS
phase() {
  echo "   (took $((SECONDS - t)) s; $((SECONDS - t0)) s so far)"
  t=$SECONDS
  echo "== $*"
}

echo "== setup: what is missing"
bash scripts/setup.sh

phase "format: cargo fmt --check (rustfmt.toml)"
cargo fmt --check

# Clippy's lints run inside the test builds: `cargo clippy` itself is `cargo
# check` with clippy-driver as the compiler of the workspace's crates
# (RUSTC_WORKSPACE_WRAPPER) and its lint flags in CLIPPY_ARGS. Here the same
# wrapper compiles the tests, so linting costs no second build of the crate
# and its dependencies (about 5 minutes of CI). Warnings are errors, and the
# targets are those of `cargo clippy --all-targets` natively and
# `--lib --test web` for wasm32. Only these two commands are wrapped.
clippy=(env RUSTC_WORKSPACE_WRAPPER=clippy-driver "CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__")
site_log=$(mktemp)

phase "layout: no import cycle between the files of the library (src/)"
python3 scripts/import-cycles.py

phase "docs: every relative link in README.md and docs/ resolves"
python3 scripts/check-links.py

# The site's release build runs in the background beside the native build
# (its own profile and target directories, so neither waits on the other's
# lock). Measured on 2 cores it saves nothing (703 s together against 363 + 308 s
# one after the other: both builds keep both cores busy); docs/performance.md.
phase "site: release build, in the background (its log: $site_log)"
bash scripts/build.sh >"$site_log" 2>&1 &
site_pid=$!
trap 'kill "$site_pid" 2>/dev/null || true' EXIT

phase "native: clippy-linted build of every target (warnings are errors), then cargo test"
"${clippy[@]}" cargo test --all-targets --no-run
"${clippy[@]}" cargo test

phase "conformance: simulate against the kept runs of real Kafka 4.4 (every scenario that matched, times included)"
# conformance/known-differences.txt lists the scenarios where the simulation
# still differs from real Kafka (docs/fidelity.md says why); every other kept
# run must match on every outcome. The debug simulate is the one cargo test built.
mapfile -t matching < <(comm -23 <(ls conformance/scenarios | sed 's/\.json$//' | sort) \
  <(grep -v '^#' conformance/known-differences.txt | grep . | sort))
SIMULATE=target/debug/simulate bash conformance/run.sh --compare-only --strict "${matching[@]}" >/tmp/groupscope-conformance-kept.txt \
  || { tail -40 /tmp/groupscope-conformance-kept.txt; exit 1; }
tail -1 /tmp/groupscope-conformance-kept.txt
grep -c ': .* match, 0 differ' /tmp/groupscope-conformance-kept.txt | sed 's/$/ kept runs match/'

phase "wasm: clippy-linted build of the browser tests"
# `--mode no-install`: wasm-pack uses the pinned wasm-bindgen and Debian's
# chromedriver on PATH instead of downloading them, and does not ask rustup
# for a wasm32 std (cargo builds it: CARGO_UNSTABLE_BUILD_STD). The runner
# gives the whole suite (55 tests in one page, at opt-level 0) 20 s by default;
# it takes 11-13 s on a quiet machine, more on a busy one. The bound only
# catches a hung page: a test that waits checks its own 5 s limit.
# The tests are built first by cargo with the very settings wasm-pack uses
# (`cargo build --tests`, then its `cargo test` finds them built), so that
# the browser only starts once the site's background build is done.
wasm_env=("${clippy[@]}" CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_UNSTABLE_BUILD_STD=std,panic_abort WASM_BINDGEN_TEST_TIMEOUT=120)
"${wasm_env[@]}" cargo build --tests --target wasm32-unknown-unknown --test web

phase "site: wait for the release build"
if ! wait "$site_pid"; then
  tail -40 "$site_log"
  exit 1
fi
tail -1 "$site_log"

phase "wasm: wasm-bindgen-test in headless Chromium through wasm-pack"
"${wasm_env[@]}" wasm-pack test --headless --chrome --mode no-install -- --test web

phase "size: the gzipped wasm + JS within 2 % of scripts/size-budget.txt"
bash scripts/size-check.sh

# Two test files at a time: much of an end-to-end test waits on the page's
# clock, so two browsers share the two cores well; more at once made every
# test slower and timed some out (the suite is CPU-bound as a whole). The four
# course walks (lessons-walk-*), the longest files, start first.
phase "end to end: Playwright (playwright-core + Debian chromium)"
mapfile -t e2e < <(ls tests/e2e/lessons-walk-*.test.mjs; ls tests/e2e/*.test.mjs | grep -v /lessons-walk-)
node --test --test-concurrency=2 "${e2e[@]}"

# The live smoke (a real Kafka 4.4 broker on loopback and real clients,
# conformance/smoke.txt) compares the real clients' timings with the
# simulation's, so it runs alone: beside the site's release build, the real
# clients' joins came late enough under load to change the classic leader
# (7 December 2026; the same clone alone: 13 match, 0 differ, 73 s).
phase "conformance smoke: real Kafka 4.4 on loopback against simulate"
smoke_log=$(mktemp)
if ! SIMULATE=target/debug/simulate bash conformance/run.sh --smoke >"$smoke_log" 2>&1; then
  tail -40 "$smoke_log"
  exit 1
fi
sed -n '/^== summary/,$p' "$smoke_log"

phase "done"
