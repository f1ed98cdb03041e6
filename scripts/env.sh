# Shared environment for every GroupScope script (sourced, not run).
# One compiler for native and wasm builds: Debian's Rust (1.96, with std sources)
# comes first; std for wasm32 is built by cargo's build-std, which needs
# RUSTC_BOOTSTRAP=1 — set for every build so the target dir is never invalidated.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${GROUPSCOPE_TOOLS:-$HOME/.cache/groupscope/tools}"
export PATH="/usr/bin:$TOOLS/bin:$PATH"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=/usr/bin/chromedriver
WASM_BINDGEN_VERSION="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' "$ROOT/Cargo.lock")"
cd "$ROOT"
