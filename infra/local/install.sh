#!/usr/bin/env bash
# Installs, from Debian's packages, what the local servers and the build need. Idempotent.
set -euo pipefail
need=()
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql-15)
command -v psql >/dev/null || need+=(postgresql-client-15)
[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || need+=(rabbitmq-server)
[ -f /usr/include/amqp.h ] || [ -f /usr/include/rabbitmq-c/amqp.h ] || need+=(librabbitmq-dev)
command -v amqp-publish >/dev/null || need+=(amqp-tools)
command -v wrk >/dev/null || need+=(wrk)  # the booking benchmark's load generator
[ -f /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
pkg-config --exists libpq 2>/dev/null || true
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # The packages' own service scripts may try to start servers; we start ours ourselves.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi
echo "local dependencies present"
