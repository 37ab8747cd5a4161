"""``client.factories.webhooks``: tag Webhooks."""

from __future__ import annotations

from functools import cached_property
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
from ....types import AuthMode, ListWebhooksResponse, SignatureScheme, Webhook, WebhookWithSecret
from .deliveries import (
    AsyncDeliveries,
    AsyncDeliveriesWithRawResponse,
    AsyncDeliveriesWithStreamingResponse,
    Deliveries,
    DeliveriesWithRawResponse,
    DeliveriesWithStreamingResponse,
)

__all__ = ["Webhooks", "AsyncWebhooks"]


def _base(factory_uid: str) -> str:
    return f"/factories/{path_param('factory_uid', factory_uid)}/webhooks"


def _one(factory_uid: str, webhook_uid: str) -> str:
    return f"{_base(factory_uid)}/{path_param('webhook_uid', webhook_uid)}"


class Webhooks(SyncAPIResource):
    @cached_property
    def deliveries(self) -> Deliveries:
        return Deliveries(self._client)

    @property
    def with_raw_response(self) -> "WebhooksWithRawResponse":
        return WebhooksWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "WebhooksWithStreamingResponse":
        return WebhooksWithStreamingResponse(self)

    def create(
        self,
        factory_uid: str,
        *,
        name: str,
        auth_mode: Union[AuthMode, NotGiven] = NOT_GIVEN,
        signature_scheme: Union[SignatureScheme, NotGiven] = NOT_GIVEN,
        provider_secret: Union[str, NotGiven] = NOT_GIVEN,
        secret_name: Union[str, NotGiven] = NOT_GIVEN,
        delivery_id_header: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookWithSecret:
        """Create a webhook (createWebhook, admin). The answer's ``secret`` is shown this once."""
        return self._post(
            _base(factory_uid),
            body=strip_not_given(
                {
                    "name": name,
                    "auth_mode": auth_mode,
                    "signature_scheme": signature_scheme,
                    "provider_secret": provider_secret,
                    "secret_name": secret_name,
                    "delivery_id_header": delivery_id_header,
                    "enabled": enabled,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookWithSecret,
        )

    def list(
        self,
        factory_uid: str,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[Webhook]:
        """The factory's webhooks, newest first (listWebhooks)."""
        return self._get_api_list(
            _base(factory_uid),
            page=SyncCursorPage[Webhook],
            model=ListWebhooksResponse,
            items_key="webhooks",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Webhook:
        """One webhook, never with its secret (getWebhook)."""
        return self._get(
            _one(factory_uid, webhook_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Webhook,
        )

    def update(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        name: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        delivery_id_header: Union[str, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Webhook:
        """Change ``name``, ``enabled`` or ``delivery_id_header`` (updateWebhook, admin);
        ``delivery_id_header=None`` clears it."""
        return self._patch(
            _one(factory_uid, webhook_uid),
            body=strip_not_given({"name": name, "enabled": enabled, "delivery_id_header": delivery_id_header}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Webhook,
        )

    def rotate_secret(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        provider_secret: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookWithSecret:
        """Replace the secret (rotateWebhookSecret, admin): generated, or the provider's
        ``provider_secret``. The old secret stops working at once."""
        return self._post(
            f"{_one(factory_uid, webhook_uid)}/rotate-secret",
            body=strip_not_given({"provider_secret": provider_secret}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookWithSecret,
        )

    def delete(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the webhook (deleteWebhook, admin); its team secret is kept."""
        return self._delete(
            _one(factory_uid, webhook_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class AsyncWebhooks(AsyncAPIResource):
    @cached_property
    def deliveries(self) -> AsyncDeliveries:
        return AsyncDeliveries(self._client)

    @property
    def with_raw_response(self) -> "AsyncWebhooksWithRawResponse":
        return AsyncWebhooksWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncWebhooksWithStreamingResponse":
        return AsyncWebhooksWithStreamingResponse(self)

    async def create(
        self,
        factory_uid: str,
        *,
        name: str,
        auth_mode: Union[AuthMode, NotGiven] = NOT_GIVEN,
        signature_scheme: Union[SignatureScheme, NotGiven] = NOT_GIVEN,
        provider_secret: Union[str, NotGiven] = NOT_GIVEN,
        secret_name: Union[str, NotGiven] = NOT_GIVEN,
        delivery_id_header: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookWithSecret:
        """Create a webhook (createWebhook, admin). The answer's ``secret`` is shown this once."""
        return await self._post(
            _base(factory_uid),
            body=strip_not_given(
                {
                    "name": name,
                    "auth_mode": auth_mode,
                    "signature_scheme": signature_scheme,
                    "provider_secret": provider_secret,
                    "secret_name": secret_name,
                    "delivery_id_header": delivery_id_header,
                    "enabled": enabled,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookWithSecret,
        )

    def list(
        self,
        factory_uid: str,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[Webhook, AsyncCursorPage[Webhook]]:
        """The factory's webhooks, newest first (listWebhooks)."""
        return self._get_api_list(
            _base(factory_uid),
            page=AsyncCursorPage[Webhook],
            model=ListWebhooksResponse,
            items_key="webhooks",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Webhook:
        """One webhook, never with its secret (getWebhook)."""
        return await self._get(
            _one(factory_uid, webhook_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Webhook,
        )

    async def update(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        name: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        delivery_id_header: Union[str, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Webhook:
        """Change ``name``, ``enabled`` or ``delivery_id_header`` (updateWebhook, admin)."""
        return await self._patch(
            _one(factory_uid, webhook_uid),
            body=strip_not_given({"name": name, "enabled": enabled, "delivery_id_header": delivery_id_header}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Webhook,
        )

    async def rotate_secret(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        provider_secret: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> WebhookWithSecret:
        """Replace the secret (rotateWebhookSecret, admin)."""
        return await self._post(
            f"{_one(factory_uid, webhook_uid)}/rotate-secret",
            body=strip_not_given({"provider_secret": provider_secret}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=WebhookWithSecret,
        )

    async def delete(
        self,
        webhook_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the webhook (deleteWebhook, admin)."""
        return await self._delete(
            _one(factory_uid, webhook_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class WebhooksWithRawResponse:
    def __init__(self, webhooks: Webhooks) -> None:
        self.create = to_raw_response_wrapper(webhooks.create)
        self.list = to_raw_response_wrapper(webhooks.list)
        self.retrieve = to_raw_response_wrapper(webhooks.retrieve)
        self.update = to_raw_response_wrapper(webhooks.update)
        self.rotate_secret = to_raw_response_wrapper(webhooks.rotate_secret)
        self.delete = to_raw_response_wrapper(webhooks.delete)
        self.deliveries = DeliveriesWithRawResponse(webhooks.deliveries)


class AsyncWebhooksWithRawResponse:
    def __init__(self, webhooks: AsyncWebhooks) -> None:
        self.create = async_to_raw_response_wrapper(webhooks.create)
        self.list = async_to_raw_response_wrapper(webhooks.list)
        self.retrieve = async_to_raw_response_wrapper(webhooks.retrieve)
        self.update = async_to_raw_response_wrapper(webhooks.update)
        self.rotate_secret = async_to_raw_response_wrapper(webhooks.rotate_secret)
        self.delete = async_to_raw_response_wrapper(webhooks.delete)
        self.deliveries = AsyncDeliveriesWithRawResponse(webhooks.deliveries)


class WebhooksWithStreamingResponse:
    def __init__(self, webhooks: Webhooks) -> None:
        self.create = to_streamed_response_wrapper(webhooks.create)
        self.list = to_streamed_response_wrapper(webhooks.list)
        self.retrieve = to_streamed_response_wrapper(webhooks.retrieve)
        self.update = to_streamed_response_wrapper(webhooks.update)
        self.rotate_secret = to_streamed_response_wrapper(webhooks.rotate_secret)
        self.delete = to_streamed_response_wrapper(webhooks.delete)
        self.deliveries = DeliveriesWithStreamingResponse(webhooks.deliveries)


class AsyncWebhooksWithStreamingResponse:
    def __init__(self, webhooks: AsyncWebhooks) -> None:
        self.create = async_to_streamed_response_wrapper(webhooks.create)
        self.list = async_to_streamed_response_wrapper(webhooks.list)
        self.retrieve = async_to_streamed_response_wrapper(webhooks.retrieve)
        self.update = async_to_streamed_response_wrapper(webhooks.update)
        self.rotate_secret = async_to_streamed_response_wrapper(webhooks.rotate_secret)
        self.delete = async_to_streamed_response_wrapper(webhooks.delete)
        self.deliveries = AsyncDeliveriesWithStreamingResponse(webhooks.deliveries)
