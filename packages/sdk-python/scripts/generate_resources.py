"""Generate the SDK's resources (src/agent_runs/resources/) from openapi/v1.yaml and scripts/resources.yaml.

Every method is one operation of the contract, written out twice (sync and async) with its raw- and
streaming-response wrappers, the way openai-python's resources are: path parameters first (the last one
positional, its parents keyword-only), then the query parameters and the JSON body's properties as keyword
arguments, a required one without a default and an optional one defaulting to ``NOT_GIVEN``. A list answered
with a cursor becomes a page to iterate, an event stream the stream class resources.yaml names. Methods that
are not one operation (waiting for a run, answering its question) are hand-written helpers the generated
class inherits (agent_runs/lib/).

Called by generate_models.py, which writes or checks every generated file.
"""

from __future__ import annotations

import keyword
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import yaml
from generate_models import HEADER, ParamsGenerator

RESOURCES_SUBDIR = Path("packages/sdk-python/src/agent_runs/resources")
HTTP_METHODS = ("get", "post", "put", "patch", "delete")
TYPING_NAMES = ("Any", "Dict", "Optional", "Sequence", "Union")
# Headers every method sends by itself (the client adds an Idempotency-Key to each POST and reuses it on retry).
IMPLICIT_HEADERS = {"idempotency-key"}
REQUEST_OPTIONS = """        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,"""


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).replace("-", "_").lower()


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


@dataclass
class Argument:
    name: str
    annotation: str
    required: bool
    default_none: bool = False

    def signature(self) -> str:
        if self.default_none:
            return f"        {self.name}: {self.annotation} = None,"
        if self.required:
            return f"        {self.name}: {self.annotation},"
        annotation = self.annotation
        if annotation.startswith("Optional["):
            return f"        {self.name}: Union[{annotation[len('Optional[') : -1]}, None, NotGiven] = NOT_GIVEN,"
        inner = annotation[len("Union[") : -1] if annotation.startswith("Union[") else annotation
        union = f"Union[{inner}, NotGiven]"
        return f"        {self.name}: {union} = NOT_GIVEN,"


@dataclass
class Method:
    name: str
    operation_id: str
    http_method: str
    path: str
    doc: str
    path_args: List[Argument] = field(default_factory=lambda: [])
    positional: List[Argument] = field(default_factory=lambda: [])
    keywords: List[Argument] = field(default_factory=lambda: [])
    query: List[Tuple[str, str, str]] = field(default_factory=lambda: [])  # (wire name, argument, style)
    headers: List[Tuple[str, str]] = field(default_factory=lambda: [])  # (wire name, argument)
    body: Optional[List[Tuple[str, str]]] = None  # (wire name, argument) where the operation takes a JSON body
    returns: str = "None"
    cast_to: str = "None"
    page: Optional[Tuple[str, str, str]] = None  # (item type, list model, items key)
    stream: Optional[str] = None
    accept: Optional[str] = None
    follow_redirects: bool = False


@dataclass
class Resource:
    name: str
    class_name: str
    doc: str
    module: Tuple[str, ...]  # path under resources/, without ".py"
    methods: List[Method]
    children: List["Resource"]
    helpers: Optional[str]
    used: Set[str]  # names imported from agent_runs.types


