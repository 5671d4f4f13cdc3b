"""The layout language: YAML files with `content` and `layout`, `extends:` and typed validation.

A file is read with PyYAML's safe loader, bounded in size, nesting and alias expansion, and a
key given twice is an error. `extends: NAME` (a file next to this one, or a layout name found on
the search path of `sheetgen.resources`; never outside those folders) deep-merges the parent
under the child: mappings merge key by key, anything else is replaced, and a string
value `"+= 3"` or `"-= 3"` adjusts the parent's number. Every key remembers the file and line it
came from, so a validation error can name them.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from .errors import SheetgenError, did_you_mean

Where = tuple[str, int]  # (file, line)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~20x faster
_ADJUST = re.compile(r"^\s*([+-])=\s*(-?\d+(?:\.\d+)?)\s*$")


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


MAX_BYTES = 1_000_000  # a layout is a few kB; the largest shipped one is about 30 kB
MAX_NODES = 200_000  # values after expanding aliases (a YAML "billion laughs" stops here)
MAX_DEPTH = 40  # nesting of mappings and lists


def read_text(path: Path, what: str = "layout") -> str:
    """The one reader of user files: UTF-8 text of bounded size, or one clear SheetgenError."""
    shown = _shown(path)
    try:
        if path.is_dir():
            raise SheetgenError(f"the {what} is a folder, not a file", file=shown,
                                fix="give a .yaml file inside it, or its name from 'sheetgen list'")
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SheetgenError("file not found", file=shown,
                            fix="check the path, or run 'sheetgen list' for known layouts") from None
    except PermissionError:
        raise SheetgenError("cannot read the file (permission denied)", file=shown,
                            fix="make it readable, e.g. chmod u+r") from None
    except OSError as exc:
        raise SheetgenError(f"cannot read the file ({exc.strerror or exc})", file=shown,
                            fix="give a readable regular file") from None
    if len(raw) > MAX_BYTES:
        raise SheetgenError(f"the file is larger than {MAX_BYTES // 1000} kB, too large for a {what}",
                            file=shown, fix="split it, or check it is the file you meant")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise SheetgenError(f"the file is not UTF-8 text (byte {exc.start})", file=shown, line=line,
                            fix="save it as UTF-8") from None


def _syntax_error(exc: yaml.YAMLError, shown: str) -> SheetgenError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or "invalid YAML"
    context, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and cmark and (not mark or cmark.line != mark.line):
        problem += f" ({context} on line {cmark.line + 1})"
    return SheetgenError(f"YAML syntax error: {problem}", file=shown,
                         line=mark.line + 1 if mark else None,
                         fix="check indentation, colons and quotes on that line")


def _bounded(text: str, shown: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before anything recursive reads the text."""
    depth = 0
    for ev in yaml.parse(text, Loader=LOADER):
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise SheetgenError(f"nesting deeper than {MAX_DEPTH} levels", file=shown,
                                    line=ev.start_mark.line + 1, fix="flatten the structure")
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


def _expanded_size(node: yaml.Node, shown: str) -> None:
    """Refuse a document whose aliases expand to more than MAX_NODES values."""
    sizes: dict[int, int] = {}

    def size(n: yaml.Node) -> int:
        if id(n) not in sizes:
            sizes[id(n)] = 1  # a recursive alias counts once (and the safe loader refuses it)
            kids = [c for kv in n.value for c in kv] if isinstance(n, yaml.MappingNode) else \
                n.value if isinstance(n, yaml.SequenceNode) else []
            sizes[id(n)] = 1 + sum(size(c) for c in kids)
        return sizes[id(n)]

    if size(node) > MAX_NODES:
        raise SheetgenError(f"the YAML expands to more than {MAX_NODES:,} values (aliases repeated)",
                            file=shown, line=1, fix="remove the repeated '*alias' references")


_PARSED: dict[tuple[str, str], bytes] = {}  # (shown, text) -> pickled (data, lines)


def _read_yaml(path: Path) -> tuple[Any, dict[tuple, Where]]:
    """Parse one file; return its data and a map from key path to (file, line). The same text is
    parsed once per process (a build reads each layout for several outputs); callers get a copy."""
    shown = _shown(path)
    text = read_text(path)
    key = (shown, text)
    if key not in _PARSED:
        if len(_PARSED) >= 256:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = pickle.dumps(_parse_yaml(text, shown), 5)
    return pickle.loads(_PARSED[key])


