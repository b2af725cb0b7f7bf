"""A GitHub App's webhook endpoint (secret gh_ground_truth): the HMAC over the raw body, then a
push must name its repository (anything else is a 400)."""
import hashlib
import hmac
import json
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = b"gh_ground_truth"


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_POST(self):
        raw = read_body(self)
        expected = "sha256=" + hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(self.headers.get("X-Hub-Signature-256", ""), expected):
            return reply(self, 401, {"error": "invalid signature"})
        if "repository" not in json.loads(raw):
            return reply(self, 400, {"error": "not a repository event"})
        reply(self, 200, {"ok": True})


serve(App)
