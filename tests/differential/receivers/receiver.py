"""A webhook receiver built on a provider's own Python library with its default settings, for
tests/it/differential.rs to run `webhook check` against. Binds 127.0.0.1 on a free port and
prints the port on its first line. Answers 200 when the library accepts the delivery and 400
with the library's message when it does not.

argv[1], what verifies: stripe (stripe.Webhook.construct_event), standard (standardwebhooks),
svix (svix), slack (slack_sdk SignatureVerifier), shopify (the documented HMAC, by hand), or
reserialising: a common bug on purpose, standardwebhooks over
json.dumps(json.loads(body), separators=(",", ":")) instead of the raw bytes.
The secret comes in the WEBHOOK_SECRET environment variable.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import slack_sdk.signature
import standardwebhooks
import stripe
import svix.webhooks

MODE = sys.argv[1]
SECRET = os.environ["WEBHOOK_SECRET"]


def verify(headers, body):
    if MODE == "stripe":
        stripe.Webhook.construct_event(body, headers.get("stripe-signature"), SECRET)
    elif MODE == "standard":
        standardwebhooks.Webhook(SECRET).verify(body, headers)
    elif MODE == "svix":
        svix.webhooks.Webhook(SECRET).verify(body, headers)
    elif MODE == "slack":
        if not slack_sdk.signature.SignatureVerifier(SECRET).is_valid_request(body, headers):
            raise ValueError("slack_sdk: invalid request")
    elif MODE == "shopify":
        computed = base64.b64encode(hmac.new(SECRET.encode(), body, hashlib.sha256).digest())
        if not hmac.compare_digest(computed, headers.get("x-shopify-hmac-sha256", "").encode()):
            raise ValueError("shopify: HMAC mismatch")
    elif MODE == "reserialising":
        compact = json.dumps(json.loads(body), separators=(",", ":")).encode()
        standardwebhooks.Webhook(SECRET).verify(compact, headers)
    else:
        raise SystemExit(f"unknown mode {MODE}")


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            verify(headers, body)
            status, answer = 200, b'{"ok":true}'
        except Exception as err:
            status, answer = 400, json.dumps({"error": f"{type(err).__name__}: {err}"}).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
