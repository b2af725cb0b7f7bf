"""A correct API that marks nothing as a replay: it stores each key's answer (under a lock, so
concurrent duplicates wait and get the replay), refuses a reused key with another body with 422,
and makes its own ids. Its ledger (a list, one entry per charge) is at GET /charges."""
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

charges = []
stored = {}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, charges)
        else:
            reply(self, 404, {"error": "not found"})
    def do_POST(self):
        body = read_body(self)
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key in stored:
                status, answer, seen = stored[key]
                if seen != body:
                    return reply(self, 422, {"error": "key reused with another body"})
                return reply(self, status, answer)
            charges.append(1)
            answer = {"id": "ord_" + uuid.uuid4().hex[:12], "status": "paid"}
            if key is not None:
                stored[key] = (201, answer, body)
        reply(self, 201, answer)


serve(App)
