#!/usr/bin/env bash
# Builds the site in release mode into dist/: plain static files with
# relative paths, and prints the gzipped size of the wasm and JS.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# Panic locations are not shown to users (the panic hook shows the message), so
# leaving them out of the binary saves space.
# std's optimize_for_size picks its smaller algorithms (sorts, formatting) with
# the same results: 28 KB less gzipped. (Unstable sorts in the core only order
# plain values, and stable sorts have one result, so traces stay the same.)
# WEB_PROFILE=web-dev builds faster for development (see Cargo.toml); the
# size check and CI use the default.
profile=${WEB_PROFILE:-web}
RUSTFLAGS="-Zlocation-detail=none" CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
  CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size \
  cargo rustc --profile "$profile" --lib --crate-type cdylib --target wasm32-unknown-unknown
rm -rf dist && mkdir -p dist/pkg
# PROFILE=1 keeps the function names, so a CPU profile (tests/perf/profile.mjs)
# names Rust functions; the size printed then is not the size users load.
names=--remove-name-section
[[ "${PROFILE:-0}" == 1 ]] && names=
wasm-bindgen --target web --no-typescript $names --remove-producers-section \
  --out-dir dist/pkg "target/wasm32-unknown-unknown/$profile/groupscope.wasm"
cp index.html dist/
cp -r static dist/static
# The page fetches lessons on demand from here (src/lesson/registry.rs).
cp -r lessons dist/lessons

# The wasm as users download it: gzipped at best (zopfli; gzip -9 where it is
# missing, ~4 % larger), unzipped in the browser by static/boot.js, so a plain
# static host sends a third of the bytes. The plain file stays, as its fallback.
if command -v zopfli >/dev/null; then
  zopfli --gzip -c dist/pkg/groupscope_bg.wasm > dist/pkg/groupscope_bg.wasm.gz
else
  echo "build: zopfli missing (bash scripts/setup.sh installs it); gzip -9 instead" >&2
  gzip -9 -n -c dist/pkg/groupscope_bg.wasm > dist/pkg/groupscope_bg.wasm.gz
fi
# The service worker (static/sw.js, see there) goes beside index.html with the
# build's file list and a hash of their contents; the plain wasm is left out.
rm dist/static/sw.js
python3 - <<'PY'
import hashlib, json, os
files = sorted(os.path.relpath(os.path.join(d, f), 'dist') for d, _, fs in os.walk('dist') for f in fs)
files = [f for f in files if f != 'pkg/groupscope_bg.wasm']
digest = hashlib.sha256()
for f in files:
    digest.update(f.encode() + b'\0' + open(os.path.join('dist', f), 'rb').read())
sw = open('static/sw.js').read()
sw = sw.replace("'__VERSION__'", repr(digest.hexdigest()[:16])).replace('__FILES__', json.dumps(files))
open('dist/sw.js', 'w').write(sw)
PY
wasm_gz=$(stat -c %s dist/pkg/groupscope_bg.wasm.gz)
# The glue, the loader, and the JS modules wasm-bindgen copies in (pkg/snippets/).
js_gz=$(find dist/pkg dist/static -name '*.js' | sort | xargs cat | gzip -9 -c | wc -c)
printf 'build: dist/ ready; wasm %s KB raw, %s KB gzipped; JS %s KB gzipped; total %s KB gzipped\n' \
  $(( $(stat -c %s dist/pkg/groupscope_bg.wasm) / 1024 )) $((wasm_gz / 1024)) $((js_gz / 1024)) $(((wasm_gz + js_gz) / 1024))
