from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Type, TypeVar

if TYPE_CHECKING:
    from ._client import AgentRuns, AsyncAgentRuns

_T = TypeVar("_T")


class SyncAPIResource:
    """A group of operations hung off the client (``client.agent.runs``)."""

    _client: "AgentRuns"

    def __init__(self, client: "AgentRuns") -> None:
        self._client = client

    def _get(
        self,
        path: str,
        *,
        cast_to: Any,
        options: Optional[Mapping[str, Any]] = None,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        return self._client._request(
            "GET", path, cast_to=cast_to, options=options, stream=stream, stream_cls=stream_cls
        )

    def _post(self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
        return self._client._request("POST", path, cast_to=cast_to, body=body, options=options)

    def _put(self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
        return self._client._request("PUT", path, cast_to=cast_to, body=body, options=options)

    def _patch(self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
        return self._client._request("PATCH", path, cast_to=cast_to, body=body, options=options)

    def _delete(self, path: str, *, cast_to: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
        return self._client._request("DELETE", path, cast_to=cast_to, options=options)

    def _get_api_list(
        self, path: str, *, page: Type[_T], model: Any, items_key: str, options: Optional[Mapping[str, Any]] = None
    ) -> _T:
        return self._client._get_api_list(path, page=page, model=model, items_key=items_key, options=options)


class AsyncAPIResource:
    _client: "AsyncAgentRuns"

    def __init__(self, client: "AsyncAgentRuns") -> None:
        self._client = client

    async def _get(
        self,
        path: str,
        *,
        cast_to: Any,
        options: Optional[Mapping[str, Any]] = None,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        return await self._client._request(
            "GET", path, cast_to=cast_to, options=options, stream=stream, stream_cls=stream_cls
        )

    async def _post(
        self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return await self._client._request("POST", path, cast_to=cast_to, body=body, options=options)

    async def _put(
        self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return await self._client._request("PUT", path, cast_to=cast_to, body=body, options=options)

    async def _patch(
        self, path: str, *, cast_to: Any, body: Any = None, options: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return await self._client._request("PATCH", path, cast_to=cast_to, body=body, options=options)

    async def _delete(self, path: str, *, cast_to: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
        return await self._client._request("DELETE", path, cast_to=cast_to, options=options)

    def _get_api_list(
        self, path: str, *, page: Any, model: Any, items_key: str, options: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return self._client._get_api_list(path, page=page, model=model, items_key=items_key, options=options)
