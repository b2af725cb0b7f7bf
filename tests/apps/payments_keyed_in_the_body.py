"""A Square-style payments API: the idempotency key is the `idempotency_key` member of the JSON body
(or, with --key-from query, the `idempotency_key` query parameter), never a header. A payment
without one is refused with 400, and so is one longer than Square's 45 characters; a key reused with
another request is refused with 400 IDEMPOTENCY_KEY_REUSED. Flags:
  --ignore-key        the key is required but not used: every request creates a payment (the bug)
  --key-from query    read the key from the URL's query instead of the body
Answers {"payment": {"id": …}}; its ledger is at GET /charges ({"count": n, "keys": [...]})."""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--ignore-key", action="store_true")
parser.add_argument("--key-from", choices=["body", "query"], default="body")
args = parser.parse_args()

charges = []
stored = {}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            with lock:
                reply(self, 200, {"count": len(charges), "keys": sorted({key for key, _ in charges})})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            body = json.loads(read_body(self) or b"null")
        except ValueError:
            return reply(self, 400, {"errors": [{"code": "BAD_REQUEST", "detail": "the body is not JSON"}]})
        if args.key_from == "query":
            key = (parse_qs(urlsplit(self.path).query).get("idempotency_key") or [None])[0]
        else:
            key = body.get("idempotency_key") if isinstance(body, dict) else None
        if not isinstance(key, str) or not key:
            return reply(self, 400, {"errors": [{"code": "MISSING_REQUIRED_PARAMETER", "field": "idempotency_key"}]})
        if len(key) > 45:
            return reply(self, 400, {"errors": [{"code": "VALUE_TOO_LONG", "field": "idempotency_key"}]})
        # What the key stands for: the request without the key itself.
        request = {name: value for name, value in body.items() if name != "idempotency_key"}
        # Check and store under one lock, so concurrent duplicates find each other.
        with lock:
            if not args.ignore_key and key in stored:
                first_request, answer = stored[key]
                if first_request != request:
                    return reply(self, 400, {"errors": [{"code": "IDEMPOTENCY_KEY_REUSED", "field": "idempotency_key"}]})
                return reply(self, 200, answer)
            answer = {"payment": {"id": "pay_" + uuid.uuid4().hex[:12], "amount_money": body.get("amount_money")}}
            charges.append((key, answer["payment"]["id"]))
            stored[key] = (request, answer)
        reply(self, 200, answer)


serve(App)
