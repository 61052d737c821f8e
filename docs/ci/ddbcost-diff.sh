#!/usr/bin/env bash
# Prices every workload a change touches, before and after, with `ddbcost diff`, and prints
# one Markdown report (the pull-request comment) on standard output.
#
#   docs/ci/ddbcost-diff.sh BASE       BASE (a commit, e.g. origin/main) → the working tree
#   docs/ci/ddbcost-diff.sh --staged   the last commit → what is staged (a pre-commit hook)
#
# Workloads are the `*.yaml` files under $DDBCOST_WORKLOADS (default `workloads`) that hold a
# `tables:` key. Budget gates, from the environment: DDBCOST_FAIL_INCREASE (a percentage),
# DDBCOST_FAIL_ABOVE (a monthly amount). Exit codes: 0 within budget, 3 a gate crossed
# (the report is still printed), 1 an error. $DDBCOST names the binary (default `ddbcost`).
set -uo pipefail

ddbcost=${DDBCOST:-ddbcost}
dir=${DDBCOST_WORKLOADS:-workloads}
if [ "${1:-}" = "--staged" ]; then
  base=HEAD
  changed=$(git diff --cached --name-only --diff-filter=AM -- "$dir" | grep -E '\.ya?ml$' || true)
  after() { git show ":$1"; }
else
  base=${1:?usage: ddbcost-diff.sh BASE | --staged}
  changed=$(git diff --name-only --diff-filter=AM "$base" -- "$dir" | grep -E '\.ya?ml$' || true)
  after() { cat "$1"; }
fi

gates=()
[ -n "${DDBCOST_FAIL_INCREASE:-}" ] && gates+=(--fail-increase "$DDBCOST_FAIL_INCREASE")
[ -n "${DDBCOST_FAIL_ABOVE:-}" ] && gates+=(--fail-above "$DDBCOST_FAIL_ABOVE")

status=0
shown=0
echo "## DynamoDB cost of this change (ddbcost)"
for file in $changed; do
  # Only workloads: a YAML file under the folder with a top-level `tables:` key.
  after "$file" | grep -q '^tables:' || continue
  shown=$((shown + 1))
  folder=$(dirname "$file")
  name=$(basename "$file")
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
  if git cat-file -e "$base:$file" 2>/dev/null; then
    git show "$base:$file" > "$old"
    "$ddbcost" diff "$old" "$new" --format markdown "${gates[@]}" 2>/dev/null
    code=$?
  else
    echo "A new workload:"
    echo
    "$ddbcost" estimate "$new" --format markdown 2>/dev/null
    code=$?
    if [ "$code" = 0 ] && [ -n "${DDBCOST_FAIL_ABOVE:-}" ]; then
      # A new workload's gate: its total against DDBCOST_FAIL_ABOVE, by diffing it with itself.
      "$ddbcost" diff "$new" "$new" --fail-above "$DDBCOST_FAIL_ABOVE" >/dev/null 2>&1
      code=$?
    fi
  fi
  rm -f "$old"
  [ "$new" = "$file" ] || rm -f "$new"
  case $code in
    0) ;;
    3) echo; echo "**Budget gate crossed** for \`$file\`."; [ "$status" = 1 ] || status=3 ;;
    *) echo; echo "**ddbcost could not price \`$file\`** (exit $code): run \`ddbcost diff\` locally for the message."; status=1 ;;
  esac
done
if [ "$shown" = 0 ]; then
  echo
  echo "No workload changed."
fi
exit "$status"
