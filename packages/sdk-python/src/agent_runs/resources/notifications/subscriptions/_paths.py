"""The paths of ``client.notifications.subscriptions``."""

from __future__ import annotations

from ...._utils import path_param

BASE = "/notifications/subscriptions"


def subscription_path(subscription_uid: str) -> str:
    return f"{BASE}/{path_param('subscription_uid', subscription_uid)}"
