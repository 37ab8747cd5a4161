"""``client.notifications.subscriptions.attempts``: the delivery attempts log (tag Notifications)."""

from __future__ import annotations

from typing import Optional, Union

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
from ....types import ListNotificationAttemptsResponse, NotificationAttempt
from ._paths import subscription_path

__all__ = ["Attempts", "AsyncAttempts"]


class Attempts(SyncAPIResource):
    @property
    def with_raw_response(self) -> "AttemptsWithRawResponse":
        return AttemptsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AttemptsWithStreamingResponse":
        return AttemptsWithStreamingResponse(self)

    def list(
        self,
        subscription_uid: str,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        event_id: Union[str, NotGiven] = NOT_GIVEN,
        run_id: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[NotificationAttempt]:
        """The subscription's delivery attempts, newest first, optionally of one event or run
        (listNotificationAttempts)."""
        return self._get_api_list(
            f"{subscription_path(subscription_uid)}/attempts",
            page=SyncCursorPage[NotificationAttempt],
            model=ListNotificationAttemptsResponse,
            items_key="attempts",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor, "event_id": event_id, "run_id": run_id}),
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )


class AsyncAttempts(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncAttemptsWithRawResponse":
        return AsyncAttemptsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncAttemptsWithStreamingResponse":
        return AsyncAttemptsWithStreamingResponse(self)

    def list(
        self,
        subscription_uid: str,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        event_id: Union[str, NotGiven] = NOT_GIVEN,
        run_id: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[NotificationAttempt, AsyncCursorPage[NotificationAttempt]]:
        """The subscription's delivery attempts, newest first, optionally of one event or run
        (listNotificationAttempts)."""
        return self._get_api_list(
            f"{subscription_path(subscription_uid)}/attempts",
            page=AsyncCursorPage[NotificationAttempt],
            model=ListNotificationAttemptsResponse,
            items_key="attempts",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor, "event_id": event_id, "run_id": run_id}),
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )


class AttemptsWithRawResponse:
    def __init__(self, attempts: Attempts) -> None:
        self.list = to_raw_response_wrapper(attempts.list)


class AsyncAttemptsWithRawResponse:
    def __init__(self, attempts: AsyncAttempts) -> None:
        self.list = async_to_raw_response_wrapper(attempts.list)


class AttemptsWithStreamingResponse:
    def __init__(self, attempts: Attempts) -> None:
        self.list = to_streamed_response_wrapper(attempts.list)


class AsyncAttemptsWithStreamingResponse:
    def __init__(self, attempts: AsyncAttempts) -> None:
        self.list = async_to_streamed_response_wrapper(attempts.list)
