"""One small, typed reader for every configuration section: genie.yaml, ``llm``, ``platforms.slack``,
``platforms.discord``.

In the spirit of starlette's ``Config``: typed reads with defaults, one place. Two things more.
Values come from located YAML (:func:`~genie_bot.spec.yaml_source.load_located_yaml`), so a
problem is reported as ``file:line:col: message``; from a plain mapping (settings given in code)
it is reported by the setting's dotted path, ``platforms.slack.port: message``. And problems
are collected, not raised one at a time: :meth:`SettingsReader.check` raises one
:class:`SettingsInvalid` listing every problem of every section read.

The messages are the same wherever a setting lives: ``'port' must be a number >= 0``,
``unknown key 'prot' in platforms.slack (did you mean 'port'?)``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import GenieError
from .names import closest
from .spec.diagnostics import Loc
from .spec.yaml_source import LocatedMap, load_located_yaml

T = TypeVar("T")
_MISSING = object()
_PLAIN = {str, bool, int, float, type(None)}


@dataclass(frozen=True)
class Problem:
    """One problem of a setting: where (a file position, else the setting's dotted path) and what."""

    loc: Loc | None
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.loc or self.path}: {self.message}"


class SettingsInvalid(GenieError, ValueError):
    """Settings have problems; ``errors`` lists every one (located ones in file order)."""

    def __init__(self, errors: list[Problem]):
        self.errors = sorted(errors, key=lambda e: (0, e.loc, e.message) if e.loc else (1,))
        super().__init__("\n".join(str(e) for e in self.errors))


class SettingsReader:
    """Typed reads of one section; problems go to a list shared with the sections read from it.

    ``data`` is a :class:`~genie_bot.spec.yaml_source.LocatedMap` (positions known) or any
    mapping; ``path`` is the section's dotted name (``""`` for a whole file).
    """

    def __init__(self, data: Mapping[str, Any], path: str = "", problems: list[Problem] | None = None,
                 loc: Loc | None = None):
        self.data = data
        self.path = path
        self.problems: list[Problem] = [] if problems is None else problems
        self.loc = loc if loc is not None else getattr(data, "loc", None)

    @classmethod
    def from_file(cls, path: str | Path, error: type[SettingsInvalid] = SettingsInvalid) -> SettingsReader:
        """The YAML mapping in the file at ``path``; a missing file, bad YAML or another kind of
        document raises ``error`` at once (nothing else could be read)."""
        path = Path(path)
        start = Loc(str(path), 1, 1)
        if not path.is_file():
            raise error([Problem(start, "", "configuration file not found")])
        data, errors = load_located_yaml(path.read_text(encoding="utf-8"), str(path))
        problems = [Problem(e.loc, "", e.message) for e in errors]
        if data is not None and not isinstance(data, LocatedMap):
            problems.append(Problem(start, "", "the configuration must be a mapping"))
        if problems:
            raise error(problems)
        return cls({} if data is None else data, loc=start)

    # -- problems --------------------------------------------------------------------------------
    def loc_of(self, key: str | None) -> Loc | None:
        if key is not None and isinstance(self.data, LocatedMap):
            return self.data.loc_of(key)
        return self.loc

    def key_path(self, key: Any) -> str:
        """``key``'s dotted path; keys may be numbers (YAML reads a Discord id as one)."""
        return ".".join(str(p) for p in (self.path, key) if p not in (None, ""))

    def problem(self, key: str | None, message: str) -> None:
        """Report ``message`` about ``key`` (None: the section itself)."""
        self.problems.append(Problem(self.loc_of(key), self.key_path(key), message))

    def check(self, error: type[SettingsInvalid] = SettingsInvalid) -> None:
        """Raise ``error`` listing every problem found so far, if any."""
        if self.problems:
            raise error(self.problems)

    # -- sections --------------------------------------------------------------------------------
    def section(self, key: str, allowed: Iterable[str] | None = None) -> SettingsReader:
        """The mapping under ``key`` (empty when absent); unknown keys are reported if ``allowed`` is given."""
        value = self.data.get(key)
        child = SettingsReader({} if value is None else value, self.key_path(key), self.problems, self.loc_of(key))
        if value is not None and not isinstance(value, Mapping):
            self.problem(key, f"'{key}' must be a mapping")
            child.data = {}
        if allowed is not None:
            child.check_keys(allowed)
        return child

    def check_keys(self, allowed: Iterable[str], what: str | None = None) -> None:
        """Report every key not in ``allowed``, with the closest allowed one as a hint."""
        allowed = tuple(allowed)
        for key in self.data:
            if key not in allowed:
                hint = closest(str(key), allowed)
                suggestion = f" (did you mean '{hint}'?)" if hint else f"; expected one of: {', '.join(allowed)}"
                where = what or self.path or "configuration"
                loc = self.data.key_locs.get(key, self.loc) if isinstance(self.data, LocatedMap) else self.loc
                message = f"unknown key '{key}' in {where}{suggestion}"
                self.problems.append(Problem(loc, self.key_path(str(key)), message))

    # -- values ----------------------------------------------------------------------------------
    def text(self, key: str, default: str | None = None) -> str | None:
        """Text; null is allowed when the default is None."""
        return self.value(key, str if default is not None else str | None, default)

    def flag(self, key: str, default: bool) -> bool:
        return self.value(key, bool, default)

    def number(self, key: str, default: float, kind: type = float) -> Any:
        """A number >= 0, as ``kind`` (float or int)."""
        return self.value(key, kind, default)

    def choice(self, key: str, choices: Iterable[str], default: str) -> str:
        choices = tuple(choices)
        value = self.text(key, default)
        if value not in choices:
            self.problem(key, f"'{key}' must be one of: {', '.join(choices)}")
            return default
        return value

    def value(self, key: str, kind: Any, default: Any = None) -> Any:
        """``data[key]`` checked against ``kind`` (str, bool, int, float, or one of them or None);
        ``default`` when the key is absent or the value is wrong (the problem is reported). A null
        value is None where ``kind`` allows it, else it leaves the setting at its default."""
        value = self.data.get(key)
        kinds = _kinds(kind)
        if value is None:
            return None if key in self.data and type(None) in kinds else default
        if bool in kinds:
            if isinstance(value, bool):
                return value
            self.problem(key, f"'{key}' must be true or false")
        elif int in kinds or float in kinds:
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                return int(value) if int in kinds else float(value)
            self.problem(key, f"'{key}' must be a number >= 0")
        elif isinstance(value, str):
            return value
        else:
            self.problem(key, f"'{key}' must be text")
        return default

    def fields(self, cls: type[T], **given: Any) -> T:
        """An instance of the dataclass ``cls``: ``given`` values, and each field of a plain type
        (text, flag, number, optional or not) read by its type; other fields (nested sections,
        lists) keep their defaults, for the caller to read."""
        hints = typing.get_type_hints(cls)
        values = dict(given)
        for f in dataclasses.fields(typing.cast(Any, cls)):  # a dataclass
            kinds = _kinds(hints[f.name])
            if f.name in given or not kinds or not kinds <= _PLAIN:
                continue
            value = self.value(f.name, hints[f.name], _MISSING)
            if value is not _MISSING:
                values[f.name] = value
        return cls(**values)


def _kinds(kind: Any) -> set[type]:
    """The plain types ``kind`` allows: ``int | None`` -> {int, NoneType}; ``Path`` reads as text."""
    args = typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, types.UnionType) else (kind,)
    return {str if a is Path else a for a in args if isinstance(a, type)}
