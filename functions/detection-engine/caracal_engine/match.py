"""The YAML match-expression language of simple detections, InlineFilters and DynamicSeverities.

An expression list compiles once into a predicate over the event's decoded JSON. Key specifiers
(`Key`, `DeepKey`, `KeyPath` with `[n]` and `[*]`, `Enrichment`) resolve case-insensitively, like the
event object. A `[*]` path yields every element; a scalar condition then holds when any element
satisfies it, and its negated form (`DoesNotEqual`, `IsNotIn`, ...) is the negation of that.
"""

import ipaddress
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple

Predicate = Callable[[Any], bool]
_MISSING = object()


class MatchExpressionError(ValueError):
    """An expression that cannot be compiled; the message names the offending part."""


# ---------------------------------------------------------------------------------------------- keys

_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\*|-?\d+)\]|\.")


def parse_key_path(path: str) -> List[Any]:
    """`a.b[0].c[*]` → ['a', 'b', 0, 'c', '*']."""
    if not isinstance(path, str) or not path.strip():
        raise MatchExpressionError("KeyPath must be a non-empty string")
    parts: List[Any] = []
    position = 0
    while position < len(path):
        found = _SEGMENT.match(path, position)
        if found is None:
            raise MatchExpressionError(f"invalid KeyPath [{path}] at position {position + 1}")
        if found.group(1) is not None:
            parts.append(found.group(1))
        elif found.group(2) is not None:
            parts.append("*" if found.group(2) == "*" else int(found.group(2)))
        position = found.end()
    return parts


def _child(value: Any, key: Any) -> Any:
    if isinstance(key, int):
        if isinstance(value, (list, tuple)) and -len(value) <= key < len(value):
            return value[key]
        return _MISSING
    if isinstance(value, Mapping):
        if key in value:
            return value[key]
        lowered = key.lower()
        for original in value:
            if isinstance(original, str) and original.lower() == lowered:
                return value[original]
    return _MISSING


class Resolved:
    """The values a key specifier found: one value, or many for `[*]` paths."""

    __slots__ = ("values", "many")

    def __init__(self, values: List[Any], many: bool) -> None:
        self.values = values
        self.many = many


def _resolver(parts: List[Any]) -> Callable[[Any], Resolved]:
    if "*" not in parts:
        def resolve_one(document: Any) -> Resolved:
            value = document
            for part in parts:
                value = _child(value, part)
                if value is _MISSING:
                    return Resolved([], False)
            return Resolved([value], False)

        return resolve_one

    def resolve_many(document: Any) -> Resolved:
        current = [document]
        for part in parts:
            following = []
            for value in current:
                if part == "*":
                    if isinstance(value, (list, tuple)):
                        following.extend(value)
                else:
                    child = _child(value, part)
                    if child is not _MISSING:
                        following.append(child)
            current = following
        return Resolved(current, True)

    return resolve_many


def _enrichment_parts(spec: Any) -> List[Any]:
    if not isinstance(spec, Mapping) or not all(isinstance(spec.get(k), str) for k in ("Table", "Selector", "FieldPath")):
        raise MatchExpressionError("Enrichment needs string Table, Selector and FieldPath")
    return ["p_enrichment", spec["Table"], spec["Selector"], *parse_key_path(spec["FieldPath"])]


def key_resolver(expression: Mapping) -> Optional[Callable[[Any], Resolved]]:
    """The resolver for an expression's key specifier, or None when it has none."""
    specifiers = [k for k in ("Key", "DeepKey", "KeyPath", "Enrichment") if k in expression]
    if len(specifiers) > 1:
        raise MatchExpressionError(f"only one key specifier is allowed, found {', '.join(specifiers)}")
    if not specifiers:
        return None
    kind = specifiers[0]
    spec = expression[kind]
    if kind == "Key":
        if not isinstance(spec, str):
            raise MatchExpressionError("Key must be a string")
        parts: List[Any] = [spec]
    elif kind == "DeepKey":
        if not isinstance(spec, list) or not spec or not all(isinstance(k, (str, int)) for k in spec):
            raise MatchExpressionError("DeepKey must be a non-empty list of keys and indexes")
        parts = list(spec)
    elif kind == "KeyPath":
        parts = parse_key_path(spec)
    else:
        parts = _enrichment_parts(spec)
    return _resolver(parts)


