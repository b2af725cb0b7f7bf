"""The client under test: posts a payment to $IDEM_PROXY_URL/payments and retries failures. The
environment picks the behaviour: CLIENT_KEY keep|new|none|change-body, CLIENT_RETRIES, CLIENT_WAIT
(seconds between attempts) and CLIENT_TIMEOUT (seconds)."""
import json, os, sys, time, urllib.error, urllib.request, uuid
mode = os.environ.get("CLIENT_KEY", "keep")
retries = int(os.environ.get("CLIENT_RETRIES", "3"))
wait = float(os.environ.get("CLIENT_WAIT", "0.3"))
timeout = float(os.environ.get("CLIENT_TIMEOUT", "10"))
url = os.environ["IDEM_PROXY_URL"] + "/payments"
key = str(uuid.uuid4())
for attempt in range(retries + 1):
    if mode == "new":
        key = str(uuid.uuid4())
    payment = {"amount": 1990, "currency": "RUB", "order_id": 42}
    if mode == "change-body" and attempt > 0:
        payment["amount"] = 2990
    headers = {"Content-Type": "application/json"}
    if mode != "none":
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(url, data=json.dumps(payment).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            print(response.status, response.read().decode())
            sys.exit(0)
    except urllib.error.HTTPError as err:
        print("answered", err.code, err.read().decode())
    except Exception as err:
        print("no answer:", err)
    time.sleep(wait)
sys.exit(1)
