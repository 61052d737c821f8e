#!/usr/bin/env bash
# Renders every bundled HTML report in headless Chromium (Debian's `chromium` package:
# apt-get install chromium), failing on any console message, and writes the screenshot the
# README shows (docs/cloudshop-compare.png, from docs/cloudshop-compare.html) — the same
# test `cargo test` runs, with DDBCOST_UPDATE_SCREENSHOTS set.
set -euo pipefail
cd "$(dirname "$0")/.."
DDBCOST_UPDATE_SCREENSHOTS=1 cargo test --release --test browser -- --nocapture
# The calculator page's screenshots (docs/web/page-1200.png, docs/web/page-phone.png): the
# page's own browser test, on a fresh build.
cargo build --release --quiet
web/build.sh
(cd web/test && npm ci --no-audit --no-fund --silent)
DDBCOST_UPDATE_SCREENSHOTS=1 node web/test/page.test.mjs
