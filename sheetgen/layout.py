"""The layout language: YAML files with `content` and `layout`, `extends:` and typed validation.

A file is read with PyYAML's safe loader. `extends: other.yaml` (relative to the file) deep-merges
the parent under the child: mappings merge key by key, anything else is replaced, and a string
value `"+= 3"` or `"-= 3"` adjusts the parent's number. Every key remembers the file and line it
came from, so a validation error can name them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from .errors import SheetgenError

Where = tuple[str, int]  # (file, line)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~20x faster
_ADJUST = re.compile(r"^\s*([+-])=\s*(-?\d+(?:\.\d+)?)\s*$")


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _read_yaml(path: Path) -> tuple[Any, dict[tuple, Where]]:
    """Parse one file; return its data and a map from key path to (file, line)."""
    shown = _shown(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SheetgenError("file not found", file=shown,
                            fix="check the path, or run 'sheetgen list' for known layouts") from None
    try:
        node = yaml.compose(text, Loader=LOADER)
        data = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "invalid YAML"
        context, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and cmark and (not mark or cmark.line != mark.line):
            problem += f" ({context} on line {cmark.line + 1})"
        raise SheetgenError(f"YAML syntax error: {problem}", file=shown,
                            line=mark.line + 1 if mark else None,
                            fix="check indentation, colons and quotes on that line") from None
    lines: dict[tuple, Where] = {}

    def walk(n: yaml.Node, path: tuple) -> None:
        lines[path] = (shown, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                lines[path + (k.value,)] = (shown, k.start_mark.line + 1)
                walk(v, path + (k.value,))
                lines[path + (k.value,)] = (shown, k.start_mark.line + 1)
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                walk(v, path + (i,))

    if node is not None:
        walk(node, ())
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SheetgenError("a layout must be a mapping of keys", file=shown, line=1,
                            fix="start the file with 'kind:', 'content:' and 'layout:' keys")
    return data, lines


def _merge(base: Any, over: Any, path: tuple, where: Where, lines: dict) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base.get(k), v, path + (k,), lines.get(path + (k,), where), lines) \
                if k in base else v
        return out
    if isinstance(over, str) and (m := _ADJUST.match(over)):
        if not isinstance(base, (int, float)) or isinstance(base, bool):
            raise SheetgenError(f"'{over}' adjusts a number, but the parent has no number here",
                                file=where[0], line=where[1], key=".".join(map(str, path)),
                                fix="give a plain value instead of += / -=")
        delta = float(m.group(2)) * (1 if m.group(1) == "+" else -1)
        value = base + delta
        return int(value) if isinstance(base, int) and value.is_integer() else value
    return over


def load_raw(path: str | Path, _chain: tuple = ()) -> tuple[dict, dict[tuple, Where]]:
    """Read a layout and everything it extends; return merged data and key locations."""
    path = Path(path)
    real = path.resolve()
    if real in _chain:
        names = " -> ".join(_shown(Path(p)) for p in _chain + (real,))
        raise SheetgenError(f"'extends' forms a cycle: {names}", file=_shown(path),
                            key="extends", fix="remove one of the 'extends' links")
    data, lines = _read_yaml(path)
    parent = data.pop("extends", None)
    if parent is None:
        return data, lines
    shown, line = lines.get(("extends",), (_shown(path), 1))
    if not isinstance(parent, str):
        raise SheetgenError("'extends' must be a file name", file=shown, line=line, key="extends",
                            fix="write e.g. 'extends: tricky-treats.yaml'")
    target = path.parent / parent
    if not target.suffix:
        target = target.with_suffix(".yaml")
    if not target.exists():
        raise SheetgenError(f"'extends' names {parent}, which does not exist", file=shown,
                            line=line, key="extends",
                            fix=f"use a file next to {path.name}, e.g. one listed by 'sheetgen list'")
    base, base_lines = load_raw(target, _chain + (real,))
    merged_lines = {**base_lines, **{k: v for k, v in lines.items() if k != ("extends",)}}
    return _merge(base, data, (), (shown, 1), merged_lines), merged_lines


def _locate(loc: tuple, lines: dict[tuple, Where], default: Where) -> Where:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return default


def _fix_for(err: dict) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        return "remove it or correct its spelling; 'sheetgen schema' lists the allowed keys"
    if kind == "missing":
        return "add this key"
    if kind.startswith(("greater", "less")):
        return "use a value in the allowed range"
    if kind in ("literal_error", "enum"):
        return "use one of the values named"
    return "give a value of the expected type"


def validate(model: type[BaseModel], data: dict, lines: dict[tuple, Where], file: str) -> BaseModel:
    """Validate merged data with a pydantic model; turn the first error into a SheetgenError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = tuple(err["loc"])
        where = _locate(loc, lines, (file, 1))
        key = ".".join(str(p) for p in loc) or None
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] != "missing" and "input" in err and not isinstance(err["input"], (dict, list)):
            msg += f" (got {err['input']!r})"
        raise SheetgenError(msg, file=where[0], line=where[1], key=key,
                            fix=_fix_for(err)) from None

