"""``genie.yaml``: the one configuration file of a deployment, with environment overrides.

Every problem is reported with ``file:line:col`` (all of them at once, like the spec loader),
so a bad deployment fails at start with a message that says where to look. Secrets may be
left out of the file and given in the environment instead (see :data:`ENV_OVERRIDES`).
Relative paths in the file (agent directories, a SQLite database, a log file) are relative to
the directory of the file, wherever the command runs; a relative SQLite path in ``DATABASE_URL``
is relative to the working directory, as for any program that reads that variable.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .settings_reader import Problem, SettingsInvalid, SettingsReader
from .spec.diagnostics import Loc
from .spec.yaml_source import LocatedList
from .workspaces import EVERY_AGENT, PlatformWorkspaces, WorkspaceSettings, read_workspaces, unknown_agent

DEFAULT_DATABASE_URL = "sqlite:///var/genie.sqlite3"
PLATFORMS = ("slack", "discord")

ENV_OVERRIDES: dict[str, tuple[str, ...]] = {
    "DATABASE_URL": ("database", "url"),
    "GENIE_KNOWLEDGE_URL": ("knowledge", "url"),
    "GENIE_LLM_API_KEY": ("llm", "api_key"),
    "OPENAI_API_KEY": ("llm", "api_key"),
    "GENIE_LOG_LEVEL": ("logging", "level"),
    "SLACK_BOT_TOKEN": ("platforms", "slack", "bot_token"),
    "SLACK_APP_TOKEN": ("platforms", "slack", "app_token"),
    "SLACK_SIGNING_SECRET": ("platforms", "slack", "signing_secret"),
    "SLACK_CLIENT_ID": ("platforms", "slack", "oauth", "client_id"),
    "SLACK_CLIENT_SECRET": ("platforms", "slack", "oauth", "client_secret"),
    "DISCORD_BOT_TOKEN": ("platforms", "discord", "bot_token"),
}
"""Environment variable -> setting it overrides. The first variable listed wins when several
name the same setting. Platform credentials apply only to platforms (and their sections, such as
``platforms.slack.oauth``) present in the file: listing a platform under ``platforms`` is what
enables its adapter, and an ``oauth`` section is what selects Slack's "Add to Slack" mode."""


class ConfigInvalid(SettingsInvalid):
    """The configuration has problems; ``errors`` lists every one as ``file:line:col: message``."""


@dataclass(frozen=True)
class AgentConfig:
    name: str
    path: Path
    destructive_apis: frozenset[str] = frozenset()
    """API functions whose Confirm button is rendered as destructive (e.g. a cancellation)."""


@dataclass(frozen=True)
class Route:
    """Messages of ``platform`` in ``channel`` (optionally only in ``workspace``) go to ``agent``."""

    platform: str
    channel: str
    agent: str
    workspace: str | None = None


@dataclass(frozen=True)
class ModelPrice:
    """What a model costs, in USD per million tokens, for the estimated cost in logs and metrics."""

    prompt: float = 0.0
    completion: float = 0.0

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt + completion_tokens * self.completion) / 1_000_000


@dataclass(frozen=True)
class LlmConfig:
    parser: str = "auto"
    """``auto`` (the LLM parser when an LLM is configured here or in the environment, else the
    rule-based one, said at start-up), ``rules`` (offline), or ``package.module:factory``."""
    responder: str = "auto"
    """``auto`` (likewise), ``templates`` (offline), or ``package.module:factory``."""
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    timeout_seconds: float = 30.0
    prices: Mapping[str, ModelPrice] = field(default_factory=dict)
    """model -> price; a model not listed costs nothing (the estimate is a lower bound)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The section's other keys: settings of :class:`genie_bot.llm.LLMSettings` (``models``,
    ``base_urls``, ``timeout`` and ``max_retries`` per role, ``constrained``...), checked there
    (``genie-bot run`` reports their problems at start-up)."""

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        return self.prices.get(model, ModelPrice()).cost(prompt_tokens, completion_tokens)


