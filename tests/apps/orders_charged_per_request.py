"""An orders API with no idempotency layer: the order id is the client's business key, and every
request charges (a common upsert-style design). Its ledger is at GET /charges."""
import json
import time
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

charges = []


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        if self.path == "/charges":
            reply(self, 200, {"count": len(charges), "charges": charges})
        else:
            reply(self, 404, {"error": "not found"})
    def do_POST(self):
        order = json.loads(read_body(self) or b"{}")
        time.sleep(0.01)
        charges.append(order.get("order_id"))
        reply(self, 201, {"id": "ord_" + str(order.get("order_id")), "amount": order.get("amount"), "status": "paid"})


serve(App)