class ResourcesGenerator:
    def __init__(self, spec: Dict[str, Any], config: Dict[str, Any], model_names: Set[str]) -> None:
        self.spec = spec
        self.config = config
        self.model_names = model_names
        self.params = ParamsGenerator(spec)
        self.operations: Dict[str, Tuple[str, str, Dict[str, Any], Dict[str, Any]]] = {}
        for path, item in spec.get("paths", {}).items():
            for http_method in HTTP_METHODS:
                if http_method in item:
                    self.operations[item[http_method]["operationId"]] = (http_method, path, item[http_method], item)
        self.used: Set[str] = set()

    # -- types ----------------------------------------------------------------------------------------

    def annotation(self, node: Any, hint: str) -> str:
        """The type of a parameter or body property: a named enum or scalar of the contract by its name."""
        name = self.params.ref_name(node)
        if name is not None:
            target = self.params.resolve(node)
            if "enum" in target and name in self.model_names:
                self.used.add(name)
                return name
        schema = self.params.resolve(node) if name else node
        if isinstance(schema, dict) and schema.get("type") == "array" and "items" in schema:
            return f"Sequence[{self.annotation(schema['items'], hint + 'Item')}]"
        rendered = self.params.type_of(node, hint)
        self.used.update(re.findall(r"\b\w+Param\b", rendered))
        return rendered

    def response_type(self, method: Method, operation: Dict[str, Any], options: Dict[str, Any]) -> None:
        if "returns" in options:
            method.returns = method.cast_to = options["returns"]
            return
        success = [code for code in operation["responses"] if str(code).startswith("2")]
        response = self.params.resolve(operation["responses"][success[0]])
        content = response.get("content") or {}
        if "stream" in options:
            item = options["event"]
            method.stream, method.cast_to = options["stream"], item
            method.returns = f"{options['stream']}[{item}]"
            self.used.add(item)
            return
        if not content:
            return
        schema_node = content["application/json"]["schema"]
        schema = self.params.resolve(schema_node)
        if schema.get("type") == "string":
            method.returns = method.cast_to = "str"
            return
        model = self.schema_name(schema_node)
        self.used.add(model)
        properties = schema.get("properties") or {}
        arrays = [key for key, sub in properties.items() if self.params.resolve(sub).get("type") == "array"]
        if "page_info" in properties and len(arrays) == 1:
            item = self.schema_name(self.params.resolve(properties[arrays[0]])["items"])
            self.used.add(item)
            method.page = (item, model, arrays[0])
            method.returns = f"SyncCursorPage[{item}]"
            return
        method.returns = method.cast_to = model

    def schema_name(self, node: Any) -> str:
        name = self.params.ref_name(node)
        if name is None or name not in self.model_names:
            raise SystemExit(f"generate_resources: expected a named schema of the contract, got {node!r}")
        return name

    # -- methods --------------------------------------------------------------------------------------

    def method(self, name: str, options: Any) -> Method:
        options = {"operation": options} if isinstance(options, str) else dict(options)
        operation_id = options["operation"]
        if operation_id not in self.operations:
            raise SystemExit(f"generate_resources: resources.yaml names {operation_id}, which is no operation")
        http_method, path, operation, item = self.operations.pop(operation_id)
        doc = self.docstring(operation, operation_id)
        if "note" in options:
            doc += "\n\n" + " ".join(str(options["note"]).split())
        method = Method(name, operation_id, http_method, path, doc)
        parameters = [self.params.resolve(p) for p in [*item.get("parameters", []), *operation.get("parameters", [])]]
        path_params = [p for p in parameters if p["in"] == "path"]
        positional = options.get("positional", [snake(p["name"]) for p in path_params[-1:]])
        for param in path_params:
            argument = Argument(snake(param["name"]), "str", True)
            method.path_args.append(argument)
            (method.positional if argument.name in positional else method.keywords).append(argument)
        for param in parameters:
            if param["in"] == "query":
                argument = self.argument(param["name"], param.get("schema", {}), param.get("required", False), name)
                if argument.annotation.startswith("Sequence["):
                    # One value or several, as the contract's exploded array allows.
                    argument.annotation = f"Union[{argument.annotation[len('Sequence[') : -1]}, {argument.annotation}]"
                style = param.get("style", "form")
                method.query.append((param["name"], argument.name, style))
                (method.positional if argument.name in positional else method.keywords).append(argument)
            elif param["in"] == "header" and param["name"].lower() not in IMPLICIT_HEADERS:
                argument = Argument(snake(param["name"]), "Union[str, int, None]", False, default_none=True)
                method.headers.append((param["name"], argument.name))
                method.keywords.append(argument)
        body = (self.params.resolve(operation.get("requestBody", {})).get("content") or {}).get("application/json")
        if body:
            method.body = []
            schema_node = body["schema"]
            base = self.params.ref_name(schema_node) or (self.params.pascal(operation_id) + "Body")
            schema = self.params.resolve(schema_node)
            required = set(schema.get("required", []))
            for prop, sub in (schema.get("properties") or {}).items():
                if self.params.resolve(sub).get("readOnly"):
                    continue
                argument = self.argument(prop, sub, prop in required, base + self.params.pascal(prop))
                method.body.append((prop, argument.name))
                method.keywords.append(argument)
        method.positional.sort(key=lambda a: positional.index(a.name))
        method.keywords.sort(key=lambda a: not a.required)
        self.response_type(method, operation, options)
        method.accept = options.get("accept")
        if method.accept is None and method.cast_to in ("bytes", "str"):
            success = [code for code in operation["responses"] if str(code).startswith("2")]
            media = list((self.params.resolve(operation["responses"][success[0]]).get("content") or {}).keys())
            method.accept = "*/*" if method.cast_to == "bytes" else media[0]
        method.follow_redirects = bool(options.get("follow_redirects"))
        return method

    def argument(self, wire_name: str, schema: Any, required: bool, hint: str) -> Argument:
        name = snake(wire_name)
        if keyword.iskeyword(name):
            raise SystemExit(f"generate_resources: {wire_name} is a Python keyword")
        resolved = self.params.resolve(schema)
        if resolved.get("format") in ("date-time", "date"):
            self.used.add("datetime")
        return Argument(name, self.annotation(schema, self.params.pascal(hint)), required)

    @staticmethod
    def docstring(operation: Dict[str, Any], operation_id: str) -> str:
        summary = str(operation.get("summary", "")).strip().rstrip(".")
        description = str(operation.get("description", "")).strip().split("\n\n")[0]
        text = f"{summary} ({operation_id})."
        if description:
            text += "\n\n" + " ".join(description.split())
        return text

    # -- resources ------------------------------------------------------------------------------------

    def resource(self, name: str, node: Dict[str, Any], parent: Tuple[str, ...]) -> Resource:
        children_config = node.get("resources") or {}
        module = (*parent, name, name) if children_config else (*parent, name)
        package = module[:-1]
        self.used = set()
        methods = [self.method(method_name, options) for method_name, options in (node.get("methods") or {}).items()]
        used = self.used
        children = [self.resource(child, sub, package) for child, sub in children_config.items()]
        return Resource(
            name=name,
            class_name=node.get("class", pascal(name)),
            doc=node.get("doc", ""),
            module=module,
            methods=methods,
            children=children,
            helpers=node.get("helpers"),
            used=used,
        )

    def generate(self) -> Dict[Path, str]:
        roots = [self.resource(name, node, ()) for name, node in self.config["resources"].items()]
        unmapped = sorted(set(self.operations) - set(self.config.get("without_methods", [])))
        if unmapped:
            raise SystemExit(
                f"generate_resources: no method for {', '.join(unmapped)}: "
                "add it to scripts/resources.yaml (or to its without_methods)"
            )
        files: Dict[Path, str] = {}
        for root in roots:
            self.emit(root, files)
        files[Path("__init__.py")] = render_init(roots, ())
        return files

    def emit(self, resource: Resource, files: Dict[Path, str]) -> None:
        files[Path(*resource.module[:-1], resource.module[-1] + ".py")] = ModuleRenderer(self, resource).render()
        for child in resource.children:
            self.emit(child, files)
        if resource.children:
            files[Path(*resource.module[:-1], "__init__.py")] = render_init(
                [resource, *resource.children], resource.module[:-1]
            )