@dataclass(frozen=True)
class EngineSettings:
    ordering_window_ms: float = 0.0
    """How long a message waits for messages of its session sent before it but delivered later."""
    lease_seconds: float = 30.0
    """How long a session stays locked by a process that stopped renewing its lock (crashed)."""
    turn_threads: int = 64
    """Turns (parser and API calls included) running at once in one process; a few of them compute at once,
    the others wait for their LLM calls (:mod:`genie_bot.engine.admission`)."""
    statement_cpu_seconds: float = 2.0
    """CPU time applying one parser output may use (in a worker process); beyond it the message is parked."""
    statement_memory_mb: int = 512
    """Memory applying one parser output may allocate; beyond it the message is parked."""
    statement_cpu_budget_seconds: float = 4.0
    """CPU time one user's statements may use in the sandbox over ``statement_cpu_window_seconds``;
    beyond it that user's messages are parked, with a reply, until the window moves on."""
    statement_cpu_window_seconds: float = 600.0
    sandbox_queue: int = 64
    """Calls that may wait for a sandbox worker; a message finding it full fails with a reply to send it again."""


@dataclass(frozen=True)
class ConfirmationSettings:
    owner_only: bool = True
    """Only the user who started the session may confirm or cancel its actions."""
    expires_after_minutes: float = 15.0
    confirm_label: str = "Confirm"
    cancel_label: str = "Cancel"


@dataclass(frozen=True)
class SchedulerSettings:
    enabled: bool = True
    check_every_seconds: float = 60.0
    idle_session_minutes: float | None = 24 * 60.0
    """Sessions idle this long are closed (their state reset); None keeps them forever."""
    closing_message: str | None = None
    reminder_after_minutes: float | None = None
    """Remind a user the bot is waiting on them after this long; None disables reminders."""
    reminder_message: str = "Just checking in: I'm still waiting for your answer."
    retention_days: float = 30.0
    """Turn traces and processed event ids older than this are deleted."""


@dataclass(frozen=True)
class LoggingSettings:
    level: str = "INFO"
    format: str = "text"  # text | json
    file: Path | None = None
    include_content: bool = False
    """Put user text, statements, replies and act values in the turn log; off, they are redacted."""


@dataclass(frozen=True)
class MetricsSettings:
    enabled: bool = True
    host: str = "127.0.0.1"
    """Where ``genie-bot run`` serves ``GET /metrics`` (Prometheus text format); 0.0.0.0 in a container."""
    port: int = 9464


@dataclass(frozen=True)
class KnowledgeSettings:
    """Where the agents' CSV knowledge tables are imported once and read by every process."""

    url: str | None = None
    """A SQLite file or PostgreSQL; default: the engine's database when it is PostgreSQL, else
    ``knowledge.sqlite3`` in ``$GENIE_DATA_DIR`` (``var/``)."""
    read_url: str | None = None
    """What serving processes connect with (on PostgreSQL, a role that may only read); default: ``url``,
    in read-only transactions."""


