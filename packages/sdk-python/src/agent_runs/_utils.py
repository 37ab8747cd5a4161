from __future__ import annotations

import datetime as _dt
import json
from typing import Any, Dict, List, Mapping, Optional, TypeVar, Union, cast

from ._types import NotGiven, Omit

_T = TypeVar("_T")


def is_given(value: object) -> bool:
    return not isinstance(value, NotGiven)


def as_json_object(value: object) -> Optional[Dict[str, Any]]:
    """``value`` when it is a JSON object (a decoded body's dict), else None."""
    return cast(Dict[str, Any], value) if isinstance(value, dict) else None


def as_json_array(value: object) -> Optional[List[Any]]:
    """``value`` when it is a JSON array, else None."""
    return cast(List[Any], value) if isinstance(value, list) else None


def strip_not_given(values: Mapping[str, object]) -> Dict[str, Any]:
    """Drop keyword arguments the caller did not pass (``NOT_GIVEN``)."""
    return {k: v for k, v in values.items() if not isinstance(v, NotGiven)}


def path_param(name: str, value: str) -> str:
    """Validate and percent-encode one path segment; an empty id fails before any request."""
    if not isinstance(value, str):  # pyright: ignore[reportUnnecessaryIsInstance] -- untyped callers
        raise TypeError(f"Expected `{name}` to be a string, got {type(value).__name__}")
    if not value:
        raise ValueError(f"Expected a non-empty value for `{name}` but received {value!r}")
    from urllib.parse import quote

    return quote(value, safe="")


def merge_mappings(base: Mapping[str, Union[_T, Omit]], override: Mapping[str, Union[_T, Omit]]) -> Dict[str, _T]:
    """Merge two mappings; an ``Omit()`` value in ``override`` removes the key."""
    merged = {**base, **override}
    return {k: v for k, v in merged.items() if not isinstance(v, Omit)}  # type: ignore[misc]


def _json_default(value: Any) -> Any:
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_dumps(data: object) -> bytes:
    return json.dumps(data, default=_json_default, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _query_value(value: Any) -> Optional[str]:
    if value is None or isinstance(value, NotGiven):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    return str(value)


def stringify_query(params: Mapping[str, object]) -> list[tuple[str, str]]:
    """Flatten query params; a list or tuple repeats the key (``state=A&state=B``)."""
    items: list[tuple[str, str]] = []
    for key, value in params.items():
        if isinstance(value, (list, tuple, set, frozenset)):
            for v in cast("list[object]", value):
                s = _query_value(v)
                if s is not None:
                    items.append((key, s))
        else:
            s = _query_value(value)
            if s is not None:
                items.append((key, s))
    return items