def render_init(resources: List[Resource], package: Tuple[str, ...]) -> str:
    lines = [HEADER, "", "from __future__ import annotations", ""]
    names: List[str] = []
    for resource in sorted(resources, key=lambda r: r.module):
        relative = ".".join(resource.module[len(package) :])
        lines.append(f"from .{relative} import Async{resource.class_name}, {resource.class_name}")
        names += [resource.class_name, f"Async{resource.class_name}"]
    lines += ["", "__all__ = [", *[f'    "{n}",' for n in names], "]"]
    return "\n".join(lines) + "\n"


class ModuleRenderer:
    def __init__(self, generator: ResourcesGenerator, resource: Resource) -> None:
        self.generator = generator
        self.resource = resource
        self.dots = "." * (len(resource.module) + 1)

    def render(self) -> str:
        resource = self.resource
        body: List[str] = []
        for is_async in (False, True):
            body += ["", "", *self.resource_class(is_async)]
        for kind in ("Raw", "Streaming"):
            for is_async in (False, True):
                body += ["", "", *self.wrapper_class(kind, is_async)]
        title = f'"""``client.{".".join(self.chain())}``'
        head = [HEADER, f"{title}: {resource.doc}." + '"""' if resource.doc else f'{title}."""', ""]
        head += ["from __future__ import annotations", ""]
        return "\n".join([*head, *self.imports(), "", f"__all__ = [{', '.join(self.exports())}]", *body]) + "\n"

    def chain(self) -> List[str]:
        module = list(self.resource.module)
        if self.resource.children:
            module = module[:-1]
        return module

    def exports(self) -> List[str]:
        return [f'"{self.resource.class_name}"', f'"Async{self.resource.class_name}"']

    def imports(self) -> List[str]:
        d = self.dots
        methods = self.resource.methods
        typing = ["Optional", "Union"]
        text = "\n".join(a.annotation for m in methods for a in [*m.positional, *m.keywords])
        typing += [n for n in ("Any", "Dict", "Sequence") if re.search(rf"\b{n}\[", text)]
        lines: List[str] = []
        if "datetime" in self.resource.used:
            lines += ["from datetime import datetime", ""]
        if self.resource.children:
            lines += ["from functools import cached_property"]
        lines += [f"from typing import {', '.join(sorted(set(typing)))}", ""]
        if "Literal[" in text:
            lines += ["from typing_extensions import Literal", ""]
        base_client = ["make_request_options"] if methods else []
        if any(m.page for m in methods):
            base_client.insert(0, "AsyncPaginator")
        if base_client:
            lines.append(f"from {d}_base_client import {', '.join(base_client)}")
        lines.append(f"from {d}_resource import AsyncAPIResource, SyncAPIResource")
        lines += [
            f"from {d}_response import (",
            "    async_to_raw_response_wrapper,",
            "    async_to_streamed_response_wrapper,",
            "    to_raw_response_wrapper,",
            "    to_streamed_response_wrapper,",
            ")",
        ]
        streams = sorted({n for m in methods if m.stream for n in (m.stream, "Async" + m.stream)})
        if streams:
            lines.append(f"from {d}_streaming import {', '.join(streams)}")
        if methods:
            lines.append(f"from {d}_types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout")
        utils = []
        if any(m.path_args for m in methods):
            utils.append("path_param")
        if any(m.body or m.query for m in methods):
            utils.append("strip_not_given")
        if utils:
            lines.append(f"from {d}_utils import {', '.join(utils)}")
        if self.resource.helpers:
            helpers = f"{self.resource.class_name}Helpers"
            lines.append(f"from {d}lib.{self.resource.helpers} import Async{helpers}, {helpers}")
        if any(m.page for m in methods):
            lines.append(f"from {d}pagination import AsyncCursorPage, SyncCursorPage")
        types = sorted(self.resource.used - {"datetime"})
        if types:
            lines.append(f"from {d}types import {', '.join(types)}")
        for child in self.resource.children:
            names = [
                f"{prefix}{child.class_name}{suffix}"
                for suffix in ("", "WithRawResponse", "WithStreamingResponse")
                for prefix in ("", "Async")
            ]
            relative = ".".join(child.module[len(self.resource.module) - 1 :])
            lines += [f"from .{relative} import (", *[f"    {n}," for n in sorted(names)], ")"]
        return lines

    # -- classes --------------------------------------------------------------------------------------

    def resource_class(self, is_async: bool) -> List[str]:
        resource = self.resource
        prefix = "Async" if is_async else ""
        name = f"{prefix}{resource.class_name}"
        base = f"{prefix}APIResource" if is_async else "SyncAPIResource"
        bases = f"{prefix}{resource.class_name}Helpers" if resource.helpers else base
        lines = [f"class {name}({bases}):"]
        for child in resource.children:
            lines += [
                "    @cached_property",
                f"    def {child.name}(self) -> {prefix}{child.class_name}:",
                f"        return {prefix}{child.class_name}(self._client)",
                "",
            ]
        lines += [
            "    @property",
            f'    def with_raw_response(self) -> "{name}WithRawResponse":',
            '        """Every method, answering an `APIResponse` (headers, status, ``.parse()``)."""',
            f"        return {name}WithRawResponse(self)",
            "",
            "    @property",
            f'    def with_streaming_response(self) -> "{name}WithStreamingResponse":',
            '        """Every method as a context manager whose body is read only on demand."""',
            f"        return {name}WithStreamingResponse(self)",
        ]
        for method in resource.methods:
            lines += ["", *self.method(method, is_async)]
        return lines

    def method(self, method: Method, is_async: bool) -> List[str]:
        paginated = method.page is not None
        definition = "async def" if is_async and not paginated else "def"
        returns = method.returns
        if paginated and is_async:
            item = method.page[0] if method.page else ""
            returns = f"AsyncPaginator[{item}, AsyncCursorPage[{item}]]"
        elif method.stream and is_async:
            returns = "Async" + returns
        lines = [f"    {definition} {method.name}(", "        self,"]
        lines += [f"        {a.name}: {a.annotation}," for a in method.positional]
        lines += ["        *,", *[a.signature() for a in method.keywords], REQUEST_OPTIONS, f"    ) -> {returns}:"]
        lines.append(textwrap.indent(docstring_literal(method.doc), "        "))
        lines += self.call(method, is_async)
        return lines

    def call(self, method: Method, is_async: bool) -> List[str]:
        awaited = "await " if is_async and method.page is None else ""
        path = self.path_expression(method)
        options = ["extra_query=extra_query", "extra_body=extra_body", "timeout=timeout"]
        headers = "extra_headers"
        extra: List[str] = []
        if method.headers:
            header_items = ", ".join(f'"{wire}": {arg}' for wire, arg in method.headers)
            pairs = f"{{{header_items}}}.items()"
            extra.append(f"        headers = {{key: str(value) for key, value in {pairs} if value is not None}}")
            headers = "{**headers, **(extra_headers or {})}"
        accept = method.accept or ("text/event-stream" if method.stream else None)
        if accept:
            headers = (
                f'{{"Accept": "{accept}", **{headers if headers != "extra_headers" else "(extra_headers or {})"}}}'
            )
        options.insert(0, f"extra_headers={headers}")
        if method.query:
            extra += self.query_lines(method)
            options.insert(0, "query=query")
        request_options = f"make_request_options({', '.join(options)})"
        if method.follow_redirects:
            request_options = f'{{**{request_options}, "follow_redirects": True}}'
        lines = list(extra)
        if method.page:
            item, model, key = method.page
            page = f"{'Async' if is_async else 'Sync'}CursorPage[{item}]"
            lines += [
                "        return self._get_api_list(",
                f"            {path},",
                f"            page={page},",
                f"            model={model},",
                f'            items_key="{key}",',
                f"            options={request_options},",
                "        )",
            ]
            return lines
        call = f"self._{method.http_method}"
        lines += [f"        return {awaited}{call}(", f"            {path},"]
        if method.body is not None:
            fields = ", ".join(f'"{wire}": {arg}' for wire, arg in method.body)
            lines.append(f"            body=strip_not_given({{{fields}}})," if fields else "            body={},")
        lines += [f"            options={request_options},", f"            cast_to={method.cast_to},"]
        if method.stream:
            prefix = "Async" if is_async else ""
            lines += ["            stream=True,", f"            stream_cls={prefix}{method.stream},"]
        lines.append("        )")
        return lines

    @staticmethod
    def query_lines(method: Method) -> List[str]:
        plain = [(wire, arg) for wire, arg, style in method.query if style != "deepObject"]
        fields = ", ".join(f'"{wire}": {arg}' for wire, arg in plain)
        lines = [f"        query = strip_not_given({{{fields}}})"]
        for wire, arg, style in method.query:
            if style == "deepObject":
                # deepObject, as the contract styles it: name[key]=value.
                lines += [
                    f"        if not isinstance({arg}, NotGiven):",
                    f'            query.update({{f"{wire}[{{key}}]": value for key, value in {arg}.items()}})',
                ]
        return lines

    @staticmethod
    def path_expression(method: Method) -> str:
        if not method.path_args:
            return f'"{method.path}"'
        arguments = {argument.name for argument in method.path_args}

        def placeholder(match: "re.Match[str]") -> str:
            name = snake(match[1])
            return f"{{path_param('{name}', {name})}}" if name in arguments else match[0]

        path = re.sub(r"\{(\w+)\}", placeholder, method.path)
        return f'f"{path}"'

    def wrapper_class(self, kind: str, is_async: bool) -> List[str]:
        resource = self.resource
        prefix = "Async" if is_async else ""
        name = f"{prefix}{resource.class_name}"
        wrap = {
            ("Raw", False): "to_raw_response_wrapper",
            ("Raw", True): "async_to_raw_response_wrapper",
            ("Streaming", False): "to_streamed_response_wrapper",
            ("Streaming", True): "async_to_streamed_response_wrapper",
        }[(kind, is_async)]
        lines = [
            f"class {name}With{kind}Response:",
            f"    def __init__(self, {resource.name}: {name}) -> None:",
        ]
        for child in resource.children:
            wrapper = f"{prefix}{child.class_name}With{kind}Response"
            lines.append(f"        self.{child.name} = {wrapper}({resource.name}.{child.name})")
        for method in resource.methods:
            lines.append(f"        self.{method.name} = {wrap}({resource.name}.{method.name})")
        if len(lines) == 2:
            lines.append("        pass")
        return lines


def docstring_literal(text: str) -> str:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    paragraphs = [textwrap.fill(p, 100, break_on_hyphens=False, break_long_words=False) for p in text.split("\n\n")]
    body = "\n\n".join(paragraphs)
    if "\n" not in body:
        return f'"""{body}"""'
    return f'"""{body}\n"""'


def generate_resources(spec: Dict[str, Any], config_path: Path, model_names: Set[str]) -> Dict[Path, str]:
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    return {
        RESOURCES_SUBDIR / path: text for path, text in ResourcesGenerator(spec, config, model_names).generate().items()
    }
