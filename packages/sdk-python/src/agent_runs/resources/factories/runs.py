"""``client.factories.runs``: dispatchFactoryRun."""

from __future__ import annotations

from typing import Optional, Sequence, Union

from ..._base_client import make_request_options
from ..._resource import AsyncAPIResource, SyncAPIResource
from ..._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ..._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ..._utils import path_param, strip_not_given
from ...types import AmbientAgentConfigParam, RunAgentResponse, RunAttachmentInputParam

__all__ = ["FactoryRuns", "AsyncFactoryRuns"]


class FactoryRuns(SyncAPIResource):
    @property
    def with_raw_response(self) -> "FactoryRunsWithRawResponse":
        return FactoryRunsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "FactoryRunsWithStreamingResponse":
        return FactoryRunsWithStreamingResponse(self)

    def create(
        self,
        factory_uid: str,
        *,
        prompt: str,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Dispatch a run that belongs to the factory (dispatchFactoryRun). Follow it with
        ``client.agent.runs``."""
        return self._post(
            f"/factories/{path_param('factory_uid', factory_uid)}/runs",
            body=strip_not_given({"prompt": prompt, "title": title, "config": config, "attachments": attachments}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )


class AsyncFactoryRuns(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncFactoryRunsWithRawResponse":
        return AsyncFactoryRunsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncFactoryRunsWithStreamingResponse":
        return AsyncFactoryRunsWithStreamingResponse(self)

    async def create(
        self,
        factory_uid: str,
        *,
        prompt: str,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Dispatch a run that belongs to the factory (dispatchFactoryRun)."""
        return await self._post(
            f"/factories/{path_param('factory_uid', factory_uid)}/runs",
            body=strip_not_given({"prompt": prompt, "title": title, "config": config, "attachments": attachments}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )


class FactoryRunsWithRawResponse:
    def __init__(self, runs: FactoryRuns) -> None:
        self.create = to_raw_response_wrapper(runs.create)


class AsyncFactoryRunsWithRawResponse:
    def __init__(self, runs: AsyncFactoryRuns) -> None:
        self.create = async_to_raw_response_wrapper(runs.create)


class FactoryRunsWithStreamingResponse:
    def __init__(self, runs: FactoryRuns) -> None:
        self.create = to_streamed_response_wrapper(runs.create)


class AsyncFactoryRunsWithStreamingResponse:
    def __init__(self, runs: AsyncFactoryRuns) -> None:
        self.create = async_to_streamed_response_wrapper(runs.create)
