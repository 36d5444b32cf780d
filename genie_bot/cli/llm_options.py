"""The LLM flags every conversational command takes (chat, console, eval, run, replay).

They override the ``llm`` settings of a file (``--llm-config``, ``GENIE_LLM_CONFIG``, or
genie.yaml for ``run``) and the environment (``GENIE_LLM_TIMEOUT``, ``GENIE_LLM_MAX_RETRIES``,
``GENIE_LLM_<ROLE>_MODEL``, ``GENIE_LLM_<ROLE>_BASE_URL``, ``GENIE_LLM_CONSTRAINED``...).
A per-role value is written ``ROLE=VALUE`` (``--llm-model parser=qwen2.5-7b``); a plain
value applies to every role.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..llm.settings import CONSTRAINED, ROLES, LLMSettings, load_settings


def add_llm_arguments(parser: argparse.ArgumentParser, *, config_file: bool = True) -> None:
    group = parser.add_argument_group("LLM settings (over the config file and the environment)")
    if config_file:
        group.add_argument("--llm-config", type=Path, metavar="FILE",
                           help="a YAML file with an llm: section (default: GENIE_LLM_CONFIG)")
    group.add_argument("--llm-model", action="append", metavar="[ROLE=]NAME",
                       help="the model of every role, or of one (parser, knowledge, responder); repeatable")
    group.add_argument("--llm-base-url", action="append", metavar="[ROLE=]URL",
                       help="the OpenAI-compatible endpoint of every role, or of one; repeatable")
    group.add_argument("--llm-timeout", action="append", metavar="[ROLE=]SECONDS",
                       help="deadline of a whole LLM call, retries included")
    group.add_argument("--llm-retries", action="append", metavar="[ROLE=]N", help="retries of a failed LLM call")
    group.add_argument("--llm-constrained", choices=CONSTRAINED,
                       help="constrain the parser's output to the spec's statements, in the server's own form")


def llm_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the flags give, as an ``llm`` section would write them; raises SystemExit(2) on a bad value."""
    out: dict[str, Any] = {}
    for flag, plain, per_role, kind in (("llm_model", "model", "models", str),
                                        ("llm_base_url", "base_url", "base_urls", str),
                                        ("llm_timeout", "timeout", "timeout", float),
                                        ("llm_retries", "max_retries", "max_retries", int)):
        for value in getattr(args, flag, None) or ():
            role, sep, rest = value.partition("=")
            if sep and role in ROLES:
                current = out.get(per_role)
                if not isinstance(current, dict):  # a plain --llm-timeout 60 before it: every role's
                    out[per_role] = {} if current is None else {r: current for r in ROLES}
                out[per_role][role] = _typed(flag, rest, kind)
            elif per_role == plain and isinstance(out.get(plain), dict):
                out[plain] = {**{r: _typed(flag, value, kind) for r in ROLES}, **out[plain]}
            else:
                out[plain] = _typed(flag, value, kind)
    if getattr(args, "llm_constrained", None):
        out["constrained"] = args.llm_constrained
    return out


def llm_settings(args: argparse.Namespace) -> LLMSettings:
    """The settings of a command run with ``args`` (see the module's docstring)."""
    return load_settings(getattr(args, "llm_config", None), overrides=llm_overrides(args))


def _typed(flag: str, value: str, kind: type) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise SystemExit(f"--{flag.replace('_', '-')}: '{value}' is not a {kind.__name__}") from None
