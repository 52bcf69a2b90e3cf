#!/usr/bin/env bash
# Playwright drives Debian's Chromium (it cannot download its own browser here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  echo "chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium not found; installing Debian's chromium package…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "chromium: $("$CHROMIUM" --version)"
  exit 0
fi
echo "Chromium is required for the end-to-end tests and was not found at $CHROMIUM." >&2
echo "Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
