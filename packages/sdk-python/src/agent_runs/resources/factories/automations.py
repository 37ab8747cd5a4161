"""``client.factories.automations``: tag Automations (saved automations)."""

from __future__ import annotations

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
from ...types import AmbientAgentConfigParam, Automation, ListAutomationsResponse, TestFilterResult, TriggerParam

__all__ = ["Automations", "AsyncAutomations"]


def _base(factory_uid: str) -> str:
    return f"/factories/{path_param('factory_uid', factory_uid)}/automations"


def _one(factory_uid: str, automation_uid: str) -> str:
    return f"{_base(factory_uid)}/{path_param('automation_uid', automation_uid)}"


class Automations(SyncAPIResource):
    @property
    def with_raw_response(self) -> "AutomationsWithRawResponse":
        return AutomationsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AutomationsWithStreamingResponse":
        return AutomationsWithStreamingResponse(self)

    def create(
        self,
        factory_uid: str,
        *,
        name: str,
        prompt: str,
        triggers: Sequence[TriggerParam],
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """Create an automation (createAutomation, admin). An invalid payload filter raises
        `UnprocessableEntityError` whose ``errors`` name its JSON path."""
        return self._post(
            _base(factory_uid),
            body=strip_not_given(
                {"name": name, "prompt": prompt, "triggers": triggers, "config": config, "enabled": enabled}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
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
    ) -> SyncCursorPage[Automation]:
        """The factory's automations (listAutomations)."""
        return self._get_api_list(
            _base(factory_uid),
            page=SyncCursorPage[Automation],
            model=ListAutomationsResponse,
            items_key="automations",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """One automation with the state of the webhooks it selects (getAutomation)."""
        return self._get(
            _one(factory_uid, automation_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
        )

    def update(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        name: Union[str, NotGiven] = NOT_GIVEN,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        triggers: Union[Sequence[TriggerParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """Change the given fields (updateAutomation, admin); ``triggers`` replaces the whole list."""
        return self._patch(
            _one(factory_uid, automation_uid),
            body=strip_not_given(
                {"name": name, "prompt": prompt, "config": config, "enabled": enabled, "triggers": triggers}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
        )

    def delete(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the automation (deleteAutomation, admin)."""
        return self._delete(
            _one(factory_uid, automation_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )

    def test_filter(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        delivery_id: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TestFilterResult:
        """Would this saved automation trigger on that stored delivery? (testAutomationFilter)"""
        return self._post(
            f"{_one(factory_uid, automation_uid)}/test-filter",
            body={"delivery_id": delivery_id},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=TestFilterResult,
        )


class AsyncAutomations(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncAutomationsWithRawResponse":
        return AsyncAutomationsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncAutomationsWithStreamingResponse":
        return AsyncAutomationsWithStreamingResponse(self)

    async def create(
        self,
        factory_uid: str,
        *,
        name: str,
        prompt: str,
        triggers: Sequence[TriggerParam],
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """Create an automation (createAutomation, admin)."""
        return await self._post(
            _base(factory_uid),
            body=strip_not_given(
                {"name": name, "prompt": prompt, "triggers": triggers, "config": config, "enabled": enabled}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
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
    ) -> AsyncPaginator[Automation, AsyncCursorPage[Automation]]:
        """The factory's automations (listAutomations)."""
        return self._get_api_list(
            _base(factory_uid),
            page=AsyncCursorPage[Automation],
            model=ListAutomationsResponse,
            items_key="automations",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """One automation (getAutomation)."""
        return await self._get(
            _one(factory_uid, automation_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
        )

    async def update(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        name: Union[str, NotGiven] = NOT_GIVEN,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        triggers: Union[Sequence[TriggerParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> Automation:
        """Change the given fields (updateAutomation, admin)."""
        return await self._patch(
            _one(factory_uid, automation_uid),
            body=strip_not_given(
                {"name": name, "prompt": prompt, "config": config, "enabled": enabled, "triggers": triggers}
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=Automation,
        )

    async def delete(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete the automation (deleteAutomation, admin)."""
        return await self._delete(
            _one(factory_uid, automation_uid),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )

    async def test_filter(
        self,
        automation_uid: str,
        *,
        factory_uid: str,
        delivery_id: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TestFilterResult:
        """Would this saved automation trigger on that stored delivery? (testAutomationFilter)"""
        return await self._post(
            f"{_one(factory_uid, automation_uid)}/test-filter",
            body={"delivery_id": delivery_id},
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=TestFilterResult,
        )


class AutomationsWithRawResponse:
    def __init__(self, automations: Automations) -> None:
        self.create = to_raw_response_wrapper(automations.create)
        self.list = to_raw_response_wrapper(automations.list)
        self.retrieve = to_raw_response_wrapper(automations.retrieve)
        self.update = to_raw_response_wrapper(automations.update)
        self.delete = to_raw_response_wrapper(automations.delete)
        self.test_filter = to_raw_response_wrapper(automations.test_filter)


class AsyncAutomationsWithRawResponse:
    def __init__(self, automations: AsyncAutomations) -> None:
        self.create = async_to_raw_response_wrapper(automations.create)
        self.list = async_to_raw_response_wrapper(automations.list)
        self.retrieve = async_to_raw_response_wrapper(automations.retrieve)
        self.update = async_to_raw_response_wrapper(automations.update)
        self.delete = async_to_raw_response_wrapper(automations.delete)
        self.test_filter = async_to_raw_response_wrapper(automations.test_filter)


class AutomationsWithStreamingResponse:
    def __init__(self, automations: Automations) -> None:
        self.create = to_streamed_response_wrapper(automations.create)
        self.list = to_streamed_response_wrapper(automations.list)
        self.retrieve = to_streamed_response_wrapper(automations.retrieve)
        self.update = to_streamed_response_wrapper(automations.update)
        self.delete = to_streamed_response_wrapper(automations.delete)
        self.test_filter = to_streamed_response_wrapper(automations.test_filter)


class AsyncAutomationsWithStreamingResponse:
    def __init__(self, automations: AsyncAutomations) -> None:
        self.create = async_to_streamed_response_wrapper(automations.create)
        self.list = async_to_streamed_response_wrapper(automations.list)
        self.retrieve = async_to_streamed_response_wrapper(automations.retrieve)
        self.update = async_to_streamed_response_wrapper(automations.update)
        self.delete = async_to_streamed_response_wrapper(automations.delete)
        self.test_filter = async_to_streamed_response_wrapper(automations.test_filter)
