#!/usr/bin/env bash
# Renders every bundled HTML report in headless Chromium (Debian's `chromium` package:
# apt-get install chromium), failing on any console message, and writes the screenshot the
# README shows (docs/cloudshop-compare.png, from docs/cloudshop-compare.html) — the same
# test `cargo test` runs, with DDBCOST_UPDATE_SCREENSHOTS set.
set -euo pipefail
cd "$(dirname "$0")/.."
DDBCOST_UPDATE_SCREENSHOTS=1 cargo test --release --test browser -- --nocapture
