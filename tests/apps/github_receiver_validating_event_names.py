"""A GitHub webhook receiver written as GitHub's docs and most apps write one: the HMAC over the raw
body in X-Hub-Signature-256, then X-GitHub-Event must name an event GitHub sends (anything else is
a 400), deliveries are de-duplicated by X-GitHub-Delivery, and `issues` events are handled by
action. An `edited` issue it has not seen `opened` is stored for later and acknowledged, unless
the second argument is `requires-order`: then it is refused with 409 (the ordering bug).

Every POST's headers are journalled before anything is judged; GET /journal returns them.

    python3 github_receiver_validating_event_names.py SECRET [requires-order]
"""
import hashlib
import hmac
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler

from json_app import read_body, reply, serve

SECRET = sys.argv[1].encode()
REQUIRES_ORDER = sys.argv[2:] == ["requires-order"]

# The events GitHub sends (docs.github.com/en/webhooks/webhook-events-and-payloads), the ones an
# app subscribes to and the ones every hook gets.
GITHUB_EVENTS = {
    "ping", "push", "issues", "issue_comment", "pull_request", "pull_request_review", "release",
    "workflow_run", "workflow_job", "check_run", "check_suite", "create", "delete", "fork", "star",
    "watch", "label", "milestone", "deployment", "deployment_status", "installation", "repository",
}

LOCK = threading.Lock()
JOURNAL = []
SEEN_DELIVERIES = set()
OPENED_ISSUES = set()
EARLY_EDITS = {}


class App(BaseHTTPRequestHandler):
    def log_message(self, *args): pass

    def do_GET(self):
        if self.path != "/journal":
            return reply(self, 404, {"error": "not found"})
        with LOCK:
            reply(self, 200, JOURNAL)

    def do_POST(self):
        raw = read_body(self)
        event = self.headers.get("X-GitHub-Event", "")
        delivery = self.headers.get("X-GitHub-Delivery", "")
        with LOCK:
            JOURNAL.append({
                "event": event,
                "delivery": delivery,
                "user_agents": self.headers.get_all("User-Agent") or [],
                "signed": "X-Hub-Signature-256" in self.headers,
            })
        expected = "sha256=" + hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(self.headers.get("X-Hub-Signature-256", ""), expected):
            return reply(self, 401, {"error": "invalid signature"})
        if event not in GITHUB_EVENTS:
            return reply(self, 400, {"error": f"unknown event {event}"})
        with LOCK:
            if delivery in SEEN_DELIVERIES:
                return reply(self, 200, {"duplicate": True})
            SEEN_DELIVERIES.add(delivery)
        payload = json.loads(raw)
        if event == "issues":
            return self.issue(payload)
        reply(self, 200, {"ok": True})

    def issue(self, payload):
        issue_id = payload["issue"]["id"]
        action = payload.get("action")
        with LOCK:
            if action == "opened":
                OPENED_ISSUES.add(issue_id)
                EARLY_EDITS.pop(issue_id, None)
            elif action == "edited" and issue_id not in OPENED_ISSUES:
                if REQUIRES_ORDER:
                    return reply(self, 409, {"error": f"edit of unknown issue {issue_id}"})
                EARLY_EDITS[issue_id] = payload
        reply(self, 200, {"ok": True})


serve(App)
