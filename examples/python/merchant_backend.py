#!/usr/bin/env python3
"""A merchant backend in Python, standard library only, on bankflow's HTTP merchant API.

It runs the whole Pix biometrics journey: the customer's device, an enrollment with a participant, the customer
authorizing at the bank, the credential registration, a payment, its authorization and its final result. It
receives bankflow's signed notifications on a small HTTP server of its own and checks every signature.

Against the sandbox bank, the customer's side (authorizing at the bank, the device's WebAuthn answers) is played
by the sandbox's control API. Against a real bank those steps happen on the customer's phone and at their bank.

Settings (environment):
  BANKFLOW_API_URL        where `bankflow api` listens, e.g. http://127.0.0.1:4050 (as `npm start` runs it)
  BANKFLOW_API_KEY        an API key (`npm start` prints a development one)
  SANDBOX_URL             the sandbox bank, e.g. http://127.0.0.1:4010
  SANDBOX_CONTROL_TOKEN   the sandbox control token `npm start` prints
  NOTIFY_SECRET           the secret bankflow signs notifications with (bankflow's NOTIFY_SECRET); optional
  NOTIFY_PORT             the port this backend receives notifications on (bankflow's NOTIFY_ENDPOINTS points
                          to http://127.0.0.1:<port>/notifications); optional
  AMOUNT_CENTS            what the customer pays, 1050 unless set

It prints one JSON line with what it saw and exits 0, or prints why it stopped and exits 1. README.md beside this
file gives the command that runs it against `npm start`, notifications on.
"""

import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

API_URL = os.environ["BANKFLOW_API_URL"].rstrip("/")
API_KEY = os.environ["BANKFLOW_API_KEY"]
SANDBOX_URL = os.environ["SANDBOX_URL"].rstrip("/")
SANDBOX_TOKEN = os.environ["SANDBOX_CONTROL_TOKEN"]
NOTIFY_SECRET = os.environ.get("NOTIFY_SECRET")
NOTIFY_PORT = int(os.environ.get("NOTIFY_PORT", "0"))
AMOUNT_CENTS = int(os.environ.get("AMOUNT_CENTS", "1050"))
SIGNATURE_TOLERANCE_SECONDS = 300
# bankflow sends `t=` and one v1 per secret (two while a secret rotates): a longer header, or one with more v1
# entries, is forged, and is refused before any HMAC is computed.
MAX_SIGNATURE_HEADER_LENGTH = 1024
MAX_SIGNATURES = 8


class Stop(Exception):
    """The journey cannot go on; the message says why."""


def http(method, url, body=None, headers=None):
    """One JSON request; answers (status, parsed body). Error statuses are answers too, not exceptions."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("accept", "application/json")
    if data is not None:
        request.add_header("content-type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=70) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def api(method, path, body=None, idempotency_key=None, expect=(200, 201)):
    """A call to bankflow's API: the API key, and an Idempotency-Key on every POST (new unless given)."""
    headers = {"authorization": f"Bearer {API_KEY}"}
    if method == "POST":
        headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
    status, answer = http(method, f"{API_URL}{path}", body, headers)
    if status not in expect:
        raise Stop(f"{method} {path} answered {status}: {json.dumps(answer)}")
    return status, answer


def sandbox(method, path, body=None):
    """The sandbox's control API, playing the customer and their bank."""
    status, answer = http(method, f"{SANDBOX_URL}{path}", body, {"authorization": f"Bearer {SANDBOX_TOKEN}"})
    if status >= 300:
        raise Stop(f"sandbox {method} {path} answered {status}: {json.dumps(answer)}")
    return answer["data"]


def signature_is_valid(header, body, secret, now=None):
    """Checks a Bankflow-Signature header (t=<unix seconds>,v1=<hex>[,v1=...]) over `<t>.<body>`."""
    if not header or len(header) > MAX_SIGNATURE_HEADER_LENGTH:
        return False
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamps = [value for key, value in parts if key == "t"]
    signatures = [value for key, value in parts if key == "v1"]
    if len(timestamps) != 1 or not signatures or len(signatures) > MAX_SIGNATURES or not timestamps[0].isdigit():
        return False
    if abs((now or time.time()) - int(timestamps[0])) > SIGNATURE_TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), timestamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)


class Inbox:
    """Notifications received: each event id once, with the content it first came with."""

    def __init__(self):
        self.events = {}
        self.refused = 0
        self.changed = []
        self.lock = threading.Condition()

    def receive(self, header, body):
        if NOTIFY_SECRET is None or not signature_is_valid(header, body, NOTIFY_SECRET):
            with self.lock:
                self.refused += 1
            return 400
        event = json.loads(body)
        with self.lock:
            seen = self.events.get(event["id"])
            if seen is not None and seen != event:
                self.changed.append(event["id"])
            self.events.setdefault(event["id"], event)
            self.lock.notify_all()
        return 200

    def wait_for(self, resource_id, event_type, timeout_seconds):
        deadline = time.time() + timeout_seconds
        with self.lock:
            while True:
                for event in self.events.values():
                    if event["resource"]["id"] == resource_id and event["type"] == event_type:
                        return event
                left = deadline - time.time()
                if left <= 0:
                    raise Stop(f"no {event_type} notification for {resource_id} within {timeout_seconds} s")
                self.lock.wait(left)


