"""``client.agent.models``: tag Models."""

from __future__ import annotations

from typing import Optional, Union

from ..._base_client import make_request_options
from ..._resource import AsyncAPIResource, SyncAPIResource
from ..._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ..._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ...types import ListModelsResponse

__all__ = ["Models", "AsyncModels"]


class Models(SyncAPIResource):
    @property
    def with_raw_response(self) -> "ModelsWithRawResponse":
        return ModelsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "ModelsWithStreamingResponse":
        return ModelsWithStreamingResponse(self)

    def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListModelsResponse:
        """The models runs of this server can use, and the default (listModels)."""
        return self._get(
            "/agent/models",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListModelsResponse,
        )


class AsyncModels(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncModelsWithRawResponse":
        return AsyncModelsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncModelsWithStreamingResponse":
        return AsyncModelsWithStreamingResponse(self)

    async def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListModelsResponse:
        """The models runs of this server can use, and the default (listModels)."""
        return await self._get(
            "/agent/models",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListModelsResponse,
        )


class ModelsWithRawResponse:
    def __init__(self, models: Models) -> None:
        self.list = to_raw_response_wrapper(models.list)


class AsyncModelsWithRawResponse:
    def __init__(self, models: AsyncModels) -> None:
        self.list = async_to_raw_response_wrapper(models.list)


class ModelsWithStreamingResponse:
    def __init__(self, models: Models) -> None:
        self.list = to_streamed_response_wrapper(models.list)


class AsyncModelsWithStreamingResponse:
    def __init__(self, models: AsyncModels) -> None:
        self.list = async_to_streamed_response_wrapper(models.list)
