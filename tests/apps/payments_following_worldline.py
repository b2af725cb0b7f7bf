"""A payments API that keeps Worldline's idempotency contract (Worldline Direct, "Idempotent
requests"): the key travels in X-GCS-Idempotence-Key (at most 40 ASCII characters), a retry while
the first request runs gets 409, and every later request with the key gets the first answer back,
even with another body, marked with X-GCS-Idempotence-Request-Timestamp (the first request's time in
milliseconds). A refused payment (amount not positive) is not stored. Its ledger is at
GET /charges ({"count": n}).
  --marker-off   replays carry no X-GCS-Idempotence-Request-Timestamp"""
import argparse
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--marker-off", action="store_true")
args = parser.parse_args()

charges = []
records = {}  # key -> {"state": "running" | "done", "answer": ..., "status": ..., "at": ms}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, {"count": len(charges)})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/payments":
            return reply(self, 404, {"error": "not found"})
        try:
            payment = json.loads(read_body(self) or b"{}")
        except ValueError:
            return reply(self, 400, {"errorId": "INVALID_JSON"})
        key = self.headers.get("X-GCS-Idempotence-Key")
        if key is not None and not (0 < len(key) <= 40 and key.isascii()):
            return reply(self, 400, {"errorId": "INVALID_IDEMPOTENCE_KEY"})
        if not isinstance(payment.get("amount"), int) or payment["amount"] <= 0:
            return reply(self, 400, {"errorId": "INVALID_AMOUNT"})
        if key is not None:
            with lock:
                record = records.get(key)
                if record is None:
                    records[key] = {"state": "running", "at": int(time.time() * 1000)}
                elif record["state"] == "running":
                    return reply(self, 409, {"errorId": "IDEMPOTENCE_REQUEST_IN_PROGRESS"})
                else:
                    marker = [] if args.marker_off else [("X-GCS-Idempotence-Request-Timestamp", str(record["at"]))]
                    return reply(self, record["status"], record["answer"], marker)
        time.sleep(0.05)  # the acquirer
        with lock:
            charges.append(1)
            answer = {"id": "pay_" + uuid.uuid4().hex[:12], "status": "CAPTURED", "amount": payment["amount"]}
            if key is not None:
                records[key].update(state="done", answer=answer, status=201)
        reply(self, 201, answer)


serve(App)
