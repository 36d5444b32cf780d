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
CONSTRAINED = ("none", "json_schema", "vllm", "llama_cpp", "ollama")
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
    base_url: str | None = None
    """This role's endpoint; None: the settings' ``base_url``."""
    timeout: float = 30.0
    """Seconds for the whole call, retries included: a deadline, not a per-read timeout."""
    max_retries: int = 2


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
    """Seconds for a whole call, retries included (each role may have its own): a deadline, so
    an endpoint trickling its answer cannot hold a turn longer."""
    max_retries: int = 2
    """Retries of 408/409/429/5xx answers and timeouts, with the client's exponential backoff
    (it honours the server's ``retry-after``), within the deadline."""
    constrained: str = "none"
    """How the parser's output is constrained to the statement language generated from the spec:
    ``none``, ``json_schema`` (OpenAI structured outputs), ``vllm`` (guided decoding),
    ``llama_cpp`` (a GBNF grammar) or ``ollama`` (``format``)."""
    fast_path: bool = True
    """Skip the LLM parser when the rule-based parser confidently answers the question just asked."""
    max_worksheets: int = 20
    """Above this many worksheets, the parser prompt shows only the ones relevant to the turn."""
    check_questions: bool = True
    """Append the templated question when the LLM's reply leaves out the question the acts ask."""
    template_replies: bool = True
    """Send a reply the builder wrote every word of (the field's own ``ask:``, the summary to confirm, thanks in
    kind) as the template has it, without a phrasing call (``responders.llm.template_serves``)."""
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
        models = ", ".join(f"{r} {self.role(r).model}" + (f" at {self.role(r).base_url}" if self.role(r).base_url
                                                          and self.role(r).base_url != self.base_url else "")
                           for r in ROLES)
        deadline = ", ".join(sorted({f"{self.role(r).timeout:g} s, {self.role(r).max_retries} retries" for r in ROLES}))
        return (f"LLM mode: {models} via {where} (deadline {deadline}"
                + (f"; constrained output: {self.constrained}" if self.constrained != "none" else "") + ")"
                + (f"; recording to {self.record_dir}" if self.record_dir else ""))

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
        ``fast_path``, ``max_worksheets``, ``check_questions``, ``template_replies``, ``record``, ``replay``; ``base_urls:
        {parser, knowledge, responder}``; ``timeout`` and ``max_retries`` (a number, or a mapping per
        role; also ``GENIE_LLM_TIMEOUT`` / ``GENIE_LLM_MAX_RETRIES``); ``constrained``. Raises
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
        reader.check_keys(CONFIG_KEYS)
        azure_endpoint = reader.text("azure_endpoint") or env.get("AZURE_OPENAI_ENDPOINT") or None
        base_url = reader.text("base_url") or env.get("OPENAI_BASE_URL") or None
        azure = azure_endpoint and not base_url
        provider = reader.choice("provider", ("openai", "azure"), "azure" if azure else "openai")
        default_key_env = "AZURE_OPENAI_API_KEY" if provider == "azure" else "OPENAI_API_KEY"
        key_env = reader.text("api_key_env") or default_key_env
        api_key = env.get(key_env) or None
        timeout = _number(reader, env, "timeout", cls.timeout, float)
        max_retries = _number(reader, env, "max_retries", cls.max_retries, int)
        roles = _roles(reader, env, base_url, timeout, max_retries)
        role_urls = any(roles[r].base_url for r in ROLES)
        configured = bool(base_url or role_urls or api_key or (provider == "azure" and azure_endpoint))
        if (base_url or role_urls) and not api_key:
            api_key = LOCAL_SERVER_KEY
        return cls(
            base_url=base_url, api_key=api_key, api_key_env=key_env, provider=provider,
            azure_endpoint=azure_endpoint, api_version=reader.text("api_version") or env.get("OPENAI_API_VERSION"),
            **roles,
            timeout=timeout, max_retries=max_retries,
            constrained=reader.choice("constrained", CONSTRAINED, env.get("GENIE_LLM_CONSTRAINED") or cls.constrained),
            fast_path=reader.flag("fast_path", cls.fast_path),
            max_worksheets=reader.number("max_worksheets", cls.max_worksheets, int),
            check_questions=reader.flag("check_questions", cls.check_questions),
            template_replies=reader.flag("template_replies", cls.template_replies),
            record_dir=_path(reader.text("record") or env.get("GENIE_LLM_RECORD")),
            replay_dir=_path(reader.text("replay") or env.get("GENIE_LLM_REPLAY")),
            configured=configured,
        )

    def replace(self, **changes: Any) -> "LLMSettings":
        return dataclasses.replace(self, **changes)


