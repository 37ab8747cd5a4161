"""``client.agent.schedules``: tag Schedules (scheduled agents, as the Oz API shapes them)."""

from __future__ import annotations

from typing import Dict, Optional, Union

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
from ...types import AmbientAgentConfigParam, DeleteScheduledAgentResponse, ListScheduledAgentsResponse, ScheduledAgentItem

__all__ = ["Schedules", "AsyncSchedules"]


def _path(schedule_id: str) -> str:
    return f"/agent/schedules/{path_param('schedule_id', schedule_id)}"


class Schedules(SyncAPIResource):
    @property
    def with_raw_response(self) -> "SchedulesWithRawResponse":
        """Every method, answering an `APIResponse` (headers, status, ``.parse()``)."""
        return SchedulesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "SchedulesWithStreamingResponse":
        """Every method as a context manager whose body is read only on demand."""
        return SchedulesWithStreamingResponse(self)

    def create(
        self,
        *,
        name: str,
        cron_schedule: str,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        time_zone: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        agent_config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Create a scheduled agent (createScheduledAgent, admin): every slot of ``cron_schedule`` in ``time_zone``
        (default UTC) starts one run of ``prompt`` (or of the skill in ``agent_config``)."""
        return self._post(
            "/agent/schedules",
            body=strip_not_given(
                {
                    "name": name, "cron_schedule": cron_schedule, "prompt": prompt, "time_zone": time_zone,
                    "enabled": enabled, "agent_config": agent_config, "metadata": metadata,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
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
    ) -> SyncCursorPage[ScheduledAgentItem]:
        """List the team's scheduled agents by name (listScheduledAgents)."""
        return self._get_api_list(
            "/agent/schedules",
            page=SyncCursorPage[ScheduledAgentItem],
            model=ListScheduledAgentsResponse,
            items_key="schedules",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """One scheduled agent with its history (getScheduledAgent)."""
        return self._get(
            _path(schedule_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    def update(
        self,
        schedule_id: str,
        *,
        name: str,
        cron_schedule: str,
        enabled: bool,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        time_zone: Union[str, NotGiven] = NOT_GIVEN,
        agent_config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Replace the definition (updateScheduledAgent, ``PUT``, admin): ``prompt``, ``agent_config`` and
        ``metadata`` left out are cleared; ``time_zone`` left out keeps the schedule's zone."""
        return self._put(
            _path(schedule_id),
            body=strip_not_given(
                {
                    "name": name, "cron_schedule": cron_schedule, "enabled": enabled, "prompt": prompt,
                    "time_zone": time_zone, "agent_config": agent_config, "metadata": metadata,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    def delete(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> DeleteScheduledAgentResponse:
        """Delete a scheduled agent (deleteScheduledAgent, admin); the runs it started stay."""
        return self._delete(
            _path(schedule_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=DeleteScheduledAgentResponse,
        )

    def pause(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Pause a scheduled agent (pauseScheduledAgent, admin): no slot fires until it is resumed."""
        return self._post(
            f"{_path(schedule_id)}/pause",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    def resume(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Resume a scheduled agent (resumeScheduledAgent, admin) from its first slot after now."""
        return self._post(
            f"{_path(schedule_id)}/resume",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )


class AsyncSchedules(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncSchedulesWithRawResponse":
        """Every method, answering an `APIResponse` (headers, status, ``.parse()``)."""
        return AsyncSchedulesWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncSchedulesWithStreamingResponse":
        """Every method as a context manager whose body is read only on demand."""
        return AsyncSchedulesWithStreamingResponse(self)

    async def create(
        self,
        *,
        name: str,
        cron_schedule: str,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        time_zone: Union[str, NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        agent_config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Create a scheduled agent (createScheduledAgent, admin): every slot of ``cron_schedule`` in ``time_zone``
        (default UTC) starts one run of ``prompt`` (or of the skill in ``agent_config``)."""
        return await self._post(
            "/agent/schedules",
            body=strip_not_given(
                {
                    "name": name, "cron_schedule": cron_schedule, "prompt": prompt, "time_zone": time_zone,
                    "enabled": enabled, "agent_config": agent_config, "metadata": metadata,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
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
    ) -> AsyncPaginator[ScheduledAgentItem, AsyncCursorPage[ScheduledAgentItem]]:
        """List the team's scheduled agents by name (listScheduledAgents)."""
        return self._get_api_list(
            "/agent/schedules",
            page=AsyncCursorPage[ScheduledAgentItem],
            model=ListScheduledAgentsResponse,
            items_key="schedules",
            options=make_request_options(
                query=strip_not_given({"limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """One scheduled agent with its history (getScheduledAgent)."""
        return await self._get(
            _path(schedule_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    async def update(
        self,
        schedule_id: str,
        *,
        name: str,
        cron_schedule: str,
        enabled: bool,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        time_zone: Union[str, NotGiven] = NOT_GIVEN,
        agent_config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Replace the definition (updateScheduledAgent, ``PUT``, admin): ``prompt``, ``agent_config`` and
        ``metadata`` left out are cleared; ``time_zone`` left out keeps the schedule's zone."""
        return await self._put(
            _path(schedule_id),
            body=strip_not_given(
                {
                    "name": name, "cron_schedule": cron_schedule, "enabled": enabled, "prompt": prompt,
                    "time_zone": time_zone, "agent_config": agent_config, "metadata": metadata,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    async def delete(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> DeleteScheduledAgentResponse:
        """Delete a scheduled agent (deleteScheduledAgent, admin); the runs it started stay."""
        return await self._delete(
            _path(schedule_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=DeleteScheduledAgentResponse,
        )

    async def pause(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Pause a scheduled agent (pauseScheduledAgent, admin): no slot fires until it is resumed."""
        return await self._post(
            f"{_path(schedule_id)}/pause",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )

    async def resume(
        self,
        schedule_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ScheduledAgentItem:
        """Resume a scheduled agent (resumeScheduledAgent, admin) from its first slot after now."""
        return await self._post(
            f"{_path(schedule_id)}/resume",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ScheduledAgentItem,
        )


class SchedulesWithRawResponse:
    def __init__(self, schedules: Schedules) -> None:
        self.create = to_raw_response_wrapper(schedules.create)
        self.list = to_raw_response_wrapper(schedules.list)
        self.retrieve = to_raw_response_wrapper(schedules.retrieve)
        self.update = to_raw_response_wrapper(schedules.update)
        self.delete = to_raw_response_wrapper(schedules.delete)
        self.pause = to_raw_response_wrapper(schedules.pause)
        self.resume = to_raw_response_wrapper(schedules.resume)


class AsyncSchedulesWithRawResponse:
    def __init__(self, schedules: AsyncSchedules) -> None:
        self.create = async_to_raw_response_wrapper(schedules.create)
        self.list = async_to_raw_response_wrapper(schedules.list)
        self.retrieve = async_to_raw_response_wrapper(schedules.retrieve)
        self.update = async_to_raw_response_wrapper(schedules.update)
        self.delete = async_to_raw_response_wrapper(schedules.delete)
        self.pause = async_to_raw_response_wrapper(schedules.pause)
        self.resume = async_to_raw_response_wrapper(schedules.resume)


class SchedulesWithStreamingResponse:
    def __init__(self, schedules: Schedules) -> None:
        self.create = to_streamed_response_wrapper(schedules.create)
        self.list = to_streamed_response_wrapper(schedules.list)
        self.retrieve = to_streamed_response_wrapper(schedules.retrieve)
        self.update = to_streamed_response_wrapper(schedules.update)
        self.delete = to_streamed_response_wrapper(schedules.delete)
        self.pause = to_streamed_response_wrapper(schedules.pause)
        self.resume = to_streamed_response_wrapper(schedules.resume)


class AsyncSchedulesWithStreamingResponse:
    def __init__(self, schedules: AsyncSchedules) -> None:
        self.create = async_to_streamed_response_wrapper(schedules.create)
        self.list = async_to_streamed_response_wrapper(schedules.list)
        self.retrieve = async_to_streamed_response_wrapper(schedules.retrieve)
        self.update = async_to_streamed_response_wrapper(schedules.update)
        self.delete = async_to_streamed_response_wrapper(schedules.delete)
        self.pause = async_to_streamed_response_wrapper(schedules.pause)
        self.resume = async_to_streamed_response_wrapper(schedules.resume)
