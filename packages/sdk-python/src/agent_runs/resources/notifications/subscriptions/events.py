"""``client.notifications.subscriptions.events``: replaying one event (tag Notifications)."""

from __future__ import annotations

from typing import Optional, Union

from ...._base_client import make_request_options
from ...._resource import AsyncAPIResource, SyncAPIResource
from ...._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ...._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ...._utils import path_param
from ....types import ReplayNotificationEventResponse
from ._paths import subscription_path

__all__ = ["Events", "AsyncEvents"]


class Events(SyncAPIResource):
    @property
    def with_raw_response(self) -> "EventsWithRawResponse":
        return EventsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "EventsWithStreamingResponse":
        return EventsWithStreamingResponse(self)

    def replay(
        self,
        event_id: str,
        *,
        subscription_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ReplayNotificationEventResponse:
        """Queue a fresh attempt of one event of the subscription, due now: same ``webhook-id`` and body,
        signed with the current secret (replayNotificationEvent, admin)."""
        return self._post(
            f"{subscription_path(subscription_uid)}/events/{path_param('event_id', event_id)}/replay",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ReplayNotificationEventResponse,
        )


class AsyncEvents(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncEventsWithRawResponse":
        return AsyncEventsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncEventsWithStreamingResponse":
        return AsyncEventsWithStreamingResponse(self)

    async def replay(
        self,
        event_id: str,
        *,
        subscription_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ReplayNotificationEventResponse:
        """Queue a fresh attempt of one event of the subscription, due now: same ``webhook-id`` and body,
        signed with the current secret (replayNotificationEvent, admin)."""
        return await self._post(
            f"{subscription_path(subscription_uid)}/events/{path_param('event_id', event_id)}/replay",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ReplayNotificationEventResponse,
        )


class EventsWithRawResponse:
    def __init__(self, events: Events) -> None:
        self.replay = to_raw_response_wrapper(events.replay)


class AsyncEventsWithRawResponse:
    def __init__(self, events: AsyncEvents) -> None:
        self.replay = async_to_raw_response_wrapper(events.replay)


class EventsWithStreamingResponse:
    def __init__(self, events: Events) -> None:
        self.replay = to_streamed_response_wrapper(events.replay)


class AsyncEventsWithStreamingResponse:
    def __init__(self, events: AsyncEvents) -> None:
        self.replay = async_to_streamed_response_wrapper(events.replay)