@dataclass(frozen=True)
class Config:
    agents: dict[str, AgentConfig]
    default_agent: str
    database_url: str = DEFAULT_DATABASE_URL
    routing: tuple[Route, ...] = ()
    llm: LlmConfig = field(default_factory=LlmConfig)
    admins: dict[str, frozenset[str]] = field(default_factory=dict)
    """platform -> its admins everywhere (each workspace may add its own, see ``workspaces``)."""
    workspaces: dict[str, PlatformWorkspaces] = field(default_factory=dict)
    """platform -> what each of its workspaces (Slack teams, Discord guilds) gets; a platform not
    listed serves every workspace with every agent."""
    platforms: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    """platform -> its section, read by its adapter (located, so the adapter's errors say where)."""
    engine: EngineSettings = field(default_factory=EngineSettings)
    confirmation: ConfirmationSettings = field(default_factory=ConfirmationSettings)
    scheduler: SchedulerSettings = field(default_factory=SchedulerSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    metrics: MetricsSettings = field(default_factory=MetricsSettings)
    knowledge: KnowledgeSettings = field(default_factory=KnowledgeSettings)
    source: Path | None = None

    def workspace(self, platform: str, workspace: str) -> WorkspaceSettings | None:
        """What ``workspace`` of ``platform`` gets; None if the configuration refuses it."""
        settings = self.workspaces.get(platform)
        return EVERY_AGENT if settings is None else settings.of(workspace)

    def serves(self, platform: str, workspace: str) -> bool:
        return self.workspace(platform, workspace) is not None

    def agents_of(self, platform: str, workspace: str) -> list[str]:
        """The agents that may answer in ``workspace`` (none if it is refused)."""
        settings = self.workspace(platform, workspace)
        return [] if settings is None else [name for name in self.agents if settings.allows(name)]

    def agent_for(self, platform: str, workspace: str, channel: str) -> str:
        """The agent serving a channel: the most specific route to an agent of its workspace, else the
        workspace's default agent, else the deployment's."""
        settings = self.workspace(platform, workspace) or EVERY_AGENT
        for route in sorted(self.routing, key=lambda r: r.workspace is None):
            if route.platform == platform and route.channel == channel and route.workspace in (None, workspace) \
                    and settings.allows(route.agent):
                return route.agent
        return settings.default_agent or self.default_agent

    def is_admin(self, platform: str, user_id: str, workspace: str | None = None) -> bool:
        """Whether ``user_id`` is an admin of ``platform`` (everywhere), or of ``workspace`` there."""
        if user_id in self.admins.get(platform, frozenset()):
            return True
        settings = None if workspace is None else self.workspace(platform, workspace)
        return settings is not None and user_id in settings.admins


def environment_database_url(environ: Mapping[str, str] | None = None) -> str | None:
    """``DATABASE_URL`` as the engine uses it (``postgresql://`` means psycopg 3), or None when unset:
    what ``db upgrade`` and ``sessions`` read when no genie.yaml is given."""
    url = (os.environ if environ is None else environ).get("DATABASE_URL")
    return with_driver(url) if url else None


def with_driver(url: str) -> str:
    """``url`` with the supported PostgreSQL driver (psycopg 3) named; other URLs as they are."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def load_config(path: str | Path, environ: Mapping[str, str] | None = None,
                llm_overrides: Mapping[str, Any] | None = None) -> Config:
    """Read ``path``, apply environment overrides, and validate; raise :class:`ConfigInvalid`.
    ``llm_overrides`` (command-line flags) are laid over the ``llm`` section's options."""
    root = SettingsReader.from_file(path, error=ConfigInvalid)
    config = _ConfigReader(Path(path), root).config(os.environ if environ is None else environ)
    root.check(ConfigInvalid)
    if llm_overrides:
        llm = dataclasses.replace(config.llm, options={**config.llm.options, **llm_overrides})
        config = dataclasses.replace(config, llm=llm)
    return config


class _ConfigReader:
    """The parts of genie.yaml that are more than typed settings: agents, routing, the database URL."""

    TOP_KEYS = ("database", "llm", "agents", "default_agent", "routing", "admins", "workspaces", "platforms",
                "engine", "confirmation", "scheduler", "logging", "metrics", "knowledge")

    def __init__(self, path: Path, root: SettingsReader):
        self.path = path
        self.base = path.parent
        self.root = root
        self.data = root.data
        self.overridden: set[tuple[str, ...]] = set()

    # -- the whole file ------------------------------------------------------------------------
    def config(self, environ: Mapping[str, str]) -> Config:
        self.root.check_keys(self.TOP_KEYS)
        self._apply_environment(environ)
        agents = self._agents()
        default_agent = self._default_agent(agents)
        engine_section = self.root.section("engine", _fields(EngineSettings))
        engine = engine_section.fields(EngineSettings)
        for name in ("turn_threads", "lease_seconds", "statement_cpu_seconds", "statement_memory_mb",
                     "statement_cpu_budget_seconds", "statement_cpu_window_seconds", "sandbox_queue"):
            if getattr(engine, name) <= 0:
                engine_section.problem(name, f"'{name}' must be greater than 0")
        workspaces = read_workspaces(self.root.section("workspaces"), PLATFORMS, agents, default_agent)
        database_url = self._database_url(self.root.section("database", ("url",)))
        return Config(
            agents=agents, default_agent=default_agent,
            database_url=database_url,
            routing=self._routing(agents, workspaces),
            llm=self._llm(),
            admins=self._admins(),
            workspaces=workspaces,
            platforms=self._platforms(),
            engine=engine,
            confirmation=self.root.section("confirmation", _fields(ConfirmationSettings)).fields(ConfirmationSettings),
            scheduler=self.root.section("scheduler", _fields(SchedulerSettings)).fields(SchedulerSettings),
            logging=self._logging(),
            metrics=self.root.section("metrics", _fields(MetricsSettings)).fields(MetricsSettings),
            knowledge=self._knowledge(database_url),
            source=self.path,
        )

    def _apply_environment(self, environ: Mapping[str, str]) -> None:
        for variable, keys in reversed(ENV_OVERRIDES.items()):  # the first listed is applied last
            value = environ.get(variable)
            if not value:
                continue
            if keys[0] == "platforms" and not self._present(keys[:-1]):
                continue
            target: Any = self.data  # the YAML's mappings, changed in place
            for key in keys[:-1]:
                child = target.get(key)
                if child is None:
                    child = target[key] = {}
                if not isinstance(child, dict):
                    break
                target = child
            else:
                target[keys[-1]] = value
                self.overridden.add(keys)

    def _present(self, keys: tuple[str, ...]) -> bool:
        """Whether the file has the section at ``keys`` (a mapping)."""
        section: Any = self.data
        for key in keys:
            section = section.get(key) if isinstance(section, Mapping) else None
        return isinstance(section, Mapping)

    # -- individual settings -------------------------------------------------------------------
    def _database_url(self, database: SettingsReader) -> str:
        url = database.data.get("url", DEFAULT_DATABASE_URL)
        if not isinstance(url, str) or "://" not in url:
            database.problem("url", "database.url must be a URL such as sqlite:///var/genie.sqlite3 "
                                    "or postgresql+psycopg://user@host/db")
            return DEFAULT_DATABASE_URL
        url = with_driver(url)
        if not (url.startswith("sqlite") or url.startswith("postgresql+psycopg")):
            database.problem("url", "only SQLite (sqlite:///path) and PostgreSQL "
                                    "(postgresql+psycopg://...) databases are supported")
        prefix = "sqlite:///"
        if url.startswith(prefix) and not url.startswith(prefix + "/") and url != "sqlite://" and \
                ("database", "url") not in self.overridden:
            url = prefix + str((self.base / url[len(prefix):]).resolve())
        return url

    def _knowledge(self, database_url: str) -> KnowledgeSettings:
        """``knowledge``; without a URL, a deployment on PostgreSQL keeps its knowledge there too (every
        machine reads it), and one on SQLite in a file of its own (:class:`KnowledgeSettings`)."""
        section = self.root.section("knowledge", _fields(KnowledgeSettings))
        urls = {}
        for key in _fields(KnowledgeSettings):
            url = section.data.get(key)
            if url is None:
                continue
            if not isinstance(url, str) or not url.startswith(("sqlite:///", "postgresql", "postgres://")):
                section.problem(key, f"knowledge.{key} must be a URL such as sqlite:///var/knowledge.sqlite3 "
                                     "or postgresql+psycopg://user@host/db")
                continue
            prefix = "sqlite:///"
            if url.startswith(prefix) and not url.startswith(prefix + "/") and ("knowledge", key) not in self.overridden:
                url = prefix + str((self.base / url[len(prefix):]).resolve())
            urls[key] = with_driver(url)
        if "url" not in urls and database_url.startswith("postgresql"):
            urls["url"] = database_url
        return KnowledgeSettings(**urls)

    def _agents(self) -> dict[str, AgentConfig]:
        raw = self.data.get("agents")
        if not isinstance(raw, Mapping) or not raw:
            self.root.problem("agents", "'agents' must map agent names to agent directories, "
                                        "e.g. agents: {tickets: worksheets/ticket_submission}")
            return {}
        section = self.root.section("agents")
        agents = {}
        for name, value in raw.items():
            entry = section.section(name, ("path", "destructive_apis")) if isinstance(value, Mapping) else None
            if entry is not None:
                value = entry.data.get("path")
            if not isinstance(value, str):
                section.problem(name, f"agent '{name}' needs a directory: '{name}: path/to/agent' or "
                                      f"'{name}: {{path: ...}}'")
                continue
            path = (self.base / value).resolve()
            if not (path / "agent.yaml").is_file():
                section.problem(name, f"agent '{name}': no agent.yaml in {path}")
            destructive = entry.data.get("destructive_apis", []) if entry is not None else []
            if entry is not None and not (isinstance(destructive, list) and all(isinstance(d, str) for d in destructive)):
                entry.problem("destructive_apis", "destructive_apis must be a list of API function names")
                destructive = []
            agents[str(name)] = AgentConfig(str(name), path, frozenset(destructive))
        return agents

    def _default_agent(self, agents: dict[str, AgentConfig]) -> str:
        name = self.data.get("default_agent")
        if name is None:
            if len(agents) == 1:
                return next(iter(agents))
            if agents:
                self.root.problem(None, "'default_agent' is required when several agents are configured")
            return ""
        if name not in agents:
            self.root.problem("default_agent", unknown_agent(str(name), agents))
        return str(name)

    def _routing(self, agents: dict[str, AgentConfig], workspaces: Mapping[str, PlatformWorkspaces]
                 ) -> tuple[Route, ...]:
        raw = self.data.get("routing", [])
        if not isinstance(raw, list):
            self.root.problem("routing", "'routing' must be a list of {platform, channel, agent}")
            return ()
        routes = []
        for index, item in enumerate(raw):
            if not isinstance(item, Mapping):
                self.root.problems.append(Problem(_item_loc(raw, index) or self.root.loc_of("routing"),
                                                  f"routing[{index}]",
                                                  "a route must be a mapping {platform, channel, agent}"))
                continue
            route = SettingsReader(item, f"routing[{index}]", self.root.problems)
            route.check_keys(("platform", "workspace", "channel", "agent"), "route")
            missing = [k for k in ("platform", "channel", "agent") if item.get(k) in (None, "")]
            if missing:
                route.problem(None, f"route needs {', '.join(missing)}")
                continue
            if item["platform"] not in PLATFORMS and item["platform"] != "console":
                route.problem("platform", f"unknown platform '{item['platform']}' "
                                          f"(expected one of: {', '.join(PLATFORMS)}, console)")
            if item["agent"] not in agents:
                route.problem("agent", unknown_agent(str(item["agent"]), agents))
            workspace = item.get("workspace")
            if workspace is not None and item["platform"] in workspaces:
                settings = workspaces[item["platform"]].of(str(workspace))
                if settings is None:
                    route.problem("workspace", f"workspace '{workspace}' is refused "
                                               f"(workspaces.{item['platform']}.fallback: refuse)")
                elif not settings.allows(str(item["agent"])):
                    route.problem("agent", f"agent '{item['agent']}' does not serve workspace '{workspace}' "
                                           f"(see workspaces.{item['platform']})")
            routes.append(Route(str(item["platform"]), str(item["channel"]), str(item["agent"]),
                                None if workspace is None else str(workspace)))
        return tuple(routes)

    def _admins(self) -> dict[str, frozenset[str]]:
        admins = self.root.section("admins", (*PLATFORMS, "console"))
        out = {}
        for platform, users in admins.data.items():
            if not isinstance(users, list):
                admins.problem(platform, f"admins.{platform} must be a list of user ids")
                continue
            out[str(platform)] = frozenset(str(u) for u in users)
        return out

    def _platforms(self) -> dict[str, Mapping[str, Any]]:
        platforms = self.root.section("platforms", PLATFORMS)
        out = {}
        for platform, settings in platforms.data.items():
            if settings is None:
                settings = {}
            if not isinstance(settings, Mapping):
                platforms.problem(platform, f"platforms.{platform} must be a mapping of settings")
                continue
            out[str(platform)] = settings
        return out

    def _llm(self) -> LlmConfig:
        section = self.root.section("llm")
        own = set(_fields(LlmConfig)) - {"options"}
        settings = dataclasses.replace(section.fields(LlmConfig),
                                       options={k: v for k, v in section.data.items() if k not in own})
        raw = section.data.get("prices")
        if raw is None:
            return settings
        if not isinstance(raw, Mapping):
            section.problem("prices", "llm.prices must map model names to {prompt, completion}")
            return settings
        prices_section = section.section("prices")
        prices = {}
        for model, price in raw.items():
            if not isinstance(price, Mapping):
                prices_section.problem(model, f"llm.prices.{model} must be {{prompt: USD, completion: USD}} "
                                              f"per million tokens")
                continue
            prices[str(model)] = prices_section.section(model, _fields(ModelPrice)).fields(ModelPrice)
        return dataclasses.replace(settings, prices=prices)

    def _logging(self) -> LoggingSettings:
        section = self.root.section("logging", _fields(LoggingSettings))
        settings = section.fields(LoggingSettings)
        level = str(settings.level).upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            section.problem("level", f"unknown log level '{settings.level}'")
        if settings.format not in ("text", "json"):
            section.problem("format", "logging.format must be 'text' or 'json'")
        file = section.data.get("file")
        return dataclasses.replace(settings, level=level,
                                   file=(self.base / file).resolve() if isinstance(file, str) else None)


def _item_loc(items: list, index: int) -> Loc | None:
    return items.item_locs[index] if isinstance(items, LocatedList) else None


def _fields(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))
