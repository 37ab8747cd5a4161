"""The clients: `AgentRuns` (sync) and `AsyncAgentRuns`, also exported as `Client` / `AsyncClient`."""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any, Dict, Mapping, Optional, Type, TypeVar, Union

import httpx

from ._base_client import AsyncAPIClient, SyncAPIClient, make_request_options
from ._constants import API_KEY_ENV, BASE_URL_ENV, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from ._exceptions import AgentRunsError
from ._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from .resources.agent.agent import (
    Agent,
    AgentWithRawResponse,
    AgentWithStreamingResponse,
    AsyncAgent,
    AsyncAgentWithRawResponse,
    AsyncAgentWithStreamingResponse,
)
from .resources.api_keys import (
    ApiKeys,
    ApiKeysWithRawResponse,
    ApiKeysWithStreamingResponse,
    AsyncApiKeys,
    AsyncApiKeysWithRawResponse,
    AsyncApiKeysWithStreamingResponse,
)
from .resources.audit_events import (
    AsyncAuditEvents,
    AsyncAuditEventsWithRawResponse,
    AsyncAuditEventsWithStreamingResponse,
    AuditEvents,
    AuditEventsWithRawResponse,
    AuditEventsWithStreamingResponse,
)
from .resources.budget import (
    AsyncBudget,
    AsyncBudgetWithRawResponse,
    AsyncBudgetWithStreamingResponse,
    Budget,
    BudgetWithRawResponse,
    BudgetWithStreamingResponse,
)
from .resources.factories.factories import (
    AsyncFactories,
    AsyncFactoriesWithRawResponse,
    AsyncFactoriesWithStreamingResponse,
    Factories,
    FactoriesWithRawResponse,
    FactoriesWithStreamingResponse,
)
from .resources.notifications.notifications import (
    AsyncNotifications,
    AsyncNotificationsWithRawResponse,
    AsyncNotificationsWithStreamingResponse,
    Notifications,
    NotificationsWithRawResponse,
    NotificationsWithStreamingResponse,
)
from .resources.secrets import (
    AsyncSecrets,
    AsyncSecretsWithRawResponse,
    AsyncSecretsWithStreamingResponse,
    Secrets,
    SecretsWithRawResponse,
    SecretsWithStreamingResponse,
)
from .resources.usage import (
    AsyncUsage,
    AsyncUsageWithRawResponse,
    AsyncUsageWithStreamingResponse,
    Usage,
    UsageWithRawResponse,
    UsageWithStreamingResponse,
)

__all__ = ["AgentRuns", "AsyncAgentRuns", "Client", "AsyncClient"]

_T = TypeVar("_T")


def _resolve_config(
    api_key: Optional[str], base_url: Union[str, httpx.URL, None]
) -> "tuple[str, Union[str, httpx.URL]]":
    if api_key is None:
        api_key = os.environ.get(API_KEY_ENV)
    if not api_key:
        raise AgentRunsError(
            f"No API key: pass `api_key=` to the client or set the {API_KEY_ENV} environment variable."
        )
    if base_url is None:
        base_url = os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL
    return api_key, base_url


def _request_kwargs(
    query: Optional[Query],
    extra_headers: Optional[Headers],
    extra_query: Optional[Query],
    extra_body: Optional[Body],
    timeout: Union[Timeout, NotGiven],
    options: Optional[Mapping[str, Any]],
) -> Dict[str, Any]:
    merged = make_request_options(
        query=query,
        extra_headers=extra_headers,
        extra_query=extra_query,
        extra_body=extra_body,  # type: ignore[arg-type]
        timeout=timeout,
    )
    if options:
        merged.update(options)
    return merged


