#!/usr/bin/env bash
# The whole test suite: type check, lint/format, unit + integration (real Postgres), build, e2e (Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

step "prerequisites"
bash scripts/ensure-chromium.sh
node scripts/check-postgres.mjs

step "type check (tsc --noEmit, strict)"
npx tsc --noEmit -p .

step "lint and format (biome)"
npx biome check .

step "unit and integration tests (vitest, real Postgres)"
npx vitest run

step "build (next build, stamped: scripts/build.mjs)"
node scripts/build.mjs

step "end-to-end tests (playwright, Chromium)"
npx playwright test
