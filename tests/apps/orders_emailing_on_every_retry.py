"""An orders API that charges once per key but sends a receipt email on every request, retries
included: the charges ledger shows one execution, the emails ledger one per request. With
--email-once it sends the email only with the charge, as a correct handler does.
Its ledgers: GET /charges ({"count": n}) and GET /emails ({"sent": [...]}, a list)."""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--email-once", action="store_true")
args = parser.parse_args()

charges = []
emails = []
stored = {}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, {"count": len(charges)})
        elif self.path == "/emails":
            reply(self, 200, {"sent": emails})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            fingerprint = json.loads(read_body(self) or b"{}")
        except ValueError:
            return reply(self, 400, {"error": "the body is not JSON"})
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key is not None and key in stored:
                answer, seen = stored[key]
                if seen != fingerprint:
                    return reply(self, 422, {"error": "key reused with another body"})
                if not args.email_once:
                    emails.append(answer["id"])
                return reply(self, 201, answer, [("Idempotent-Replayed", "true")])
            answer = {"id": "ord_" + uuid.uuid4().hex[:12], "status": "paid"}
            charges.append(answer["id"])
            emails.append(answer["id"])
            if key is not None:
                stored[key] = (answer, fingerprint)
        reply(self, 201, answer)


serve(App)
