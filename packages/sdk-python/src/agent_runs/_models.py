from __future__ import annotations

import inspect
import sys
from typing import Any, Dict, List, Optional, Type, TypeVar, Union, cast, get_args, get_origin, get_type_hints

import pydantic
from pydantic import ConfigDict
from typing_extensions import Annotated, Literal

from ._utils import as_json_array, as_json_object

__all__ = ["BaseModel", "construct_type", "validate_type"]

_T = TypeVar("_T")


class BaseModel(pydantic.BaseModel):
    """Base of every response model.

    Unknown fields are kept (``extra="allow"``) so a newer server never breaks an older SDK;
    read them as attributes or through ``model_extra``.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
        protected_namespaces=(),
        arbitrary_types_allowed=True,
    )

    def to_dict(self, *, exclude_unset: bool = True) -> Dict[str, Any]:
        """The model as a JSON-compatible dict, with the wire's field names."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=exclude_unset)

    def to_json(self, *, indent: int | None = 2, exclude_unset: bool = True) -> str:
        return self.model_dump_json(indent=indent, by_alias=True, exclude_unset=exclude_unset)


_adapters: Dict[Any, pydantic.TypeAdapter[Any]] = {}


def _adapter(type_: Any) -> pydantic.TypeAdapter[Any]:
    try:
        return _adapters[type_]
    except (KeyError, TypeError):
        adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(type_)
        try:
            _adapters[type_] = adapter
        except TypeError:  # unhashable annotation
            pass
        return adapter


def validate_type(*, type_: Type[_T], value: object) -> _T:
    return cast(_T, _adapter(type_).validate_python(value))


def construct_type(*, type_: Any, value: object) -> Any:
    """Validate ``value`` as ``type_``; if it does not validate, build it loosely instead.

    A response the SDK does not fully understand (a new enum value, a missing field) still comes
    back as the model, with the data as sent, rather than failing the call.
    """
    try:
        return _adapter(type_).validate_python(value)
    except pydantic.ValidationError:
        return _loose(type_, value)


def _unalias(type_: Any) -> Any:
    # typing_extensions.TypeAliasType (the generated `RunState = TypeAliasType(...)`) -> its value
    while type(type_).__name__ == "TypeAliasType" and hasattr(type_, "__value__"):
        type_ = type_.__value__
    return type_


def _literal_fields_match(model: Type[pydantic.BaseModel], value: Dict[str, Any]) -> Optional[bool]:
    """True/False when ``model`` has Literal fields (a discriminator) and ``value`` does / does not
    carry them; None when it has none."""
    found = False
    for name, field in model.model_fields.items():
        ann = _unalias(field.annotation)
        if get_origin(ann) is Literal:
            found = True
            key = field.alias or name
            if value.get(key) not in get_args(ann):
                return False
    return True if found else None


def _loose(type_: Any, value: object) -> Any:
    type_ = _unalias(type_)
    if value is None:
        return None
    origin = get_origin(type_)
    if origin is Annotated:
        return _loose(get_args(type_)[0], value)
    if origin is Union:
        args = [_unalias(a) for a in get_args(type_) if a is not type(None)]
        for arg in args:
            try:
                return _adapter(arg).validate_python(value)
            except pydantic.ValidationError:
                continue
        obj = as_json_object(value)
        if obj is not None:
            models: List[Any] = [a for a in args if inspect.isclass(a) and issubclass(a, pydantic.BaseModel)]
            # Prefer the member whose discriminator matches; an unknown variant stays a plain dict.
            for model in models:
                if _literal_fields_match(model, obj):
                    return _loose(model, obj)
            untagged = [m for m in models if _literal_fields_match(m, obj) is None]
            if untagged:
                return _loose(untagged[0], obj)
        return value
    array = as_json_array(value)
    if origin in (list, tuple, set, frozenset) and array is not None:
        item_args = get_args(type_)
        inner = item_args[0] if item_args else Any
        return [_construct_item(inner, v) for v in array]
    obj = as_json_object(value)
    if origin is dict and obj is not None:
        kv_args = get_args(type_)
        inner = kv_args[1] if len(kv_args) == 2 else Any
        return {k: _construct_item(inner, v) for k, v in obj.items()}
    if inspect.isclass(type_) and issubclass(type_, pydantic.BaseModel) and obj is not None:
        hints = _field_types(type_)
        fields: Dict[str, Any] = {}
        by_alias = {(f.alias or name): name for name, f in type_.model_fields.items()}
        for key, raw in obj.items():
            name = by_alias.get(key, key if key in type_.model_fields else None)
            if name is not None:
                fields[name] = _construct_item(hints.get(name, Any), raw)
            else:
                fields[key] = raw
        return type_.model_construct(**fields)
    return value


_hints_cache: Dict[type, Dict[str, Any]] = {}


def _field_types(model: Type[pydantic.BaseModel]) -> Dict[str, Any]:
    """Resolved field annotations (the generated module uses postponed annotations)."""
    try:
        return _hints_cache[model]
    except KeyError:
        pass
    try:
        module = sys.modules.get(model.__module__)
        hints = get_type_hints(model, globalns=vars(module) if module else None, include_extras=True)
    except Exception:  # an annotation we cannot evaluate: treat its value as opaque
        hints = {}
    result = {name: hints.get(name, Any) for name in model.model_fields}
    _hints_cache[model] = result
    return result


def _construct_item(type_: Any, value: object) -> Any:
    if type_ is Any or type_ is None:
        return value
    return construct_type(type_=type_, value=value)
