"""``client.audit_events``: tag Audit (admin only): what the team's admins changed, newest first."""

from __future__ import annotations

from typing import Optional, Union

from .._base_client import AsyncPaginator, make_request_options
from .._resource import AsyncAPIResource, SyncAPIResource
from .._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from .._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from .._utils import strip_not_given
from ..pagination import AsyncCursorPage, SyncCursorPage
from ..types import AuditEvent, AuditResourceType, ListAuditEventsResponse

__all__ = ["AuditEvents", "AsyncAuditEvents"]

class AuditEvents(SyncAPIResource):
    @property
    def with_raw_response(self) -> "AuditEventsWithRawResponse":
        return AuditEventsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AuditEventsWithStreamingResponse":
        return AuditEventsWithStreamingResponse(self)

    def list(
        self,
        *,
        resource_type: Union[AuditResourceType, NotGiven] = NOT_GIVEN,
        resource_id: Union[str, NotGiven] = NOT_GIVEN,
        actor_key_id: Union[str, NotGiven] = NOT_GIVEN,
        since: Union[str, NotGiven] = NOT_GIVEN,
        until: Union[str, NotGiven] = NOT_GIVEN,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[AuditEvent]:
        """The team's audit events, newest first, every page when iterated (listAuditEvents, admin).

        Filters combine: ``resource_type`` and ``resource_id`` (a secret by its name), ``actor_key_id``
        (the key that made the change), ``since`` (inclusive) and ``until`` (exclusive), RFC 3339 instants.
        """
        return self._get_api_list(
            "/audit-events",
            page=SyncCursorPage[AuditEvent],
            model=ListAuditEventsResponse,
            items_key="audit_events",
            options=make_request_options(
                query=strip_not_given({
                    "resource_type": resource_type, "resource_id": resource_id, "actor_key_id": actor_key_id,
                    "since": since, "until": until, "limit": limit, "cursor": cursor,
                }),
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )


class AsyncAuditEvents(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncAuditEventsWithRawResponse":
        return AsyncAuditEventsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncAuditEventsWithStreamingResponse":
        return AsyncAuditEventsWithStreamingResponse(self)

    def list(
        self,
        *,
        resource_type: Union[AuditResourceType, NotGiven] = NOT_GIVEN,
        resource_id: Union[str, NotGiven] = NOT_GIVEN,
        actor_key_id: Union[str, NotGiven] = NOT_GIVEN,
        since: Union[str, NotGiven] = NOT_GIVEN,
        until: Union[str, NotGiven] = NOT_GIVEN,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[AuditEvent, AsyncCursorPage[AuditEvent]]:
        """The team's audit events, newest first, every page when iterated (listAuditEvents, admin).

        Filters combine: ``resource_type`` and ``resource_id`` (a secret by its name), ``actor_key_id``
        (the key that made the change), ``since`` (inclusive) and ``until`` (exclusive), RFC 3339 instants.
        """
        return self._get_api_list(
            "/audit-events",
            page=AsyncCursorPage[AuditEvent],
            model=ListAuditEventsResponse,
            items_key="audit_events",
            options=make_request_options(
                query=strip_not_given({
                    "resource_type": resource_type, "resource_id": resource_id, "actor_key_id": actor_key_id,
                    "since": since, "until": until, "limit": limit, "cursor": cursor,
                }),
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )


class AuditEventsWithRawResponse:
    def __init__(self, audit_events: AuditEvents) -> None:
        self.list = to_raw_response_wrapper(audit_events.list)


class AsyncAuditEventsWithRawResponse:
    def __init__(self, audit_events: AsyncAuditEvents) -> None:
        self.list = async_to_raw_response_wrapper(audit_events.list)


class AuditEventsWithStreamingResponse:
    def __init__(self, audit_events: AuditEvents) -> None:
        self.list = to_streamed_response_wrapper(audit_events.list)


class AsyncAuditEventsWithStreamingResponse:
    def __init__(self, audit_events: AsyncAuditEvents) -> None:
        self.list = async_to_streamed_response_wrapper(audit_events.list)
