"""A webhook receiver for `--scheme hmac` (X-Signature: sha256=<hex>) that handles only the event
types it is told: the secret is the first argument, the types the rest. A correctly signed event
of another type is refused with 400 "unhandled event type", as receivers that dispatch on the type
and fail on an unknown one do. Prints its port on the first line."""
import hashlib
import hmac
import json
import sys
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = sys.argv[1].encode()
HANDLED = set(sys.argv[2:])


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_POST(self):
        raw = read_body(self)
        given = (self.headers.get("X-Signature") or "").split("=", 1)[-1]
        expected = hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given, expected):
            return reply(self, 401, {"error": "invalid signature"})
        event_type = json.loads(raw).get("type")
        if event_type not in HANDLED:
            return reply(self, 400, {"error": f"unhandled event type {event_type}"})
        reply(self, 200, {"ok": True})


serve(App)
