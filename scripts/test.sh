#!/usr/bin/env bash
# The whole test suite: type check, lint/format, unit + integration (real Postgres), build, e2e (Chromium).
# Prints each phase's time at the end (and which phase failed, if one did). How to run one file, one spec or the
# tests a change touches: AGENTS.md, "Tests".
set -euo pipefail
cd "$(dirname "$0")/.."

PHASES=()
FAILED=""
started_all=$(date +%s)

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

summary() {
  local status=$?
  printf '\n\033[1m== phase times ==\033[0m\n'
  for line in "${PHASES[@]}"; do printf '  %s\n' "$line"; done
  if [ -n "$FAILED" ]; then printf '  %-34s FAILED\n' "$FAILED"; fi
  printf '  %-34s %5d s\n' "total" "$(($(date +%s) - started_all))"
  exit "$status"
}
trap summary EXIT

# phase NAME COMMAND...: runs the command, records its wall time under NAME.
phase() {
  local name=$1
  shift
  step "$name"
  local t0
  t0=$(date +%s)
  FAILED=$name
  "$@"
  FAILED=""
  PHASES+=("$(printf '%-34s %5d s' "$name" "$(($(date +%s) - t0))")")
}

phase "prerequisites" bash -c 'bash scripts/ensure-chromium.sh && node scripts/check-postgres.mjs'
phase "type check (tsc --noEmit, strict)" npx tsc --noEmit -p .
phase "lint and format (biome)" npx biome check .
phase "unit and integration (vitest)" npx vitest run
phase "build (next build, stamped)" node scripts/build.mjs
phase "end-to-end (playwright, Chromium)" npx playwright test
