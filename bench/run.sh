#!/usr/bin/env bash
# Runs the benchmark suite with enough file descriptors for 10,000 WebSockets (client and server
# each hold one per socket). Arguments go to bench/run.ts, e.g. `bash bench/run.sh --smoke`.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
# Node 24 from the `node` devDependency, as `npm run` would put first on the PATH.
node_bin=node_modules/.bin/node
[ -x "$node_bin" ] || node_bin=node
exec "$node_bin" --import tsx bench/run.ts "$@"
