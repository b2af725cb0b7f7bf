"""The providers' own SDKs, for tests/it/contracts/provider_sdks.rs.

One long-lived process: reads JSON-lines requests on stdin,
{"case", "provider", "op": "verify"|"sign", inputs...}, and writes one line per request,
{"case", "valid": bool} for "verify" or {"case", "signature": str} for "sign", computed by the
SDK's own function as a receiver (or, for "sign", a sender's test) calls it. An exception is
{"case", "error": "<type>: <message>"} (for "verify", an invalid verdict the test can read).
Time-window checks are switched off where the SDK has them (the test judges signatures, not clocks).

Inputs by provider (bodies are base64 in "body_b64" so any bytes pass through JSON):
- twilio (twilio RequestValidator): token, url, params ([[name, value], ...]) or json_body (the
  body as text, with bodySHA256 in the url), signature, algorithm (HMAC_SHA1 or HMAC_SHA256).
  "sign": RequestValidator.compute_signature(url, params, algorithm).
- sendgrid (sendgrid EventWebhook): public (base64 SPKI as the dashboard shows it), timestamp,
  body_b64 (UTF-8 text), signature (base64 DER).
- discord (discord-interactions verify_key): public (hex), timestamp, body_b64, signature (hex).
  "sign": PyNaCl's SigningKey(seed) -- the library discord-interactions verifies with -- over
  timestamp + body, hex (discord-interactions itself cannot sign).
- square (squareup webhooks_helper.verify_signature): key, url, body_b64, signature.
- paddle (paddle-python-sdk Verifier, time drift off): secret, header (Paddle-Signature), body_b64.
  "sign": secret, timestamp, body_b64 -> the Paddle-Signature header "ts=<timestamp>;h1=<hex>",
  the tag by the SDK's own PaddleSignature.calculate_hmac over the "<ts>:<body>" it verifies.
- "parse" (an event as the SDK's own models read it; the answer names what they made of it):
  paddle (paddle_billing Event.from_dict): body_b64 -> {event_type, entity (the class its data
  became; UndefinedEntity when the SDK could not read it), id}; square (squareup's
  PaymentCreatedEvent model): body_b64 -> {type, event_id, payment_id, amount, currency, status}.
- hubspot (hubspot-api-client Signature): secret, body_b64, uri, method, version (v1|v2|v3),
  timestamp, signature. "sign": Signature.get_signature with the same inputs.
"""

import base64
import json
import sys

import nacl.signing
import square.utils.webhooks_helper
from discord_interactions import verify_key
from hubspot.utils.signature import Signature as HubSpotSignature
from paddle_billing.Entities.Event import Event as PaddleEvent
from paddle_billing.Notifications.PaddleSignature import PaddleSignature
from paddle_billing.Notifications.Secret import Secret as PaddleSecret
from paddle_billing.Notifications.Verifier import Verifier as PaddleVerifier
from sendgrid.helpers.eventwebhook import EventWebhook
from square.types.payment_created_event import PaymentCreatedEvent as SquarePaymentCreated
from twilio.request_validator import RequestValidator
from werkzeug.datastructures import MultiDict


def body(request):
    return base64.b64decode(request.get("body_b64", ""))


def twilio_params(request):
    if "json_body" in request:
        return request["json_body"]
    # A MultiDict, as Flask hands the form to RequestValidator: repeated names keep every value.
    return MultiDict([tuple(pair) for pair in request.get("params", [])])


def twilio(request):
    validator = RequestValidator(request["token"])
    algorithm = request.get("algorithm")
    if request["op"] == "sign":
        return {"signature": validator.compute_signature(request["url"], twilio_params(request), algorithm)}
    return {"valid": validator.validate(request["url"], twilio_params(request), request["signature"], algorithm)}


def sendgrid(request):
    hook = EventWebhook(request["public"])
    payload = body(request).decode("utf-8")
    return {"valid": hook.verify_signature(payload, request["signature"], request["timestamp"])}


def discord(request):
    if request["op"] == "sign":
        key = nacl.signing.SigningKey(bytes.fromhex(request["seed"]))
        signed = key.sign(request["timestamp"].encode() + body(request))
        return {"signature": signed.signature.hex()}
    return {"valid": verify_key(body(request), request["signature"], request["timestamp"], request["public"])}


def square_sdk(request):
    if request["op"] == "parse":
        event = SquarePaymentCreated.model_validate(json.loads(body(request)))
        payment = event.data.object.payment
        return {
            "type": event.type,
            "event_id": event.event_id,
            "payment_id": payment.id,
            "amount": payment.amount_money.amount,
            "currency": payment.amount_money.currency,
            "status": payment.status,
        }
    valid = square.utils.webhooks_helper.verify_signature(
        request_body=body(request).decode("utf-8"),
        signature_header=request["signature"],
        signature_key=request["key"],
        notification_url=request["url"],
    )
    return {"valid": valid}


class _PaddleRequest:
    def __init__(self, header, raw):
        self.headers = {"Paddle-Signature": header}
        self.body = raw


def paddle(request):
    if request["op"] == "parse":
        event = PaddleEvent.from_dict(json.loads(body(request)))
        return {"event_type": str(event.event_type), "entity": type(event.data).__name__, "id": event.data.id}
    if request["op"] == "sign":
        # The string the SDK verifies (PaddleSignature.__do_verify): f"{timestamp}:{raw_body}".
        signed = f"{request['timestamp']}:".encode() + body(request)
        tag = PaddleSignature.calculate_hmac(request["secret"], signed).hexdigest()
        return {"signature": f"ts={request['timestamp']};h1={tag}"}
    verifier = PaddleVerifier()
    raw = _PaddleRequest(request["header"], body(request))
    return {"valid": bool(verifier.verify(raw, PaddleSecret(request["secret"]), verify_time_drift=False))}


def hubspot(request):
    args = dict(
        client_secret=request["secret"],
        request_body=body(request).decode("utf-8"),
        http_uri=request.get("uri"),
        http_method=request.get("method", "POST"),
        signature_version=request.get("version", "v2"),
        timestamp=request.get("timestamp"),
    )
    if request["op"] == "sign":
        return {"signature": HubSpotSignature.get_signature(**args)}
    if args["signature_version"] == "v3":
        # is_valid checks the timestamp against the clock for v3: the test judges the signature.
        return {"valid": HubSpotSignature.get_signature(**args) == request["signature"]}
    return {"valid": HubSpotSignature.is_valid(signature=request["signature"], **args)}


PROVIDERS = {
    "twilio": twilio,
    "sendgrid": sendgrid,
    "discord": discord,
    "square": square_sdk,
    "paddle": paddle,
    "hubspot": hubspot,
}


def main():
    # discord-interactions prints a failed verification's exception: keep stdout for the answers.
    answers = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = PROVIDERS[request["provider"]](request)
        except Exception as err:  # noqa: BLE001 -- the verdict of a library that raises is "invalid"
            answer = {"error": f"{type(err).__name__}: {err}"}
        answer["case"] = request["case"]
        print(json.dumps(answer), file=answers, flush=True)


if __name__ == "__main__":
    main()
