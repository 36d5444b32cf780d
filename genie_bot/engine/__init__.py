"""The conversation engine: persisted sessions, ordered turns, exactly-once confirmed actions.

Adapters (Slack, Discord, the console) call :class:`Engine` and render its :class:`Reply`
values; nothing here knows any chat platform.
"""

from .engine import Engine
from .text import well_formed
from .types import (Accepted, ClickOutcome, Decision, EngineStatus, Notification, PendingActionView, ReloadReport,
                    Reply, SessionKey)

__all__ = ["Accepted", "ClickOutcome", "Decision", "Engine", "EngineStatus", "Notification", "PendingActionView",
           "ReloadReport", "Reply", "SessionKey", "well_formed"]
