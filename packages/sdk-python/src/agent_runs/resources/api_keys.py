"""``client.api_keys``: tag API Keys (admin only, except ``current``)."""

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
from .._utils import path_param, strip_not_given
from ..pagination import AsyncCursorPage, SyncCursorPage
from ..types import ApiKey, ApiKeyRole, ApiKeyWithValue, CurrentApiKey, ListApiKeysResponse

__all__ = ["ApiKeys", "AsyncApiKeys"]


class ApiKeys(SyncAPIResource):
    @property
    def with_raw_response(self) -> "ApiKeysWithRawResponse":
        return ApiKeysWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "ApiKeysWithStreamingResponse":
        return ApiKeysWithStreamingResponse(self)

    def create(
        self,
        *,
        role: ApiKeyRole,
        name: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ApiKeyWithValue:
        """Create an API key (createApiKey, admin); ``api_key`` is in this answer only."""
        return self._post(
            "/api-keys",
            body=strip_not_given({"name": name, "role": role}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ApiKeyWithValue,
        )

    def current(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CurrentApiKey:
        """The key this client calls with (its role) and its team (getCurrentApiKey, any role)."""
        return self._get(
            "/api-keys/current",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CurrentApiKey,
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
    ) -> SyncCursorPage[ApiKey]:
        """The team's API keys, without values (listApiKeys, admin)."""
        return self._get_api_list(
            "/api-keys",
            page=SyncCursorPage[ApiKey],
            model=ListApiKeysResponse,
            items_key="api_keys",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def delete(
        self,
        key_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Revoke a key at once (deleteApiKey, admin)."""
        return self._delete(
            f"/api-keys/{path_param('key_id', key_id)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class AsyncApiKeys(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncApiKeysWithRawResponse":
        return AsyncApiKeysWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncApiKeysWithStreamingResponse":
        return AsyncApiKeysWithStreamingResponse(self)

    async def create(
        self,
        *,
        role: ApiKeyRole,
        name: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ApiKeyWithValue:
        """Create an API key (createApiKey, admin); ``api_key`` is in this answer only."""
        return await self._post(
            "/api-keys",
            body=strip_not_given({"name": name, "role": role}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ApiKeyWithValue,
        )

    async def current(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CurrentApiKey:
        """The key this client calls with (its role) and its team (getCurrentApiKey, any role)."""
        return await self._get(
            "/api-keys/current",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CurrentApiKey,
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
    ) -> AsyncPaginator[ApiKey, AsyncCursorPage[ApiKey]]:
        """The team's API keys, without values (listApiKeys, admin)."""
        return self._get_api_list(
            "/api-keys",
            page=AsyncCursorPage[ApiKey],
            model=ListApiKeysResponse,
            items_key="api_keys",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def delete(
        self,
        key_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Revoke a key at once (deleteApiKey, admin)."""
        return await self._delete(
            f"/api-keys/{path_param('key_id', key_id)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class ApiKeysWithRawResponse:
    def __init__(self, api_keys: ApiKeys) -> None:
        self.create = to_raw_response_wrapper(api_keys.create)
        self.current = to_raw_response_wrapper(api_keys.current)
        self.list = to_raw_response_wrapper(api_keys.list)
        self.delete = to_raw_response_wrapper(api_keys.delete)


class AsyncApiKeysWithRawResponse:
    def __init__(self, api_keys: AsyncApiKeys) -> None:
        self.create = async_to_raw_response_wrapper(api_keys.create)
        self.current = async_to_raw_response_wrapper(api_keys.current)
        self.list = async_to_raw_response_wrapper(api_keys.list)
        self.delete = async_to_raw_response_wrapper(api_keys.delete)


class ApiKeysWithStreamingResponse:
    def __init__(self, api_keys: ApiKeys) -> None:
        self.create = to_streamed_response_wrapper(api_keys.create)
        self.current = to_streamed_response_wrapper(api_keys.current)
        self.list = to_streamed_response_wrapper(api_keys.list)
        self.delete = to_streamed_response_wrapper(api_keys.delete)


class AsyncApiKeysWithStreamingResponse:
    def __init__(self, api_keys: AsyncApiKeys) -> None:
        self.create = async_to_streamed_response_wrapper(api_keys.create)
        self.current = async_to_streamed_response_wrapper(api_keys.current)
        self.list = async_to_streamed_response_wrapper(api_keys.list)
        self.delete = async_to_streamed_response_wrapper(api_keys.delete)
