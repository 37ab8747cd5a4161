"""``client.agent``: runs, skills, environments and schedules (the Oz-compatible ``/agent`` paths)."""

from __future__ import annotations

from functools import cached_property

from ..._resource import AsyncAPIResource, SyncAPIResource
from .environments import (
    AsyncEnvironments,
    AsyncEnvironmentsWithRawResponse,
    AsyncEnvironmentsWithStreamingResponse,
    Environments,
    EnvironmentsWithRawResponse,
    EnvironmentsWithStreamingResponse,
)
from .runs import (
    AsyncRuns,
    AsyncRunsWithRawResponse,
    AsyncRunsWithStreamingResponse,
    Runs,
    RunsWithRawResponse,
    RunsWithStreamingResponse,
)
from .schedules import (
    AsyncSchedules,
    AsyncSchedulesWithRawResponse,
    AsyncSchedulesWithStreamingResponse,
    Schedules,
    SchedulesWithRawResponse,
    SchedulesWithStreamingResponse,
)
from .skills import (
    AsyncSkills,
    AsyncSkillsWithRawResponse,
    AsyncSkillsWithStreamingResponse,
    Skills,
    SkillsWithRawResponse,
    SkillsWithStreamingResponse,
)

__all__ = ["Agent", "AsyncAgent"]


class Agent(SyncAPIResource):
    @cached_property
    def runs(self) -> Runs:
        return Runs(self._client)

    @cached_property
    def skills(self) -> Skills:
        return Skills(self._client)

    @cached_property
    def environments(self) -> Environments:
        return Environments(self._client)

    @cached_property
    def schedules(self) -> Schedules:
        return Schedules(self._client)

    @property
    def with_raw_response(self) -> "AgentWithRawResponse":
        return AgentWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AgentWithStreamingResponse":
        return AgentWithStreamingResponse(self)


class AsyncAgent(AsyncAPIResource):
    @cached_property
    def runs(self) -> AsyncRuns:
        return AsyncRuns(self._client)

    @cached_property
    def skills(self) -> AsyncSkills:
        return AsyncSkills(self._client)

    @cached_property
    def environments(self) -> AsyncEnvironments:
        return AsyncEnvironments(self._client)

    @cached_property
    def schedules(self) -> AsyncSchedules:
        return AsyncSchedules(self._client)

    @property
    def with_raw_response(self) -> "AsyncAgentWithRawResponse":
        return AsyncAgentWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncAgentWithStreamingResponse":
        return AsyncAgentWithStreamingResponse(self)


class AgentWithRawResponse:
    def __init__(self, agent: Agent) -> None:
        self.runs = RunsWithRawResponse(agent.runs)
        self.skills = SkillsWithRawResponse(agent.skills)
        self.environments = EnvironmentsWithRawResponse(agent.environments)
        self.schedules = SchedulesWithRawResponse(agent.schedules)


class AsyncAgentWithRawResponse:
    def __init__(self, agent: AsyncAgent) -> None:
        self.runs = AsyncRunsWithRawResponse(agent.runs)
        self.skills = AsyncSkillsWithRawResponse(agent.skills)
        self.environments = AsyncEnvironmentsWithRawResponse(agent.environments)
        self.schedules = AsyncSchedulesWithRawResponse(agent.schedules)


class AgentWithStreamingResponse:
    def __init__(self, agent: Agent) -> None:
        self.runs = RunsWithStreamingResponse(agent.runs)
        self.skills = SkillsWithStreamingResponse(agent.skills)
        self.environments = EnvironmentsWithStreamingResponse(agent.environments)
        self.schedules = SchedulesWithStreamingResponse(agent.schedules)


class AsyncAgentWithStreamingResponse:
    def __init__(self, agent: AsyncAgent) -> None:
        self.runs = AsyncRunsWithStreamingResponse(agent.runs)
        self.skills = AsyncSkillsWithStreamingResponse(agent.skills)
        self.environments = AsyncEnvironmentsWithStreamingResponse(agent.environments)
        self.schedules = AsyncSchedulesWithStreamingResponse(agent.schedules)
