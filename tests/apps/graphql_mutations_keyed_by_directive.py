"""A GraphQL endpoint in the manner of Shopify's Admin API from 2026-04: a mutation must carry
`@idempotent(key: "…")` on its field, or it is refused (400, with a GraphQL error); a repeated key
returns the first result. POST /graphql takes {"query": …, "variables": …}; the key is read with a
pattern, enough for the tests' documents. Its ledger is at GET /charges ({"count": n, "keys": [...]})."""
import json
import re
import threading
import uuid
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

DIRECTIVE = re.compile(r'@idempotent\(\s*key\s*:\s*"([^"\\]+)"\s*\)')

refunds = []
stored = {}
lock = threading.Lock()


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path == "/charges":
            with lock:
                reply(self, 200, {"count": len(refunds), "keys": sorted({key for key, _ in refunds})})
        else:
            reply(self, 404, {"error": "not found"})

    def do_POST(self):
        try:
            request = json.loads(read_body(self))
            query = request["query"]
        except (ValueError, KeyError, TypeError):
            return reply(self, 400, {"errors": [{"message": "expected {\"query\": …}"}]})
        if not query.lstrip().startswith("mutation"):
            return reply(self, 200, {"data": {"shop": {"name": "test"}}})
        keys = DIRECTIVE.findall(query)
        if len(keys) != 1:
            return reply(self, 400, {"errors": [{"message": "The @idempotent directive is required for this mutation."}]})
        key = keys[0]
        with lock:
            if key in stored:
                return reply(self, 200, stored[key])
            answer = {"data": {"refundCreate": {"refund": {"id": "gid://shopify/Refund/" + uuid.uuid4().hex[:10]}}}}
            refunds.append((key, answer))
            stored[key] = answer
        reply(self, 200, answer)


serve(App)