class AgentRuns(SyncAPIClient):
    """Synchronous client for the Agent Runs API.

    ``api_key`` falls back to ``$AGENT_RUNS_API_KEY``; ``base_url`` to ``$AGENT_RUNS_BASE_URL``, then
    ``http://localhost:8080/api/v1``. ``timeout`` is per attempt (default 60 s, 5 s to connect);
    ``max_retries`` (default 2) applies to connection errors, timeouts, 408, 409, 429 and 5xx.
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Union[str, httpx.URL, None] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Optional[Mapping[str, str]] = None,
        default_query: Optional[Mapping[str, object]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        api_key, base_url = _resolve_config(api_key, base_url)
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            timeout=DEFAULT_TIMEOUT if isinstance(timeout, NotGiven) else timeout,
            max_retries=max_retries,
            default_headers=default_headers,
            default_query=default_query,
            http_client=http_client,
        )

    # -- resources ---------------------------------------------------------------------------------

    @cached_property
    def agent(self) -> Agent:
        """``/agent``: the agents list, runs, skills, models, environments."""
        return Agent(self)

    @cached_property
    def factories(self) -> Factories:
        """``/factories``: factories, dispatch, webhooks, deliveries, automations."""
        return Factories(self)

    @cached_property
    def secrets(self) -> Secrets:
        return Secrets(self)

    @cached_property
    def budget(self) -> Budget:
        """``/team/budget``: the team's monthly budget."""
        return Budget(self)

    @cached_property
    def usage(self) -> Usage:
        """``/usage``: what the team's runs spent per month."""
        return Usage(self)

    @cached_property
    def api_keys(self) -> ApiKeys:
        return ApiKeys(self)

    @cached_property
    def audit_events(self) -> AuditEvents:
        """``/audit-events``: what the team's admins changed (admin keys)."""
        return AuditEvents(self)

    @cached_property
    def notifications(self) -> Notifications:
        """``/notifications``: subscriptions to signed run events, their attempts log, replay."""
        return Notifications(self)

    @cached_property
    def with_raw_response(self) -> "AgentRunsWithRawResponse":
        return AgentRunsWithRawResponse(self)

    @cached_property
    def with_streaming_response(self) -> "AgentRunsWithStreamingResponse":
        return AgentRunsWithStreamingResponse(self)

    # -- configuration -----------------------------------------------------------------------------

    def copy(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Union[str, httpx.URL, None] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Union[int, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
        set_default_headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> "AgentRuns":
        """A new client with some options changed, sharing the connection pool.
        ``default_headers`` are merged into the current ones; ``set_default_headers`` replaces them."""
        if default_headers is not None and set_default_headers is not None:
            raise ValueError("Pass `default_headers` or `set_default_headers`, not both")
        headers = dict(self._custom_headers)
        if default_headers is not None:
            headers.update(default_headers)
        if set_default_headers is not None:
            headers = dict(set_default_headers)
        client = self.__class__(
            api_key=api_key or self.api_key,
            base_url=base_url or self.base_url,
            timeout=self.timeout if isinstance(timeout, NotGiven) else timeout,
            max_retries=self.max_retries if isinstance(max_retries, NotGiven) else max_retries,
            default_headers=headers,
            default_query=self._custom_query,
            http_client=http_client or self._client,
        )
        client._owns_http_client = http_client is not None and http_client is not self._client
        return client

    with_options = copy

    # -- endpoints not otherwise described ---------------------------------------------------------

    def get(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        query: Optional[Query] = None,  # type: ignore[assignment]
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        """``GET path`` (relative to ``base_url``, or an absolute URL) with the client's auth,
        retries, timeouts and errors. ``cast_to`` defaults to the decoded JSON; pass a model class,
        ``str``, ``bytes`` or ``httpx.Response``."""
        return self._request(
            "GET",
            path,
            cast_to=cast_to,
            options=_request_kwargs(query, extra_headers, extra_query, None, timeout, options),
        )

    def post(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        """``POST path``; carries an Idempotency-Key reused on every retry."""
        return self._request(
            "POST",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    def put(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return self._request(
            "PUT",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    def patch(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return self._request(
            "PATCH",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    def delete(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return self._request(
            "DELETE",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    def __repr__(self) -> str:
        return f"<AgentRuns base_url={str(self.base_url)!r} max_retries={self.max_retries}>"


class AsyncAgentRuns(AsyncAPIClient):
    """Asynchronous client for the Agent Runs API; same options as `AgentRuns`."""

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Union[str, httpx.URL, None] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        default_headers: Optional[Mapping[str, str]] = None,
        default_query: Optional[Mapping[str, object]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        api_key, base_url = _resolve_config(api_key, base_url)
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            timeout=DEFAULT_TIMEOUT if isinstance(timeout, NotGiven) else timeout,
            max_retries=max_retries,
            default_headers=default_headers,
            default_query=default_query,
            http_client=http_client,
        )

    @cached_property
    def agent(self) -> AsyncAgent:
        return AsyncAgent(self)

    @cached_property
    def factories(self) -> AsyncFactories:
        return AsyncFactories(self)

    @cached_property
    def secrets(self) -> AsyncSecrets:
        return AsyncSecrets(self)

    @cached_property
    def budget(self) -> AsyncBudget:
        """``/team/budget``: the team's monthly budget."""
        return AsyncBudget(self)

    @cached_property
    def usage(self) -> AsyncUsage:
        """``/usage``: what the team's runs spent per month."""
        return AsyncUsage(self)

    @cached_property
    def api_keys(self) -> AsyncApiKeys:
        return AsyncApiKeys(self)

    @cached_property
    def audit_events(self) -> AsyncAuditEvents:
        """``/audit-events``: what the team's admins changed (admin keys)."""
        return AsyncAuditEvents(self)

    @cached_property
    def notifications(self) -> AsyncNotifications:
        return AsyncNotifications(self)

    @cached_property
    def with_raw_response(self) -> "AsyncAgentRunsWithRawResponse":
        return AsyncAgentRunsWithRawResponse(self)

    @cached_property
    def with_streaming_response(self) -> "AsyncAgentRunsWithStreamingResponse":
        return AsyncAgentRunsWithStreamingResponse(self)

    def copy(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Union[str, httpx.URL, None] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Union[int, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
        set_default_headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> "AsyncAgentRuns":
        """A new client with some options changed, sharing the connection pool."""
        if default_headers is not None and set_default_headers is not None:
            raise ValueError("Pass `default_headers` or `set_default_headers`, not both")
        headers = dict(self._custom_headers)
        if default_headers is not None:
            headers.update(default_headers)
        if set_default_headers is not None:
            headers = dict(set_default_headers)
        client = self.__class__(
            api_key=api_key or self.api_key,
            base_url=base_url or self.base_url,
            timeout=self.timeout if isinstance(timeout, NotGiven) else timeout,
            max_retries=self.max_retries if isinstance(max_retries, NotGiven) else max_retries,
            default_headers=headers,
            default_query=self._custom_query,
            http_client=http_client or self._client,
        )
        client._owns_http_client = http_client is not None and http_client is not self._client
        return client

    with_options = copy

    async def get(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        query: Optional[Query] = None,  # type: ignore[assignment]
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return await self._request(
            "GET",
            path,
            cast_to=cast_to,
            options=_request_kwargs(query, extra_headers, extra_query, None, timeout, options),
        )

    async def post(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return await self._request(
            "POST",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    async def put(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return await self._request(
            "PUT",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    async def patch(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return await self._request(
            "PATCH",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    async def delete(
        self,
        path: str,
        *,
        cast_to: Type[_T] = object,
        body: Optional[Body] = None,  # type: ignore[assignment]
        query: Optional[Query] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        options: Optional[Mapping[str, Any]] = None,
    ) -> _T:
        return await self._request(
            "DELETE",
            path,
            cast_to=cast_to,
            body=body,
            options=_request_kwargs(query, extra_headers, extra_query, extra_body, timeout, options),
        )

    def __repr__(self) -> str:
        return f"<AsyncAgentRuns base_url={str(self.base_url)!r} max_retries={self.max_retries}>"


class AgentRunsWithRawResponse:
    def __init__(self, client: AgentRuns) -> None:
        self.agent = AgentWithRawResponse(client.agent)
        self.factories = FactoriesWithRawResponse(client.factories)
        self.secrets = SecretsWithRawResponse(client.secrets)
        self.api_keys = ApiKeysWithRawResponse(client.api_keys)
        self.audit_events = AuditEventsWithRawResponse(client.audit_events)
        self.notifications = NotificationsWithRawResponse(client.notifications)
        self.budget = BudgetWithRawResponse(client.budget)
        self.usage = UsageWithRawResponse(client.usage)


class AsyncAgentRunsWithRawResponse:
    def __init__(self, client: AsyncAgentRuns) -> None:
        self.agent = AsyncAgentWithRawResponse(client.agent)
        self.factories = AsyncFactoriesWithRawResponse(client.factories)
        self.secrets = AsyncSecretsWithRawResponse(client.secrets)
        self.api_keys = AsyncApiKeysWithRawResponse(client.api_keys)
        self.audit_events = AsyncAuditEventsWithRawResponse(client.audit_events)
        self.notifications = AsyncNotificationsWithRawResponse(client.notifications)
        self.budget = AsyncBudgetWithRawResponse(client.budget)
        self.usage = AsyncUsageWithRawResponse(client.usage)


class AgentRunsWithStreamingResponse:
    def __init__(self, client: AgentRuns) -> None:
        self.agent = AgentWithStreamingResponse(client.agent)
        self.factories = FactoriesWithStreamingResponse(client.factories)
        self.secrets = SecretsWithStreamingResponse(client.secrets)
        self.api_keys = ApiKeysWithStreamingResponse(client.api_keys)
        self.audit_events = AuditEventsWithStreamingResponse(client.audit_events)
        self.notifications = NotificationsWithStreamingResponse(client.notifications)
        self.budget = BudgetWithStreamingResponse(client.budget)
        self.usage = UsageWithStreamingResponse(client.usage)


class AsyncAgentRunsWithStreamingResponse:
    def __init__(self, client: AsyncAgentRuns) -> None:
        self.agent = AsyncAgentWithStreamingResponse(client.agent)
        self.factories = AsyncFactoriesWithStreamingResponse(client.factories)
        self.secrets = AsyncSecretsWithStreamingResponse(client.secrets)
        self.api_keys = AsyncApiKeysWithStreamingResponse(client.api_keys)
        self.audit_events = AsyncAuditEventsWithStreamingResponse(client.audit_events)
        self.notifications = AsyncNotificationsWithStreamingResponse(client.notifications)
        self.budget = AsyncBudgetWithStreamingResponse(client.budget)
        self.usage = AsyncUsageWithStreamingResponse(client.usage)


Client = AgentRuns
AsyncClient = AsyncAgentRuns
