#!/usr/bin/env bash
# `npm run test:unit`: the unit suites under Deno and under Node, side by side, for the loop of
# everyday work. It is `npm test`'s unit step without the rest of `npm test` (no type check, lint
# or format; no browser tests, notebook, npm package, bundle or JSR check) and without the files
# test/_slow.txt lists: end-to-end runs of programs and many servers, each of which takes more than
# 15 s on its own (measured; `npm test` still runs them). Deno runs its files in two parallel
# workers, Node three processes at a time (most of a Node file's time is its start through tsx); both count what they ran, and the script fails if either fails.
#
#   npm run test:unit            (Dec 2, 2 cores shared with three other sessions: 221 s at a
#                                 load average of 2-5; DENO_JOBS, NODE_JOBS: workers, 2 and 3)
set -euo pipefail
cd "$(dirname "$0")/.."
# As in scripts/test.sh: the system Node, not a node that node_modules/.bin may hold.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd: -)
export PATH
DENO=node_modules/.bin/deno
START=$SECONDS

mapfile -t SLOW < <(grep -v '^\s*\(#\|$\)' test/_slow.txt)
for file in "${SLOW[@]}"; do # a moved or renamed file would silently run again
  [ -f "$file" ] || { echo "test/_slow.txt lists $file, which is not there" >&2; exit 2; }
done
mapfile -t UNIT < <(find test -name '*.test.ts' -not -path 'test/browser/*' | sort |
  grep -vxF -f <(printf '%s\n' "${SLOW[@]}"))
echo "test:unit: ${#UNIT[@]} files under Deno and under Node $(node --version) (${#SLOW[@]} slow files left to npm test)"

NODE_OUT=$(mktemp)
DENO_OUT=$(mktemp)
node --import tsx --import ./test/_deadline.ts --test --test-concurrency="${NODE_JOBS:-3}" \
  --test-timeout=600000 --test-reporter=spec "${UNIT[@]}" >"$NODE_OUT" 2>&1 &
NODE_PID=$!
NO_COLOR=1 DENO_JOBS=${DENO_JOBS:-2} $DENO test -A --no-check --parallel \
  --preload test/_deadline.ts "${UNIT[@]}" >"$DENO_OUT" 2>&1 &
DENO_PID=$!
trap 'kill "$NODE_PID" "$DENO_PID" 2>/dev/null || true' INT TERM
NODE_RC=0
DENO_RC=0
wait "$DENO_PID" || DENO_RC=$?
wait "$NODE_PID" || NODE_RC=$?

# Failures first (each runner's own report of them), then one line per runtime.
if [ "$DENO_RC" -ne 0 ]; then sed -n '/ERRORS\|FAILURES/,$p' "$DENO_OUT"; fi
if [ "$NODE_RC" -ne 0 ]; then grep -E '^(✖|not ok)|failing tests' -A12 "$NODE_OUT" | head -200; fi
deno_line=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$DENO_OUT" | tail -n 1 || true)
echo "deno: ${deno_line:-no summary (exit $DENO_RC)}"
echo "node: $(grep -E '^ℹ (pass|fail|skipped) [0-9]+' "$NODE_OUT" | tr '\n' ' ' | sed 's/ℹ //g')"
echo "test:unit: $((SECONDS - START)) s (deno exit $DENO_RC, node exit $NODE_RC)"
rm -f "$NODE_OUT" "$DENO_OUT"
[ "$DENO_RC" -eq 0 ] && [ "$NODE_RC" -eq 0 ]
