#!/usr/bin/env bash
# Runs the benchmark suite with enough file descriptors for 10,000 WebSockets (client and server
# each hold one per socket). Arguments go to bench/run.ts, e.g. `bash bench/run.sh --smoke`.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec node --import tsx bench/run.ts "$@"
