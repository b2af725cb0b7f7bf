"""What the small JSON apps under tests/apps share: JSON answers, the request body, and serving on
a free loopback port whose number is printed on the first line of stdout (the tests read it)."""
import json
from http.server import ThreadingHTTPServer


def reply(handler, status, body, headers=()):
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    for name, value in headers:
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(data)


def read_body(handler):
    return handler.rfile.read(int(handler.headers.get("Content-Length", 0)))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # Room for a burst of concurrent duplicates: the default backlog of 5 resets the rest.
    request_queue_size = 128


def serve(app):
    server = Server(("127.0.0.1", 0), app)
    print(server.server_address[1], flush=True)
    server.serve_forever()
