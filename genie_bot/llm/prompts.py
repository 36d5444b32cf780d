"""Prompt templates (jinja2) and few-shot examples, overridable per agent.

Each prompt is ``<name>.system.j2`` (optional) plus ``<name>.user.j2``, rendered into chat
messages. The built-in templates live in ``genie_bot/templates/``; an agent's ``prompts/``
directory is searched first, so a bot builder overrides a template by writing a file of the
same name there. An override can reuse the built-in one and replace only some blocks with
``{% extends "default/parser.system.j2" %}``. Few-shot examples are plain files in the same
directory (``parser_examples.txt``, ``knowledge_examples.txt``, ``responder_examples.txt``),
pasted into the prompt as they are.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .client import Message

PROMPTS_DIR = "prompts"


class PromptLibrary:
    def __init__(self, agent_directory: Path | None):
        self.directory = Path(agent_directory) / PROMPTS_DIR if agent_directory else None
        builtin = jinja2.PackageLoader("genie_bot", "templates")
        loaders: list[jinja2.BaseLoader] = [builtin, jinja2.PrefixLoader({"default": builtin})]
        if self.directory is not None:
            loaders.insert(0, jinja2.FileSystemLoader(str(self.directory)))
        self.env = jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), undefined=jinja2.StrictUndefined,
                                      autoescape=False, trim_blocks=True, lstrip_blocks=True)

    def messages(self, name: str, **context: Any) -> list[Message]:
        """Render ``name.system.j2`` (if any) and ``name.user.j2`` into chat messages."""
        out = []
        for role in ("system", "user"):
            template = self._template(f"{name}.{role}.j2", required=role == "user")
            if template is not None:
                out.append({"role": role, "content": template.render(**context).strip()})
        return out

    def examples(self, name: str) -> str:
        """The agent's few-shot examples for ``name`` (``<name>_examples.txt``), or ''."""
        if self.directory is None:
            return ""
        path = self.directory / f"{name}_examples.txt"
        return path.read_text(encoding="utf-8").strip() if path.is_file() else ""

    def _template(self, filename: str, required: bool) -> jinja2.Template | None:
        try:
            return self.env.get_template(filename)
        except jinja2.TemplateNotFound:
            if required:
                raise
            return None


@lru_cache(maxsize=64)
def prompts_for(agent_directory: Path | None) -> PromptLibrary:
    """The (cached) prompt library of an agent directory."""
    return PromptLibrary(agent_directory)
