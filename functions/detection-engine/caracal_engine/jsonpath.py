"""The JSONPath subset data models use: `$.a.b`, `a.b`, `[0]`, `[*]`, `['key']`, `..key`, and filters
`[?(@.field == 'value')]` (also `!=`). A compiled path finds every match with its full path."""

import re
from typing import Any, Callable, List, Tuple

Match = Tuple[str, Any]  # (full path, value)
Step = Callable[[List[Match]], List[Match]]

_TOKEN = re.compile(
    r"""\.\.(?P<descend>[A-Za-z0-9_@$-]+|\*)"""
    r"""|\.(?P<field>[A-Za-z0-9_@$-]+|\*)"""
    r"""|\[\s*(?P<index>-?\d+)\s*\]"""
    r"""|\[\s*\*\s*\]"""
    r"""|\[\s*'(?P<quoted>[^']*)'\s*\]|\[\s*"(?P<dquoted>[^"]*)"\s*\]"""
    r"""|\[\s*\?\(\s*@\.(?P<filter_key>[A-Za-z0-9_.-]+)\s*(?P<op>==|!=)\s*(?P<filter_value>'[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false)\s*\)\s*\]"""
)


class JSONPathError(ValueError):
    """A data-model path that cannot be compiled."""


def _join(path: str, part: str) -> str:
    return f"{path}.{part}" if path else part


def _field(name: str) -> Step:
    def step(matches: List[Match]) -> List[Match]:
        out = []
        for path, value in matches:
            if isinstance(value, dict):
                if name == "*":
                    out.extend((_join(path, k), v) for k, v in value.items())
                elif name in value:
                    out.append((_join(path, name), value[name]))
        return out

    return step


def _every_element(matches: List[Match]) -> List[Match]:
    out = []
    for path, value in matches:
        if isinstance(value, list):
            out.extend((_join(path, f"[{i}]"), v) for i, v in enumerate(value))
    return out


def _index(position: int) -> Step:
    def step(matches: List[Match]) -> List[Match]:
        out = []
        for path, value in matches:
            if isinstance(value, list) and -len(value) <= position < len(value):
                out.append((_join(path, f"[{position % len(value)}]"), value[position]))
        return out

    return step


def _descend(name: str) -> Step:
    def walk(path: str, value: Any, out: List[Match]) -> None:
        if isinstance(value, dict):
            for key, child in value.items():
                child_path = _join(path, key)
                if name == "*" or key == name:
                    out.append((child_path, child))
                walk(child_path, child, out)
        elif isinstance(value, list):
            for i, child in enumerate(value):
                walk(_join(path, f"[{i}]"), child, out)

    def step(matches: List[Match]) -> List[Match]:
        out: List[Match] = []
        for path, value in matches:
            walk(path, value, out)
        return out

    return step


def _literal(text: str) -> Any:
    if text[0] in "'\"":
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    return float(text) if "." in text else int(text)


def _filter(key: str, op: str, expected: Any) -> Step:
    keys = key.split(".")

    def value_of(element: Any) -> Any:
        for k in keys:
            if not isinstance(element, dict):
                return None
            element = element.get(k)
        return element

    def step(matches: List[Match]) -> List[Match]:
        out = []
        for path, value in matches:
            if isinstance(value, list):
                for i, element in enumerate(value):
                    if (value_of(element) == expected) == (op == "=="):
                        out.append((_join(path, f"[{i}]"), element))
        return out

    return step


def compile_path(expression: str) -> Callable[[Any], List[Match]]:
    """Compile a path; the result maps a document to its matches in document order."""
    text = expression.strip()
    if text.startswith("$"):
        text = text[1:]
    elif text and not text.startswith((".", "[")):
        text = "." + text
    steps: List[Step] = []
    position = 0
    while position < len(text):
        token = _TOKEN.match(text, position)
        if token is None:
            raise JSONPathError(f"invalid JSONPath [{expression}] at position {position + 1}")
        groups = token.groupdict()
        if groups["descend"] is not None:
            steps.append(_descend(groups["descend"]))
        elif groups["field"] is not None:
            steps.append(_field(groups["field"]))
        elif groups["index"] is not None:
            steps.append(_index(int(groups["index"])))
        elif groups["quoted"] is not None or groups["dquoted"] is not None:
            steps.append(_field(groups["quoted"] if groups["quoted"] is not None else groups["dquoted"]))
        elif groups["filter_key"] is not None:
            steps.append(_filter(groups["filter_key"], groups["op"], _literal(groups["filter_value"])))
        else:
            steps.append(_every_element)
        position = token.end()

    def find(document: Any) -> List[Match]:
        matches: List[Match] = [("", document)]
        for step in steps:
            matches = step(matches)
            if not matches:
                break
        return matches

    return find
