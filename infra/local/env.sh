# Shared settings for the infra/local scripts. Source it; do not run it.
# State lives in COWORKFLOW_LOCAL_DIR (default: <repo>/.local), never in the system's folders.
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOCAL_DIR=${COWORKFLOW_LOCAL_DIR:-$repo_root/.local}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${COWORKFLOW_PG_PORT:-5432}
PG_DIR=$LOCAL_DIR/postgres
AMQP_PORT=${COWORKFLOW_AMQP_PORT:-5672}
RABBIT_DIR=$LOCAL_DIR/rabbitmq
RABBIT_BIN=/usr/lib/rabbitmq/bin

rabbit_env() {
  export HOME=$RABBIT_DIR RABBITMQ_NODENAME=rabbit@localhost RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT=$AMQP_PORT RABBITMQ_CONFIG_FILE=$RABBIT_DIR/rabbitmq \
    RABBITMQ_MNESIA_BASE=$RABBIT_DIR/mnesia RABBITMQ_LOG_BASE=$RABBIT_DIR/log \
    RABBITMQ_PID_FILE=$RABBIT_DIR/rabbit.pid RABBITMQ_ENABLED_PLUGINS_FILE=$RABBIT_DIR/enabled_plugins \
    RABBITMQ_DIST_PORT=$((AMQP_PORT + 20000)) ERL_EPMD_ADDRESS=127.0.0.1 ERL_EPMD_PORT=${COWORKFLOW_EPMD_PORT:-4369} \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
    RABBITMQ_CTL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
}
