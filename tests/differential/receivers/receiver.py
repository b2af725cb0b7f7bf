"""A webhook receiver built on a provider's own Python library with its default settings, for
tests/it/differential.rs to run `webhook check` against. Binds 127.0.0.1 on a free port and
prints the port on its first line. Answers 200 when the library accepts the delivery and 400
with the library's message when it does not.

argv[1], what verifies: stripe (stripe.Webhook.construct_event), standard (standardwebhooks),
svix (svix), slack (slack_sdk SignatureVerifier, answering url_verification as an Events API app does), shopify (the documented HMAC, by hand), or
reserialising: a common bug on purpose, standardwebhooks over
json.dumps(json.loads(body), separators=(",", ":")) instead of the raw bytes.
More modes, each a mistake real receivers make (webhook check's receiver-mistake checks), and
otherwise standardwebhooks' verdict:
  first-signature-only: verifies only the first entry of webhook-signature (PostHog, Svix C# < 1.96);
  prefix-compare: a hand-written verifier that accepts an entry the expected signature starts with;
  known-types: 400 for event types not in the KNOWN_TYPES environment variable (comma-separated);
  requires-order: 409 for `<object>.updated` of an object whose `.created` it has not seen.
The secret comes in the WEBHOOK_SECRET environment variable.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import slack_sdk.signature
import standardwebhooks
import stripe
import svix.webhooks

MODE = sys.argv[1]
SECRET = os.environ["WEBHOOK_SECRET"]
KNOWN_TYPES = set(filter(None, os.environ.get("KNOWN_TYPES", "").split(",")))
CREATED = set()
CREATED_LOCK = threading.Lock()


class Refused(Exception):
    """A valid delivery the receiver refuses anyway, with this status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def prefix_compare(headers, body):
    msg_id, timestamp = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "0")
    if abs(time.time() - int(timestamp)) > 300:
        raise ValueError("timestamp outside tolerance")
    moment = datetime.fromtimestamp(int(timestamp), tz=timezone.utc)
    expected = standardwebhooks.Webhook(SECRET).sign(msg_id, moment, body.decode())
    # The flaw: a prefix test, not an equality test.
    if not any(expected.startswith(entry) for entry in headers.get("webhook-signature", "").split()):
        raise ValueError("no matching signature")


def handle(body):
    event = json.loads(body)
    kind = event.get("type", "")
    if MODE == "known-types" and kind not in KNOWN_TYPES:
        raise Refused(400, f"unhandled event type {kind}")
    if MODE == "requires-order":
        object_id = (event.get("data") or {}).get("id")
        with CREATED_LOCK:
            if kind.endswith(".created"):
                CREATED.add(object_id)
            elif kind.endswith(".updated") and object_id not in CREATED:
                raise Refused(409, f"update for unknown object {object_id}")


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
    elif MODE in ("known-types", "requires-order"):
        standardwebhooks.Webhook(SECRET).verify(body, headers)
    elif MODE == "first-signature-only":
        first = headers.get("webhook-signature", "").split(" ")[0]
        standardwebhooks.Webhook(SECRET).verify(body, {**headers, "webhook-signature": first})
    elif MODE == "prefix-compare":
        prefix_compare(headers, body)
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
            handle(body)
            status, answer = 200, b'{"ok":true}'
            # An Events API app answers Slack's url_verification with its challenge (Slack's docs),
            # after the signature check above, as Bolt does.
            if MODE == "slack":
                event = json.loads(body or b"{}")
                if isinstance(event, dict) and event.get("type") == "url_verification":
                    answer = json.dumps({"challenge": event.get("challenge")}).encode()
        except Refused as err:
            status, answer = err.status, json.dumps({"error": str(err)}).encode()
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
