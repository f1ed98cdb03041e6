#!/usr/bin/env bash
# README command 2: every test. Native core tests, wasm tests in headless
# Chromium, then the release site and the Playwright end-to-end tests.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/setup.sh

echo "== format: cargo fmt --check (rustfmt.toml)"
cargo fmt --check

echo "== lints: cargo clippy, natively and for wasm32 (warnings are errors)"
cargo clippy --all-targets -- -D warnings
CARGO_UNSTABLE_BUILD_STD=std,panic_abort cargo clippy --target wasm32-unknown-unknown --lib --test web -- -D warnings

echo "== layout: no import cycle between the files of src/sim"
python3 scripts/import-cycles.py

echo "== native: cargo test"
cargo test

echo "== wasm: wasm-bindgen-test in headless Chromium"
CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_UNSTABLE_BUILD_STD=std,panic_abort cargo test --target wasm32-unknown-unknown --test web

echo "== site: release build"
bash scripts/build.sh

echo "== size: the gzipped wasm + JS within 2 % of scripts/size-budget.txt"
bash scripts/size-check.sh

echo "== end to end: Playwright (playwright-core + Debian chromium)"
node --test tests/e2e/
