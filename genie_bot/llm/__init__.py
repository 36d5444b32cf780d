"""The LLM client every role uses: settings, chat completions, accounting, transports, recording.

A leaf: it knows chat messages, tokens and endpoints, and nothing of parsers, responders or
knowledge back-ends, which use it (the choice of them is made in :mod:`genie_bot.agent`).
"""

from .account import Account, CallRecord
from .client import Completion, LLMClient, LLMError, Message
from .clients import make_client
from .settings import LLMSettings, RoleSettings, load_settings
from .waiting import waiting, waits_in

__all__ = ["Account", "CallRecord", "Completion", "LLMClient", "LLMError", "LLMSettings", "Message", "RoleSettings",
           "load_settings", "make_client", "waiting", "waits_in"]
