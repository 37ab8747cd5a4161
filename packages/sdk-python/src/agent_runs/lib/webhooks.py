"""Standard Webhooks (https://www.standardwebhooks.com) signing, for Python senders posting to a
webhook's ingress URL, plus the matching verifier.

    headers = sign_webhook(secret, payload)
    httpx.post(ingress_url, content=payload, headers={**headers, "content-type": "application/json"})
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from typing import Any, Dict, Mapping, Optional, Union

__all__ = ["sign_webhook", "verify_webhook", "WebhookVerificationError"]

_PREFIX = "whsec_"
DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    pass


def _secret_bytes(secret: Union[str, bytes]) -> bytes:
    if isinstance(secret, bytes):
        return secret
    if secret.startswith(_PREFIX):
        secret = secret[len(_PREFIX) :]
    try:
        return base64.b64decode(secret, validate=True)
    except ValueError as err:
        raise ValueError("Webhook secret must be base64 (optionally prefixed with 'whsec_')") from err


def _payload_text(payload: Union[str, bytes, Mapping[str, Any], Any]) -> str:
    if isinstance(payload, bytes):
        return payload.decode("utf-8")
    if isinstance(payload, str):
        return payload
    # Sign exactly the bytes that will be sent: serialise once, send the returned string.
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def _signature(key: bytes, msg_id: str, timestamp: int, body: str) -> str:
    to_sign = f"{msg_id}.{timestamp}.{body}".encode("utf-8")
    return "v1," + base64.b64encode(hmac.new(key, to_sign, hashlib.sha256).digest()).decode("ascii")


def sign_webhook(
    secret: Union[str, bytes],
    payload: Union[str, bytes, Mapping[str, Any]],
    msg_id: Optional[str] = None,
    timestamp: Optional[int] = None,
) -> Dict[str, str]:
    """The three Standard Webhooks headers for ``payload``.

    ``secret`` is the ``whsec_<base64>`` secret (raw key bytes also accepted). ``payload`` should be
    the exact body you will send (str or bytes); a dict is serialised compactly, and then you must
    send ``json.dumps(payload, separators=(",", ":"))``. ``msg_id`` defaults to a new ``msg_<uuid>``
    (the ingress deduplicates on it); ``timestamp`` to now, in seconds.
    """
    key = _secret_bytes(secret)
    msg_id = msg_id or f"msg_{uuid.uuid4().hex}"
    ts = int(time.time()) if timestamp is None else int(timestamp)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(ts),
        "webhook-signature": _signature(key, msg_id, ts, _payload_text(payload)),
    }


def verify_webhook(
    secret: Union[str, bytes],
    payload: Union[str, bytes],
    headers: Mapping[str, str],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[int] = None,
) -> None:
    """Raise `WebhookVerificationError` unless one ``v1`` signature in ``headers`` matches."""
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, ts_text, sigs = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not msg_id or not ts_text or not sigs:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        ts = int(ts_text)
    except ValueError as err:
        raise WebhookVerificationError("Invalid webhook-timestamp") from err
    current = int(time.time()) if now is None else now
    if abs(current - ts) > tolerance_seconds:
        raise WebhookVerificationError("Timestamp outside the tolerance window")
    expected = _signature(_secret_bytes(secret), msg_id, ts, _payload_text(payload))
    for candidate in sigs.split(" "):
        if candidate.startswith("v1,") and hmac.compare_digest(candidate, expected):
            return
    raise WebhookVerificationError("No matching signature")
