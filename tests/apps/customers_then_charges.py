"""A payments API of two chained steps: POST /customers creates a customer, POST
/customers/<id>/charges charges it. Both take an Idempotency-Key; how the charges take it is up to
--charges:
  correct           the key is claimed under a lock before the work (a duplicate in flight gets 409,
                    a finished one its stored answer, another body with the key 422)
  look-then-insert  the store is looked up, the charge made, then the answer inserted: duplicates
                    that arrive together all find nothing and all charge
  ignore-key        every request charges, whatever its key
With --webhook-url URL and --webhook-secret whsec_…, every charge made is announced to URL as a
`charge.succeeded` event signed as Standard Webhooks sign (--webhook-twice: announced twice, as
a sender that notifies again on a retry would).
The ledgers are GET /customers/count and GET /charges/count ({"count": n}); the OpenAPI document
the workflows use is tests/fixtures/arazzo/customers-charges.openapi.yaml."""
import argparse
import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--charges", choices=["correct", "look-then-insert", "ignore-key"], default="correct")
parser.add_argument("--webhook-url")
parser.add_argument("--webhook-secret")
parser.add_argument("--webhook-twice", action="store_true")
args = parser.parse_args()

# How long a charge's work takes: room for concurrent duplicates to overlap.
WORK = 0.05

lock = threading.Lock()
customers = {}
charges = []
# (scope, key) -> ("in-flight" | answer, fingerprint)
stored = {}


def claim(scope, key, fingerprint):
    """The claim of a correct store: None when this request may execute, else the answer to give."""
    with lock:
        entry = stored.get((scope, key))
        if entry is None:
            stored[(scope, key)] = ("in-flight", fingerprint)
            return None
        answer, seen = entry
        if seen != fingerprint:
            return (422, {"error": "the key was used with another body"})
        if answer == "in-flight":
            return (409, {"error": "a request with this key is in flight"})
        return answer


def announce(charge):
    """Delivers `charge.succeeded` for `charge`, signed as Standard Webhooks sign, off the request's thread."""
    if not args.webhook_url:
        return
    key = base64.b64decode(args.webhook_secret.removeprefix("whsec_"))

    def deliver():
        for _ in range(2 if args.webhook_twice else 1):
            event_id = "evt_" + uuid.uuid4().hex[:12]
            stamp = str(int(time.time()))
            body = json.dumps({"id": event_id, "type": "charge.succeeded", "created": int(stamp), "data": charge}).encode()
            mac = hmac.new(key, f"{event_id}.{stamp}.".encode() + body, hashlib.sha256).digest()
            request = urllib.request.Request(args.webhook_url, data=body, method="POST", headers={
                "Content-Type": "application/json",
                "webhook-id": event_id,
                "webhook-timestamp": stamp,
                "webhook-signature": "v1," + base64.b64encode(mac).decode(),
            })
            try:
                urllib.request.urlopen(request, timeout=5).read()
            except OSError:
                pass

    threading.Thread(target=deliver, daemon=True).start()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/customers/count":
            reply(self, 200, {"count": len(customers)})
        elif self.path == "/charges/count":
            reply(self, 200, {"count": len(charges)})
        elif self.path.startswith("/customers/"):
            customer = customers.get(self.path.split("/")[2])
            reply(self, 200 if customer else 404, customer or {"error": "no such customer"})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            body = json.loads(read_body(self) or b"{}")
        except ValueError:
            return reply(self, 400, {"error": "the body is not JSON"})
        key = self.headers.get("Idempotency-Key")
        parts = self.path.strip("/").split("/")
        if parts == ["customers"]:
            return self.create_customer(key, body)
        if len(parts) == 3 and parts[0] == "customers" and parts[2] == "charges":
            return self.charge(parts[1], key, body)
        reply(self, 404, {"error": "not found"})

    def create_customer(self, key, body):
        if key is not None:
            answer = claim("customers", key, body)
            if answer is not None:
                return reply(self, *answer)
        customer = {"id": "cus_" + uuid.uuid4().hex[:10], "name": body.get("name")}
        with lock:
            customers[customer["id"]] = customer
            if key is not None:
                stored[("customers", key)] = ((201, customer), body)
        reply(self, 201, customer)

    def charge(self, customer_id, key, body):
        if customer_id not in customers:
            return reply(self, 404, {"error": "no such customer " + customer_id})
        scope = "charges:" + customer_id
        if args.charges == "correct" and key is not None:
            answer = claim(scope, key, body)
            if answer is not None:
                return reply(self, *answer)
        elif args.charges == "look-then-insert" and key is not None:
            with lock:
                entry = stored.get((scope, key))
            if entry is not None:
                answer, seen = entry
                return reply(self, *(answer if seen == body else (422, {"error": "another body"})))
        time.sleep(WORK)
        charge = {"id": "ch_" + uuid.uuid4().hex[:10], "customer": customer_id, "amount": body.get("amount")}
        with lock:
            charges.append(charge)
            if key is not None and args.charges != "ignore-key":
                stored[(scope, key)] = ((201, charge), body)
        announce(charge)
        reply(self, 201, charge)


serve(App)
