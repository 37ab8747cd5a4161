from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, TypeVar, Union

import httpx
from typing_extensions import Literal, TypedDict, override

__all__ = [
    "NotGiven",
    "NOT_GIVEN",
    "Omit",
    "Timeout",
    "Headers",
    "Query",
    "Body",
    "RequestOptions",
]

_T = TypeVar("_T")


class NotGiven:
    """Sentinel for "argument not passed", distinct from an explicit ``None``.

    ``client.with_options(timeout=None)`` means "no timeout"; leaving ``timeout`` out means
    "keep the client's".
    """

    def __bool__(self) -> Literal[False]:
        return False

    @override
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


class Omit:
    """Pass as a header value to remove a default header: ``extra_headers={"User-Agent": Omit()}``."""

    def __bool__(self) -> Literal[False]:
        return False

    @override
    def __repr__(self) -> str:
        return "Omit()"


Timeout = Union[float, httpx.Timeout, None]
Headers = Mapping[str, Union[str, Omit]]
Query = Mapping[str, object]
Body = object


class RequestOptions(TypedDict, total=False):
    headers: Headers
    params: Query
    extra_json: Optional[Mapping[str, Any]]
    timeout: Union[Timeout, NotGiven]
    max_retries: int
    idempotency_key: str


NoneType = type(None)
StrDict = Dict[str, Any]