# ---------------------------------------------------------------------------------------- comparisons

def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _equal(actual: Any, expected: Any) -> bool:
    if isinstance(actual, bool) or isinstance(expected, bool):
        if isinstance(actual, bool) and isinstance(expected, bool):
            return actual is expected
        text = actual if isinstance(actual, str) else expected if isinstance(expected, str) else None
        flag = expected if isinstance(expected, bool) else actual
        return text is not None and text.lower() == ("true" if flag else "false")
    if actual == expected:
        return True
    left, right = _number(actual), _number(expected)
    return left is not None and right is not None and left == right


def _text(value: Any) -> Optional[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return None


def _string_test(test: Callable[[str, str], bool], fold: bool) -> Callable[[Any, Any], bool]:
    def compare(actual: Any, expected: Any) -> bool:
        left, right = _text(actual), _text(expected)
        if left is None or right is None:
            return False
        if fold:
            left, right = left.casefold(), right.casefold()
        return test(left, right)

    return compare


def _contains(fold: bool) -> Callable[[Any, Any], bool]:
    substring = _string_test(lambda a, b: b in a, fold)

    def compare(actual: Any, expected: Any) -> bool:
        if isinstance(actual, (list, tuple)):
            if fold:
                return any(_text(a) is not None and _text(a).casefold() == (_text(expected) or "").casefold() for a in actual)
            return any(_equal(a, expected) for a in actual)
        return substring(actual, expected)

    return compare


def _ordered(test: Callable[[float, float], bool]) -> Callable[[Any, Any], bool]:
    def compare(actual: Any, expected: Any) -> bool:
        left, right = _number(actual), _number(expected)
        return left is not None and right is not None and test(left, right)

    return compare


def _ip(value: Any) -> Optional[Any]:
    if not isinstance(value, str):
        return None
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        return None


def _network(value: Any) -> Optional[Any]:
    if not isinstance(value, str):
        return None
    try:
        return ipaddress.ip_network(value.strip(), strict=False)
    except ValueError:
        return None


def _in_cidr(actual: Any, cidr: Any) -> bool:
    address, network = _ip(actual), _network(cidr)
    return address is not None and network is not None and address.version == network.version and address in network


def _cidr_contains(actual: Any, address: Any) -> bool:
    return _in_cidr(address, actual)


_VALUE_CONDITIONS: Dict[str, Callable[[Any, Any], bool]] = {
    "Equals": _equal,
    "IEquals": _string_test(lambda a, b: a == b, True),
    "StartsWith": _string_test(lambda a, b: a.startswith(b), False),
    "IStartsWith": _string_test(lambda a, b: a.startswith(b), True),
    "EndsWith": _string_test(lambda a, b: a.endswith(b), False),
    "IEndsWith": _string_test(lambda a, b: a.endswith(b), True),
    "Contains": _contains(False),
    "IContains": _contains(True),
    "IsGreaterThan": _ordered(lambda a, b: a > b),
    "IsGreaterThanOrEqual": _ordered(lambda a, b: a >= b),
    "IsLessThan": _ordered(lambda a, b: a < b),
    "IsLessThanOrEqual": _ordered(lambda a, b: a <= b),
    "IsIPAddressInCIDR": _in_cidr,
    "CIDRContainsIPAddresses": _cidr_contains,
}
_VALUE_CONDITIONS["IsGreaterThanOrEquals"] = _VALUE_CONDITIONS["IsGreaterThanOrEqual"]
_VALUE_CONDITIONS["IsLessThanOrEquals"] = _VALUE_CONDITIONS["IsLessThanOrEqual"]

_NEGATED_VALUE_CONDITIONS = {
    "DoesNotEqual": "Equals",
    "IDoesNotEqual": "IEquals",
    "DoesNotStartWith": "StartsWith",
    "IDoesNotStartWith": "IStartsWith",
    "DoesNotEndWith": "EndsWith",
    "IDoesNotEndWith": "IEndsWith",
    "DoesNotContain": "Contains",
    "IDoesNotContain": "IContains",
    "IsIPAddressNotInCIDR": "IsIPAddressInCIDR",
    "CIDRDoesNotContainIPAddresses": "CIDRContainsIPAddresses",
}


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, (list, tuple, Mapping)) and len(value) == 0)


