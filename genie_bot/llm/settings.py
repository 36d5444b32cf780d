"""How the bot reaches its LLM: endpoint, key, a model per role, timeouts, retries, switches.

Settings come from an optional mapping (the ``llm:`` section of a config file) with the
environment filling every gap, so the standard ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL`` and
``GENIE_LLM_MODEL`` work without any file. No endpoint, no key and no replay directory means
no LLM: the bot then runs offline (see :mod:`genie_bot.agent.assembly`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..settings_reader import SettingsInvalid, SettingsReader

ROLES = ("parser", "knowledge", "responder")
DEFAULT_MODEL = "gpt-4o-mini"
LOCAL_SERVER_KEY = "unused"
"""Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the openai client insists on one."""


class LLMSettingsInvalid(SettingsInvalid):
    """The ``llm`` settings have problems; ``errors`` lists every one."""


@dataclass(frozen=True)
class RoleSettings:
    """The model and sampling of one role: parser, knowledge (SQL and free text) or responder."""

    model: str = DEFAULT_MODEL
    temperature: float = 0.0
    max_tokens: int = 600


@dataclass(frozen=True)
class LLMSettings:
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    api_key_env: str = "OPENAI_API_KEY"
    provider: str = "openai"
    """``openai`` (OpenAI, Azure's v1 API, and local OpenAI-compatible servers) or ``azure``
    (the classic Azure OpenAI API with ``api_version`` and deployments)."""
    azure_endpoint: str | None = None
    api_version: str | None = None
    parser: RoleSettings = RoleSettings()
    knowledge: RoleSettings = RoleSettings(max_tokens=400)
    responder: RoleSettings = RoleSettings(temperature=0.3, max_tokens=400)
    timeout: float = 30.0
    """Seconds for one HTTP attempt."""
    max_retries: int = 2
    """Retries of 408/409/429/5xx answers and timeouts, with the client's exponential backoff
    (it honours the server's ``retry-after``)."""
    fast_path: bool = True
    """Skip the LLM parser when the rule-based parser confidently answers the question just asked."""
    max_worksheets: int = 20
    """Above this many worksheets, the parser prompt shows only the ones relevant to the turn."""
    check_questions: bool = True
    """Append the templated question when the LLM's reply leaves out the question the acts ask."""
    record_dir: Path | None = None
    replay_dir: Path | None = None
    configured: bool = False
    """Whether an LLM endpoint was configured at all (else the bot runs offline)."""

    def role(self, name: str) -> RoleSettings:
        if name not in ROLES:
            raise ValueError(f"unknown LLM role '{name}'; roles are {', '.join(ROLES)}")
        return getattr(self, name)

    @property
    def enabled(self) -> bool:
        return self.configured or self.replay_dir is not None

    def describe(self) -> str:
        """One line for start-up logs: where the LLM is and which models play which role."""
        where = ("recorded completions in " + str(self.replay_dir)) if self.replay_dir else \
            (self.azure_endpoint or self.base_url or "https://api.openai.com/v1")
        models = ", ".join(f"{r} {self.role(r).model}" for r in ROLES)
        return f"LLM mode: {models} via {where}" + (f"; recording to {self.record_dir}" if self.record_dir else "")

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "LLMSettings":
        return cls.from_mapping({}, environ)

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> "LLMSettings":
        """Settings from a config mapping; the environment supplies whatever it leaves out.

        Keys: ``base_url``, ``api_key_env``, ``provider``, ``azure_endpoint``, ``api_version``,
        ``model`` (every role), ``models: {parser, knowledge, responder}``, ``temperature``
        (a number for the responder, or a mapping per role), ``max_tokens`` (per role; 0 leaves
        the parameter out, for models that only accept ``max_completion_tokens``), ``timeout``, ``max_retries``,
        ``fast_path``, ``max_worksheets``, ``check_questions``, ``record``, ``replay``. Raises
        :class:`LLMSettingsInvalid` listing every problem.
        """
        reader = SettingsReader(config, "llm")
        settings = cls.read(reader, environ)
        reader.check(LLMSettingsInvalid)
        return settings

    @classmethod
    def read(cls, reader: SettingsReader, environ: Mapping[str, str] | None = None) -> "LLMSettings":
        """Settings from ``reader``'s section (see :meth:`from_mapping`); problems are left in the reader."""
        env = os.environ if environ is None else environ
        reader.check_keys(_CONFIG_KEYS)
        azure_endpoint = reader.text("azure_endpoint") or env.get("AZURE_OPENAI_ENDPOINT") or None
        base_url = reader.text("base_url") or env.get("OPENAI_BASE_URL") or None
        azure = azure_endpoint and not base_url
        provider = reader.choice("provider", ("openai", "azure"), "azure" if azure else "openai")
        default_key_env = "AZURE_OPENAI_API_KEY" if provider == "azure" else "OPENAI_API_KEY"
        key_env = reader.text("api_key_env") or default_key_env
        api_key = env.get(key_env) or None
        configured = bool(base_url or api_key or (provider == "azure" and azure_endpoint))
        if base_url and not api_key:
            api_key = LOCAL_SERVER_KEY
        return cls(
            base_url=base_url, api_key=api_key, api_key_env=key_env, provider=provider,
            azure_endpoint=azure_endpoint, api_version=reader.text("api_version") or env.get("OPENAI_API_VERSION"),
            **_roles(reader, env),
            timeout=reader.number("timeout", cls.timeout),
            max_retries=reader.number("max_retries", cls.max_retries, int),
            fast_path=reader.flag("fast_path", cls.fast_path),
            max_worksheets=reader.number("max_worksheets", cls.max_worksheets, int),
            check_questions=reader.flag("check_questions", cls.check_questions),
            record_dir=_path(reader.text("record") or env.get("GENIE_LLM_RECORD")),
            replay_dir=_path(reader.text("replay") or env.get("GENIE_LLM_REPLAY")),
            configured=configured,
        )

    def replace(self, **changes: Any) -> "LLMSettings":
        return dataclasses.replace(self, **changes)


_CONFIG_KEYS = frozenset({"base_url", "api_key_env", "provider", "azure_endpoint", "api_version", "model", "models",
                          "temperature", "max_tokens", "timeout", "max_retries", "fast_path", "max_worksheets",
                          "check_questions", "record", "replay"})


def load_settings(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> LLMSettings:
    """Settings from the ``llm:`` section of a YAML file (or the whole file), else the environment;
    raises :class:`LLMSettingsInvalid` listing every problem as ``file:line:col: message``."""
    if path is None:
        return LLMSettings.from_env(environ)
    root = SettingsReader.from_file(path, LLMSettingsInvalid)
    section = root.section("llm") if "llm" in root.data else SettingsReader(root.data, "llm", root.problems, root.loc)
    settings = LLMSettings.read(section, environ)
    root.check(LLMSettingsInvalid)
    return settings


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _roles(reader: SettingsReader, env: Mapping[str, str]) -> dict[str, RoleSettings]:
    default_model = reader.text("model") or env.get("GENIE_LLM_MODEL") or DEFAULT_MODEL
    models = reader.section("models", ROLES)
    per_role = reader.section("temperature", ROLES) if isinstance(reader.data.get("temperature"), Mapping) else None
    max_tokens = reader.section("max_tokens", ROLES)
    out = {}
    for role in ROLES:
        base: RoleSettings = getattr(LLMSettings, role)
        if per_role is not None:
            temperature = per_role.number(role, base.temperature)
        else:  # a plain number is the responder's (the other roles parse, and stay at 0)
            temperature = reader.number("temperature", base.temperature) if role == "responder" else base.temperature
        out[role] = dataclasses.replace(base, model=models.text(role, default_model) or base.model, temperature=temperature,
                                        max_tokens=max_tokens.number(role, base.max_tokens, int))
    return out
