"""A gateway in front of a webhook receiver that refuses every request at once with 403 Forbidden
(an allow-list of source addresses that does not list the sender, say): fast, and never an
acknowledgement. Prints its port on the first line."""
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_POST(self):
        read_body(self)
        reply(self, 403, {"error": "forbidden: this address is not allowed"})


serve(App)
