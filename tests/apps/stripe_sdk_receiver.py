"""A receiver on the official stripe SDK: `stripe.Webhook.construct_event` parses each delivery
(signed with $WEBHOOK_SECRET), and what it parsed is printed as a JSON line (the test reads them),
then answered 200 (400 when the SDK refuses it). Prints its port on the first line."""
import json, os, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
import stripe

SECRET = os.environ["WEBHOOK_SECRET"]

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        try:
            event = stripe.Webhook.construct_event(body, self.headers.get("stripe-signature"), SECRET)
            obj = event.data.object
            fields = obj.to_dict()
            parsed = {"type": event.type, "id": event.id, "object": event.object, "api_version": event.api_version,
                      "livemode": event.livemode, "created": event.created, "object_id": obj.id,
                      "object_object": obj.object, "sdk_class": type(obj).__name__, "amount": fields.get("amount"),
                      "customer": fields.get("customer", "absent"), "metadata": fields.get("metadata"),
                      "request_id": event.request.id,
                      "payment_intent": fields.get("payment_intent", "absent"),
                      "latest_charge": fields.get("latest_charge", "absent")}
            status = 200
        except Exception as err:
            parsed = {"error": f"{type(err).__name__}: {err}"}
            status = 400
        print(json.dumps(parsed), flush=True)
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass

server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
