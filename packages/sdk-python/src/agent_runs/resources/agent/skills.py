"""``client.agent.skills``: tag Skills."""

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
from ...types import ListSkillsResponse

__all__ = ["Skills", "AsyncSkills"]


class Skills(SyncAPIResource):
    @property
    def with_raw_response(self) -> "SkillsWithRawResponse":
        return SkillsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "SkillsWithStreamingResponse":
        return SkillsWithStreamingResponse(self)

    def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListSkillsResponse:
        """The bundled skill catalogue (listSkills); not paginated."""
        return self._get(
            "/agent/skills",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListSkillsResponse,
        )


class AsyncSkills(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncSkillsWithRawResponse":
        return AsyncSkillsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncSkillsWithStreamingResponse":
        return AsyncSkillsWithStreamingResponse(self)

    async def list(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListSkillsResponse:
        """The bundled skill catalogue (listSkills); not paginated."""
        return await self._get(
            "/agent/skills",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ListSkillsResponse,
        )


class SkillsWithRawResponse:
    def __init__(self, skills: Skills) -> None:
        self.list = to_raw_response_wrapper(skills.list)


class AsyncSkillsWithRawResponse:
    def __init__(self, skills: AsyncSkills) -> None:
        self.list = async_to_raw_response_wrapper(skills.list)


class SkillsWithStreamingResponse:
    def __init__(self, skills: Skills) -> None:
        self.list = to_streamed_response_wrapper(skills.list)


class AsyncSkillsWithStreamingResponse:
    def __init__(self, skills: AsyncSkills) -> None:
        self.list = async_to_streamed_response_wrapper(skills.list)
