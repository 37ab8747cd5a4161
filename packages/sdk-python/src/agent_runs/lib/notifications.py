"""Verifying the run notifications the service POSTs to a subscription's URL
(``client.notifications.subscriptions``): Standard Webhooks signatures under the subscription's ``whsec_…``
secret, then the typed event.

    event = verify_notification(request.body, request.headers, secret)   # raises WebhookVerificationError
    if event.type == "run.failed":
        page(event.data.run_id, event.data.status_message)
"""

from __future__ import annotations

import json
from typing import Mapping, Optional, Union

from .._utils import as_json_object
from ..types import NotificationEvent
from .webhooks import DEFAULT_TOLERANCE_SECONDS, WebhookVerificationError, verify_webhook

__all__ = ["verify_notification"]


def verify_notification(
    payload: Union[str, bytes],
    headers: Mapping[str, str],
    secret: Union[str, bytes],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[int] = None,
) -> NotificationEvent:
    """The event of a notification, once its signature and timestamp check out.

    ``payload`` is the raw body as received (str or bytes, never a re-serialised dict); ``headers`` any
    mapping of the request's headers (names in any case); ``secret`` the subscription's ``whsec_…`` secret.
    Any one ``v1`` signature of ``webhook-signature`` may match (two are sent during a secret rotation's
    overlap); ``webhook-timestamp`` must be within ``tolerance_seconds`` of ``now`` (Unix seconds, default
    the current time); the body's ``id`` must equal ``webhook-id``. Raises ``WebhookVerificationError``
    otherwise. Deduplicate on ``event.id``: delivery is at least once.
    """
    verify_webhook(secret, payload, headers, tolerance_seconds=tolerance_seconds, now=now)
    try:
        body = json.loads(payload)
    except ValueError as err:
        raise WebhookVerificationError("The body is not JSON") from err
    msg_id = {k.lower(): v for k, v in headers.items()}.get("webhook-id")
    fields = as_json_object(body)
    if fields is None or fields.get("id") != msg_id:
        raise WebhookVerificationError("The body is not the notification its webhook-id names")
    return NotificationEvent.model_validate(body)
