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


class ApiNotImplemented(GenieError, NotImplementedError):
    """An agent's API function that is still the skeleton ``genie-bot import-csv`` wrote.

    The agent reports the failed call to the user, as it would any failing API, so an
    imported agent validates and chats before its functions are written.
    """

    def __init__(self, function: str):
        super().__init__(f"{function}() is not implemented yet: write it in the agent's api.py")
