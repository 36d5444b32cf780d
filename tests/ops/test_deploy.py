"""deploy/: every file an operator uses parses, and refers only to settings, variables, commands and
routes that exist (Docker and Kubernetes cannot run here, so they are checked statically)."""

from __future__ import annotations

import configparser
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from genie_bot.adapters.discord.settings import DiscordSettings
from genie_bot.adapters.slack import SlackSettings
from genie_bot import submissions
from genie_bot.store import sealing
from genie_bot.cli import main
from genie_bot.config import (ENV_OVERRIDES, Config, ConfirmationSettings, EngineSettings, LlmConfig, LoggingSettings,
                              KnowledgeSettings, MetricsSettings, SchedulerSettings, load_config)
from genie_bot.cli import serve as commands
from genie_bot.agent import settings_from_config
from genie_bot.llm import settings as llm_settings
from genie_bot.llm.settings import CONFIG_KEYS
from genie_bot.engine.metrics_server import PATH as METRICS_PATH
from tests.conftest import REPO, copied_example

DEPLOY = REPO / "deploy"
CONFIG_PATH = "/etc/genie-bot/genie.yaml"
APP = "/app/"
"""Where the image puts the repository's worksheets (the container configs name agents there)."""
SECRETS = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DATABASE_URL": "postgresql://genie@db/genie"}


def known_variables() -> set[str]:
    """Variables genie-bot reads (config overrides, the LLM layer, the ledger) and the postgres image's own."""
    llm_source = Path(llm_settings.__file__).read_text(encoding="utf-8")
    llm = set(re.findall(r'env\.get\("([A-Z_]+)"\)', llm_source)) | {"OPENAI_API_KEY"}
    return set(ENV_OVERRIDES) | llm | {submissions.DATA_DIR_ENV, sealing.KEYS_ENV, "POSTGRES_PASSWORD",
                                       "PYTHONUNBUFFERED", "PATH"}


def parsed_command(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The arguments ``genie-bot argv`` parses to (the command itself does not run)."""
    assert Path(argv[0]).name == "genie-bot", argv
    seen = []
    for handler in ("_run", "_db_upgrade"):
        monkeypatch.setattr(commands, handler, lambda args: seen.append(args) or 0)
    assert main(argv[1:]) == 0
    return seen[0]


def container_config(text: str, tmp_path: Path) -> Config:
    """A container's genie.yaml, validated with the image's /app paths mapped to this repository."""
    path = tmp_path / "genie.yaml"
    path.write_text(text.replace(APP, f"{REPO}/"), encoding="utf-8")
    return load_config(path, environ=SECRETS)


def dockerfile() -> dict[str, list[str]]:
    """Instruction -> its arguments, continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "docker" / "Dockerfile").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, rest = line.strip().partition(" ")
            out.setdefault(instruction.upper(), []).append(rest.strip())
    return out


def kubernetes() -> dict[str, dict]:
    docs = {}
    for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            docs[doc["kind"]] = doc
    return docs


# -- genie.example.yaml and .env.example ------------------------------------------------------------------
def test_the_example_documents_every_setting(tmp_path):
    example = yaml.safe_load((DEPLOY / "genie.example.yaml").read_text(encoding="utf-8"))
    sections = {"llm": LlmConfig, "engine": EngineSettings, "confirmation": ConfirmationSettings,
                "scheduler": SchedulerSettings, "logging": LoggingSettings, "metrics": MetricsSettings,
                "knowledge": KnowledgeSettings}
    for section, cls in sections.items():
        assert set(example[section]) == set(cls.__dataclass_fields__) - {"options"} | \
            ({"models", "base_urls", "max_retries", "constrained"} if section == "llm" else set()), section
    assert set(LlmConfig.__dataclass_fields__) - {"options"} | CONFIG_KEYS >= set(example["llm"])
    assert set(example["platforms"]["slack"]) == set(SlackSettings.__dataclass_fields__)
    assert set(example["platforms"]["discord"]) == set(DiscordSettings.__dataclass_fields__)
    assert {"database", "agents", "default_agent", "routing", "admins"} <= set(example)
    config = load_config(copied_example(tmp_path), environ={**SECRETS, "DISCORD_BOT_TOKEN": "d"})
    SlackSettings.from_mapping(config.platforms["slack"])
    DiscordSettings.parse(config.platforms["discord"])
    assert config.llm.prices["gpt-4o-mini"].cost(1_000_000, 0) == 0.15
    assert settings_from_config(config.llm, environ={}).parser.max_retries == 2


