#!/usr/bin/env bash
# Starts PostgreSQL 15 and RabbitMQ on 127.0.0.1 with state under .local/, waits until both
# answer, and prints their URLs. Running it again while they run changes nothing.
#   roles: coworkflow (owner, runs migrations), coworkflow_app (the application: read/append)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
what=${1:-all}
mkdir -p "$LOCAL_DIR"
chmod 755 "$LOCAL_DIR"

start_postgres() {
  mkdir -p "$PG_DIR/sock"
  chown -R postgres:postgres "$PG_DIR"
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    echo postgres > "$PG_DIR/pwfile"; chown postgres "$PG_DIR/pwfile"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -E UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host=scram-sha-256 --pwfile="$PG_DIR/pwfile" >/dev/null
  fi
  if ! "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
      -o "-p $PG_PORT -k $PG_DIR/sock -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_preload_libraries=pg_stat_statements" start >/dev/null
  fi
  for _ in $(seq 1 60); do "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.5; done
  # Over TCP, so this also works when the server was started from another checkout.
  local psql=(env PGPASSWORD=postgres PGOPTIONS='-c client_min_messages=warning' psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1)
  "${psql[@]}" -d postgres <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'coworkflow') THEN
    CREATE ROLE coworkflow LOGIN CREATEDB PASSWORD 'coworkflow';
  END IF;
  -- coworkflow-bench drops its database WITH (FORCE), which must end autovacuum workers too.
  GRANT pg_signal_backend TO coworkflow;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'coworkflow_app') THEN
    CREATE ROLE coworkflow_app LOGIN PASSWORD 'coworkflow_app';
  END IF;
END $$;
SELECT 'CREATE DATABASE coworkflow OWNER coworkflow' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'coworkflow')\gexec
-- coworkflow-bench counts the statements a booking costs (a server started elsewhere may not
-- preload the library: the bench then prints no count).
SELECT 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements' WHERE current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%'\gexec
SQL
  "${psql[@]}" -d coworkflow -c "REVOKE CREATE ON SCHEMA public FROM PUBLIC; GRANT ALL ON SCHEMA public TO coworkflow; GRANT USAGE ON SCHEMA public TO coworkflow_app;"
  echo "postgres: postgres://coworkflow_app:coworkflow_app@127.0.0.1:$PG_PORT/coworkflow (owner: coworkflow/coworkflow)"
}

start_rabbitmq() {
  mkdir -p "$RABBIT_DIR/log" "$RABBIT_DIR/mnesia"
  printf 'listeners.tcp.1 = 127.0.0.1:%s\nloopback_users = none\n' "$AMQP_PORT" > "$RABBIT_DIR/rabbitmq.conf"
  echo '[].' > "$RABBIT_DIR/enabled_plugins"
  rabbit_env
  if (exec 3<>"/dev/tcp/127.0.0.1/$AMQP_PORT") 2>/dev/null; then
    echo "rabbitmq: already answering on 127.0.0.1:$AMQP_PORT"
  else
    "$RABBIT_BIN/rabbitmq-server" -detached >/dev/null 2>&1
    for _ in $(seq 1 60); do [ -s "$RABBIT_DIR/rabbit.pid" ] && break; sleep 0.5; done
    "$RABBIT_BIN/rabbitmqctl" wait --timeout 120 "$RABBIT_DIR/rabbit.pid" >/dev/null
  fi
  echo "rabbitmq: amqp://guest:guest@127.0.0.1:$AMQP_PORT"
}

case "$what" in
  postgres) start_postgres ;;
  rabbitmq) start_rabbitmq ;;
  all) start_postgres; start_rabbitmq ;;
  *) echo "usage: $0 [all|postgres|rabbitmq]" >&2; exit 2 ;;
esac
