"""A subcommand's parser built from its config dataclasses, and the config built back from
the parsed arguments: an option is declared once, as a field (`tradewinds.cli_args.option`),
so its default on the command line is the field's default.

`add_fields(parser, *classes)` adds one argument per marked field, in field order (a field
two classes share, such as `game`, once: their defaults must agree). `config(args, cls)`
makes `cls` from the parsed values, turning a repeatable option's list into the field's
value with its `convert`. `defaults(parser, cls)` is what a test compares with the fields.
"""

from __future__ import annotations

import dataclasses
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from tradewinds.cli_args import Option

NO_DEFAULT = dataclasses.MISSING


def _spec(f: dataclasses.Field) -> Option | None:
    return f.metadata.get("cli")


def field_default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return NO_DEFAULT


def marked_fields(cls, prefix: str = "") -> list[tuple[str, dataclasses.Field, Option]]:
    """(dest, field, spec) of every field of `cls` with a command-line form, nested
    dataclasses expanded (their dests are prefixed: ``sprt_delta``)."""
    out = []
    for f in dataclasses.fields(cls):
        spec = _spec(f)
        if spec is None:
            continue
        if spec.nested is not None:
            out += marked_fields(spec.nested, f"{prefix}{f.name}_")
        else:
            out.append((prefix + f.name, f, spec))
    return out


def flag_of(f: dataclasses.Field, spec: Option) -> str:
    if spec.flag:
        return spec.flag
    name = f.name.replace("_", "-")
    return f"--no-{name}" if field_default(f) is True else f"--{name}"


def _help(f: dataclasses.Field, spec: Option) -> str:
    default = field_default(f)
    shown = spec.show if spec.show is not None else (
        "" if isinstance(default, bool) or default is NO_DEFAULT or spec.repeat
        else str(default))
    if spec.required or not shown:
        text = spec.help
    elif spec.help.endswith(")"):          # "(with --backend ray; default a local Ray)"
        text = f"{spec.help[:-1]}; default {shown})"
    else:
        text = f"{spec.help} (default {shown})"
    return text.replace("%", "%%")


def _argument(f: dataclasses.Field, spec: Option) -> tuple[list, dict]:
    """The names and keywords of ``parser.add_argument`` for one field."""
    default = field_default(f)
    kw: dict = {"help": _help(f, spec)}
    if spec.metavar or not (spec.positional or spec.choices):
        kw["metavar"] = spec.metavar or flag_of(f, spec).lstrip("-").replace("-", "_").upper()
    if isinstance(default, bool) and not spec.repeat:
        kw.pop("metavar", None)
        kw["action"] = "store_false" if default else "store_true"
        return [flag_of(f, spec)], kw
    if spec.type is not None:
        kw["type"] = spec.type
    if spec.choices is not None:
        kw["choices"] = spec.choices
    if spec.repeat:
        kw.update(action="append", default=None)
    elif default is NO_DEFAULT or spec.required:
        if not spec.positional:
            kw["required"] = True
    else:
        kw["default"] = default
        if spec.positional:
            kw["nargs"] = "?"
    return ([] if spec.positional else [flag_of(f, spec)]), kw


def add_fields(parser, *classes) -> None:
    """One argument per marked field of the classes, each field name once."""
    seen: dict[str, Any] = {}
    for cls in classes:
        for dest, f, spec in marked_fields(cls):
            if dest in seen:
                if seen[dest] != field_default(f):
                    raise TypeError(f"{cls.__name__}.{f.name} defaults to "
                                    f"{field_default(f)!r}, another config to {seen[dest]!r}")
                continue
            seen[dest] = field_default(f)
            names, kw = _argument(f, spec)
            if spec.positional:
                parser.add_argument(dest, **kw)
            else:
                parser.add_argument(*names, dest=dest, **kw)


def _converter(spec: Option):
    if isinstance(spec.convert, str):
        module, _, name = spec.convert.partition(":")
        return getattr(import_module(module), name)
    return spec.convert


def value(args, dest: str, spec: Option) -> Any:
    raw = getattr(args, dest)
    return _converter(spec)(raw) if spec.convert is not None else raw


def values(args, cls) -> dict:
    """Field name -> value of every marked field of `cls`, from the parsed arguments."""
    out = {}
    for f in dataclasses.fields(cls):
        spec = _spec(f)
        if spec is None:
            continue
        if spec.nested is not None:
            out[f.name] = spec.nested(**{g.name: value(args, f"{f.name}_{g.name}", _spec(g))
                                         for g in dataclasses.fields(spec.nested)
                                         if _spec(g) is not None})
        else:
            out[f.name] = value(args, f.name, spec)
    return out


def config(args, cls, **extra):
    """`cls` made from the parsed arguments (its marked fields) and `extra`."""
    return cls(**{**values(args, cls), **extra})


def defaults(parser, cls) -> dict:
    """dest -> (the value the parser gives when the option is not given, the field's
    default), for every marked field of `cls` that has a default."""
    out = {}
    for dest, f, spec in marked_fields(cls):
        default = field_default(f)
        if default is not NO_DEFAULT and not spec.required:
            given = SimpleNamespace(**{dest: parser.get_default(dest)})
            out[dest] = (value(given, dest, spec), default)
    return out