def serve_notifications(inbox):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            status = inbox.receive(self.headers.get("bankflow-signature"), body)
            self.send_response(status)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", NOTIFY_PORT), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def until(what, read, timeout_seconds=90):
    """Reads until `read` answers something, or stops after the timeout."""
    deadline = time.time() + timeout_seconds
    while time.time() < deadline:
        value = read()
        if value is not None:
            return value
        time.sleep(0.5)
    raise Stop(f"{what} did not happen within {timeout_seconds} s")


def run_journey(inbox):
    tax_number = "12345678909"
    _, device = api("POST", "/v1/devices", {
        "fingerprint": f"python-{uuid.uuid4()}",
        "counterparty_tax_number": tax_number,
        "counterparty_name": "Maria Silva",
    })
    _, participants = api("GET", f"/v1/participants?deviceId={device['id']}")
    participant = next(p for p in participants["data"] if p["is_enrollment_available"] and not p["unavailable"])
    key = f"/v1/enrollments/{device['id']}/{participant['id']}"

    _, enrollment = api("POST", "/v1/enrollments", {
        "deviceId": device["id"],
        "participantId": participant["id"],
        "returnToUrl": "https://merchant.example.com/pix/enrolled",
        "customerTaxNumber": tax_number,
    })
    # The customer follows enrollment["redirectUrl"] and authorizes at their bank.
    sandbox("POST", f"/sandbox/biometrics/enrollments/{enrollment['enrollmentId']}/bank-authorization", {})
    until("the bank authorization", lambda: (
        lambda state: state if state["phase"] == "awaiting_enrollment" else None)(api("GET", key)[1]))

    _, creation = api("POST", f"{key}/registration-options", {})
    authenticator = sandbox("POST", "/sandbox/authenticators", {})["id"]
    credential = sandbox("POST", f"/sandbox/authenticators/{authenticator}/credentials",
                         {"public_key_encoded": creation["options"]})
    _, registered = api("POST", f"{key}/credential", {"assertion": credential})
    if not registered.get("ok"):
        raise Stop(f"the bank refused the credential: {json.dumps(registered)}")
    until("the enrollment's authorization", lambda: (
        lambda state: state if state["phase"] == "authorized" else None)(api("GET", key)[1]))

    world = sandbox("GET", "/sandbox/world")
    order = {
        "externalId": f"order-{uuid.uuid4()}",
        "enrollmentId": enrollment["enrollmentId"],
        "deviceId": device["id"],
        "amountCents": AMOUNT_CENTS,
        "description": "Pedido 1234",
        "entityId": world["entityIds"][0],
        "virtualAccountId": world["virtualAccountIds"][0],
        "customerTaxNumber": tax_number,
    }
    order_key = str(uuid.uuid4())
    _, started = api("POST", "/v1/payments", order, idempotency_key=order_key)
    # The same key and body again, as after a lost answer: the first answer comes back, no second payment.
    _, repeated = api("POST", "/v1/payments", order, idempotency_key=order_key)
    conflict_status, conflict = api("POST", "/v1/payments", {**order, "amountCents": AMOUNT_CENTS + 1},
                                    idempotency_key=order_key, expect=(409,))
    conflicting_fields = [error["field"] for error in conflict["errors"]]

    path = f"/v1/payments/{order['externalId']}"
    assertion = sandbox("POST", f"/sandbox/authenticators/{authenticator}/assertions",
                        {"public_key_encoded": started["publicKeyEncoded"]})
    _, authorized = api("POST", f"{path}/authorization", {"assertion": assertion})

    def final_result():
        status, answer = api("GET", f"{path}/result?wait=30", expect=(200, 202))
        return answer["result"] if status == 200 else None

    result = until("the payment's final result", final_result, timeout_seconds=180)

    notified = None
    if NOTIFY_SECRET is not None:
        final_type = f"payment.{result['outcome']}"
        inbox.wait_for(started["payment"]["id"], final_type, timeout_seconds=120)
        with inbox.lock:
            notified = sorted(
                (event for event in inbox.events.values() if event["resource"]["id"] == started["payment"]["id"]),
                key=lambda event: event["sequence"],
            )
    return {
        "deviceId": device["id"],
        "enrollmentId": enrollment["enrollmentId"],
        "externalId": order["externalId"],
        "paymentId": started["payment"]["id"],
        "authorizeStatus": authorized.get("status"),
        "outcome": result["outcome"],
        "endToEndId": result.get("endToEndId"),
        "idempotentRepeat": repeated == started,
        "conflictStatus": conflict_status,
        "conflictFields": conflicting_fields,
        "notifications": None if notified is None else [
            {"id": event["id"], "type": event["type"], "sequence": event["sequence"]} for event in notified
        ],
        "refusedNotifications": inbox.refused,
        "changedNotifications": inbox.changed,
    }


def main():
    inbox = Inbox()
    server = serve_notifications(inbox) if NOTIFY_PORT else None
    try:
        print(json.dumps(run_journey(inbox)))
        return 0
    except Stop as stop:
        print(f"stopped: {stop}", file=sys.stderr)
        return 1
    finally:
        if server:
            server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
