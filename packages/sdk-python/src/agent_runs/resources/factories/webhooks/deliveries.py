"""``client.factories.webhooks.deliveries``: tag Deliveries."""

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
from ...._utils import path_param, strip_not_given
from ....pagination import AsyncCursorPage, SyncCursorPage
from ....types import ListWebhookDeliveriesResponse, ReplayDeliveryResponse, WebhookDelivery

__all__ = ["Deliveries", "AsyncDeliveries"]


def _base(factory_uid: str, webhook_uid: str) -> str:
    return (
        f"/factories/{path_param('factory_uid', factory_uid)}"
        f"/webhooks/{path_param('webhook_uid', webhook_uid)}/deliveries"
    )


def _one(factory_uid: str, webhook_uid: str, delivery_id: str) -> str:
    return f"{_base(factory_uid, webhook_uid)}/{path_param('delivery_id', delivery_id)}"


class Deliveries(SyncAPIResource):
    @property
    def with_raw_response(self) -> "DeliveriesWithRawResponse":
        return DeliveriesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "DeliveriesWithStreamingResponse":
        return DeliveriesWithStreamingResponse(self)

    def list(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[WebhookDelivery]:
        """The webhook's delivery log, newest first (listWebhookDeliveries); entries omit ``payload``."""
        return self._get_api_list(
            _base(factory_uid, webhook_uid),
            page=SyncCursorPage[WebhookDelivery],
            model=ListWebhookDeliveriesResponse,
            items_key="deliveries",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        delivery_id: str,
        *,
        factory_uid: str,
        webhook_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookDelivery:
        """One delivery, with ``payload`` for Accepted ones (getWebhookDelivery)."""
        return self._get(
            _one(factory_uid, webhook_uid, delivery_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookDelivery,
        )

    def replay(
        self,
        delivery_id: str,
        *,
        factory_uid: str,
        webhook_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ReplayDeliveryResponse:
        """Re-evaluate an Accepted delivery against today's automations (replayWebhookDelivery)."""
        return self._post(
            f"{_one(factory_uid, webhook_uid, delivery_id)}/replay",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ReplayDeliveryResponse,
        )


class AsyncDeliveries(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncDeliveriesWithRawResponse":
        return AsyncDeliveriesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncDeliveriesWithStreamingResponse":
        return AsyncDeliveriesWithStreamingResponse(self)

    def list(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[WebhookDelivery, AsyncCursorPage[WebhookDelivery]]:
        """The webhook's delivery log, newest first (listWebhookDeliveries)."""
        return self._get_api_list(
            _base(factory_uid, webhook_uid),
            page=AsyncCursorPage[WebhookDelivery],
            model=ListWebhookDeliveriesResponse,
            items_key="deliveries",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        delivery_id: str,
        *,
        factory_uid: str,
        webhook_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookDelivery:
        """One delivery, with ``payload`` for Accepted ones (getWebhookDelivery)."""
        return await self._get(
            _one(factory_uid, webhook_uid, delivery_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookDelivery,
        )

    async def replay(
        self,
        delivery_id: str,
        *,
        factory_uid: str,
        webhook_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ReplayDeliveryResponse:
        """Re-evaluate an Accepted delivery against today's automations (replayWebhookDelivery)."""
        return await self._post(
            f"{_one(factory_uid, webhook_uid, delivery_id)}/replay",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ReplayDeliveryResponse,
        )


class DeliveriesWithRawResponse:
    def __init__(self, deliveries: Deliveries) -> None:
        self.list = to_raw_response_wrapper(deliveries.list)
        self.retrieve = to_raw_response_wrapper(deliveries.retrieve)
        self.replay = to_raw_response_wrapper(deliveries.replay)


class AsyncDeliveriesWithRawResponse:
    def __init__(self, deliveries: AsyncDeliveries) -> None:
        self.list = async_to_raw_response_wrapper(deliveries.list)
        self.retrieve = async_to_raw_response_wrapper(deliveries.retrieve)
        self.replay = async_to_raw_response_wrapper(deliveries.replay)


class DeliveriesWithStreamingResponse:
    def __init__(self, deliveries: Deliveries) -> None:
        self.list = to_streamed_response_wrapper(deliveries.list)
        self.retrieve = to_streamed_response_wrapper(deliveries.retrieve)
        self.replay = to_streamed_response_wrapper(deliveries.replay)


class AsyncDeliveriesWithStreamingResponse:
    def __init__(self, deliveries: AsyncDeliveries) -> None:
        self.list = async_to_streamed_response_wrapper(deliveries.list)
        self.retrieve = async_to_streamed_response_wrapper(deliveries.retrieve)
        self.replay = async_to_streamed_response_wrapper(deliveries.replay)
