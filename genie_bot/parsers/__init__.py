"""Parsers turn a user's message into state-update statements for the safe interpreter."""

from ..parse import Parse
from .base import Parser
from .understanding import RuleParser

__all__ = ["Parse", "Parser", "RuleParser"]
