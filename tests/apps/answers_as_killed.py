"""A payments endpoint for `idem check --server-cmd` whose answer is only complete when the
connection closes: HTTP/1.0, no Content-Length, the body ends with the socket.

Usage: answers_as_killed.py PORT MARKER HOLD_SECONDS

In its first life (no MARKER file yet) it holds every connection open for HOLD_SECONDS after
writing the answer, so a SIGKILL in that time is what completes the answer: the request ends as
the kill lands. Restarted (MARKER exists), it answers at once with a Content-Length. Every answer
names the same payment, so a crash test that mistook the first answer for a crash survived would
pass it.
"""
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, MARKER, HOLD = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
FIRST_LIFE = not os.path.exists(MARKER)
open(MARKER, "a").close()
ANSWER = b'{"id":"pay_1","status":"succeeded"}'


class Payments(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        # Read the whole request: unread bytes would make the kernel reset the connection on a
        # kill instead of closing it.
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        if FIRST_LIFE:
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(ANSWER)
            self.wfile.flush()
            time.sleep(HOLD)
        else:
            self.send_header("Content-Length", str(len(ANSWER)))
            self.end_headers()
            self.wfile.write(ANSWER)


class Server(ThreadingHTTPServer):
    daemon_threads = True


Server(("127.0.0.1", PORT), Payments).serve_forever()
