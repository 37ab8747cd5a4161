"""``client.notifications``: signed outbound notifications of run events (tag Notifications)."""

from __future__ import annotations

from functools import cached_property

from ..._resource import AsyncAPIResource, SyncAPIResource
from .subscriptions import AsyncSubscriptions, Subscriptions
from .subscriptions.subscriptions import (
    AsyncSubscriptionsWithRawResponse,
    AsyncSubscriptionsWithStreamingResponse,
    SubscriptionsWithRawResponse,
    SubscriptionsWithStreamingResponse,
)

__all__ = ["Notifications", "AsyncNotifications"]


class Notifications(SyncAPIResource):
    @cached_property
    def subscriptions(self) -> Subscriptions:
        return Subscriptions(self._client)

    @property
    def with_raw_response(self) -> "NotificationsWithRawResponse":
        return NotificationsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "NotificationsWithStreamingResponse":
        return NotificationsWithStreamingResponse(self)


class AsyncNotifications(AsyncAPIResource):
    @cached_property
    def subscriptions(self) -> AsyncSubscriptions:
        return AsyncSubscriptions(self._client)

    @property
    def with_raw_response(self) -> "AsyncNotificationsWithRawResponse":
        return AsyncNotificationsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncNotificationsWithStreamingResponse":
        return AsyncNotificationsWithStreamingResponse(self)


class NotificationsWithRawResponse:
    def __init__(self, notifications: Notifications) -> None:
        self.subscriptions = SubscriptionsWithRawResponse(notifications.subscriptions)


class AsyncNotificationsWithRawResponse:
    def __init__(self, notifications: AsyncNotifications) -> None:
        self.subscriptions = AsyncSubscriptionsWithRawResponse(notifications.subscriptions)


class NotificationsWithStreamingResponse:
    def __init__(self, notifications: Notifications) -> None:
        self.subscriptions = SubscriptionsWithStreamingResponse(notifications.subscriptions)


class AsyncNotificationsWithStreamingResponse:
    def __init__(self, notifications: AsyncNotifications) -> None:
        self.subscriptions = AsyncSubscriptionsWithStreamingResponse(notifications.subscriptions)
