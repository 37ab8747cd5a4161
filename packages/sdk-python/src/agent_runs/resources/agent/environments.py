"""``client.agent.environments``: tag Environments."""

from __future__ import annotations

from typing import Dict, Optional, Sequence, Union

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
from ...types import CloudEnvironment, ListEnvironmentsResponse

__all__ = ["Environments", "AsyncEnvironments"]


def _path(environment_id: str) -> str:
    return f"/agent/environments/{path_param('environment_id', environment_id)}"


class Environments(SyncAPIResource):
    @property
    def with_raw_response(self) -> "EnvironmentsWithRawResponse":
        return EnvironmentsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "EnvironmentsWithStreamingResponse":
        return EnvironmentsWithStreamingResponse(self)

    def create(
        self,
        *,
        name: str,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        setup_commands: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        plain_env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        docker_image: Union[str, NotGiven] = NOT_GIVEN,
        registry_secret_name: Union[str, NotGiven] = NOT_GIVEN,
        github_repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        git_token_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        auto_pr: Union[bool, NotGiven] = NOT_GIVEN,
        providers: Union[Dict[str, object], NotGiven] = NOT_GIVEN,
        failure_session_retention_minutes: Union[int, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """Create an environment (createEnvironment, admin), answered in the Oz ``CloudEnvironment`` shape.
        ``env_vars`` values are write-only secrets that only the setup commands see; ``plain_env_vars`` are readable
        and the agent gets them too; ``docker_image`` (with ``registry_secret_name``, a team secret holding
        the registry credentials) is the image runs start in; ``github_repos`` (Oz) and ``repos`` (any git URL) are
        checked out in each run's workspace, with the token of the team secret ``git_token_secret_name`` (else
        ``GIT_TOKEN``), and a run's changes pushed as a branch (``auto_pr``: with a pull request); ``providers`` is
        refused (400)."""
        return self._post(
            "/agent/environments",
            body=strip_not_given(
                {
                    "name": name, "description": description, "setup_commands": setup_commands, "env_vars": env_vars,
                    "plain_env_vars": plain_env_vars,
                    "docker_image": docker_image, "registry_secret_name": registry_secret_name,
                    "github_repos": github_repos, "repos": repos, "git_token_secret_name": git_token_secret_name,
                    "auto_pr": auto_pr, "providers": providers,
                    "failure_session_retention_minutes": failure_session_retention_minutes,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    def list(
        self,
        *,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[CloudEnvironment]:
        """List environments (listEnvironments): most recently updated first, or ``sort_by="name"``."""
        return self._get_api_list(
            "/agent/environments",
            page=SyncCursorPage[CloudEnvironment],
            model=ListEnvironmentsResponse,
            items_key="environments",
            options=make_request_options(
                query=strip_not_given({"sort_by": sort_by, "limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    def retrieve(
        self,
        environment_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """One environment (getEnvironment)."""
        return self._get(
            _path(environment_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    def update(
        self,
        environment_id: str,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        setup_commands: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        plain_env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        docker_image: Union[str, None, NotGiven] = NOT_GIVEN,
        registry_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        github_repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        git_token_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        auto_pr: Union[bool, NotGiven] = NOT_GIVEN,
        providers: Union[Dict[str, object], NotGiven] = NOT_GIVEN,
        failure_session_retention_minutes: Union[int, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """Change the given fields (updateEnvironment, admin); lists and maps given replace the old."""
        return self._patch(
            _path(environment_id),
            body=strip_not_given(
                {
                    "name": name, "description": description, "setup_commands": setup_commands, "env_vars": env_vars,
                    "plain_env_vars": plain_env_vars,
                    "docker_image": docker_image, "registry_secret_name": registry_secret_name,
                    "github_repos": github_repos, "repos": repos, "git_token_secret_name": git_token_secret_name,
                    "auto_pr": auto_pr, "providers": providers,
                    "failure_session_retention_minutes": failure_session_retention_minutes,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    def delete(
        self,
        environment_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete an environment (deleteEnvironment, admin)."""
        return self._delete(
            _path(environment_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class AsyncEnvironments(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncEnvironmentsWithRawResponse":
        return AsyncEnvironmentsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncEnvironmentsWithStreamingResponse":
        return AsyncEnvironmentsWithStreamingResponse(self)

    async def create(
        self,
        *,
        name: str,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        setup_commands: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        plain_env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        docker_image: Union[str, NotGiven] = NOT_GIVEN,
        registry_secret_name: Union[str, NotGiven] = NOT_GIVEN,
        github_repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        git_token_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        auto_pr: Union[bool, NotGiven] = NOT_GIVEN,
        providers: Union[Dict[str, object], NotGiven] = NOT_GIVEN,
        failure_session_retention_minutes: Union[int, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """Create an environment (createEnvironment, admin)."""
        return await self._post(
            "/agent/environments",
            body=strip_not_given(
                {
                    "name": name, "description": description, "setup_commands": setup_commands, "env_vars": env_vars,
                    "plain_env_vars": plain_env_vars,
                    "docker_image": docker_image, "registry_secret_name": registry_secret_name,
                    "github_repos": github_repos, "repos": repos, "git_token_secret_name": git_token_secret_name,
                    "auto_pr": auto_pr, "providers": providers,
                    "failure_session_retention_minutes": failure_session_retention_minutes,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    def list(
        self,
        *,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[CloudEnvironment, AsyncCursorPage[CloudEnvironment]]:
        """List environments (listEnvironments): most recently updated first, or ``sort_by="name"``."""
        return self._get_api_list(
            "/agent/environments",
            page=AsyncCursorPage[CloudEnvironment],
            model=ListEnvironmentsResponse,
            items_key="environments",
            options=make_request_options(
                query=strip_not_given({"sort_by": sort_by, "limit": limit, "cursor": cursor}), extra_headers=extra_headers,
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
        )

    async def retrieve(
        self,
        environment_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """One environment (getEnvironment)."""
        return await self._get(
            _path(environment_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    async def update(
        self,
        environment_id: str,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        setup_commands: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        plain_env_vars: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        docker_image: Union[str, None, NotGiven] = NOT_GIVEN,
        registry_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        github_repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        repos: Union[Sequence[Dict[str, str]], NotGiven] = NOT_GIVEN,
        git_token_secret_name: Union[str, None, NotGiven] = NOT_GIVEN,
        auto_pr: Union[bool, NotGiven] = NOT_GIVEN,
        providers: Union[Dict[str, object], NotGiven] = NOT_GIVEN,
        failure_session_retention_minutes: Union[int, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> CloudEnvironment:
        """Change the given fields (updateEnvironment, admin)."""
        return await self._patch(
            _path(environment_id),
            body=strip_not_given(
                {
                    "name": name, "description": description, "setup_commands": setup_commands, "env_vars": env_vars,
                    "plain_env_vars": plain_env_vars,
                    "docker_image": docker_image, "registry_secret_name": registry_secret_name,
                    "github_repos": github_repos, "repos": repos, "git_token_secret_name": git_token_secret_name,
                    "auto_pr": auto_pr, "providers": providers,
                    "failure_session_retention_minutes": failure_session_retention_minutes,
                }
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=CloudEnvironment,
        )

    async def delete(
        self,
        environment_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> None:
        """Delete an environment (deleteEnvironment, admin)."""
        return await self._delete(
            _path(environment_id),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=None,
        )


class EnvironmentsWithRawResponse:
    def __init__(self, environments: Environments) -> None:
        self.create = to_raw_response_wrapper(environments.create)
        self.list = to_raw_response_wrapper(environments.list)
        self.retrieve = to_raw_response_wrapper(environments.retrieve)
        self.update = to_raw_response_wrapper(environments.update)
        self.delete = to_raw_response_wrapper(environments.delete)


class AsyncEnvironmentsWithRawResponse:
    def __init__(self, environments: AsyncEnvironments) -> None:
        self.create = async_to_raw_response_wrapper(environments.create)
        self.list = async_to_raw_response_wrapper(environments.list)
        self.retrieve = async_to_raw_response_wrapper(environments.retrieve)
        self.update = async_to_raw_response_wrapper(environments.update)
        self.delete = async_to_raw_response_wrapper(environments.delete)


class EnvironmentsWithStreamingResponse:
    def __init__(self, environments: Environments) -> None:
        self.create = to_streamed_response_wrapper(environments.create)
        self.list = to_streamed_response_wrapper(environments.list)
        self.retrieve = to_streamed_response_wrapper(environments.retrieve)
        self.update = to_streamed_response_wrapper(environments.update)
        self.delete = to_streamed_response_wrapper(environments.delete)


class AsyncEnvironmentsWithStreamingResponse:
    def __init__(self, environments: AsyncEnvironments) -> None:
        self.create = async_to_streamed_response_wrapper(environments.create)
        self.list = async_to_streamed_response_wrapper(environments.list)
        self.retrieve = async_to_streamed_response_wrapper(environments.retrieve)
        self.update = async_to_streamed_response_wrapper(environments.update)
        self.delete = async_to_streamed_response_wrapper(environments.delete)
