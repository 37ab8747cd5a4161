"""``client.agent``: the agents list, runs, skills, models, environments, run artifacts and schedules (the Oz-compatible ``/agent`` paths)."""

from __future__ import annotations

from functools import cached_property
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
from ..._utils import path_param, strip_not_given
from ...types import ArtifactResponse, ListAgentsResponse
from .environments import (
    AsyncEnvironments,
    AsyncEnvironmentsWithRawResponse,
    AsyncEnvironmentsWithStreamingResponse,
    Environments,
    EnvironmentsWithRawResponse,
    EnvironmentsWithStreamingResponse,
)
from .harnesses import (
    AsyncHarnesses,
    AsyncHarnessesWithRawResponse,
    AsyncHarnessesWithStreamingResponse,
    Harnesses,
    HarnessesWithRawResponse,
    HarnessesWithStreamingResponse,
)
from .models import (
    AsyncModels,
    AsyncModelsWithRawResponse,
    AsyncModelsWithStreamingResponse,
    Models,
    ModelsWithRawResponse,
    ModelsWithStreamingResponse,
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

    def get_artifact(
        self,
        artifact_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ArtifactResponse:
        """An artifact of a run (getArtifact): a FILE or SCREENSHOT with a signed download URL that needs no
        API key and expires at ``data.expires_at``, or a PLAN with its Markdown inline."""
        return self._get(
            f"/agent/artifacts/{path_param('artifact_uid', artifact_uid)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ArtifactResponse,  # type: ignore[arg-type]
        )

    def download_artifact(
        self,
        artifact_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> bytes:
        """The bytes of a FILE, SCREENSHOT or PLAN artifact (downloadArtifact, following its redirect to a
        signed URL). For headers (``Content-Disposition``) use ``.with_raw_response.download_artifact(...)``."""
        return self._get(
            f"/agent/artifacts/{path_param('artifact_uid', artifact_uid)}/download",
            options={
                **make_request_options(
                    extra_headers={"Accept": "*/*", **(extra_headers or {})}, extra_query=extra_query,
                    extra_body=extra_body, timeout=timeout,
                ),
                "follow_redirects": True,
            },
            cast_to=bytes,
        )

    @cached_property
    def models(self) -> Models:
        return Models(self._client)

    @cached_property
    def harnesses(self) -> Harnesses:
        return Harnesses(self._client)

    def list(
        self,
        *,
        repo: Union[str, NotGiven] = NOT_GIVEN,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        include_malformed_skills: Union[bool, NotGiven] = NOT_GIVEN,
        refresh: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListAgentsResponse:
        """The skills a run can start from, grouped by name (listAgents, Oz's agents); not paginated."""
        return self._get(
            "/agent",
            options=make_request_options(
                query=strip_not_given(
                    {"repo": repo, "sort_by": sort_by, "include_malformed_skills": include_malformed_skills, "refresh": refresh}
                ),
                extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=ListAgentsResponse,
        )

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

    async def get_artifact(
        self,
        artifact_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ArtifactResponse:
        """An artifact of a run (getArtifact)."""
        return await self._get(
            f"/agent/artifacts/{path_param('artifact_uid', artifact_uid)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ArtifactResponse,  # type: ignore[arg-type]
        )

    async def download_artifact(
        self,
        artifact_uid: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> bytes:
        """The bytes of a FILE, SCREENSHOT or PLAN artifact (downloadArtifact)."""
        return await self._get(
            f"/agent/artifacts/{path_param('artifact_uid', artifact_uid)}/download",
            options={
                **make_request_options(
                    extra_headers={"Accept": "*/*", **(extra_headers or {})}, extra_query=extra_query,
                    extra_body=extra_body, timeout=timeout,
                ),
                "follow_redirects": True,
            },
            cast_to=bytes,
        )

    @cached_property
    def models(self) -> AsyncModels:
        return AsyncModels(self._client)

    @cached_property
    def harnesses(self) -> AsyncHarnesses:
        return AsyncHarnesses(self._client)

    async def list(
        self,
        *,
        repo: Union[str, NotGiven] = NOT_GIVEN,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        include_malformed_skills: Union[bool, NotGiven] = NOT_GIVEN,
        refresh: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ListAgentsResponse:
        """The skills a run can start from, grouped by name (listAgents, Oz's agents); not paginated."""
        return await self._get(
            "/agent",
            options=make_request_options(
                query=strip_not_given(
                    {"repo": repo, "sort_by": sort_by, "include_malformed_skills": include_malformed_skills, "refresh": refresh}
                ),
                extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=ListAgentsResponse,
        )

    @property
    def with_raw_response(self) -> "AsyncAgentWithRawResponse":
        return AsyncAgentWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncAgentWithStreamingResponse":
        return AsyncAgentWithStreamingResponse(self)


class AgentWithRawResponse:
    def __init__(self, agent: Agent) -> None:
        self.get_artifact = to_raw_response_wrapper(agent.get_artifact)
        self.download_artifact = to_raw_response_wrapper(agent.download_artifact)
        self.runs = RunsWithRawResponse(agent.runs)
        self.skills = SkillsWithRawResponse(agent.skills)
        self.environments = EnvironmentsWithRawResponse(agent.environments)
        self.schedules = SchedulesWithRawResponse(agent.schedules)
        self.models = ModelsWithRawResponse(agent.models)
        self.harnesses = HarnessesWithRawResponse(agent.harnesses)
        self.list = to_raw_response_wrapper(agent.list)


class AsyncAgentWithRawResponse:
    def __init__(self, agent: AsyncAgent) -> None:
        self.get_artifact = async_to_raw_response_wrapper(agent.get_artifact)
        self.download_artifact = async_to_raw_response_wrapper(agent.download_artifact)
        self.runs = AsyncRunsWithRawResponse(agent.runs)
        self.skills = AsyncSkillsWithRawResponse(agent.skills)
        self.environments = AsyncEnvironmentsWithRawResponse(agent.environments)
        self.schedules = AsyncSchedulesWithRawResponse(agent.schedules)
        self.models = AsyncModelsWithRawResponse(agent.models)
        self.harnesses = AsyncHarnessesWithRawResponse(agent.harnesses)
        self.list = async_to_raw_response_wrapper(agent.list)


class AgentWithStreamingResponse:
    def __init__(self, agent: Agent) -> None:
        self.get_artifact = to_streamed_response_wrapper(agent.get_artifact)
        self.download_artifact = to_streamed_response_wrapper(agent.download_artifact)
        self.runs = RunsWithStreamingResponse(agent.runs)
        self.skills = SkillsWithStreamingResponse(agent.skills)
        self.environments = EnvironmentsWithStreamingResponse(agent.environments)
        self.schedules = SchedulesWithStreamingResponse(agent.schedules)
        self.models = ModelsWithStreamingResponse(agent.models)
        self.harnesses = HarnessesWithStreamingResponse(agent.harnesses)
        self.list = to_streamed_response_wrapper(agent.list)


class AsyncAgentWithStreamingResponse:
    def __init__(self, agent: AsyncAgent) -> None:
        self.get_artifact = async_to_streamed_response_wrapper(agent.get_artifact)
        self.download_artifact = async_to_streamed_response_wrapper(agent.download_artifact)
        self.runs = AsyncRunsWithStreamingResponse(agent.runs)
        self.skills = AsyncSkillsWithStreamingResponse(agent.skills)
        self.environments = AsyncEnvironmentsWithStreamingResponse(agent.environments)
        self.schedules = AsyncSchedulesWithStreamingResponse(agent.schedules)
        self.models = AsyncModelsWithStreamingResponse(agent.models)
        self.harnesses = AsyncHarnessesWithStreamingResponse(agent.harnesses)
        self.list = async_to_streamed_response_wrapper(agent.list)
