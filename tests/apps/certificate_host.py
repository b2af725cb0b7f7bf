"""An HTTPS server standing in for a provider's certificate host (sns.<region>.amazonaws.com,
api.paypal.com), or for a look-alike host an attacker runs: it answers SNS's SubscribeURL
(`?Action=ConfirmSubscription`) as SNS does, serves the files of a directory by their name, over TLS with the given certificate and key, and appends every path requested to a
log file, so a test can tell whether a receiver fetched anything from it.

Usage: certificate_host.py CERT_PEM KEY_PEM DIR LOG. Prints its port on its first line.
"""
import http.server
import os
import ssl
import sys

cert, key, root, log = sys.argv[1:5]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a", encoding="utf-8") as out:
            out.write(self.path + "\n")
        name = os.path.basename(self.path.split("?")[0])
        path = os.path.join(root, name)
        if "Action=ConfirmSubscription" in self.path:
            # What SNS answers a visit of a SubscriptionConfirmation's SubscribeURL.
            body = b"<ConfirmSubscriptionResponse><ConfirmSubscriptionResult><SubscriptionArn>arn</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>"
            self.send_response(200)
        elif name and os.path.isfile(path):
            with open(path, "rb") as served:
                body = served.read()
            self.send_response(200)
        else:
            body = b"not found\n"
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
