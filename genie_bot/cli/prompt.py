"""``genie-bot prompt``: print the prompt the LLM would get, to check templates and examples.

Renders the parser prompt (or the knowledge prompt) for a message, at the state reached by
applying ``--statements``, with the agent's template overrides and few-shot examples. It
never calls an LLM.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from ..llm.client import ChatRequest, Completion, LLMClient, LLMError
from ..llm.settings import LLMSettings
from .common import load_spec


class _NoNetwork:
    def send(self, request: ChatRequest) -> Completion:
        raise LLMError("offline", "genie-bot prompt never calls the LLM")


def register(commands: argparse._SubParsersAction) -> None:
    command = commands.add_parser("prompt", help="print the LLM prompt for a message (no LLM is called)")
    command.add_argument("agent_dir", type=Path)
    command.add_argument("--message", default="hello", help="the user's message")
    command.add_argument("--statements", default="", help="parser statements applied first, to reach a state")
    command.add_argument("--role", choices=["parser", "knowledge"], default="parser")
    command.add_argument("--today", type=dt.date.fromisoformat, default=None, help="the date (default: today)")
    command.set_defaults(handler=_prompt)


def _prompt(args: argparse.Namespace) -> int:
    from ..knowledge import KnowledgeStore
    from ..knowledge.documents import DocumentIndex
    from ..knowledge.llm_query import LLMKnowledge
    from ..parsers.llm import LLMParser
    from ..runtime import Runtime
    from ..state import KnowledgeAnswer

    spec = load_spec(args.agent_dir)
    today = args.today or dt.date.today()
    settings = LLMSettings.from_env()
    client = LLMClient(settings, _NoNetwork())
    if args.role == "knowledge":
        has_documents = any(kb.source == "documents" for kb in spec.knowledge.values())
        knowledge = LLMKnowledge(spec, client, KnowledgeStore(spec), today=lambda: today,
                                 documents=DocumentIndex(spec) if has_documents else None)
        messages = knowledge.prompt(KnowledgeAnswer(args.message))
    else:
        runtime = Runtime(spec, clock=lambda: dt.datetime.combine(today, dt.time(12)))
        result = runtime.run_turn(runtime.new_state(), args.statements)
        for error in result.errors:
            print(f"--statements: {error}", file=sys.stderr)
        parser = LLMParser(client, max_worksheets=settings.max_worksheets)
        messages = parser.prompt(spec, result.state, args.message, today)
    for message in messages:
        print(f"===== {message['role']} =====\n{message['content']}\n")
    chars = sum(len(m["content"]) for m in messages)
    print(f"({chars:,} characters, about {chars // 4:,} tokens)", file=sys.stderr)
    return 0
