"""A webhook receiver for `--scheme hmac` (X-Signature: sha256=<hex>, secret whsec_ground_truth)
that acknowledges a valid delivery at once with 200 and processes it afterwards in a background
thread, as receivers do to answer within the provider's timeout. The first argument: `dedupes` (a
delivery id already seen is acknowledged and not processed again), `processes-duplicates` (every
delivery is processed, the duplicate too, late) or `processes-duplicates-later` (the duplicate is
processed too, from a slower retry queue: 1500-1700 ms after it was acknowledged). The second,
optional: how much later the first delivery of an id is processed (and, but for the last mode, a
duplicate too), as a range of milliseconds (default `100-150`). Its ledger is at GET /processed."""
import hashlib
import hmac
import json
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = b"whsec_ground_truth"
DEDUPES = sys.argv[1] == "dedupes"
DUPLICATES_LATER = sys.argv[1] == "processes-duplicates-later"
EARLIEST, LATEST = (int(ms) / 1000 for ms in (sys.argv[2] if len(sys.argv) > 2 else "100-150").split("-"))
processed = []
seen = set()
lock = threading.Lock()


def process_later(event_id, earliest=EARLIEST, latest=LATEST):
    time.sleep(random.uniform(earliest, latest))
    with lock:
        processed.append(event_id)


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        if self.path == "/processed":
            with lock:
                reply(self, 200, {"processed": list(processed)})
        else:
            reply(self, 404, {"error": "not found"})
    def do_POST(self):
        if self.path != "/hooks":
            return reply(self, 404, {"error": "not found"})
        raw = read_body(self)
        header = self.headers.get("X-Signature")
        if header is None:
            return reply(self, 400, {"error": "missing signature"})
        expected = hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(header.split("=", 1)[-1], expected):
            return reply(self, 401, {"error": "invalid signature"})
        event_id = json.loads(raw)["id"]
        with lock:
            duplicate = event_id in seen
            seen.add(event_id)
        reply(self, 200, {"ok": True})
        if duplicate and DUPLICATES_LATER:
            threading.Thread(target=process_later, args=(event_id, 1.5, 1.7), daemon=True).start()
        elif not (duplicate and DEDUPES):
            threading.Thread(target=process_later, args=(event_id,), daemon=True).start()


serve(App)
