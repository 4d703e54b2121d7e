"""Save-time checks of Python source: compiled and read, never run.

    {"items": [{"id", "kind": "detection" | "global" | "dataModel", "analysisType"?, "body", "methods"?}]}
    → {"results": [{"id", "errors": [{"message", "line"?}]}]}

Every body must compile. A rule or scheduled rule must define `rule(event)` at the top level and a policy
`policy(resource)`; a data model must define the functions its mappings name in `methods`.
"""

import ast
from typing import Any, Dict, List, Mapping, Optional

MATCHERS = {"rule": "rule", "scheduled_rule": "rule", "policy": "policy"}
ARGUMENT = {"rule": "event", "policy": "resource"}


def _error(message: str, line: Optional[int] = None) -> Dict[str, Any]:
    return {"message": message, "line": line} if line else {"message": message}


def _top_level(tree: ast.Module) -> Dict[str, ast.AST]:
    """Names bound at the top level of a module (functions, classes, assignments, imports) and where."""
    names: Dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
    return names


def _takes_one_argument(function: Any) -> bool:
    """Whether the function can be called with one positional argument."""
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    required = len(positional) - len(arguments.defaults)
    required_keywords = sum(1 for default in arguments.kw_defaults if default is None)
    return required <= 1 and bool(positional or arguments.vararg) and required_keywords == 0


def check_item(item: Mapping) -> List[Dict[str, Any]]:
    """The problems of one item's source, in line order."""
    body = item.get("body")
    if not isinstance(body, str):
        return [_error("the Python source is missing")]
    try:
        tree = ast.parse(body, filename=f"<{item.get('id', 'item')}>")
    except SyntaxError as error:
        return [_error(f"{type(error).__name__}: {error.msg}", error.lineno)]
    except ValueError as error:
        return [_error(f"SyntaxError: {error}")]
    try:
        compile(tree, f"<{item.get('id', 'item')}>", "exec")
    except SyntaxError as error:
        return [_error(f"{type(error).__name__}: {error.msg}", error.lineno)]
    names = _top_level(tree)
    kind = item.get("kind")
    errors: List[Dict[str, Any]] = []
    if kind == "detection":
        matcher = MATCHERS.get(str(item.get("analysisType", "rule")).lower())
        if matcher is not None:
            node = names.get(matcher)
            argument = ARGUMENT[matcher]
            if node is None:
                errors.append(_error(f"the detection needs a top-level function `def {matcher}({argument}):`"))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _takes_one_argument(node):
                errors.append(_error(f"`{matcher}` must take one argument, `def {matcher}({argument}):`", node.lineno))
    elif kind == "dataModel":
        for method in item.get("methods") or []:
            if isinstance(method, str) and method not in names:
                errors.append(_error(f"the data model's mappings name the method `{method}`, which it does not define"))
    return errors


def check_items(items: Any) -> Dict[str, Any]:
    if not isinstance(items, list) or not all(isinstance(i, Mapping) for i in items):
        raise ValueError("check needs a list of items")
    return {"results": [{"id": item.get("id"), "errors": check_item(item)} for item in items]}
