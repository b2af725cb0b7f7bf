"""An AWS SNS receiver written as applications write them: it fetches the certificate the
message's SigningCertURL names and verifies the RSA signature with its key (stdlib only: the key
read from the certificate's DER, PKCS#1 v1.5 checked with pow). With --pin it first requires the
URL to be https on sns.<region>.amazonaws.com with a .pem path, no user name and port 443, as
AWS's sns-validator does; without it, it fetches from whatever URL it is given.

Usage: sns_receiver.py [--pin] --trust-ca CA_PEM [--connect-to HOST:443:IP:PORT]...
Prints its port on its first line; answers 200 to a verified message, 401 otherwise.
"""
import base64
import hashlib
import http.client
import http.server
import json
import re
import socket
import ssl
import sys
import urllib.parse

args = sys.argv[1:]
pin = "--pin" in args
trust_ca = args[args.index("--trust-ca") + 1]
connect_to = {}
for at, arg in enumerate(args):
    if arg == "--connect-to":
        host, _, ip, port = args[at + 1].split(":")
        connect_to[host] = (ip, int(port))

HOST_PATTERN = re.compile(r"^sns\.[a-zA-Z0-9\-]{3,}\.amazonaws\.com(\.cn)?$")
NOTIFICATION = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
SUBSCRIPTION = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
DIGEST_INFO = {
    "1": (hashlib.sha1, bytes.fromhex("3021300906052b0e03021a05000414")),
    "2": (hashlib.sha256, bytes.fromhex("3031300d060960864801650304020105000420")),
}


def pinned(url):
    parts = urllib.parse.urlsplit(url)
    return (parts.scheme == "https" and parts.username is None and parts.port in (None, 443)
            and HOST_PATTERN.match(parts.hostname or "") is not None and parts.path.endswith(".pem"))


def fetch(url):
    parts = urllib.parse.urlsplit(url)
    path = parts.path + ("?" + parts.query if parts.query else "")
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=trust_ca)
        ip, port = connect_to.get(parts.hostname, (parts.hostname, parts.port or 443))
        raw = socket.create_connection((ip, port), timeout=10)
        connection = http.client.HTTPSConnection(parts.hostname, timeout=10, context=context)
        connection.sock = context.wrap_socket(raw, server_hostname=parts.hostname)
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=10)
    connection.request("GET", path)
    return connection.getresponse().read()


def tlv(data, at):
    tag, length = data[at], data[at + 1]
    at += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[at:at + count], "big")
        at += count
    return tag, data[at:at + length], at + length


def children(data):
    found, at = [], 0
    while at < len(data):
        tag, value, at = tlv(data, at)
        found.append((tag, value))
    return found


def rsa_key(pem):
    der = base64.b64decode("".join(line for line in pem.decode().splitlines() if "-----" not in line))
    tbs = children(children(children(der)[0][1])[0][1])
    if tbs[0][0] == 0xA0:
        tbs = tbs[1:]
    bit_string = children(tbs[5][1])[1][1][1:]
    modulus, exponent = children(children(bit_string)[0][1])[:2]
    return int.from_bytes(modulus[1], "big"), int.from_bytes(exponent[1], "big")


def verified(message):
    url = message["SigningCertURL"]
    if pin and not pinned(url):
        return False
    modulus, exponent = rsa_key(fetch(url))
    fields = NOTIFICATION if message["Type"] == "Notification" else SUBSCRIPTION
    text = "".join(f"{name}\n{message[name]}\n" for name in fields if name in message)
    digest, prefix = DIGEST_INFO[message["SignatureVersion"]]
    size = (modulus.bit_length() + 7) // 8
    signature = int.from_bytes(base64.b64decode(message["Signature"]), "big")
    encoded = pow(signature, exponent, modulus).to_bytes(size, "big")
    expected_tail = b"\x00" + prefix + digest(text.encode()).digest()
    return encoded == b"\x00\x01" + b"\xff" * (size - 2 - len(expected_tail)) + expected_tail


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            ok = verified(json.loads(body))
        except Exception:  # a malformed message or a failed fetch: not verified
            ok = False
        self.send_response(200 if ok else 401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
