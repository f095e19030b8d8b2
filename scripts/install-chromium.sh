#!/usr/bin/env bash
# The browser end-to-end test (test/e2e) drives Debian's Chromium. Installs it when it is missing and this
# machine can (root with apt-get); never fails the run: without a browser that test skips itself, loudly.
set -uo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "== Chromium: $("$chromium" --version 2>/dev/null)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "== Chromium: MISSING at $chromium and not installable here (needs root and apt-get): browser tests will be SKIPPED"
  exit 0
fi
echo "== Chromium: installing Debian's chromium package"
if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
  echo "== Chromium: $("$chromium" --version 2>/dev/null)"
else
  echo "== Chromium: apt-get could not install chromium: browser tests will be SKIPPED"
fi
