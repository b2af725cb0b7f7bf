"""A webhook receiver for `--scheme hmac` (X-Signature: sha256=<hex> over the body; the secret is
the second argument) that de-duplicates on the event's `id` and counts the events it processed at
GET /count ({"count": N}). The first argument is how it de-duplicates:

- `check-then-insert`: looks the id up, awaits its store (20 ms), then records it and processes:
  copies that arrive together all pass the lookup (the bug of the receivers in the issue).
- `atomic`: claims the id under a lock before working, so one copy of many processes.
- `ack-then-fulfil`: answers 200 at once and processes 150 ms later, claiming the id atomically.
- `unique-insert-500`: looks the id up (a known one is answered 200), awaits its store, then
  claims it with an atomic insert; a copy that loses the insert is answered 500 (a unique-key
  violation left to crash), which a provider retries."""
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

MODE = sys.argv[1]
SECRET = sys.argv[2].encode()
STORE_LATENCY = 0.020
FULFIL_AFTER = 0.150
seen = set()
processed = [0]
lock = threading.Lock()


def claim(event_id):
    """Records the id and processes the event, unless the id is already recorded."""
    with lock:
        if event_id in seen:
            return False
        seen.add(event_id)
        processed[0] += 1
        return True


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path != "/count":
            return reply(self, 404, {"error": "not found"})
        with lock:
            reply(self, 200, {"count": processed[0]})

    def do_POST(self):
        raw = read_body(self)
        given = (self.headers.get("X-Signature") or "").split("=", 1)[-1]
        expected = hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given, expected):
            return reply(self, 401, {"error": "invalid signature"})
        try:
            event_id = json.loads(raw)["id"]
        except (ValueError, KeyError, TypeError):
            return reply(self, 400, {"error": "not an event"})
        if MODE in ("check-then-insert", "unique-insert-500"):
            with lock:
                known = event_id in seen
            if known:
                return reply(self, 200, {"duplicate": True})
            time.sleep(STORE_LATENCY)
        if MODE == "check-then-insert":
            with lock:
                seen.add(event_id)
                processed[0] += 1
            return reply(self, 200, {"processed": True})
        if MODE == "ack-then-fulfil":
            threading.Timer(FULFIL_AFTER, claim, args=(event_id,)).start()
            return reply(self, 200, {"queued": True})
        if claim(event_id):
            return reply(self, 200, {"processed": True})
        if MODE == "unique-insert-500":
            return reply(self, 500, {"error": "duplicate key value violates unique constraint"})
        reply(self, 200, {"duplicate": True})


serve(App)
