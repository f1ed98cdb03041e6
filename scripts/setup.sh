#!/usr/bin/env bash
# Installs what is missing, idempotently: Debian's Rust with std sources and
# lld (no prebuilt wasm32 std is reachable here), Chromium and ChromeDriver,
# zopfli (the shipped wasm's gzip),
# the pinned wasm-bindgen CLI and wasm-pack, and playwright-core. A second run installs nothing.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

packages=(rustc-web cargo-web rust-web-src rust-web-llvm rustfmt-web rust-web-clippy lld-22 chromium chromium-driver zopfli)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node.js and npm may come from elsewhere (this machine kind ships Node 20 with npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if ! "$TOOLS/bin/wasm-bindgen" --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  echo "setup: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into $TOOLS (takes a few minutes once)"
  # Outside the repo, so the project's settings do not apply to the tool build.
  # Built at opt-level 1 with many codegen units and no LTO: the CLI only
  # rewrites one wasm file and serves tests, and a fresh machine (CI) pays for
  # this build on every run.
  (cd /tmp && CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$TOOLS")
fi

# wasm-pack runs the browser tests (`wasm-pack test --headless --chrome --mode no-install`).
WASM_PACK_VERSION=0.15.1
if ! "$TOOLS/bin/wasm-pack" --version 2>/dev/null | grep -q " $WASM_PACK_VERSION\$"; then
  echo "setup: installing wasm-pack $WASM_PACK_VERSION into $TOOLS (takes a few minutes once)"
  (cd /tmp && CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --root "$TOOLS")
fi

if [ ! -f node_modules/playwright-core/package.json ] || ! cmp -s package-lock.json node_modules/.package-lock.json 2>/dev/null; then
  echo "setup: installing playwright-core (no browser download; Debian's chromium is used)"
  npm ci --no-audit --no-fund --loglevel=error
fi
