#!/usr/bin/env bash
# Builds the static page into web/dist/: index.html, its scripts and style, the engine as
# ddbcost_web_bg.wasm, and the same bytes base64-encoded in a classic script (a page opened
# from disk may neither fetch a file nor import a module, so that is how it loads there).
# Needs the Rust toolchain, Python 3 and Node.js with npm; installs the wasm32 target and
# wasm-bindgen-cli at the version web/engine pins (with cargo), and binaryen's wasm-opt at
# the version web/tools pins (with npm), when they are missing. Prints the sizes, says
# where they are over the targets of web/budget.txt, and fails past its ceilings (today
# the targets themselves).
set -euo pipefail
cd "$(dirname "$0")"

bindgen_version=0.2.130 # = the `wasm-bindgen` pinned in engine/Cargo.toml
if command -v rustup >/dev/null 2>&1; then
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $bindgen_version"; then
  echo "== installing wasm-bindgen-cli $bindgen_version (cargo install)"
  # Not --locked: its lock file names a webpki-roots this machine's registry lacks; the
  # version of the tool itself is what must match the crate.
  cargo install --quiet wasm-bindgen-cli --version "$bindgen_version"
fi

echo "== the engine for wasm32-unknown-unknown"
# Source paths in panic locations, shortened: a crate's as `crates/NAME-VERSION/…`, ours as
# `ddbcost/…` (not this machine's folders, and ≈ 8 KB fewer in the download).
flags=(--remap-path-prefix="$(cd .. && pwd)=ddbcost")
for registry in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  flags+=(--remap-path-prefix="${registry%/}=crates")
done
CARGO_ENCODED_RUSTFLAGS=$(IFS=$'\x1f'; echo "${flags[*]}") \
  cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path engine/Cargo.toml
target="${CARGO_TARGET_DIR:-engine/target}"
case $target in /*) ;; *) target="$PWD/$target" ;; esac

rm -rf dist.tmp
mkdir -p dist.tmp
wasm-bindgen --target no-modules --no-typescript --remove-name-section --remove-producers-section \
  --out-dir dist.tmp "$target/wasm32-unknown-unknown/release/ddbcost_web.wasm"
# binaryen's wasm-opt at -O1, as wasm-pack runs it by default (pinned in tools/): 4 % smaller
# and 1 % smaller gzipped. Its higher levels shrink the file more but grow it gzipped.
if [ ! -x tools/node_modules/.bin/wasm-opt ]; then
  echo "== installing binaryen (wasm-opt) from tools/package-lock.json (npm ci)"
  (cd tools && npm ci --no-audit --no-fund --silent)
fi
tools/node_modules/.bin/wasm-opt -O1 --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
  dist.tmp/ddbcost_web_bg.wasm -o dist.tmp/ddbcost_web_bg.wasm
cp src/index.html src/app.js src/engine.js src/style.css dist.tmp/
python3 embed.py dist.tmp ../workloads
rm -rf dist
mv dist.tmp dist

python3 - <<'PY'
import gzip, pathlib, sys
wasm = pathlib.Path("dist/ddbcost_web_bg.wasm").read_bytes()
budget = dict(l.split("=") for l in pathlib.Path("budget.txt").read_text().splitlines() if "=" in l and not l.startswith("#"))
raw, gz = len(wasm), len(gzip.compress(wasm, 9))
print(f"web/dist/ddbcost_web_bg.wasm: {raw} bytes ({raw / 1e6:.2f} MB), {gz} gzipped ({gz / 1e6:.2f} MB)")
for what, size in (("wasm_bytes", raw), ("wasm_gzip_bytes", gz)):
    target = int(budget["target_" + what])
    if size > target:
        print(f"web/build.sh: {what} {size} is over the target of {target} (web/budget.txt)")
over = [f"{what} {size} > {int(budget[what])}" for what, size in (("wasm_bytes", raw), ("wasm_gzip_bytes", gz)) if size > int(budget[what])]
if over:
    sys.exit("web/build.sh: over the ceiling: " + "; ".join(over))
PY
echo "== built web/dist (open web/dist/index.html)"
