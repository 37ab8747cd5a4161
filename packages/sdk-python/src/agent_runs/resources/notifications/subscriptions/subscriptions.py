"""``client.notifications.subscriptions``: endpoints of the team that receive signed run events (tag
Notifications). Verify what they receive with ``agent_runs.verify_notification``."""

from __future__ import annotations

from functools import cached_property
from typing import Optional, Sequence, Union

from ...._base_client import AsyncPaginator, make_request_options
from ...._resource import AsyncAPIResource, SyncAPIResource
from ...._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ...._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ...._utils import strip_not_given
from ....pagination import AsyncCursorPage, SyncCursorPage
from ....types import (
    ListNotificationSubscriptionsResponse,
    NotificationEventType,
    NotificationFilterParam,
    NotificationSubscription,
    NotificationSubscriptionWithSecret,
)
from ._paths import BASE, subscription_path
from .attempts import (
    AsyncAttempts,
    AsyncAttemptsWithRawResponse,
    AsyncAttemptsWithStreamingResponse,
    Attempts,
    AttemptsWithRawResponse,
    AttemptsWithStreamingResponse,
)
from .events import (
    AsyncEvents,
    AsyncEventsWithRawResponse,
    AsyncEventsWithStreamingResponse,
    Events,
    EventsWithRawResponse,
    EventsWithStreamingResponse,
)

__all__ = ["Subscriptions", "AsyncSubscriptions"]


