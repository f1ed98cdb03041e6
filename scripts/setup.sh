#!/usr/bin/env bash
# Installs what is missing, idempotently: Debian's Rust with std sources and
# lld (no prebuilt wasm32 std is reachable here), Chromium and ChromeDriver,
# zopfli (the shipped wasm's gzip), Java 17 and Maven (the conformance harness),
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
# The conformance harness runs real Kafka 4.4 (from Maven Central) on Java 17.
command -v java >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The two Rust tools are built once into the tools cache, outside the repo (so
# the project's settings do not apply), in one shared target folder. A fresh
# machine (CI) pays for this build on every run, so it is unoptimised except for
# the crates that do wasm-bindgen's real work (reading, rewriting and writing
# the wasm: walrus, wasmparser, wasm-encoder, the CLI support crate), which keep
# wasm-bindgen as fast as an optimised build on the site's wasm. wasm-pack only
# starts cargo, wasm-bindgen and the browser.
tool_build=(env CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false CARGO_TARGET_DIR="$TOOLS/build")
hot=(walrus wasmparser wasm-encoder wasm-bindgen-cli-support id-arena)
hot_config=()
for c in "${hot[@]}"; do hot_config+=(--config "profile.release.package.$c.opt-level=2"); done

if ! "$TOOLS/bin/wasm-bindgen" --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  echo "setup: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into $TOOLS (takes a few minutes once)"
  (cd /tmp && "${tool_build[@]}" cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$TOOLS" "${hot_config[@]}")
fi

# wasm-pack runs the browser tests (`wasm-pack test --headless --chrome --mode no-install`).
WASM_PACK_VERSION=0.15.1
if ! "$TOOLS/bin/wasm-pack" --version 2>/dev/null | grep -q " $WASM_PACK_VERSION\$"; then
  echo "setup: installing wasm-pack $WASM_PACK_VERSION into $TOOLS (takes a few minutes once)"
  (cd /tmp && "${tool_build[@]}" cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --root "$TOOLS")
fi
rm -rf "$TOOLS/build"

if [ ! -f node_modules/playwright-core/package.json ] || ! cmp -s package-lock.json node_modules/.package-lock.json 2>/dev/null; then
  echo "setup: installing playwright-core (no browser download; Debian's chromium is used)"
  npm ci --no-audit --no-fund --loglevel=error
fi
