#!/usr/bin/env bash
# Entry point behind `npm start` and `npm test`: a fresh machine with only Node 20 gets pnpm,
# the workspace's dependencies (and, for tests, Debian's Chromium and PostgreSQL) before
# anything runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir="${npm_config_nodedir:-/usr}"   # better-sqlite3 builds against the local Node headers
PNPM_VERSION=10.34.9

ensure_pnpm() {
  if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then return; fi
  if npm i -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then return; fi
  # No permission for a global install: keep a private copy in .tools/ (git-ignored).
  npm i --no-save --prefix .tools "pnpm@$PNPM_VERSION" >/dev/null
  export PATH="$PWD/.tools/node_modules/.bin:$PATH"
}

# Test prerequisites from Debian: Chromium (Playwright) and the PostgreSQL server binaries (the
# server-pg tests start a throwaway cluster). Installed together, as root, when missing.
ensure_test_packages() {
  local bin="${CHROMIUM_PATH:-/usr/bin/chromium}" missing=()
  [ -x "$bin" ] || missing+=(chromium)
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if [ ! -x "$bin" ]; then
    echo "Chromium is missing at $bin. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
  # Without PostgreSQL the server-pg tests are skipped, and vitest.workspace.ts prints why.
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null ||
    echo "PostgreSQL server binaries are missing (apt-get install postgresql); its tests will be skipped." >&2
}

ensure_pnpm
if [ -n "${CI:-}" ] || [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=append-only | tail -n 5
else
  pnpm install
fi

case "${1:-}" in
  start) pnpm run build && exec pnpm run serve ;;
  test) ensure_test_packages && pnpm run check ;;
  *) echo "usage: scripts/run.sh start|test" >&2; exit 2 ;;
esac
