"""An idempotency layer wrapped around a handler that forgets to ask whether the request was a hit
(express-idempotency without `isHit()`): a repeated key gets the stored answer at once, the same
body, the same server-made id and `Idempotent-Replayed: true`, and then the handler runs anyway and
charges again, in the background, the first argument's milliseconds later (default 70). A new key
charges before its answer. A reused key with another body is refused with 422. Its ledger (a list,
one entry per charge) is at GET /charges."""
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

LATER = (int(sys.argv[1]) if len(sys.argv) > 1 else 70) / 1000
charges = []
stored = {}
lock = threading.Lock()


def charge():
    with lock:
        charges.append(1)


def charge_later():
    time.sleep(LATER)
    charge()


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
        if hit is not None:
            status, answer, seen = hit
            if seen != body:
                return reply(self, 422, {"error": "key reused with another body"})
            reply(self, status, answer, [("Idempotent-Replayed", "true")])
            # The middleware answered from its store, and the route handler still runs.
            threading.Thread(target=charge_later, daemon=True).start()
            return
        charge()
        answer = {"id": "ord_" + uuid.uuid4().hex[:12], "status": "paid"}
        if key is not None:
            with lock:
                stored[key] = (201, answer, body)
        reply(self, 201, answer)


serve(App)
