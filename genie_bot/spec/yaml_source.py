"""YAML loading that remembers where every key and value came from.

PyYAML's plain loaders forget positions and silently accept duplicate keys. The spec
loader needs both: every error names ``file:line:col``. We compose the node graph with the
safe loader and convert it into dict/list/str subclasses that carry their positions.
"""

from __future__ import annotations

from typing import Any

import yaml

from .diagnostics import Loc, SpecError


class LocatedStr(str):
    """A string scalar with its position; ``block`` is true for ``|`` and ``>`` scalars."""

    loc: Loc
    block: bool
    indent: int

    def code_loc(self, line: int, col: int) -> Loc:
        """Map a 1-based (line, col) inside this scalar's text to a file position."""
        if self.block:
            return Loc(self.loc.file, self.loc.line + line, self.indent + col)
        return Loc(self.loc.file, self.loc.line + line - 1, self.loc.col + col + (0 if line > 1 else 1))


class LocatedMap(dict):
    """A mapping with the position of itself, of each key and of each value."""

    loc: Loc
    key_locs: dict[Any, Loc]
    value_locs: dict[Any, Loc]

    def loc_of(self, key: Any) -> Loc:
        return self.value_locs.get(key, self.key_locs.get(key, self.loc))


class LocatedList(list):
    """A sequence with the position of itself and of each item."""

    loc: Loc
    item_locs: list[Loc]


def _loc(file: str, mark: yaml.Mark) -> Loc:
    return Loc(file, mark.line + 1, mark.column + 1)


def load_located_yaml(text: str, file: str, comments_after_one_space: bool = True) -> tuple[Any, list[SpecError]]:
    """Parse ``text``; return located data and the problems found (syntax, duplicate keys, a value cut at a
    comma of a ``{...}`` mapping, and, unless ``comments_after_one_space``, a text cut by a ``#`` one space
    after it: agent.yaml is mostly prose, where ``#`` is more often meant as part of the text)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(file, mark) if mark else Loc(file, 1, 1)
        return None, [SpecError(loc, f"YAML syntax error: {exc.problem or exc}")]
    if node is None:
        return None, [SpecError(Loc(file, 1, 1), "the file is empty")]
    converter = _Converter(file, text.splitlines(), comments_after_one_space)
    return converter.convert(node), converter.errors


class _Converter:
    def __init__(self, file: str, lines: list[str], comments_after_one_space: bool):
        self.file = file
        self.lines = lines
        self.comments_after_one_space = comments_after_one_space
        self.errors: list[SpecError] = []
        self.constructor = yaml.SafeLoader("")

    def convert(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node)
        if isinstance(node, yaml.SequenceNode):
            out = LocatedList(self.convert(item) for item in node.value)
            out.loc = _loc(self.file, node.start_mark)
            out.item_locs = [_loc(self.file, item.start_mark) for item in node.value]
            return out
        assert isinstance(node, yaml.ScalarNode), "YAML has mappings, sequences and scalars"
        return self._scalar(node)

    def _mapping(self, node: yaml.MappingNode) -> LocatedMap:
        out = LocatedMap()
        out.loc = _loc(self.file, node.start_mark)
        out.key_locs, out.value_locs = {}, {}
        previous: tuple[yaml.Node, yaml.Node] | None = None
        for key_node, value_node in node.value:
            key = self._scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            key_loc = _loc(self.file, key_node.start_mark)
            if key is None or isinstance(key, (dict, list)):
                self.errors.append(SpecError(key_loc, "mapping keys must be plain scalars"))
                continue
            cut = self._cut_by_comma(node, previous, key_node, value_node)
            previous = key_node, value_node
            if cut is not None:
                self.errors.append(SpecError(key_loc, cut))
                continue
            if key in out:
                first = out.key_locs[key]
                self.errors.append(SpecError(key_loc, f"duplicate key '{key}' (first defined at line {first.line})"))
                continue
            out[str(key) if isinstance(key, LocatedStr) else key] = self.convert(value_node)
            out.key_locs[key] = key_loc
            out.value_locs[key] = _loc(self.file, value_node.start_mark)
        return out

    def _cut_by_comma(self, mapping: yaml.MappingNode, previous: tuple[yaml.Node, yaml.Node] | None,
                      key_node: yaml.Node, value_node: yaml.Node) -> str | None:
        """Why a key of a ``{...}`` mapping is the rest of the value before it, cut at a comma, if it is:
        ``{type: str, description: a, b}`` reads as a description "a" and a key "b" without a value."""
        if not (mapping.flow_style and previous is not None and isinstance(value_node, yaml.ScalarNode)
                and value_node.tag == "tag:yaml.org,2002:null" and value_node.value == ""):
            return None
        after_key = self.lines[key_node.end_mark.line][key_node.end_mark.column:] \
            if key_node.end_mark.line < len(self.lines) else ""
        before_key, before_value = previous
        if after_key.lstrip().startswith(":") or not isinstance(before_value, yaml.ScalarNode) \
                or before_value.style is not None:
            return None  # "key:" with an empty value, or a value that was quoted
        name, value, rest = before_key.value, before_value.value, key_node.value
        return (f"a comma ends an unquoted value inside {{...}}: '{name}: {value}, {rest}' reads as {name} "
                f"'{value}' and a key '{rest}' with no value; quote the value: {name}: \"{value}, {rest}\"")

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            value = self.constructor.construct_object(node, deep=True)
        except ValueError as exc:  # a timestamp such as 2026-13-01 resolves as a date that does not exist
            self.errors.append(SpecError(_loc(self.file, node.start_mark), f"{node.value!r} is not valid: {exc}"))
            value = node.value
        if not isinstance(value, str):
            return value
        if not self.comments_after_one_space:
            self._check_not_cut_by_comment(node)
        out = LocatedStr(value)
        out.loc = _loc(self.file, node.start_mark)
        out.block = node.style in ("|", ">")
        out.indent = self._block_indent(node.start_mark.line) if out.block else 0
        return out

    def _check_not_cut_by_comment(self, node: yaml.ScalarNode) -> None:
        """A ``#`` one space after an unquoted text starts a comment, which silently cuts what was meant as
        part of the text (``ask: Your order # or receipt number?``). Comments after a value take two spaces
        or more, as YAML files usually write them; one space is an error that says how to keep the text."""
        end = node.end_mark
        rest = self.lines[end.line][end.column:] if node.style is None and end.line < len(self.lines) else ""
        if rest.startswith(" #"):
            text = f"{node.value} {rest.strip()}"
            self.errors.append(SpecError(Loc(self.file, end.line + 1, end.column + 2), (
                f"' #' starts a YAML comment, so the value is '{node.value}' without '{rest.strip()}'; quote it "
                f"to keep the '#' (\"{text}\"), or put two spaces before a comment")))

    def _block_indent(self, header_line: int) -> int:
        """Indentation of a block scalar's first content line (0-based header line given)."""
        for line in self.lines[header_line + 1:]:
            if line.strip():
                return len(line) - len(line.lstrip(" "))
        return 0
