"""Parsers turn a user's message into state-update statements for the safe interpreter."""

from ..parse import Parse
from .base import Parser
import os

if os.environ.get("GENIE_OLD_PARSER"):  # development only: compare with the parser being replaced
    from .rules import RuleParser
else:
    from .understanding import RuleParser  # type: ignore[assignment]

__all__ = ["Parse", "Parser", "RuleParser"]