def _private(value: Any) -> bool:
    address = _ip(value)
    return address is not None and (address.is_private or address.is_loopback or address.is_link_local)


_UNARY_CONDITIONS: Dict[str, Callable[[Any], bool]] = {
    "IsNull": lambda v: v is None,
    "IsNullOrEmpty": _empty,
    "IsIPAddress": lambda v: _ip(v) is not None,
    "IsIPv4Address": lambda v: _ip(v) is not None and _ip(v).version == 4,
    "IsIPv6Address": lambda v: _ip(v) is not None and _ip(v).version == 6,
    "IsIPAddressPrivate": _private,
    "IsIPAddressPublic": lambda v: _ip(v) is not None and not _private(v) and _ip(v).is_global,
}
_NEGATED_UNARY_CONDITIONS = {"IsNotNull": "IsNull", "IsNotNullOrEmpty": "IsNullOrEmpty"}

_LIST_CONDITIONS = {"AnyElement", "AllElements", "NoElement", "OnlyOneElement"}
_COMBINATORS = ("All", "Any", "OnlyOne", "None")

CONDITIONS = sorted(
    set(_VALUE_CONDITIONS)
    | set(_NEGATED_VALUE_CONDITIONS)
    | set(_UNARY_CONDITIONS)
    | set(_NEGATED_UNARY_CONDITIONS)
    | _LIST_CONDITIONS
    | {"Exists", "DoesNotExist", "IsIn", "IsNotIn", "IIsIn", "IIsNotIn", "AlwaysTrue", "AlwaysFalse"}
)


# ------------------------------------------------------------------------------------------ compiler

def _any_value(resolver: Callable[[Any], Resolved], test: Callable[[Any], bool]) -> Predicate:
    def predicate(document: Any) -> bool:
        for value in resolver(document).values:
            if test(value):
                return True
        return False

    return predicate


def _whole_document(document: Any) -> Resolved:
    """Without a key specifier, a condition tests the value itself (e.g. a scalar list element)."""
    return Resolved([document], False)


def _negate(predicate: Predicate) -> Predicate:
    return lambda document: not predicate(document)


def _is_key_specifier(item: Any) -> bool:
    return isinstance(item, Mapping) and any(k in item for k in ("Key", "DeepKey", "KeyPath", "Enrichment"))


def _compile_multi_key(condition: str, specifiers: List[Any]) -> Predicate:
    if len(specifiers) != 2:
        raise MatchExpressionError(f"a multi-key {condition} compares exactly two keys")
    left = key_resolver(specifiers[0])
    right = key_resolver(specifiers[1])
    assert left is not None and right is not None
    negated = condition in _NEGATED_VALUE_CONDITIONS
    compare = _VALUE_CONDITIONS.get(_NEGATED_VALUE_CONDITIONS.get(condition, condition))
    if compare is None:
        raise MatchExpressionError(f"condition {condition} cannot compare two keys")

    def predicate(document: Any) -> bool:
        lefts, rights = left(document).values, right(document).values
        return any(compare(a, b) for a in lefts for b in rights)

    return _negate(predicate) if negated else predicate


def _compile_list(condition: str, resolver: Callable[[Any], Resolved], expressions: Any) -> Predicate:
    element_test = compile_expressions(expressions, "Expressions")

    def matching(document: Any) -> Tuple[int, int]:
        found = resolver(document).values
        elements: List[Any] = []
        for value in found:
            if isinstance(value, (list, tuple)):
                elements.extend(value)
        return sum(1 for element in elements if element_test(element)), len(elements)

    if condition == "AnyElement":
        return lambda d: matching(d)[0] > 0
    if condition == "AllElements":
        return lambda d: (lambda m: m[1] > 0 and m[0] == m[1])(matching(d))
    if condition == "NoElement":
        return lambda d: matching(d)[0] == 0
    return lambda d: matching(d)[0] == 1


