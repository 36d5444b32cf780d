"""The root of every error genie-bot raises on purpose.

``except GenieError`` catches any of them (a bad worksheet, a bad configuration, an LLM that
gave nothing usable, a refused side effect...) and nothing else, so a bug (a ``TypeError``,
a ``KeyError``) is never mistaken for an expected failure. Errors that also have a natural
built-in meaning keep it as a second base (``CoercionError`` is a ``ValueError`` too).

Control flow never depends on an error type that "must not be caught": every class here
derives from ``Exception``, and exactly-once logic is explicit in return values and database
transitions (see :mod:`genie_bot.engine.gate`).
"""

from __future__ import annotations


class GenieError(Exception):
    """Base class of every exception defined by genie-bot."""
