"""``client.agent.harnesses``: the third-party agent CLIs this server offers (tag Harnesses)."""

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
from ...types import ListHarnessesResponse

__all__ = ["Harnesses", "AsyncHarnesses"]


class Harnesses(SyncAPIResource):
    @property
    def with_raw_response(self) -> "HarnessesWithRawResponse":
        return HarnessesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "HarnessesWithStreamingResponse":
        return HarnessesWithStreamingResponse(self)

    def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListHarnessesResponse:
        """The harnesses (agent CLIs) this server offers, their pinned versions and whether each is installed (listHarnesses)."""
        return self._get(
            "/agent/harnesses",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListHarnessesResponse,
        )


class AsyncHarnesses(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncHarnessesWithRawResponse":
        return AsyncHarnessesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncHarnessesWithStreamingResponse":
        return AsyncHarnessesWithStreamingResponse(self)

    async def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListHarnessesResponse:
        """The harnesses (agent CLIs) this server offers, their pinned versions and whether each is installed (listHarnesses)."""
        return await self._get(
            "/agent/harnesses",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListHarnessesResponse,
        )


class HarnessesWithRawResponse:
    def __init__(self, harnesses: Harnesses) -> None:
        self.list = to_raw_response_wrapper(harnesses.list)


class AsyncHarnessesWithRawResponse:
    def __init__(self, harnesses: AsyncHarnesses) -> None:
        self.list = async_to_raw_response_wrapper(harnesses.list)


class HarnessesWithStreamingResponse:
    def __init__(self, harnesses: Harnesses) -> None:
        self.list = to_streamed_response_wrapper(harnesses.list)


class AsyncHarnessesWithStreamingResponse:
    def __init__(self, harnesses: AsyncHarnesses) -> None:
        self.list = async_to_streamed_response_wrapper(harnesses.list)
