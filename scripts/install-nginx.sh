#!/usr/bin/env bash
# Installs Debian's nginx for the load-balancer tests without starting the package's own service:
# the tests run nginx themselves (their own config, port and temp folder), and the service would
# take port 80. A policy-rc.d that already exists (as in Docker images) is left as it is.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
apt-get install -y -qq nginx >/dev/null
