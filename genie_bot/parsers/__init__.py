"""Parsers turn a user's message into state-update statements for the safe interpreter."""

from .base import Parse, Parser
from .rules import RuleParser

__all__ = ["Parse", "Parser", "RuleParser"]
