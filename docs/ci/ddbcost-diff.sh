#!/usr/bin/env bash
# Prices every workload a change touches, before and after, with `ddbcost diff`, and prints
# one Markdown report (the pull-request comment) on standard output.
#
#   docs/ci/ddbcost-diff.sh BASE       BASE (a commit, e.g. origin/main) → the working tree
#   docs/ci/ddbcost-diff.sh --staged   the last commit → what is staged (a pre-commit hook)
#
# Workloads are the `*.yaml` files under $DDBCOST_WORKLOADS (default `workloads`) that hold a
# `tables:` key. Templates anywhere in the repository are priced too (`*.tf`,
# `*.template.yaml`/`.yml`/`.json`, `template.yaml`, `serverless.yml`), with the usage file
# beside them (`STEM.usage.yaml`, else `ddbcost-usage.yaml` in their folder) when there is one
# — a pull request that changes only `main.tf` is priced, not waved through; $DDBCOST_REGION
# is the stack's region (`--region`: `AWS::Region`, and the price table when the usage file
# names none). Budget gates, from the environment: DDBCOST_FAIL_INCREASE (a percentage),
# DDBCOST_FAIL_ABOVE (a monthly amount), DDBCOST_FAIL_ONE_TIME_ABOVE (what the change costs
# once: a GSI's backfill, a rebuild, work stated under `once:`). Exit codes: 0 within budget, 3 a gate crossed
# (the report is still printed), 1 an error. $DDBCOST names the binary (default `ddbcost`).
set -uo pipefail

ddbcost=${DDBCOST:-ddbcost}
dir=${DDBCOST_WORKLOADS:-workloads}
templates='(\.tf|\.template\.(ya?ml|json)|(^|/)template\.ya?ml|(^|/)serverless\.ya?ml)$'
if [ "${1:-}" = "--staged" ]; then
  base=HEAD
  changed=$(git diff --cached --name-only --diff-filter=AM -- "$dir" | grep -E '\.ya?ml$' || true)
  changed_templates=$(git diff --cached --name-only --diff-filter=AM | grep -E "$templates" || true)
  after() { git show ":$1"; }
else
  base=${1:?usage: ddbcost-diff.sh BASE | --staged}
  changed=$(git diff --name-only --diff-filter=AM "$base" -- "$dir" | grep -E '\.ya?ml$' || true)
  changed_templates=$(git diff --name-only --diff-filter=AM "$base" | grep -E "$templates" || true)
  after() { cat "$1"; }
fi
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

# ddbcost's own reason (its `error:` lines and what follows them), quoted into the comment.
reason() {
  if [ -s "$errors" ]; then
    echo
    echo '```'
    grep -v '^note: ' "$errors" | head -20
    echo '```'
  fi
}

gates=()
[ -n "${DDBCOST_FAIL_INCREASE:-}" ] && gates+=(--fail-increase "$DDBCOST_FAIL_INCREASE")
[ -n "${DDBCOST_FAIL_ABOVE:-}" ] && gates+=(--fail-above "$DDBCOST_FAIL_ABOVE")
[ -n "${DDBCOST_FAIL_ONE_TIME_ABOVE:-}" ] && gates+=(--fail-one-time-above "$DDBCOST_FAIL_ONE_TIME_ABOVE")

status=0
shown=0
echo "## DynamoDB cost of this change (ddbcost)"
for file in $changed $changed_templates; do
  usage=()
  if printf '%s\n' $changed_templates | grep -qxF "$file"; then
    # A template: priced with its usage file where one is beside it.
    stem=$(basename "$file"); stem=${stem%.*}; stem=${stem%.template}
    for u in "$(dirname "$file")/$stem.usage.yaml" "$(dirname "$file")/ddbcost-usage.yaml"; do
      if [ -f "$u" ]; then usage=(--usage "$u"); break; fi
    done
    if [ -n "${DDBCOST_REGION:-}" ]; then usage+=(--region "$DDBCOST_REGION"); fi
  else
    # Only workloads: a YAML file under the folder with a top-level `tables:` key.
    after "$file" | grep -q '^tables:' || continue
  fi
  shown=$((shown + 1))
  folder=$(dirname "$file")
  name=$(basename "$file")
  : > "$errors"
  # The version before (and a staged one) beside the file, so relative paths (price_dirs,
  # samples) still resolve; the version after is the file itself when it is the working one.
  old="$folder/.ddbcost-before-$name"
  if [ "$base" = HEAD ]; then
    new="$folder/.ddbcost-staged-$name"
    after "$file" > "$new"
  else
    new=$file
  fi
  echo
  echo "### \`$file\`"
  echo
  if [ "${#usage[@]}" -gt 0 ] && [ "${usage[0]}" = --usage ]; then
    echo "A template, with usage from \`${usage[1]}\`:"
    echo
  elif printf '%s\n' $changed_templates | grep -qxF "$file"; then
    echo "A template without a usage file beside it: only what it fixes (provisioned capacity) is priced."
    echo
  fi
  if git cat-file -e "$base:$file" 2>/dev/null; then
    git show "$base:$file" > "$old"
    "$ddbcost" diff "$old" "$new" --format markdown "${usage[@]}" "${gates[@]}" 2>"$errors"
    code=$?
  else
    echo "A new workload:"
    echo
    "$ddbcost" estimate "$new" --format markdown "${usage[@]}" 2>"$errors"
    code=$?
    if [ "$code" = 0 ] && [ -n "${DDBCOST_FAIL_ABOVE:-}" ]; then
      # A new workload's gate: its total against DDBCOST_FAIL_ABOVE, by diffing it with itself.
      "$ddbcost" diff "$new" "$new" "${usage[@]}" --fail-above "$DDBCOST_FAIL_ABOVE" >/dev/null 2>"$errors"
      code=$?
    fi
  fi
  rm -f "$old"
  [ "$new" = "$file" ] || rm -f "$new"
  case $code in
    0) ;;
    3) echo; echo "**Budget gate crossed** for \`$file\`:"; reason; [ "$status" = 1 ] || status=3 ;;
    *) echo; echo "**ddbcost could not price \`$file\`** (exit $code):"; reason; status=1 ;;
  esac
done
if [ "$shown" = 0 ]; then
  echo
  echo "No workload or template changed."
fi
exit "$status"
