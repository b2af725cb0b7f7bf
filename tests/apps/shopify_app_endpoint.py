"""A Shopify app's webhook endpoint as its docs show it (secret shpss_ground_truth): the HMAC over
the raw body, the shop from `X-Shopify-Shop-Domain` (a delivery for a shop it does not serve is
refused), duplicates dropped by `X-Shopify-Webhook-Id`."""
import base64
import hashlib
import hmac
import threading
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = b"shpss_ground_truth"
SHOPS = {"idem-test.myshopify.com"}
processed = []
seen = set()
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_POST(self):
        raw = read_body(self)
        digest = base64.b64encode(hmac.new(SECRET, raw, hashlib.sha256).digest()).decode()
        if not hmac.compare_digest(self.headers.get("X-Shopify-Hmac-Sha256", ""), digest):
            return reply(self, 401, {"error": "invalid hmac"})
        if self.headers.get("X-Shopify-Shop-Domain") not in SHOPS:
            return reply(self, 400, {"error": "unknown shop"})
        with lock:
            webhook_id = self.headers.get("X-Shopify-Webhook-Id")
            if webhook_id not in seen:
                seen.add(webhook_id)
                processed.append(self.headers.get("X-Shopify-Topic"))
        reply(self, 200, {"ok": True})


serve(App)
