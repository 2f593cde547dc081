// The C surface of rabbitmq-c that Swift uses. Only the Messaging module imports it.
#ifndef COWORKFLOW_RABBITMQ_SHIM_H
#define COWORKFLOW_RABBITMQ_SHIM_H

#if __has_include(<rabbitmq-c/amqp.h>)
#include <rabbitmq-c/amqp.h>
#include <rabbitmq-c/tcp_socket.h>
#include <rabbitmq-c/ssl_socket.h>
#else
#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <amqp_ssl_socket.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/// Table entries; keys and string values must outlive the call that sends the table.
static inline amqp_table_entry_t cwf_entry_utf8(const char *key, const char *value) {
  amqp_table_entry_t entry;
  entry.key = amqp_cstring_bytes(key);
  entry.value.kind = AMQP_FIELD_KIND_UTF8;
  entry.value.value.bytes = amqp_cstring_bytes(value);
  return entry;
}

static inline amqp_table_entry_t cwf_entry_bool(const char *key, int value) {
  amqp_table_entry_t entry;
  entry.key = amqp_cstring_bytes(key);
  entry.value.kind = AMQP_FIELD_KIND_BOOLEAN;
  entry.value.value.boolean = value ? 1 : 0;
  return entry;
}

static inline amqp_table_entry_t cwf_entry_i64(const char *key, int64_t value) {
  amqp_table_entry_t entry;
  entry.key = amqp_cstring_bytes(key);
  entry.value.kind = AMQP_FIELD_KIND_I64;
  entry.value.value.i64 = value;
  return entry;
}

/// PLAIN login (amqp_login_with_properties is C-variadic, which Swift cannot call), naming the
/// connection (`rabbitmqctl list_connections client_properties` shows it) and saying which
/// RabbitMQ extensions this client handles. `consumer_cancel_notify` matters most: without it
/// the broker drops a consumer it cancels (its queue deleted, its queue's replica gone) without
/// a word, and the consumer waits for ever on a subscription that no longer exists. With it a
/// `basic.cancel` arrives, which the consumer takes as a lost connection.
static inline amqp_rpc_reply_t cwf_login_plain(amqp_connection_state_t state, const char *vhost,
                                               int channel_max, int frame_max, int heartbeat,
                                               const char *user, const char *password,
                                               const char *connection_name) {
  amqp_table_entry_t capabilities[3];
  capabilities[0] = cwf_entry_bool("consumer_cancel_notify", 1);
  capabilities[1] = cwf_entry_bool("publisher_confirms", 1);
  capabilities[2] = cwf_entry_bool("basic.nack", 1);
  amqp_table_entry_t properties[3];
  properties[0] = cwf_entry_utf8("product", "coworkflow");
  properties[1] = cwf_entry_utf8("connection_name", connection_name);
  properties[2].key = amqp_cstring_bytes("capabilities");
  properties[2].value.kind = AMQP_FIELD_KIND_TABLE;
  properties[2].value.value.table.num_entries = 3;
  properties[2].value.value.table.entries = capabilities;
  amqp_table_t table;
  table.num_entries = 3;
  table.entries = properties;
  return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, &table,
                                    AMQP_SASL_METHOD_PLAIN, user, password);
}

/// Reads a header value as text (UTF-8/bytes) or as a whole number; 0 when absent or other.
static inline int cwf_entry_is_bytes(const amqp_table_entry_t *entry) {
  return entry->value.kind == AMQP_FIELD_KIND_UTF8 || entry->value.kind == AMQP_FIELD_KIND_BYTES;
}
static inline amqp_bytes_t cwf_entry_bytes(const amqp_table_entry_t *entry) { return entry->value.value.bytes; }
static inline int cwf_entry_integer(const amqp_table_entry_t *entry, int64_t *out) {
  switch (entry->value.kind) {
    case AMQP_FIELD_KIND_I8: *out = entry->value.value.i8; return 1;
    case AMQP_FIELD_KIND_U8: *out = entry->value.value.u8; return 1;
    case AMQP_FIELD_KIND_I16: *out = entry->value.value.i16; return 1;
    case AMQP_FIELD_KIND_U16: *out = entry->value.value.u16; return 1;
    case AMQP_FIELD_KIND_I32: *out = entry->value.value.i32; return 1;
    case AMQP_FIELD_KIND_U32: *out = entry->value.value.u32; return 1;
    case AMQP_FIELD_KIND_I64: *out = entry->value.value.i64; return 1;
    case AMQP_FIELD_KIND_U64: *out = (int64_t)entry->value.value.u64; return 1;
    default: return 0;
  }
}

/// The decoded method of a frame, for publisher confirms (ack, nack, return).
static inline amqp_method_number_t cwf_frame_method_id(const amqp_frame_t *frame) {
  return frame->frame_type == AMQP_FRAME_METHOD ? frame->payload.method.id : 0;
}
static inline void *cwf_frame_method_decoded(const amqp_frame_t *frame) { return frame->payload.method.decoded; }

/// The server's close reason in an RPC reply, as text ("" when there is none).
static inline amqp_bytes_t cwf_reply_close_text(amqp_rpc_reply_t reply, uint16_t *code) {
  amqp_bytes_t empty = {0, NULL};
  *code = 0;
  if (reply.reply_type != AMQP_RESPONSE_SERVER_EXCEPTION) return empty;
  if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
    amqp_connection_close_t *m = (amqp_connection_close_t *)reply.reply.decoded;
    *code = m->reply_code;
    return m->reply_text;
  }
  if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
    amqp_channel_close_t *m = (amqp_channel_close_t *)reply.reply.decoded;
    *code = m->reply_code;
    return m->reply_text;
  }
  return empty;
}

#endif
