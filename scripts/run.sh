#!/usr/bin/env bash
# Entry point behind `npm start` and `npm test`: a fresh machine with only Node 20 gets pnpm,
# the workspace's dependencies (and, for tests, Debian's Chromium) before anything runs.
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

ensure_chromium() {
  local bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
  [ -x "$bin" ] && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing at $bin. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
}

ensure_pnpm
if [ -n "${CI:-}" ] || [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=append-only | tail -n 5
else
  pnpm install
fi

case "${1:-}" in
  start) pnpm run build && exec pnpm run serve ;;
  test) ensure_chromium && pnpm run check ;;
  *) echo "usage: scripts/run.sh start|test" >&2; exit 2 ;;
esac
