#!/usr/bin/env bash
# Renders the CloudShop comparison as HTML and screenshots it with headless Chromium
# (Debian's `chromium` package: apt-get install chromium) into docs/cloudshop-compare.png.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -- compare workloads/cloudshop.yaml --format html --period 2026-12 --output docs/cloudshop-compare.html
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The flags keep Chromium off the network (this machine has none) and out of the GPU.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1200,2600 \
  --screenshot="$PWD/docs/cloudshop-compare.png" "file://$PWD/docs/cloudshop-compare.html"
