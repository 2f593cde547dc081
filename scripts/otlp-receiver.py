#!/usr/bin/env python3
"""A small OTLP/HTTP trace receiver: what the tests (and a developer without a collector) send
spans to.

POST /v1/traces with an ExportTraceServiceRequest (protobuf, optionally gzip) is decoded with
PyPI's opentelemetry-proto; each span becomes one JSON line in --out (traceId, spanId,
parentSpanId, name, kind, service, attributes, status). --print also prints each trace as a tree
once it has been quiet for a second; --discard answers without decoding (the tracing overhead
benchmark's sink). Prints `ready <port>` once listening.

    python3 scripts/otlp-receiver.py --port 4318 --print
    OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 coworkflow serve
"""

import argparse
import gzip
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KINDS = {0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    if kind is None:
        return None
    value = getattr(any_value, kind)
    if kind == "array_value":
        return [value_of(v) for v in value.values]
    if kind == "kvlist_value":
        return {kv.key: value_of(kv.value) for kv in value.values}
    if kind == "bytes_value":
        return value.hex()
    return value


def spans_of(body):
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

    request = trace_service_pb2.ExportTraceServiceRequest()
    request.ParseFromString(body)
    for resource_spans in request.resource_spans:
        resource = {kv.key: value_of(kv.value) for kv in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield {
                    "traceId": span.trace_id.hex(),
                    "spanId": span.span_id.hex(),
                    "parentSpanId": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": KINDS.get(span.kind, str(span.kind)),
                    "service": resource.get("service.name", ""),
                    "start": span.start_time_unix_nano,
                    "end": span.end_time_unix_nano,
                    "attributes": {kv.key: value_of(kv.value) for kv in span.attributes},
                    "links": [link.trace_id.hex() + "/" + link.span_id.hex() for link in span.links],
                    "status": span.status.code,
                }


class Traces:
    """What --print shows: spans by trace, printed as a tree when the trace goes quiet."""

    def __init__(self):
        self.lock = threading.Lock()
        self.traces = {}
        self.touched = {}

    def add(self, span):
        with self.lock:
            self.traces.setdefault(span["traceId"], []).append(span)
            self.touched[span["traceId"]] = time.monotonic()

    def flush_quiet(self, quiet=1.0):
        now = time.monotonic()
        with self.lock:
            done = [t for t, at in self.touched.items() if now - at >= quiet]
            for trace_id in done:
                spans = self.traces.pop(trace_id)
                del self.touched[trace_id]
                print(self.tree(trace_id, spans), flush=True)

    @staticmethod
    def tree(trace_id, spans):
        ids = {s["spanId"] for s in spans}
        children = {}
        for span in spans:
            parent = span["parentSpanId"] if span["parentSpanId"] in ids else ""
            children.setdefault(parent, []).append(span)
        lines = [f"trace {trace_id}"]

        def walk(parent, depth):
            for span in sorted(children.get(parent, []), key=lambda s: s["start"]):
                ms = (span["end"] - span["start"]) / 1e6
                lines.append(f"{'  ' * depth}- {span['service']}: {span['name']} [{span['kind']}] {ms:.1f} ms")
                walk(span["spanId"], depth + 1)

        walk("", 1)
        return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=4318)
    parser.add_argument("--out", help="append each span as a JSON line to this file")
    parser.add_argument("--print", action="store_true", help="print each trace as a tree")
    parser.add_argument("--discard", action="store_true", help="answer without decoding")
    args = parser.parse_args()
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    out_lock = threading.Lock()
    traces = Traces()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/traces":
                self.answer(404, b"")
                return
            if not args.discard:
                if self.headers.get("Content-Encoding", "").lower() == "gzip":
                    body = gzip.decompress(body)
                try:
                    spans = list(spans_of(body))
                except Exception as error:  # a body that is not an export request
                    self.answer(400, str(error).encode())
                    return
                if out:
                    with out_lock:
                        for span in spans:
                            out.write(json.dumps(span, sort_keys=True) + "\n")
                        out.flush()
                if args.print:
                    for span in spans:
                        traces.add(span)
            # An empty ExportTraceServiceResponse: zero bytes of protobuf.
            self.answer(200, b"", "application/x-protobuf")

        def answer(self, status, body, content_type="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *arguments):
            pass

    # SIGTERM ends it even when the parent ignored the signal (an ignored disposition is inherited).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    print(f"ready {server.server_address[1]}", flush=True)
    if args.print:

        def printer():
            while True:
                time.sleep(0.5)
                traces.flush_quiet()

        threading.Thread(target=printer, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if out:
            out.close()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
