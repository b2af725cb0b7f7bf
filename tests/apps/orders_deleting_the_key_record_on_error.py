"""An orders API behind an idempotency decorator written in the AWS Lambda Powertools style: it
saves an in-progress record under the key, runs the function, saves the result as the record, and,
when the function raises, deletes the record in its `except` block and re-raises, so that "a
failed request can be retried". The handler charges the card, then notifies the shop, and the
notification service fails the first event of every order (a timeout of a cold downstream): the
charge is committed, the answer is a 500, and the retry with the key charges again.

  --idempotent-charge-only   the fix: the decorator wraps the charge alone, whose record is
                             completed as soon as the charge is committed and never deleted
                             afterwards; a notification that fails after it goes to an outbox to
                             be sent again, and the order is answered, so a retry replays the charge

Its ledger is at GET /charges ({"count": n})."""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--idempotent-charge-only", action="store_true")
args = parser.parse_args()

charges = []
outbox = []
notified = set()
records = {}
records_lock = threading.Lock()


class AlreadyInProgress(Exception):
    pass


class NotificationFailed(Exception):
    pass


def idempotent(function):
    """Runs `function(payload)` once per key: an in-progress record while it runs, its result
    afterwards, and no record at all when it raised."""
    def wrapper(key, payload):
        with records_lock:
            record = records.get(key)
            if record is not None:
                if record["status"] == "INPROGRESS":
                    raise AlreadyInProgress(key)
                return record["result"]
            records[key] = {"status": "INPROGRESS"}
        try:
            result = function(payload)
        except Exception:
            # "Delete the record so the request can be retried": the charge above stays made.
            with records_lock:
                records.pop(key, None)
            raise
        with records_lock:
            records[key] = {"status": "COMPLETED", "result": result}
        return result
    return wrapper


def charge(payload):
    order = {"id": "ord_" + uuid.uuid4().hex[:12], "amount": payload.get("amount"), "status": "paid"}
    charges.append(order["id"])
    return order


def notify_shop(order):
    with records_lock:
        first = order["id"] not in notified
        notified.add(order["id"])
    if first:
        raise NotificationFailed("the notification service timed out")


def create_order(payload):
    order = charge(payload)
    notify_shop(order)
    return order


idempotent_create_order = idempotent(create_order)
idempotent_charge = idempotent(charge)


def handle(key, payload):
    if args.idempotent_charge_only:
        order = idempotent_charge(key, payload)
        try:
            notify_shop(order)
        except NotificationFailed:
            outbox.append(order["id"])
        return order
    return idempotent_create_order(key, payload)


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, {"count": len(charges)})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            payload = json.loads(read_body(self) or b"{}")
        except ValueError:
            return reply(self, 400, {"error": "the body is not JSON"})
        key = self.headers.get("Idempotency-Key")
        try:
            order = handle(key, payload) if key is not None else create_order(payload)
        except AlreadyInProgress:
            return reply(self, 409, {"error": "a request with this key is in progress"}, [("Retry-After", "1")])
        except NotificationFailed as failure:
            return reply(self, 500, {"error": str(failure)})
        reply(self, 201, order)


serve(App)
