"""Errors raised by the safe interpreter, always with a reason a person can read."""

from __future__ import annotations

from ..errors import GenieError


class InterpreterError(GenieError):
    """Code was rejected or failed; ``reason`` says why, ``lineno``/``col`` where (1-based)."""

    def __init__(self, reason: str, lineno: int | None = None, col: int | None = None):
        self.reason = reason
        self.lineno = lineno
        self.col = col
        super().__init__(reason)

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.reason}" if self.lineno else self.reason


class StepLimitExceeded(InterpreterError):
    """The code ran for more steps than allowed (a runaway loop or a huge computation)."""
