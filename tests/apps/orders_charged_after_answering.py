"""A correct idempotency layer in front of work that is queued: a new key gets 201 with the
server's own id at once, and the charge is made by a background worker the first argument's
milliseconds later (default 120). A repeated key gets the stored answer and charges nothing; a
reused key with another body is refused with 422. Its ledger (a list, one entry per charge) is at
GET /charges."""
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

LATER = (int(sys.argv[1]) if len(sys.argv) > 1 else 120) / 1000
charges = []
stored = {}
lock = threading.Lock()


def charge_later():
    time.sleep(LATER)
    with lock:
        charges.append(1)


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        if self.path == "/charges":
            with lock:
                reply(self, 200, list(charges))
        else:
            reply(self, 404, {"error": "not found"})
    def do_POST(self):
        body = read_body(self)
        key = self.headers.get("Idempotency-Key")
        with lock:
            hit = stored.get(key)
            if hit is None:
                answer = {"id": "ord_" + uuid.uuid4().hex[:12], "status": "queued"}
                if key is not None:
                    stored[key] = (201, answer, body)
        if hit is not None:
            status, answer, seen = hit
            if seen != body:
                return reply(self, 422, {"error": "key reused with another body"})
            return reply(self, status, answer, [("Idempotent-Replayed", "true")])
        threading.Thread(target=charge_later, daemon=True).start()
        reply(self, 201, answer)


serve(App)