def test_the_env_file_names_only_variables_genie_bot_reads():
    lines = [line for line in (DEPLOY / ".env.example").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    names = {line.split("=", 1)[0] for line in lines}
    assert names <= known_variables(), names - known_variables()
    assert {"DATABASE_URL", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "OPENAI_API_KEY"} <= names


# -- the image and compose ----------------------------------------------------------------------------------
def test_the_image_is_slim_non_root_checks_its_health_and_runs_the_bot(tmp_path, monkeypatch):
    instructions = dockerfile()
    assert all(base.split()[0].endswith("-slim") for base in instructions["FROM"])
    assert instructions["USER"][-1].split(":")[0] not in ("root", "0")
    config = container_config((DEPLOY / "docker" / "genie.yaml").read_text(encoding="utf-8"), tmp_path)
    slack = SlackSettings.from_mapping(config.platforms["slack"])
    assert slack.mode == "http" and config.metrics.host == "0.0.0.0"
    assert f"COPY deploy/docker/genie.yaml {CONFIG_PATH}" in [f"COPY {c}" for c in instructions["COPY"]]
    assert f"worksheets {APP}worksheets" in instructions["COPY"]
    assert set(instructions["EXPOSE"][0].split()) == {str(slack.port), str(config.metrics.port)}

    [healthcheck] = instructions["HEALTHCHECK"]
    probe = json.loads(healthcheck.split(" CMD ", 1)[1])
    assert probe[:2] == ["python", "-c"] and f"http://127.0.0.1:{slack.port}/healthz" in probe[2]
    assert "/healthz" in [r.resource.canonical for r in _slack_routes(slack)]

    cmd = json.loads(instructions["CMD"][0])
    args = parsed_command(cmd, monkeypatch)
    assert args.command == "run" and str(args.config) == CONFIG_PATH

    ignore = (DEPLOY / "docker" / "Dockerfile.dockerignore").read_text(encoding="utf-8")
    for source in ("pyproject.toml", "README.md", "genie_bot/**", "adapters/**", "worksheets/**",
                   "deploy/docker/genie.yaml"):
        assert f"!{source}" in ignore


def _slack_routes(settings: SlackSettings):
    """The routes of the Slack adapter's HTTP app (without connecting to Slack)."""
    from slack_bolt.async_app import AsyncApp

    from genie_bot.adapters.slack.receivers import HttpReceiver

    async def healthy() -> bool:
        return True

    app = AsyncApp(signing_secret="s", token="xoxb-1")
    return list(HttpReceiver(app, settings.host, settings.port, settings.path, healthy).web_app.router.routes())


def test_compose_migrates_then_runs_the_bot_with_postgres(monkeypatch):
    compose = yaml.safe_load((DEPLOY / "docker" / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"postgres", "migrate", "bot"}
    here = DEPLOY / "docker"
    build = services["migrate"]["build"]
    assert (here / build["context"] / build["dockerfile"]).resolve() == (DEPLOY / "docker" / "Dockerfile").resolve()
    for name in services:
        assert (here / services[name]["env_file"]).resolve() == DEPLOY / ".env"  # made from .env.example
    assert set(services["postgres"]["environment"]) <= {"POSTGRES_USER", "POSTGRES_DB"}
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"][1]

    migrate = parsed_command(services["migrate"]["command"], monkeypatch)
    assert (migrate.command, migrate.db_command, str(migrate.config)) == ("db", "upgrade", CONFIG_PATH)
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    bot = services["bot"]
    run = parsed_command(bot["command"], monkeypatch)
    assert (run.command, str(run.config)) == ("run", CONFIG_PATH)
    assert bot["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
    assert bot["image"] == services["migrate"]["image"]
    assert {p.rsplit(":", 1)[1] for p in bot["ports"]} == {"3000", "9464"}
    assert any(v.endswith(f":{'/var/lib/genie-bot'}") for v in bot["volumes"])


# -- Kubernetes ---------------------------------------------------------------------------------------------
def test_kubernetes_manifests_fit_together(tmp_path, monkeypatch):
    docs = kubernetes()
    kustomization = yaml.safe_load((DEPLOY / "kubernetes" / "kustomization.yaml").read_text(encoding="utf-8"))
    assert all((DEPLOY / "kubernetes" / r).is_file() for r in kustomization["resources"])
    assert {"Deployment", "Service", "Secret", "ConfigMap", "Job", "PodDisruptionBudget"} <= set(docs)

    config_map, secret = docs["ConfigMap"], docs["Secret"]
    config = container_config(config_map["data"]["genie.yaml"], tmp_path)
    slack = SlackSettings.from_mapping(config.platforms["slack"])
    assert slack.mode == "http" and config.database_url.startswith("postgresql") and config.metrics.host == "0.0.0.0"
    assert set(secret["stringData"]) <= known_variables()

    deployment = docs["Deployment"]
    assert deployment["spec"]["replicas"] >= 2
    pod = deployment["spec"]["template"]
    assert pod["metadata"]["labels"] == deployment["spec"]["selector"]["matchLabels"]
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    [container] = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"slack-http": slack.port, "metrics": config.metrics.port}
    ready, alive = container["readinessProbe"]["httpGet"], container["livenessProbe"]["httpGet"]
    assert (ready["path"], ports[ready["port"]]) == ("/healthz", slack.port)
    assert "/healthz" in [r.resource.canonical for r in _slack_routes(slack)]
    assert (alive["path"], ports[alive["port"]]) == (METRICS_PATH, config.metrics.port)
    annotations = pod["metadata"]["annotations"]
    assert (annotations["prometheus.io/port"], annotations["prometheus.io/path"]) == (str(config.metrics.port),
                                                                                      METRICS_PATH)
    assert pod["spec"]["terminationGracePeriodSeconds"] > slack.shutdown_grace_seconds

    job = docs["Job"]["spec"]["template"]["spec"]
    for spec, expected in ((pod["spec"], ("run", None)), (job, ("db", "upgrade"))):
        [c] = spec["containers"]
        args = parsed_command(c["command"], monkeypatch)
        assert (args.command, getattr(args, "db_command", None)) == expected and str(args.config) == CONFIG_PATH
        assert c["envFrom"] == [{"secretRef": {"name": secret["metadata"]["name"]}}]
        mount = next(m for m in c["volumeMounts"] if m["name"] == "config")
        assert f"{mount['mountPath']}/genie.yaml" == CONFIG_PATH
        volume = next(v for v in spec["volumes"] if v["name"] == "config")
        assert volume["configMap"]["name"] == config_map["metadata"]["name"]

    service = docs["Service"]["spec"]
    assert service["selector"].items() <= pod["metadata"]["labels"].items()
    assert {p["targetPort"] for p in service["ports"]} <= set(ports)
    assert docs["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"] == pod["metadata"]["labels"]


# -- systemd ------------------------------------------------------------------------------------------------
def test_the_systemd_unit_migrates_then_runs_as_a_service_user(monkeypatch):
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # systemd keys are case-sensitive
    unit.read(DEPLOY / "systemd" / "genie-bot.service", encoding="utf-8")
    service = unit["Service"]
    assert service["User"] not in ("root", "0") and service["Restart"] == "on-failure"
    assert service["EnvironmentFile"] == "/etc/genie-bot/env"  # installed from deploy/.env.example
    upgrade = parsed_command(shlex.split(service["ExecStartPre"]), monkeypatch)
    assert (upgrade.command, upgrade.db_command, str(upgrade.config)) == ("db", "upgrade", CONFIG_PATH)
    run = parsed_command(shlex.split(service["ExecStart"]), monkeypatch)
    assert (run.command, str(run.config)) == ("run", CONFIG_PATH)
    variables = dict(item.split("=", 1) for item in shlex.split(service["Environment"]))
    assert set(variables) <= known_variables() and service["StateDirectory"] == "genie-bot"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
