"""Standard Webhooks signing helper."""

from __future__ import annotations

import json

import pytest

from agent_runs import WebhookVerificationError, sign_webhook, verify_webhook

# The published test vector of the Standard Webhooks specification.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
PAYLOAD = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_matches_the_standard_webhooks_vector() -> None:
    headers = sign_webhook(SECRET, PAYLOAD, msg_id=MSG_ID, timestamp=TIMESTAMP)
    assert headers == {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP), "webhook-signature": SIGNATURE}


def test_bytes_payload_and_prefixless_secret_sign_the_same() -> None:
    a = sign_webhook(SECRET, PAYLOAD.encode(), msg_id=MSG_ID, timestamp=TIMESTAMP)
    b = sign_webhook(SECRET[len("whsec_") :], PAYLOAD, msg_id=MSG_ID, timestamp=TIMESTAMP)
    assert a["webhook-signature"] == b["webhook-signature"] == SIGNATURE


def test_defaults_a_fresh_id_and_the_current_time() -> None:
    one, two = sign_webhook(SECRET, "{}"), sign_webhook(SECRET, "{}")
    assert one["webhook-id"].startswith("msg_") and one["webhook-id"] != two["webhook-id"]
    assert abs(int(one["webhook-timestamp"]) - __import__("time").time()) < 5


def test_a_dict_payload_is_signed_compactly() -> None:
    headers = sign_webhook(SECRET, {"test": 2432232314}, msg_id=MSG_ID, timestamp=TIMESTAMP)
    verify_webhook(SECRET, json.dumps({"test": 2432232314}, separators=(",", ":")), headers, now=TIMESTAMP)


def test_verify_round_trip_and_failures() -> None:
    headers = sign_webhook(SECRET, PAYLOAD, msg_id=MSG_ID, timestamp=TIMESTAMP)
    verify_webhook(SECRET, PAYLOAD, headers, now=TIMESTAMP + 10)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, PAYLOAD + " ", headers, now=TIMESTAMP)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, PAYLOAD, headers, now=TIMESTAMP + 301)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, PAYLOAD, {"webhook-id": MSG_ID}, now=TIMESTAMP)


def test_rejects_a_secret_that_is_not_base64() -> None:
    with pytest.raises(ValueError):
        sign_webhook("whsec_not base64!!", PAYLOAD)


def test_the_standardwebhooks_package_verifies_our_signature() -> None:
    standardwebhooks = pytest.importorskip("standardwebhooks")
    payload = json.dumps({"action": "opened", "issue": {"number": 42}})
    headers = sign_webhook(SECRET, payload)
    verified = standardwebhooks.Webhook(SECRET).verify(payload, headers)
    assert verified == {"action": "opened", "issue": {"number": 42}}


def test_we_verify_the_standardwebhooks_package_signature() -> None:
    standardwebhooks = pytest.importorskip("standardwebhooks")
    import datetime as dt

    now = dt.datetime.now(tz=dt.timezone.utc)
    signature = standardwebhooks.Webhook(SECRET).sign(MSG_ID, now, PAYLOAD)
    headers = {"webhook-id": MSG_ID, "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": signature}
    verify_webhook(SECRET, PAYLOAD, headers)
    assert (
        sign_webhook(SECRET, PAYLOAD, msg_id=MSG_ID, timestamp=int(now.timestamp()))["webhook-signature"] == signature
    )
