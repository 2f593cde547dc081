#!/bin/bash
# Container health check (the image's HEALTHCHECK, the ECS task's healthCheck, compose):
# GET /saude on this container's port (PORT, default 8080).
#
# A liveness check: healthy when the process answers 200, or 503 ("degradado": PostgreSQL or
# RabbitMQ is unreachable and the process reconnects by itself, so restarting it would not
# help). The load balancer's health check, which wants 200, is what takes a degraded target
# out of rotation. No curl in the image: bash's /dev/tcp.
set -u
port=${PORT:-8080}
if ! { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
  echo "nothing listens on 127.0.0.1:$port" >&2
  exit 1
fi
printf 'GET /saude HTTP/1.1\r\nHost: localhost\r\nUser-Agent: coworkflow-healthcheck\r\nConnection: close\r\n\r\n' >&3
if ! IFS=' ' read -r -t 5 _ status _ <&3; then
  echo "no answer from /saude within 5 s" >&2
  exit 1
fi
status=${status%$'\r'}
case $status in
  200) exit 0 ;;
  503) echo "/saude: 503 (degraded: a dependency is down)"; exit 0 ;;
  *) echo "/saude answered '${status}'" >&2; exit 1 ;;
esac
