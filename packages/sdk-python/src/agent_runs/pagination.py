"""Cursor pages over the API's list answers ``{<plural>: [...], page_info: {has_next_page, next_cursor}}``.

``for run in client.agent.runs.list():`` walks every item of every page; ``page.has_next_page()`` and
``page.get_next_page()`` step by hand. Attributes of the answer (``page.runs``, ``page.page_info``)
are readable on the page itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, AsyncIterator, Generic, Iterator, List, Optional, TypeVar

from ._constants import RAW_RESPONSE_HEADER
from ._utils import as_json_object

if TYPE_CHECKING:
    from ._base_client import AsyncAPIClient, FinalRequestOptions, SyncAPIClient

__all__ = ["SyncCursorPage", "AsyncCursorPage"]

_T = TypeVar("_T")
_PageT = TypeVar("_PageT", bound="_BaseCursorPage[Any]")


def _get(obj: Any, key: str) -> Any:
    fields = as_json_object(obj)
    if fields is not None:
        return fields.get(key)
    return getattr(obj, key, None)


class _BaseCursorPage(Generic[_T]):
    _options: "FinalRequestOptions"

    def __init__(
        self, response: Any, *, items_key: str, client: Any, model: Any, options: "FinalRequestOptions"
    ) -> None:
        self._response = response
        self._items_key = items_key
        self._client = client
        self._model = model
        self._options = options

    @property
    def items(self) -> List[_T]:
        """The items of this page only."""
        return list(_get(self._response, self._items_key) or [])

    @property
    def page_info(self) -> Any:
        return _get(self._response, "page_info")

    @property
    def next_cursor(self) -> Optional[str]:
        info = self.page_info
        if info is None or not _get(info, "has_next_page"):
            return None
        cursor = _get(info, "next_cursor")
        return cursor if isinstance(cursor, str) and cursor else None

    def has_next_page(self) -> bool:
        cursor = self.next_cursor
        # A server that hands back the cursor it was given would loop forever: stop there.
        return cursor is not None and cursor != (self._options.params or {}).get("cursor")

    def _next_options(self) -> "FinalRequestOptions":
        cursor = self.next_cursor
        if not self.has_next_page() or cursor is None:
            raise RuntimeError("No next page; check `.has_next_page()` before calling `.get_next_page()`.")
        params = {**dict(self._options.params or {}), "cursor": cursor}
        # Later pages are plain pages even when the first came through `.with_raw_response`.
        headers = {k: v for k, v in (self._options.headers or {}).items() if k.lower() != RAW_RESPONSE_HEADER.lower()}
        return self._options.copy(params=params, headers=headers, post_parser=None)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not defined on the page: fall through to the answer model.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._response, name)

    def __len__(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(items={len(self.items)}, next_cursor={self.next_cursor!r})"

    def to_dict(self) -> Any:
        if hasattr(self._response, "to_dict"):
            return self._response.to_dict()
        return self._response


class SyncCursorPage(_BaseCursorPage[_T], Generic[_T]):
    _client: "SyncAPIClient"

    def __iter__(self) -> Iterator[_T]:
        for page in self.iter_pages():
            yield from page.items

    def iter_pages(self) -> Iterator["SyncCursorPage[_T]"]:
        page = self
        while True:
            yield page
            if not page.has_next_page():
                return
            page = page.get_next_page()

    def get_next_page(self) -> "SyncCursorPage[_T]":
        options = self._next_options()
        return self._client._request_page(type(self), self._model, self._items_key, options)  # type: ignore[no-any-return]


class AsyncCursorPage(_BaseCursorPage[_T], Generic[_T]):
    _client: "AsyncAPIClient"

    async def __aiter__(self) -> AsyncIterator[_T]:
        async for page in self.iter_pages():
            for item in page.items:
                yield item

    async def iter_pages(self) -> AsyncIterator["AsyncCursorPage[_T]"]:
        page = self
        while True:
            yield page
            if not page.has_next_page():
                return
            page = await page.get_next_page()

    async def get_next_page(self) -> "AsyncCursorPage[_T]":
        options = self._next_options()
        return await self._client._request_page(type(self), self._model, self._items_key, options)  # type: ignore[no-any-return]
