"""A payments API whose ledger answers only Basic auth, the way a count URL with credentials in
it (`http://user:PASSWORD@host/count`) is meant to be read.

POST /payments is idempotent by its Idempotency-Key (a repeated key gets the first answer and
executes nothing); GET /count answers {"count": executions} to `Authorization: Basic
base64(user:PASSWORD)` and 401 to anything else. PASSWORD is the first argument. Prints its port
on the first line of stdout.
"""
import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EXPECTED = "Basic " + base64.b64encode(f"user:{sys.argv[1]}".encode()).decode()
lock = threading.Lock()
payments = {}
executions = 0


class App(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        global executions
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key not in payments:
                executions += 1
                payments[key] = f"pay_{executions}"
            payment = payments[key]
        self.reply(201, {"id": payment})

    def do_GET(self):
        if self.headers.get("Authorization") != EXPECTED:
            return self.reply(401, {"error": "the ledger needs its Basic auth"})
        with lock:
            count = executions
        self.reply(200, {"count": count})


class Server(ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), App)
print(server.server_address[1], flush=True)
server.serve_forever()
