"""The Python reference verifiers of the differential test (tests/it/differential.rs).

One long-lived process: reads JSON-lines cases on stdin, {"case", "reference", "secret",
"headers", "body_b64", "now"}, and writes {"case", "valid", "detail"} lines, judged by the
providers' own libraries as a receiver calls them by default. Time is frozen at each case's
"now" by replacing the clock each library reads. An exception is an invalid verdict, with its
type and message as the detail (stripe-python, for one, raises UnicodeDecodeError on a body that
is not UTF-8, and standardwebhooks a ValueError on a signature entry without a comma).
"""

import base64
import datetime as _datetime
import hashlib
import hmac
import json
import sys
import types

import slack_sdk.signature
import standardwebhooks.webhooks
import stripe
import stripe._webhook
import svix.webhooks

NOW = [0]

# stripe-python calls time.time() in its own module.
stripe._webhook.time = types.SimpleNamespace(time=lambda: float(NOW[0]))


class _FrozenDatetime(_datetime.datetime):
    """standardwebhooks (and svix, which delegates to it) call datetime.now(tz=utc)."""

    @classmethod
    def now(cls, tz=None):
        return _datetime.datetime.fromtimestamp(NOW[0], tz)


standardwebhooks.webhooks.datetime = _FrozenDatetime


class _FrozenClock(slack_sdk.signature.Clock):
    def now(self) -> float:
        return float(NOW[0])


def stripe_python(secret, headers, body):
    # What Webhook.construct_event runs before it parses the event.
    stripe.WebhookSignature.verify_header(body, headers.get("stripe-signature"), secret, tolerance=300)
    return "verify_header passed"


def standardwebhooks_python(secret, headers, body):
    standardwebhooks.webhooks.Webhook(secret).verify(body, headers, json_parse=False)
    return "verify passed"


def svix_python(secret, headers, body):
    svix.webhooks.Webhook(secret).verify(body, headers)
    return "verify passed"


def slack_sdk_python(secret, headers, body):
    ok = slack_sdk.signature.SignatureVerifier(secret, clock=_FrozenClock()).is_valid_request(body, headers)
    if not ok:
        raise ValueError("is_valid_request returned False")
    return "is_valid_request returned True"


def shopify_documented(secret, headers, body):
    # Shopify's documented check: base64 of HMAC-SHA256 of the raw body with the app's secret,
    # compared in constant time with X-Shopify-Hmac-Sha256.
    header = headers.get("x-shopify-hmac-sha256")
    if header is None:
        raise ValueError("no X-Shopify-Hmac-Sha256 header")
    computed = base64.b64encode(hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest())
    if not hmac.compare_digest(computed, header.encode("utf-8")):
        raise ValueError("the HMAC does not match")
    return "HMAC matches"


REFERENCES = {
    "stripe-python": stripe_python,
    "standardwebhooks-python": standardwebhooks_python,
    "svix-python": svix_python,
    "slack_sdk": slack_sdk_python,
    "shopify-documented": shopify_documented,
}


def judge(case):
    NOW[0] = case["now"]
    headers = {name.lower(): value for name, value in case["headers"].items()}
    body = base64.b64decode(case["body_b64"])
    try:
        detail = REFERENCES[case["reference"]](case["secret"], headers, body)
        return True, detail
    except Exception as err:  # every failure is a refusal, whatever the library raised
        return False, f"{type(err).__name__}: {err}"[:300]


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        valid, detail = judge(case)
        sys.stdout.write(json.dumps({"case": case["case"], "valid": valid, "detail": detail}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
