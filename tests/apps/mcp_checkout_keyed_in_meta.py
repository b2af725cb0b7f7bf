"""An Agentic Commerce Protocol checkout over its MCP binding: JSON-RPC 2.0 `tools/call` of
`create_checkout_session` at POST /mcp, the key in the tool arguments' `meta.idempotency_key`
(the binding's mapping of the Idempotency-Key header; the header itself is not read). A repeated
key returns the first session; without a key every call creates one, as the binding makes the key
optional. A repeated key with another payload is refused with the binding's HTTP status, 422, and a
JSON-RPC error. Its ledger is at GET /charges ({"count": n, "keys": [...]})."""
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

sessions = []
stored = {}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            with lock:
                reply(self, 200, {"count": len(sessions), "keys": sorted({key for key, _ in sessions if key})})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            call = json.loads(read_body(self))
            arguments = call["params"]["arguments"]
            assert call["jsonrpc"] == "2.0" and call["method"] == "tools/call"
        except (ValueError, KeyError, TypeError, AssertionError):
            return reply(self, 200, {"jsonrpc": "2.0", "id": None, "error": {"code": -32602, "message": "Invalid params"}})
        key = (arguments.get("meta") or {}).get("idempotency_key")
        payload = arguments.get("payload")
        with lock:
            if key and key in stored:
                first_payload, result = stored[key]
                if first_payload != payload:
                    return reply(self, 422, {"jsonrpc": "2.0", "id": call.get("id"), "error": {
                        "code": -32602, "message": "idempotency_key reused with another payload",
                        "data": {"type": "invalid_request", "code": "idempotency_conflict"}}})
            else:
                result = {"id": "cs_" + uuid.uuid4().hex[:12], "status": "incomplete"}
                sessions.append((key, result))
                if key:
                    stored[key] = (payload, result)
        reply(self, 200, {"jsonrpc": "2.0", "id": call.get("id"), "result": result})


serve(App)
