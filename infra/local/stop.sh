#!/usr/bin/env bash
# Stops the local servers started by start.sh, by their PIDs. Fine to run when they are down.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
what=${1:-all}
wait_gone() { for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.2; done; kill -KILL "$1" 2>/dev/null; }

if [ "$what" = all ] || [ "$what" = postgres ]; then
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    pid=$(head -1 "$PG_DIR/data/postmaster.pid")
    kill -INT "$pid" 2>/dev/null && wait_gone "$pid"
    echo "postgres stopped"
  fi
fi
if [ "$what" = all ] || [ "$what" = rabbitmq ]; then
  if [ -f "$RABBIT_DIR/rabbit.pid" ]; then
    pid=$(cat "$RABBIT_DIR/rabbit.pid")
    # A clean shutdown through the node itself; SIGTERM (then SIGKILL) only if that fails.
    rabbit_env
    timeout 30 "$RABBIT_BIN/rabbitmqctl" shutdown >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null
    wait_gone "$pid"
    rm -f "$RABBIT_DIR/rabbit.pid"
    echo "rabbitmq stopped"
  fi
  # epmd is a separate process started for the node; stop ours (it listens on loopback only).
  pkill -TERM -f "epmd.*-address 127.0.0.1" 2>/dev/null || pkill -TERM -x epmd 2>/dev/null || true
fi
