"""The API reference in the docs, written from the OpenAPI schema the site serves at /api/v1/openapi.json.

`manage.py api_reference` writes the schema as it is served (docs/integrating/openapi.json) and a Markdown page read
from it (docs/integrating/api-reference.md); `--check` writes nothing and exits 1 when either differs from what the
site would serve now. tests/docs/test_docs.py checks the same, so the docs cannot disagree with the schema.
"""

import json
from pathlib import Path

from django.utils import translation
from ninja.responses import NinjaJSONEncoder

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILE = ROOT / "docs" / "integrating" / "openapi.json"
PAGE_FILE = ROOT / "docs" / "integrating" / "api-reference.md"
METHODS = ("get", "post", "put", "patch", "delete")


def schema() -> dict:
    """The schema as /api/v1/openapi.json serves it, in English (lazy strings made text)."""
    from games.api import api

    with translation.override("en"):
        return json.loads(json.dumps(api.get_openapi_schema(), cls=NinjaJSONEncoder))


def schema_text(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _type(node: dict) -> str:
    """A schema in a few words: `GameOut`, `array of EventOut`, `string (at most 20000)`, `ja or nein`."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return f"[`{name}`](#{name.lower()})"
    for combined in ("anyOf", "oneOf", "allOf"):
        if combined in node:
            return " or ".join(_type(part) for part in node[combined])
    if "enum" in node:
        return " or ".join(f"`{json.dumps(value)}`" for value in node["enum"])
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    kind = node.get("type", "any")
    if kind == "array":
        return f"array of {_type(node.get('items', {}))}"
    if kind == "object" and "additionalProperties" in node and isinstance(node["additionalProperties"], dict):
        return f"object of {_type(node['additionalProperties'])}"
    bounds = []
    for key, words in (("minLength", "at least {} characters"), ("maxLength", "at most {} characters"),
                       ("minimum", "at least {}"), ("maximum", "at most {}"), ("format", "{}")):  # fmt: skip
        if key in node:
            bounds.append(words.format(node[key]))
    return f"{kind} ({', '.join(bounds)})" if bounds else kind


def _operation(path: str, method: str, operation: dict) -> list[str]:
    lines = [f"### `{method.upper()} {path}`", ""]
    if operation.get("summary"):
        lines += [f"**{operation['summary']}**" + (f" (`{operation['operationId']}`)" if "operationId" in operation
                                                   else ""), ""]  # fmt: skip
    if operation.get("description"):
        lines += [operation["description"].strip(), ""]
    schemes = [name for requirement in operation.get("security", []) for name in requirement]
    tags = ", ".join(operation.get("tags", []))
    lines += [f"Tags: {tags or 'none'}. Authentication: {', '.join(schemes) or 'none'}.", ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | type | required | default |", "|---|---|---|---|---|"]
        for parameter in parameters:
            node = parameter.get("schema", {})
            default = f"`{json.dumps(node['default'])}`" if "default" in node else ""
            lines.append(f"| `{parameter['name']}` | {parameter['in']} | {_cell(_type(node))} | "
                         f"{'yes' if parameter.get('required') else 'no'} | {default} |")  # fmt: skip
        lines.append("")
    body = operation.get("requestBody", {}).get("content", {})
    for media, content in body.items():
        lines += [f"Body ({media}): {_type(content.get('schema', {}))}.", ""]
    responses = operation.get("responses", {})
    if responses:
        lines += ["| status | meaning | body |", "|---|---|---|"]
        for status, response in responses.items():
            content = response.get("content", {})
            shape = "; ".join(f"{_type(c.get('schema', {}))} ({media})" for media, c in content.items())
            lines.append(f"| {status} | {_cell(response.get('description', ''))} | {_cell(shape)} |")
        lines.append("")
    return lines


def _component(name: str, node: dict) -> list[str]:
    lines = [f"### {name}", ""]
    if node.get("description"):
        lines += [node["description"].strip(), ""]
    properties = node.get("properties", {})
    if properties:
        required = set(node.get("required", []))
        lines += ["| field | type | required | meaning |", "|---|---|---|---|"]
        for field, spec in properties.items():
            meaning = spec.get("description", "")
            if "default" in spec:
                meaning = f"{meaning} (default `{json.dumps(spec['default'])}`)".strip()
            lines.append(f"| `{field}` | {_cell(_type(spec))} | {'yes' if field in required else 'no'} | "
                         f"{_cell(meaning)} |")  # fmt: skip
        lines.append("")
    elif "properties" not in node:
        lines += [f"{_type(node)}.", ""]
    return lines


def markdown(document: dict) -> str:
    """The reference page: every operation, then every schema, in the order the schema lists them."""
    info = document["info"]
    lines = [
        "# API reference",
        "",
        "<!-- Written by `manage.py api_reference` from the OpenAPI schema: do not edit by hand. -->",
        "",
        f"{info['title']}, API version {info['version']}, OpenAPI {document['openapi']}. {info.get('description', '')}",
        "",
        "Generated from the schema the site serves at `/api/v1/openapi.json` (kept beside this page as",
        "[openapi.json](openapi.json)); how to use it, tokens, refusals and limits: [the API](index.md). A test",
        "fails when this page or the JSON differs from the live schema; `make docs-api` writes both again.",
        "",
        "## Operations",
        "",
    ]
    for path, operations in document.get("paths", {}).items():
        for method in METHODS:
            if method in operations:
                lines += _operation(path, method, operations[method])
    lines += ["## Schemas", ""]
    for name, node in document.get("components", {}).get("schemas", {}).items():
        lines += _component(name, node)
    return "\n".join(lines).rstrip() + "\n"


def expected() -> dict[Path, str]:
    document = schema()
    return {SCHEMA_FILE: schema_text(document), PAGE_FILE: markdown(document)}


def stale() -> list[Path]:
    """The files that differ from what the schema says now (missing ones included)."""
    return [path for path, text in expected().items() if not path.exists() or path.read_text() != text]
