#!/usr/bin/env bash
# Runs the whole suite (`npm test`) on Node 24, the current LTS (see scripts/use-node24.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
status=0
(
  # shellcheck source=scripts/use-node24.sh
  source scripts/use-node24.sh
  npm test
) || status=$?
echo "npm test on Node 24: $([ "$status" = 0 ] && echo ok || echo FAILED) in $(( $(date +%s) - started )) s"
exit "$status"
