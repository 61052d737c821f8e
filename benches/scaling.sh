#!/usr/bin/env bash
# How cost grows with work (issue #29): time and peak memory of whole commands against the size
# of their input, printed as the Markdown rows of the README's "How cost grows" table.
#
#   benches/scaling.sh [--max-size 10GB] [--max-sweep 1000000] [--max-keys 10000000]
#
# Inputs are generated into a temporary folder by the examples (`gen_workload`, `gen_export`,
# `gen_template`, `gen_keys`, `gen_cloudwatch`, `gen_cur`, `gen_log`: deterministic, shaped like
# real ones) and removed at the end. Each figure is one run of the release binary under `/usr/bin/time` (elapsed wall
# time, maximum resident set size), output into a file of the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
max_size=10GB max_sweep=1000000 max_keys=10000000
while [ $# -gt 0 ]; do
  case "$1" in
    --max-size) max_size=$2; shift 2 ;;
    --max-sweep) max_sweep=$2; shift 2 ;;
    --max-keys) max_keys=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
cargo build --release --quiet --bin ddbcost \
  --example gen_workload --example gen_template --example gen_export --example gen_keys \
  --example gen_cloudwatch --example gen_cur --example gen_log
bin=target/release/ddbcost ex=target/release/examples
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# measure LABEL WORK COMMAND... : one row, `| label | work | seconds | peak MB |`.
measure() {
  local label=$1 work=$2; shift 2
  /usr/bin/time -f '%e %M' -o "$dir/time" "$@" > "$dir/out" 2> "$dir/err" || {
    echo "failed: $*" >&2; tail -5 "$dir/err" >&2; exit 1; }
  read -r secs kb < <(tail -1 "$dir/time")
  printf '| %s | %s | %s s | %s MB |\n' "$label" "$work" "$secs" "$((kb / 1024))"
}
bytes() { # 10MB → bytes
  local n=${1%[KMG]B}; case "$1" in *GB) echo $((n << 30));; *MB) echo $((n << 20));; *) echo "$n";; esac
}

echo '| command | work | time | peak memory |'
echo '|---|---|---|---|'
for n in 1 10 100 1000 10000; do
  $ex/gen_workload "$n" > "$dir/w.yaml"
  measure estimate "$n tables" $bin estimate "$dir/w.yaml"
  measure compare "$n tables, 3 steps" $bin compare "$dir/w.yaml"
done
# advise and import at 1×, 4× and 16× (issue #52: growth per 4× tables within 4.4×).
for n in 400 1600 6400; do
  $ex/gen_workload "$n" > "$dir/w.yaml"
  measure advise "$n tables" $bin advise "$dir/w.yaml"
  $ex/gen_template "$n" > "$dir/stack.json"
  measure import "$n tables (CloudFormation)" $bin import "$dir/stack.json"
done
$ex/gen_workload 5 > "$dir/w.yaml"
rates() { # N distinct rates of the `get` pattern
  seq 1 "$1" | sed 's|$|/s|' | paste -sd, -
}
for designs in 1000 10000 100000 1000000; do
  [ "$designs" -le "$max_sweep" ] || continue
  a=$((designs / 1000))
  [ "$a" -ge 1 ] || a=1
  measure sweep "$designs designs, top 10" $bin sweep "$dir/w.yaml" \
    --vary "tables.t0.patterns.get.rate=$(rates 1000)" \
    --vary "tables.t1.patterns.get.rate=$(rates "$a")"
done
# Both axes on one table (CloudShop's orders): every design prices that table again.
for designs in 1000 10000 100000 1000000; do
  [ "$designs" -le "$max_sweep" ] || continue
  a=$((designs / 1000))
  [ "$a" -ge 1 ] || a=1
  measure sweep "$designs CloudShop designs (two rates of one table), top 10" \
    $bin sweep workloads/cloudshop.yaml \
    --vary "tables.orders.patterns.create-order.rate=$(rates 1000)" \
    --vary "tables.orders.patterns.ship-order.rate=$(rates "$a")"
done
for size in 10MB 100MB 1GB 10GB; do
  [ "$(bytes "$size")" -le "$(bytes "$max_size")" ] || continue
  $ex/gen_export "$size" realistic > "$dir/export.json"
  measure "size --jobs 1" "$size realistic export" $bin size "$dir/export.json" --jobs 1
  rm -f "$dir/export.json"
done
for n in 10000 100000 1000000 10000000; do
  [ "$n" -le "$max_keys" ] || continue
  $ex/gen_keys "$n" > "$dir/keys.json"
  measure keys "$n distinct values" $bin keys "$dir/keys.json" --key PK --index by-status:GSI1PK
  rm -f "$dir/keys.json"
done
for tables in 2 20 200; do
  # ≈ 5 MB of pages a table
  [ $((tables * 5 << 20)) -le "$(bytes "$max_size")" ] || continue
  mkdir -p "$dir/cw"
  $ex/gen_cloudwatch "$dir/cw" "$tables" > /dev/null 2>&1
  measure usage "$tables tables × 30 days of minutes ($(du -sh "$dir/cw" | cut -f1))" $bin usage "$dir"/cw/*.json
  rm -rf "$dir/cw"
done
$ex/gen_workload 200 > "$dir/w.yaml"
for size in 10MB 100MB 1GB; do
  [ "$(bytes "$size")" -le "$(bytes "$max_size")" ] || continue
  $ex/gen_cur "$size" > "$dir/cur.csv" 2> /dev/null
  measure reconcile "$size CUR 2.0" $bin reconcile "$dir/w.yaml" --bill "$dir/cur.csv"
  measure bill "$size CUR 2.0" $bin bill "$dir/cur.csv"
  rm -f "$dir/cur.csv"
done
for size in 16MB 64MB 256MB 1GB; do
  [ "$(bytes "$size")" -le "$(bytes "$max_size")" ] || continue
  $ex/gen_log "$dir/log" "$size"
  measure allocate "$size request log (5,000 tenants)" $bin allocate --bill "$dir/log/cur.csv" \
    --log "$dir/log/requests.jsonl" --tenant 'PK=ORG#([^#]+)'
  rm -rf "$dir/log"
done
