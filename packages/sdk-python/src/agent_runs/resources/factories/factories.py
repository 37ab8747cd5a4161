"""``client.factories``: tag Factories, plus the draft Test filter; sub-resources ``runs``
(dispatch), ``webhooks`` (and their ``deliveries``) and ``automations``."""

from __future__ import annotations

from functools import cached_property
from typing import Optional, Sequence, Union

from ..._base_client import AsyncPaginator, make_request_options
from ..._resource import AsyncAPIResource, SyncAPIResource
from ..._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ..._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ..._utils import path_param, strip_not_given
from ...pagination import AsyncCursorPage, SyncCursorPage
from ...types import (
    ApplyDefinitionsResponse,
    DefinitionFileParam,
    DefinitionSource,
    Factory,
    ListFactoriesResponse,
    TestFilterResult,
    TriggerParam,
)
from .automations import (
    AsyncAutomations,
    AsyncAutomationsWithRawResponse,
    AsyncAutomationsWithStreamingResponse,
    Automations,
    AutomationsWithRawResponse,
    AutomationsWithStreamingResponse,
)
from .runs import (
    AsyncFactoryRuns,
    AsyncFactoryRunsWithRawResponse,
    AsyncFactoryRunsWithStreamingResponse,
    FactoryRuns,
    FactoryRunsWithRawResponse,
    FactoryRunsWithStreamingResponse,
)
from .webhooks.webhooks import (
    AsyncWebhooks,
    AsyncWebhooksWithRawResponse,
    AsyncWebhooksWithStreamingResponse,
    Webhooks,
    WebhooksWithRawResponse,
    WebhooksWithStreamingResponse,
)

__all__ = ["Factories", "AsyncFactories"]


def _one(factory_uid: str) -> str:
    return f"/factories/{path_param('factory_uid', factory_uid)}"


