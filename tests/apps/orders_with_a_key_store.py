"""An orders API with a key store that makes its own ids: a retry with a stored key gets the stored
answer back. How faithfully is up to its flags:
  --rerun-handler     the handler runs again on every request, charging each time, though the
                      answer (with the server's id) comes from the store: the answer is replayed,
                      the side effect is not
  --replay-status N   a replay is answered with status N (200) instead of the stored 201
Its ledger is at GET /charges ({"count": n}) and, per operation, GET /counts/<operationId> (the
bare number); its
OpenAPI document at GET /openapi.json, and at GET /openapi-counted.json with x-idem-count-url."""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--rerun-handler", action="store_true")
parser.add_argument("--replay-status", type=int, default=None)
args = parser.parse_args()

charges = []
stored = {}
lock = threading.Lock()


def document(counted):
    operation = {
        "operationId": "createOrder",
        "parameters": [{"name": "Idempotency-Key", "in": "header", "required": True, "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer", "example": 500}},
        }}}},
        "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"id": {"type": "string"}},
        }}}}},
    }
    if counted:
        operation["x-idem-count-url"] = "/charges"
        operation["x-idem-count-pointer"] = "/count"
    return {"openapi": "3.0.3", "info": {"title": "orders", "version": "1"}, "paths": {"/orders": {"post": operation}}}


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, {"count": len(charges)})
        elif self.path.startswith("/counts/"):
            reply(self, 200, len(charges))
        elif self.path in ("/openapi.json", "/openapi-counted.json"):
            reply(self, 200, document(self.path == "/openapi-counted.json"))
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        body = read_body(self)
        try:
            fingerprint = json.loads(body or b"{}")
        except ValueError:
            return reply(self, 400, {"error": "the body is not JSON"})
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key is not None and key in stored:
                answer, seen = stored[key]
                if seen != fingerprint:
                    return reply(self, 422, {"error": "key reused with another body"})
                if args.rerun_handler:
                    charges.append(1)
                return reply(self, args.replay_status or 201, answer)
            charges.append(1)
            answer = {"id": "ord_" + uuid.uuid4().hex[:12], "status": "paid"}
            if key is not None:
                stored[key] = (answer, fingerprint)
        reply(self, 201, answer)


serve(App)