class Subscriptions(SyncAPIResource):
    @cached_property
    def attempts(self) -> Attempts:
        return Attempts(self._client)

    @cached_property
    def events(self) -> Events:
        return Events(self._client)

    @property
    def with_raw_response(self) -> "SubscriptionsWithRawResponse":
        return SubscriptionsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "SubscriptionsWithStreamingResponse":
        return SubscriptionsWithStreamingResponse(self)

    def create(
        self,
        *,
        url: str,
        event_types: Sequence[NotificationEventType],
        description: Union[str, NotGiven] = NOT_GIVEN,
        filter: Union[NotificationFilterParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscriptionWithSecret:
        """Subscribe an HTTPS endpoint to run events (createNotificationSubscription, admin). The
        answer's signing ``secret`` (``whsec_…``) is shown this once."""
        return self._post(
            BASE,
            body=strip_not_given(
                {"url": url, "event_types": list(event_types), "description": description, "filter": filter, "enabled": enabled}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscriptionWithSecret,
        )

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[NotificationSubscription]:
        """The team's subscriptions, newest first, never with secrets (listNotificationSubscriptions)."""
        return self._get_api_list(
            BASE,
            page=SyncCursorPage[NotificationSubscription],
            model=ListNotificationSubscriptionsResponse,
            items_key="subscriptions",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscription:
        """One subscription, never with its secret (getNotificationSubscription)."""
        return self._get(
            subscription_path(subscription_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscription,
        )

    def update(
        self,
        subscription_uid: str,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        event_types: Union[Sequence[NotificationEventType], NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        filter: Union[NotificationFilterParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscription:
        """Change the URL, event types, description (``None`` clears it), filter (replaced whole) or
        ``enabled`` — ``enabled=True`` also re-enables one disabled for failing
        (updateNotificationSubscription, admin)."""
        return self._patch(
            subscription_path(subscription_uid),
            body=strip_not_given(
                {
                    "url": url,
                    "event_types": event_types if isinstance(event_types, NotGiven) else list(event_types),
                    "description": description,
                    "filter": filter,
                    "enabled": enabled,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscription,
        )

    def rotate_secret(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscriptionWithSecret:
        """Generate a new signing secret, shown this once; the previous one keeps signing alongside it
        until ``previous_secret_expires_at`` (rotateNotificationSubscriptionSecret, admin)."""
        return self._post(
            f"{subscription_path(subscription_uid)}/rotate-secret",
            body={},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscriptionWithSecret,
        )

    def delete(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the subscription, its waiting events and its attempts log
        (deleteNotificationSubscription, admin)."""
        return self._delete(
            subscription_path(subscription_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class AsyncSubscriptions(AsyncAPIResource):
    @cached_property
    def attempts(self) -> AsyncAttempts:
        return AsyncAttempts(self._client)

    @cached_property
    def events(self) -> AsyncEvents:
        return AsyncEvents(self._client)

    @property
    def with_raw_response(self) -> "AsyncSubscriptionsWithRawResponse":
        return AsyncSubscriptionsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncSubscriptionsWithStreamingResponse":
        return AsyncSubscriptionsWithStreamingResponse(self)

    async def create(
        self,
        *,
        url: str,
        event_types: Sequence[NotificationEventType],
        description: Union[str, NotGiven] = NOT_GIVEN,
        filter: Union[NotificationFilterParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscriptionWithSecret:
        """Subscribe an HTTPS endpoint to run events (createNotificationSubscription, admin). The
        answer's signing ``secret`` (``whsec_…``) is shown this once."""
        return await self._post(
            BASE,
            body=strip_not_given(
                {"url": url, "event_types": list(event_types), "description": description, "filter": filter, "enabled": enabled}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscriptionWithSecret,
        )

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[NotificationSubscription, AsyncCursorPage[NotificationSubscription]]:
        """The team's subscriptions, newest first, never with secrets (listNotificationSubscriptions)."""
        return self._get_api_list(
            BASE,
            page=AsyncCursorPage[NotificationSubscription],
            model=ListNotificationSubscriptionsResponse,
            items_key="subscriptions",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscription:
        """One subscription, never with its secret (getNotificationSubscription)."""
        return await self._get(
            subscription_path(subscription_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscription,
        )

    async def update(
        self,
        subscription_uid: str,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        event_types: Union[Sequence[NotificationEventType], NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        filter: Union[NotificationFilterParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscription:
        """Change the URL, event types, description (``None`` clears it), filter (replaced whole) or
        ``enabled`` — ``enabled=True`` also re-enables one disabled for failing
        (updateNotificationSubscription, admin)."""
        return await self._patch(
            subscription_path(subscription_uid),
            body=strip_not_given(
                {
                    "url": url,
                    "event_types": event_types if isinstance(event_types, NotGiven) else list(event_types),
                    "description": description,
                    "filter": filter,
                    "enabled": enabled,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscription,
        )

    async def rotate_secret(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> NotificationSubscriptionWithSecret:
        """Generate a new signing secret, shown this once; the previous one keeps signing alongside it
        until ``previous_secret_expires_at`` (rotateNotificationSubscriptionSecret, admin)."""
        return await self._post(
            f"{subscription_path(subscription_uid)}/rotate-secret",
            body={},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=NotificationSubscriptionWithSecret,
        )

    async def delete(
        self,
        subscription_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the subscription, its waiting events and its attempts log
        (deleteNotificationSubscription, admin)."""
        return await self._delete(
            subscription_path(subscription_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class SubscriptionsWithRawResponse:
    def __init__(self, subscriptions: Subscriptions) -> None:
        self.create = to_raw_response_wrapper(subscriptions.create)
        self.list = to_raw_response_wrapper(subscriptions.list)
        self.retrieve = to_raw_response_wrapper(subscriptions.retrieve)
        self.update = to_raw_response_wrapper(subscriptions.update)
        self.rotate_secret = to_raw_response_wrapper(subscriptions.rotate_secret)
        self.delete = to_raw_response_wrapper(subscriptions.delete)
        self.attempts = AttemptsWithRawResponse(subscriptions.attempts)
        self.events = EventsWithRawResponse(subscriptions.events)


class AsyncSubscriptionsWithRawResponse:
    def __init__(self, subscriptions: AsyncSubscriptions) -> None:
        self.create = async_to_raw_response_wrapper(subscriptions.create)
        self.list = async_to_raw_response_wrapper(subscriptions.list)
        self.retrieve = async_to_raw_response_wrapper(subscriptions.retrieve)
        self.update = async_to_raw_response_wrapper(subscriptions.update)
        self.rotate_secret = async_to_raw_response_wrapper(subscriptions.rotate_secret)
        self.delete = async_to_raw_response_wrapper(subscriptions.delete)
        self.attempts = AsyncAttemptsWithRawResponse(subscriptions.attempts)
        self.events = AsyncEventsWithRawResponse(subscriptions.events)


class SubscriptionsWithStreamingResponse:
    def __init__(self, subscriptions: Subscriptions) -> None:
        self.create = to_streamed_response_wrapper(subscriptions.create)
        self.list = to_streamed_response_wrapper(subscriptions.list)
        self.retrieve = to_streamed_response_wrapper(subscriptions.retrieve)
        self.update = to_streamed_response_wrapper(subscriptions.update)
        self.rotate_secret = to_streamed_response_wrapper(subscriptions.rotate_secret)
        self.delete = to_streamed_response_wrapper(subscriptions.delete)
        self.attempts = AttemptsWithStreamingResponse(subscriptions.attempts)
        self.events = EventsWithStreamingResponse(subscriptions.events)


class AsyncSubscriptionsWithStreamingResponse:
    def __init__(self, subscriptions: AsyncSubscriptions) -> None:
        self.create = async_to_streamed_response_wrapper(subscriptions.create)
        self.list = async_to_streamed_response_wrapper(subscriptions.list)
        self.retrieve = async_to_streamed_response_wrapper(subscriptions.retrieve)
        self.update = async_to_streamed_response_wrapper(subscriptions.update)
        self.rotate_secret = async_to_streamed_response_wrapper(subscriptions.rotate_secret)
        self.delete = async_to_streamed_response_wrapper(subscriptions.delete)
        self.attempts = AsyncAttemptsWithStreamingResponse(subscriptions.attempts)
        self.events = AsyncEventsWithStreamingResponse(subscriptions.events)