CONFIG_KEYS = frozenset({"base_url", "api_key_env", "provider", "azure_endpoint", "api_version", "model", "models",
                          "temperature", "max_tokens", "timeout", "max_retries", "fast_path", "max_worksheets",
                          "check_questions", "template_replies", "record", "replay", "base_urls", "constrained"})
"""The keys of an ``llm`` section these settings read (genie.yaml's section accepts them too)."""


def load_settings(path: str | Path | None = None, environ: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Any] | None = None) -> LLMSettings:
    """Settings from the ``llm:`` section of a YAML file (or the whole file; default: the file named
    by ``GENIE_LLM_CONFIG``, if any) with ``overrides`` (command-line flags) on top, the environment
    filling the gaps; raises :class:`LLMSettingsInvalid` listing every problem as ``file:line:col: message``."""
    env = os.environ if environ is None else environ
    path = path or env.get("GENIE_LLM_CONFIG") or None
    if path is None:
        return LLMSettings.from_mapping(with_overrides({}, overrides), env)
    root = SettingsReader.from_file(path, LLMSettingsInvalid)
    section = root.section("llm") if "llm" in root.data else SettingsReader(root.data, "llm", root.problems, root.loc)
    if overrides:
        section.data = with_overrides(section.data, overrides)
    settings = LLMSettings.read(section, env)
    root.check(LLMSettingsInvalid)
    return settings


def with_overrides(config: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """``config`` with ``overrides`` on top; per-role mappings are merged role by role."""
    if not overrides:
        return config
    merged = dict(config)
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = {**merged[key], **value}
        elif isinstance(value, Mapping) and key in ("timeout", "max_retries") and key in merged:
            merged[key] = {role: value.get(role, merged[key]) for role in ROLES}  # a number for every role but these
        else:
            merged[key] = value
    return merged


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _number(reader: SettingsReader, env: Mapping[str, str], key: str, default: Any, kind: type) -> Any:
    """A plain number in the section (a mapping is per role, read by :func:`_roles`), else
    ``GENIE_LLM_<KEY>``, else ``default``."""
    if isinstance(reader.data.get(key), Mapping):
        return default
    variable = f"GENIE_LLM_{key.upper()}"
    if key not in reader.data and env.get(variable):
        try:
            return kind(env[variable])
        except ValueError:
            reader.problem(None, f"{variable} must be a number, not '{env[variable]}'")
            return default
    return reader.number(key, default, kind)


def _per_role(reader: SettingsReader, key: str) -> SettingsReader | None:
    """The per-role mapping under ``key`` (``timeout: {parser: 90}``), if the value is one."""
    return reader.section(key, ROLES) if isinstance(reader.data.get(key), Mapping) else None


def _roles(reader: SettingsReader, env: Mapping[str, str], base_url: str | None, timeout: float,
           max_retries: int) -> dict[str, RoleSettings]:
    """Each role's settings: ``models``/``base_urls`` mappings (or ``GENIE_LLM_<ROLE>_MODEL`` /
    ``GENIE_LLM_<ROLE>_BASE_URL``), and ``temperature``, ``max_tokens``, ``timeout``,
    ``max_retries`` as one number or a mapping per role."""
    default_model = reader.text("model") or env.get("GENIE_LLM_MODEL") or DEFAULT_MODEL
    models = reader.section("models", ROLES)
    base_urls = reader.section("base_urls", ROLES)
    temperatures = _per_role(reader, "temperature")
    max_tokens = reader.section("max_tokens", ROLES)
    timeouts, retries = _per_role(reader, "timeout"), _per_role(reader, "max_retries")
    out = {}
    for role in ROLES:
        base: RoleSettings = getattr(LLMSettings, role)
        if temperatures is not None:
            temperature = temperatures.number(role, base.temperature)
        else:  # a plain number is the responder's (the other roles parse, and stay at 0)
            temperature = reader.number("temperature", base.temperature) if role == "responder" else base.temperature
        upper = role.upper()
        out[role] = dataclasses.replace(
            base, model=models.text(role, env.get(f"GENIE_LLM_{upper}_MODEL") or default_model) or base.model,
            temperature=temperature, max_tokens=max_tokens.number(role, base.max_tokens, int),
            base_url=base_urls.text(role, env.get(f"GENIE_LLM_{upper}_BASE_URL") or base_url),
            timeout=timeouts.number(role, timeout) if timeouts else timeout,
            max_retries=retries.number(role, max_retries, int) if retries else max_retries)
    for role in ROLES:
        if out[role].timeout <= 0:
            reader.problem("timeout", f"the {role}'s timeout must be more than 0 seconds")
        if out[role].max_retries < 0:
            reader.problem("max_retries", f"the {role}'s max_retries must be 0 or more")
    return out
