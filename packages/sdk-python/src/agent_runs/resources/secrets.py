"""``client.secrets``: tag Secrets (team secrets; values are write-only)."""

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
from ..types import ListSecretsResponse, SecretMetadata

__all__ = ["Secrets", "AsyncSecrets"]


def _one(name: str) -> str:
    return f"/secrets/{path_param('name', name)}"


class Secrets(SyncAPIResource):
    @property
    def with_raw_response(self) -> "SecretsWithRawResponse":
        return SecretsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "SecretsWithStreamingResponse":
        return SecretsWithStreamingResponse(self)

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[SecretMetadata]:
        """Names of the team's secrets, sorted by name (listSecrets, admin)."""
        return self._get_api_list(
            "/secrets",
            page=SyncCursorPage[SecretMetadata],
            model=ListSecretsResponse,
            items_key="secrets",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def put(
        self,
        name: str,
        *,
        value: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SecretMetadata:
        """Create or replace a team secret (putSecret, admin); answers its metadata, never the value."""
        return self._put(
            _one(name),
            body={"value": value},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=SecretMetadata,
        )

    def delete(
        self,
        name: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete a team secret (deleteSecret, admin); one a webhook uses raises `ConflictError`."""
        return self._delete(
            _one(name),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class AsyncSecrets(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncSecretsWithRawResponse":
        return AsyncSecretsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncSecretsWithStreamingResponse":
        return AsyncSecretsWithStreamingResponse(self)

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[SecretMetadata, AsyncCursorPage[SecretMetadata]]:
        """Names of the team's secrets, sorted by name (listSecrets, admin)."""
        return self._get_api_list(
            "/secrets",
            page=AsyncCursorPage[SecretMetadata],
            model=ListSecretsResponse,
            items_key="secrets",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def put(
        self,
        name: str,
        *,
        value: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SecretMetadata:
        """Create or replace a team secret (putSecret, admin)."""
        return await self._put(
            _one(name),
            body={"value": value},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=SecretMetadata,
        )

    async def delete(
        self,
        name: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete a team secret (deleteSecret, admin)."""
        return await self._delete(
            _one(name),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class SecretsWithRawResponse:
    def __init__(self, secrets: Secrets) -> None:
        self.list = to_raw_response_wrapper(secrets.list)
        self.put = to_raw_response_wrapper(secrets.put)
        self.delete = to_raw_response_wrapper(secrets.delete)


class AsyncSecretsWithRawResponse:
    def __init__(self, secrets: AsyncSecrets) -> None:
        self.list = async_to_raw_response_wrapper(secrets.list)
        self.put = async_to_raw_response_wrapper(secrets.put)
        self.delete = async_to_raw_response_wrapper(secrets.delete)


class SecretsWithStreamingResponse:
    def __init__(self, secrets: Secrets) -> None:
        self.list = to_streamed_response_wrapper(secrets.list)
        self.put = to_streamed_response_wrapper(secrets.put)
        self.delete = to_streamed_response_wrapper(secrets.delete)


class AsyncSecretsWithStreamingResponse:
    def __init__(self, secrets: AsyncSecrets) -> None:
        self.list = async_to_streamed_response_wrapper(secrets.list)
        self.put = async_to_streamed_response_wrapper(secrets.put)
        self.delete = async_to_streamed_response_wrapper(secrets.delete)