def compile_expression(expression: Any) -> Predicate:
    """Compile one match expression (a mapping) into a predicate over decoded JSON."""
    if not isinstance(expression, Mapping):
        raise MatchExpressionError(f"a match expression must be a mapping, got {type(expression).__name__}")
    combinators = [k for k in _COMBINATORS if k in expression]
    if combinators:
        if len(expression) != 1:
            raise MatchExpressionError(f"{combinators[0]} must be the only key of its expression")
        name = combinators[0]
        parts = [compile_expression(e) for e in _expression_list(expression[name], name)]
        if name == "All":
            return lambda d: all(p(d) for p in parts)
        if name == "Any":
            return lambda d: any(p(d) for p in parts)
        if name == "OnlyOne":
            return lambda d: sum(1 for p in parts if p(d)) == 1
        return lambda d: not any(p(d) for p in parts)

    condition = expression.get("Condition")
    if not isinstance(condition, str):
        raise MatchExpressionError("a match expression needs a Condition (or All/Any/OnlyOne/None)")
    allowed = {"Key", "DeepKey", "KeyPath", "Enrichment", "Condition", "Value", "Values", "Expressions"}
    unknown = sorted(set(expression) - allowed)
    if unknown:
        raise MatchExpressionError(f"unknown key(s) in match expression: {', '.join(unknown)}")
    if condition == "AlwaysTrue":
        return lambda d: True
    if condition == "AlwaysFalse":
        return lambda d: False

    values = expression.get("Values")
    resolver = key_resolver(expression)
    if resolver is None:
        if isinstance(values, list) and values and all(_is_key_specifier(v) for v in values):
            return _compile_multi_key(condition, values)
        resolver = _whole_document

    if condition in _LIST_CONDITIONS:
        if "Expressions" not in expression:
            raise MatchExpressionError(f"{condition} needs Expressions")
        return _compile_list(condition, resolver, expression["Expressions"])
    if condition == "Exists":
        return lambda d: len(resolver(d).values) > 0
    if condition == "DoesNotExist":
        return lambda d: len(resolver(d).values) == 0
    if condition in _UNARY_CONDITIONS:
        test = _UNARY_CONDITIONS[condition]
        if condition in ("IsNull", "IsNullOrEmpty"):
            return lambda d: (lambda r: test(None) if not r.values else any(test(v) for v in r.values))(resolver(d))
        return _any_value(resolver, test)
    if condition in _NEGATED_UNARY_CONDITIONS:
        return _negate(compile_expression({**expression, "Condition": _NEGATED_UNARY_CONDITIONS[condition]}))
    if condition in ("IsIn", "IsNotIn", "IIsIn", "IIsNotIn"):
        if not isinstance(values, list):
            raise MatchExpressionError(f"{condition} needs a Values list")
        if condition.startswith("II"):
            folded = [(_text(v) or "").casefold() for v in values]
            positive = _any_value(resolver, lambda v: _text(v) is not None and _text(v).casefold() in folded)
        else:
            positive = _any_value(resolver, lambda v: any(_equal(v, e) for e in values))
        return _negate(positive) if "Not" in condition else positive
    negated = condition in _NEGATED_VALUE_CONDITIONS
    compare = _VALUE_CONDITIONS.get(_NEGATED_VALUE_CONDITIONS.get(condition, condition))
    if compare is None:
        raise MatchExpressionError(f"unknown Condition [{condition}]")
    if "Value" in expression:
        expected_values = [expression["Value"]]
    elif isinstance(values, list):
        expected_values = values
    else:
        raise MatchExpressionError(f"{condition} needs a Value")
    positive = _any_value(resolver, lambda v: any(compare(v, e) for e in expected_values))
    return _negate(positive) if negated else positive


def _expression_list(expressions: Any, where: str) -> List[Any]:
    if not isinstance(expressions, list):
        raise MatchExpressionError(f"{where} must be a list of match expressions")
    return expressions


def compile_expressions(expressions: Any, where: str = "Detection") -> Predicate:
    """Compile a list of expressions, all of which must hold."""
    parts = [compile_expression(e) for e in _expression_list(expressions, where)]
    if len(parts) == 1:
        return parts[0]
    return lambda document: all(p(document) for p in parts)


def resolve_first(specifier: Any) -> Callable[[Any], Any]:
    """A function returning the first value a key specifier finds (None when missing)."""
    resolver = key_resolver(specifier) if isinstance(specifier, Mapping) else None
    if resolver is None:
        raise MatchExpressionError("expected a key specifier (Key, DeepKey, KeyPath or Enrichment)")

    def first(document: Any) -> Any:
        found = resolver(document)
        if found.many:
            return found.values
        return found.values[0] if found.values else None

    return first
