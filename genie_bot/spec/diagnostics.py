"""Positions in source files and the errors reported against them."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GenieError


@dataclass(frozen=True, order=True)
class Loc:
    """A 1-based position in a file."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, line_offset: int, col: int) -> "Loc":
        """The position ``line_offset`` lines below this one, at column ``col``."""
        return Loc(self.file, self.line + line_offset, col)


@dataclass(frozen=True)
class SpecError:
    """One problem found in an agent's spec, reported as ``file:line:col: message``."""

    loc: Loc
    message: str

    def __str__(self) -> str:
        return f"{self.loc}: {self.message}"


class SpecInvalid(GenieError):
    """Raised when an agent directory does not load; carries every problem found."""

    def __init__(self, errors: list[SpecError]):
        self.errors = sorted(errors, key=lambda e: (e.loc, e.message))
        super().__init__("\n".join(str(e) for e in self.errors))
