"""The LLM layer: settings, the accounted client, prompts, and wiring agents for LLM or offline mode.

Public API: :class:`LLMSettings` / :func:`load_settings`, :class:`LLMClient` and
:class:`LLMError`, and the factory functions :func:`agent_components`, :func:`build_agent`
and :func:`llm_parser_for_replay`. The factory is imported lazily because it depends on the
parsers, responders and knowledge backends, which themselves use this package's client.
"""

from __future__ import annotations

from typing import Any

from .account import Account, CallRecord
from .client import Completion, LLMClient, LLMError
from .settings import LLMSettings, RoleSettings, load_settings

_FACTORY_NAMES = ("AgentComponents", "LLMNotConfigured", "ReplayParser", "agent_components", "build_agent",
                  "llm_parser_for_replay", "make_client")

__all__ = ["Account", "CallRecord", "Completion", "LLMClient", "LLMError", "LLMSettings", "RoleSettings",
           "load_settings", *_FACTORY_NAMES]


def __getattr__(name: str) -> Any:
    if name in _FACTORY_NAMES:
        from . import factory

        return getattr(factory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
