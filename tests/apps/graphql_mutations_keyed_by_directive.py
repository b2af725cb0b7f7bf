"""A GraphQL endpoint in the manner of Shopify's Admin API from 2026-04: a mutation must carry
`@idempotent(key: "…")` on its field, or it is refused (400, with a GraphQL error); a repeated key
returns the first result, and a repeated key with another mutation or other variables is refused
(422, a GraphQL error), as is a key longer than 255 characters (400). POST /graphql takes {"query": …, "variables": …}; the key is read with a
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
        if len(key) > 255:
            return reply(self, 400, {"errors": [{"message": "The idempotency key is longer than 255 characters."}]})
        # What the key stands for: the mutation without its directive, and its variables.
        mutation = (DIRECTIVE.sub("", query), request.get("variables"))
        with lock:
            if key in stored:
                first_mutation, answer = stored[key]
                if first_mutation != mutation:
                    return reply(self, 422, {"errors": [{"message": "The idempotency key was used for another request.",
                                                         "extensions": {"code": "IDEMPOTENCY_KEY_REUSED"}}]})
                return reply(self, 200, answer)
            answer = {"data": {"refundCreate": {"refund": {"id": "gid://shopify/Refund/" + uuid.uuid4().hex[:10]}}}}
            refunds.append((key, answer))
            stored[key] = (mutation, answer)
        reply(self, 200, answer)


serve(App)
