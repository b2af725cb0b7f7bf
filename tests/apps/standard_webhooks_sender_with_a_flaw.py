"""A Standard Webhooks sender in a few lines of Python: three events to $WEBHOOK_URL signed with
$WEBHOOK_SECRET, exponential backoff from 200ms, Retry-After honoured, a 1-second timeout; the flaw
(its first argument: none, follow-redirect, immediate, new-id, stale-signature, never-retry,
ignore-410, ignore-retry-after) breaks one of those."""
import base64, hashlib, hmac, json, os, sys, time, urllib.error, urllib.parse, urllib.request
url, flaw = os.environ["WEBHOOK_URL"], sys.argv[1]
key = base64.b64decode(os.environ["WEBHOOK_SECRET"].removeprefix("whsec_"))

def post(msg_id, timestamp, body, signature):
    headers = {"content-type": "application/json", "user-agent": "flawed-sender/1", "webhook-id": msg_id,
               "webhook-timestamp": str(timestamp), "webhook-signature": signature}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=1) as answer:
            return answer.status, None
    except urllib.error.HTTPError as answer:
        if flaw == "follow-redirect" and 300 <= answer.code < 400:
            moved = urllib.parse.urljoin(url, answer.headers["location"])
            with urllib.request.urlopen(urllib.request.Request(moved, body, headers), timeout=1) as followed:
                return followed.status, None
        return answer.code, answer.headers.get("retry-after")
    except OSError:
        return None, None  # no answer in time: retry

def deliver(n):
    body = json.dumps({"id": f"evt_{n}", "type": "test.event", "data": {"n": n}}).encode()
    first_signed = None
    for attempt in range(1, 40 if flaw == "immediate" else 6):
        msg_id = f"msg_{n}_{attempt}" if flaw == "new-id" else f"msg_{n}"
        timestamp = int(time.time())
        mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
        signed = (timestamp, "v1," + base64.b64encode(mac).decode())
        if flaw == "stale-signature":
            first_signed = first_signed or signed
            signed = first_signed
        status, retry_after = post(msg_id, signed[0], body, signed[1])
        if status is not None and 200 <= status < 300 or status == 410 and flaw != "ignore-410":
            return
        if flaw == "never-retry":
            return
        if flaw != "immediate":
            wait = 0.2 * 1.5 ** (attempt - 1)
            time.sleep(float(retry_after) if retry_after and flaw != "ignore-retry-after" else wait)

for n in (1, 2, 3):
    deliver(n)
