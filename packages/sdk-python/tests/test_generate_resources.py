"""scripts/generate_resources.py on a small contract: the signature rules (path, query, body, enums as
Literals, deepObject and exploded arrays, cursor pages) and its refusal of an operation with no method."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from generate_resources import ResourcesGenerator

PAGE = {"type": "object", "properties": {"has_next_page": {"type": "boolean"}, "next_cursor": {"type": "string"}}}
SPEC: Dict[str, Any] = {
    "paths": {
        "/teams/{teamId}/widgets": {
            "get": {
                "operationId": "listWidgets",
                "summary": "List widgets",
                "parameters": [
                    {"$ref": "#/components/parameters/TeamId"},
                    {"name": "sort_by", "in": "query", "schema": {"type": "string", "enum": ["name", "size"]}},
                    {
                        "name": "state",
                        "in": "query",
                        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/State"}},
                    },
                    {
                        "name": "labels",
                        "in": "query",
                        "style": "deepObject",
                        "schema": {"type": "object", "additionalProperties": {"type": "string"}},
                    },
                ],
                "responses": {
                    "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/WidgetList"}}}}
                },
            },
        },
        "/teams/{teamId}/widgets/{widgetId}": {
            "patch": {
                "operationId": "updateWidget",
                "summary": "Update a widget",
                "parameters": [
                    {"$ref": "#/components/parameters/TeamId"},
                    {"name": "widgetId", "in": "path", "required": True, "schema": {"type": "string"}},
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string"}, "note": {"type": ["string", "null"]}},
                            }
                        }
                    }
                },
                "responses": {
                    "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Widget"}}}}
                },
            },
        },
    },
    "components": {
        "parameters": {"TeamId": {"name": "teamId", "in": "path", "required": True, "schema": {"type": "string"}}},
        "schemas": {
            "State": {"type": "string", "enum": ["ON", "OFF"]},
            "Widget": {"type": "object", "properties": {"id": {"type": "string"}}},
            "WidgetList": {
                "type": "object",
                "properties": {
                    "widgets": {"type": "array", "items": {"$ref": "#/components/schemas/Widget"}},
                    "page_info": PAGE,
                },
            },
        },
    },
}
CONFIG = {"resources": {"widgets": {"methods": {"list": "listWidgets", "update": "updateWidget"}}}}
MODELS = {"State", "Widget", "WidgetList"}


def generate(config: Dict[str, Any]) -> str:
    files = ResourcesGenerator(SPEC, config, MODELS).generate()
    return files[Path("widgets.py")]


def test_signatures_follow_the_contract() -> None:
    module = generate(CONFIG)
    # The last path parameter positional, its parent keyword-only; an enum is a Literal, a named one its name.
    assert "        self,\n        team_id: str,\n        *,\n" in module  # list: the only path parameter
    assert 'sort_by: Union[Literal["name", "size"], NotGiven] = NOT_GIVEN,' in module
    assert "state: Union[State, Sequence[State], NotGiven] = NOT_GIVEN," in module
    assert 'query.update({f"labels[{key}]": value for key, value in labels.items()})' in module
    assert "-> SyncCursorPage[Widget]:" in module and 'items_key="widgets",' in module
    assert "-> AsyncPaginator[Widget, AsyncCursorPage[Widget]]:" in module
    # update: widget_id positional, team_id keyword-only and required, a required body field, a nullable one.
    assert "        self,\n        widget_id: str,\n        *,\n        team_id: str,\n        name: str,\n" in module
    assert "note: Union[str, None, NotGiven] = NOT_GIVEN," in module
    assert "f\"/teams/{path_param('team_id', team_id)}/widgets/{path_param('widget_id', widget_id)}\"" in module
    assert '"""Update a widget (updateWidget)."""' in module
    compile(module, "widgets.py", "exec")


def test_an_operation_without_a_method_fails_the_generator() -> None:
    config = {"resources": {"widgets": {"methods": {"list": "listWidgets"}}}}
    with pytest.raises(SystemExit, match="no method for updateWidget"):
        generate(config)
    generate({**config, "without_methods": ["updateWidget"]})