class Factories(SyncAPIResource):
    @cached_property
    def runs(self) -> FactoryRuns:
        return FactoryRuns(self._client)

    @cached_property
    def webhooks(self) -> Webhooks:
        return Webhooks(self._client)

    @cached_property
    def automations(self) -> Automations:
        return Automations(self._client)

    @property
    def with_raw_response(self) -> "FactoriesWithRawResponse":
        return FactoriesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "FactoriesWithStreamingResponse":
        return FactoriesWithStreamingResponse(self)

    def create(
        self,
        *,
        name: str,
        definition_source: Union[DefinitionSource, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Factory:
        """Create a factory (createFactory, admin); ``definition_source`` is ``api`` (default) or ``files``."""
        return self._post(
            "/factories",
            body=strip_not_given({"name": name, "definition_source": definition_source}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Factory,
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
    ) -> SyncCursorPage[Factory]:
        """The team's factories, newest first (listFactories)."""
        return self._get_api_list(
            "/factories",
            page=SyncCursorPage[Factory],
            model=ListFactoriesResponse,
            items_key="factories",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        factory_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Factory:
        """One factory (getFactory)."""
        return self._get(
            _one(factory_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Factory,
        )

    def apply_definitions(
        self,
        factory_uid: str,
        *,
        files: Sequence[DefinitionFileParam],
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ApplyDefinitionsResponse:
        """Apply the complete set of definition files of a ``files`` factory (applyFactoryDefinitions).
        Atomic: an invalid file raises `UnprocessableEntityError` (``body["file_errors"]``)."""
        return self._post(
            f"{_one(factory_uid)}/definitions/apply",
            body={"files": files},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ApplyDefinitionsResponse,
        )

    def test_filter(
        self,
        factory_uid: str,
        *,
        delivery_id: str,
        trigger: TriggerParam,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TestFilterResult:
        """Would a draft trigger fire on that stored delivery? (testDraftFilter)"""
        return self._post(
            f"{_one(factory_uid)}/test-filter",
            body={"delivery_id": delivery_id, "trigger": trigger},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=TestFilterResult,
        )


class AsyncFactories(AsyncAPIResource):
    @cached_property
    def runs(self) -> AsyncFactoryRuns:
        return AsyncFactoryRuns(self._client)

    @cached_property
    def webhooks(self) -> AsyncWebhooks:
        return AsyncWebhooks(self._client)

    @cached_property
    def automations(self) -> AsyncAutomations:
        return AsyncAutomations(self._client)

    @property
    def with_raw_response(self) -> "AsyncFactoriesWithRawResponse":
        return AsyncFactoriesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncFactoriesWithStreamingResponse":
        return AsyncFactoriesWithStreamingResponse(self)

    async def create(
        self,
        *,
        name: str,
        definition_source: Union[DefinitionSource, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Factory:
        """Create a factory (createFactory, admin)."""
        return await self._post(
            "/factories",
            body=strip_not_given({"name": name, "definition_source": definition_source}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Factory,
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
    ) -> AsyncPaginator[Factory, AsyncCursorPage[Factory]]:
        """The team's factories, newest first (listFactories)."""
        return self._get_api_list(
            "/factories",
            page=AsyncCursorPage[Factory],
            model=ListFactoriesResponse,
            items_key="factories",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        factory_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Factory:
        """One factory (getFactory)."""
        return await self._get(
            _one(factory_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Factory,
        )

    async def apply_definitions(
        self,
        factory_uid: str,
        *,
        files: Sequence[DefinitionFileParam],
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ApplyDefinitionsResponse:
        """Apply the complete set of definition files of a ``files`` factory (applyFactoryDefinitions)."""
        return await self._post(
            f"{_one(factory_uid)}/definitions/apply",
            body={"files": files},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ApplyDefinitionsResponse,
        )

    async def test_filter(
        self,
        factory_uid: str,
        *,
        delivery_id: str,
        trigger: TriggerParam,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TestFilterResult:
        """Would a draft trigger fire on that stored delivery? (testDraftFilter)"""
        return await self._post(
            f"{_one(factory_uid)}/test-filter",
            body={"delivery_id": delivery_id, "trigger": trigger},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=TestFilterResult,
        )


class FactoriesWithRawResponse:
    def __init__(self, factories: Factories) -> None:
        self.create = to_raw_response_wrapper(factories.create)
        self.list = to_raw_response_wrapper(factories.list)
        self.retrieve = to_raw_response_wrapper(factories.retrieve)
        self.apply_definitions = to_raw_response_wrapper(factories.apply_definitions)
        self.test_filter = to_raw_response_wrapper(factories.test_filter)
        self.runs = FactoryRunsWithRawResponse(factories.runs)
        self.webhooks = WebhooksWithRawResponse(factories.webhooks)
        self.automations = AutomationsWithRawResponse(factories.automations)


class AsyncFactoriesWithRawResponse:
    def __init__(self, factories: AsyncFactories) -> None:
        self.create = async_to_raw_response_wrapper(factories.create)
        self.list = async_to_raw_response_wrapper(factories.list)
        self.retrieve = async_to_raw_response_wrapper(factories.retrieve)
        self.apply_definitions = async_to_raw_response_wrapper(factories.apply_definitions)
        self.test_filter = async_to_raw_response_wrapper(factories.test_filter)
        self.runs = AsyncFactoryRunsWithRawResponse(factories.runs)
        self.webhooks = AsyncWebhooksWithRawResponse(factories.webhooks)
        self.automations = AsyncAutomationsWithRawResponse(factories.automations)


class FactoriesWithStreamingResponse:
    def __init__(self, factories: Factories) -> None:
        self.create = to_streamed_response_wrapper(factories.create)
        self.list = to_streamed_response_wrapper(factories.list)
        self.retrieve = to_streamed_response_wrapper(factories.retrieve)
        self.apply_definitions = to_streamed_response_wrapper(factories.apply_definitions)
        self.test_filter = to_streamed_response_wrapper(factories.test_filter)
        self.runs = FactoryRunsWithStreamingResponse(factories.runs)
        self.webhooks = WebhooksWithStreamingResponse(factories.webhooks)
        self.automations = AutomationsWithStreamingResponse(factories.automations)


class AsyncFactoriesWithStreamingResponse:
    def __init__(self, factories: AsyncFactories) -> None:
        self.create = async_to_streamed_response_wrapper(factories.create)
        self.list = async_to_streamed_response_wrapper(factories.list)
        self.retrieve = async_to_streamed_response_wrapper(factories.retrieve)
        self.apply_definitions = async_to_streamed_response_wrapper(factories.apply_definitions)
        self.test_filter = async_to_streamed_response_wrapper(factories.test_filter)
        self.runs = AsyncFactoryRunsWithStreamingResponse(factories.runs)
        self.webhooks = AsyncWebhooksWithStreamingResponse(factories.webhooks)
        self.automations = AsyncAutomationsWithStreamingResponse(factories.automations)
