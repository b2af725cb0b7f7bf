"""A webhook receiver for `--scheme hmac` (X-Signature: sha256=<hex>, secret whsec_ground_truth)
with a ledger at GET /processed. The first argument picks what it gets wrong: `none`,
`fulfils-duplicates`, `crashes` (a missing header raises, a bad signature is a 500), `json-dumps`
(verifies `json.dumps(json.loads(body))`, Python's default style), `strict-schema` (verifies the
raw bytes, then refuses with 422 an event whose `data` has fields it does not know), `ledger-auth`
(correct, but its ledger answers only `Authorization: Bearer ledger-token`)."""
import hashlib
import hmac
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = b"whsec_ground_truth"
FLAW = sys.argv[1]
processed = []
seen = set()
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        if FLAW == "ledger-auth" and self.headers.get("Authorization") != "Bearer ledger-token":
            reply(self, 401, {"error": "the ledger needs a token"})
        elif self.path == "/processed":
            reply(self, 200, {"processed": processed})
        else:
            reply(self, 404, {"error": "not found"})
    def do_POST(self):
        if self.path != "/hooks":
            return reply(self, 404, {"error": "not found"})
        raw = read_body(self)
        signed = json.dumps(json.loads(raw)).encode() if FLAW == "json-dumps" else raw
        header = self.headers.get("X-Signature")
        if FLAW == "crashes":
            given = header.split("=", 1)[1]
        elif header is None:
            return reply(self, 400, {"error": "missing signature"})
        else:
            given = header.split("=", 1)[-1]
        expected = hmac.new(SECRET, signed, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given, expected):
            if FLAW == "crashes":
                return reply(self, 500, {"error": "Traceback: SignatureError"})
            return reply(self, 401, {"error": "invalid signature"})
        event = json.loads(raw)
        if FLAW == "strict-schema" and set(event.get("data", {})) - {"amount", "currency"}:
            return reply(self, 422, {"error": "unexpected fields in data"})
        with lock:
            if event["id"] in seen and FLAW != "fulfils-duplicates":
                return reply(self, 200, {"duplicate": True})
            seen.add(event["id"])
            processed.append(event["id"])
        reply(self, 200, {"ok": True})


serve(App)