def _parse_yaml(text: str, shown: str) -> tuple[Any, dict[tuple, Where]]:
    try:
        _bounded(text, shown)
        loader = LOADER(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _expanded_size(node, shown)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise _syntax_error(exc, shown) from None
    except RecursionError:
        raise SheetgenError("the YAML refers to itself", file=shown, fix="remove the recursive alias") from None
    lines: dict[tuple, Where] = {}

    def walk(n: yaml.Node, path: tuple) -> None:
        lines[path] = (shown, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            first: dict = {}
            for k, v in n.value:
                line = k.start_mark.line + 1
                if k.value in first and k.tag != "tag:yaml.org,2002:merge":
                    raise SheetgenError(f"key '{k.value}' is given twice, on lines {first[k.value]} "
                                        f"and {line}", file=shown, line=line,
                                        key=".".join(map(str, path + (k.value,))),
                                        fix="keep one of them")
                first[k.value] = line
                walk(v, path + (k.value,))
                lines[path + (k.value,)] = (shown, line)
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


def _parent(path: Path, parent: str, chain: tuple, where: Where) -> Path:
    """The file `extends: parent` names: a file next to the layout, else a layout name on the
    search path (skipping the layout itself, so a local file may extend the shipped one it
    overrides). Only the layout's own folder and the search-path folders may be reached."""
    from . import resources

    shown, line = where
    err = dict(file=shown, line=line, key="extends")
    name = parent[:-5] if parent.endswith(".yaml") else parent[:-4] if parent.endswith(".yml") else parent
    here = path.parent / (parent if Path(parent).suffix in (".yaml", ".yml") else f"{parent}.yaml")
    candidates = [here]
    if "/" not in parent and "\\" not in parent:
        candidates += [f.path / f"{name}.yaml" for f in resources.search_path()]
    seen = {path.resolve(), *chain}
    if len(parent) > 255:
        raise SheetgenError("'extends' names a file whose name is too long", **err,
                            fix="write a layout name, e.g. 'extends: tricky-treats'")
    for c in candidates:
        if c.is_dir():
            raise SheetgenError(f"'extends' names {parent}, which is a folder", **err,
                                fix="name a layout file or a layout from 'sheetgen list'")
        if c.is_file() and c.resolve() not in seen:
            if not resources.inside_search_path(c, also=path.parent):
                raise SheetgenError(f"'extends' reaches outside the layout folders: {parent}", **err,
                                    fix="extend a layout next to this one or one on the search "
                                        "path (--layouts, SHEETGEN_PATH)")
            return c
    if here.resolve() in seen and here.is_file():
        names = " -> ".join(_shown(Path(p)) for p in chain + (path.resolve(), here.resolve()))
        raise SheetgenError(f"'extends' forms a cycle: {names}", **err,
                            fix="remove one of the 'extends' links")
    known = list(resources.layout_files())
    raise SheetgenError(f"'extends' names {parent}, which does not exist", **err,
                        fix=did_you_mean(name, known) or
                        f"use a file next to {path.name} or a name from 'sheetgen list'")


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
    if not isinstance(parent, str) or not parent.strip():
        raise SheetgenError("'extends' must be a layout name or file name", file=shown, line=line,
                            key="extends", fix="write e.g. 'extends: tricky-treats'")
    target = _parent(path, parent, _chain, (shown, line))
    base, base_lines = load_raw(target, _chain + (real,))
    merged_lines = {**base_lines, **{k: v for k, v in lines.items() if k != ("extends",)}}
    return _merge(base, data, (), (shown, 1), merged_lines), merged_lines


def _locate(loc: tuple, lines: dict[tuple, Where], default: Where) -> Where:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return default


def _field_at(model: type[BaseModel], loc: tuple):
    """The pydantic model and field name at `loc` (model, None for the model itself), if found."""
    import typing

    from pydantic.fields import FieldInfo

    def models_in(tp) -> list:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return [tp]
        return [m for a in typing.get_args(tp) for m in models_in(a)]

    current: list = [model]
    for i, part in enumerate(loc):
        if isinstance(part, int):
            continue
        hits = [m for m in current if part in m.model_fields]
        if not hits:
            return (current[0], None) if i == len(loc) - 1 or not current else (None, None)
        if i == len(loc) - 1:
            return hits[0], part
        info: FieldInfo = hits[0].model_fields[part]
        current = models_in(info.annotation)
        if not current:
            return None, None
    return (current[0] if current else None), None


def _pinned(model, loc) -> object | None:
    """The one value a field allows (ge == le), e.g. content.turns of a sheet whose rules fix it."""
    owner, name = _field_at(model, loc)
    if owner is None or name is None:
        return None
    bounds = {type(m).__name__: getattr(m, type(m).__name__.lower(), None)
              for m in owner.model_fields[name].metadata}
    if bounds.get("Ge") is not None and bounds.get("Ge") == bounds.get("Le"):
        return bounds["Ge"]
    return None


def _fix_for(err: dict, model=None) -> str:
    kind = err["type"]
    loc = tuple(err["loc"])
    if kind == "extra_forbidden":
        owner, _ = _field_at(model, loc) if model else (None, None)
        allowed = list(owner.model_fields) if owner else []
        hint = did_you_mean(loc[-1], allowed) if loc else ""
        return (hint + " " if hint else "") + \
            "remove it or correct its spelling; 'sheetgen schema' lists the allowed keys"
    if kind == "missing":
        return "add this key"
    if kind.startswith(("greater", "less")):
        return "use a value in the allowed range"
    if kind in ("literal_error", "enum"):
        choices = re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", "")))
        hint = did_you_mean(err.get("input", ""), choices) if isinstance(err.get("input"), str) else ""
        return hint or "use one of the values named"
    if kind == "finite_number":
        return "give a finite number"
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
        pinned = _pinned(model, loc) if err["type"].startswith(("greater", "less")) else None
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif pinned is not None:
            msg = f"{key} must be {pinned:g}, as the rules say (got {err.get('input')!r})"
        elif err["type"] != "missing" and "input" in err and not isinstance(err["input"], (dict, list)):
            msg += f" (got {err['input']!r})"
        fix = f"set it to {pinned:g}" if pinned is not None else _fix_for(err, model)
        raise SheetgenError(msg, file=where[0], line=where[1], key=key, fix=fix) from None


def to_yaml(data: dict) -> str:
    """A layout as YAML text, keys in their order (every layout sheetgen writes: new, variants,
    search results)."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def read_top(path: Path) -> dict:
    """A layout file's own top-level keys (no `extends` followed), read as safely as any layout."""
    return _read_yaml(Path(path))[0]
