"""``genie-bot chat``: talk to an agent in the terminal.

Interactive on a terminal (markdown rendered by rich; ``--debug`` shows each turn's parse,
acts and state). With stdin not a terminal it is scriptable: one user message per line, the
greeting and each reply on stdout as plain text (markdown marks removed), each followed by an
empty line.

Statements are applied in the sandbox with the bot's default limits (:mod:`genie_bot.runtime.sandbox`):
a message the bot would park is set aside here too, with the bot's reply, the state unchanged.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..runtime.isolation import EvaluationAbandoned, SandboxBusy, abandoned_reply, sandboxed

from .common import clock_for, load_spec
from .llm_options import add_llm_arguments, llm_settings

if TYPE_CHECKING:
    from ..agent import Agent, AgentReply
    from ..state import DialogueState

COMMANDS_HELP = "Commands: /reset starts over, /state shows the dialogue state, /quit leaves."


def register(commands: argparse._SubParsersAction) -> None:
    chat = commands.add_parser("chat", help="talk to an agent in the terminal (scriptable through stdin)")
    chat.add_argument("agent_dir", type=Path)
    chat.add_argument("--debug", action="store_true", help="show each turn's parse, acts and state")
    chat.add_argument("--today", type=dt.date.fromisoformat, help="the date the conversation happens on")
    add_llm_arguments(chat)
    chat.set_defaults(handler=_chat)


def _chat(args: argparse.Namespace) -> int:
    """The agent in LLM mode when one is configured (OPENAI_API_KEY...), else offline."""
    from ..agent import Agent, agent_components
    from ..runtime.sandbox import Sandbox

    sandbox = Sandbox()
    sandbox.pool.warm()  # its worker starts while the agent loads
    components = agent_components(load_spec(args.agent_dir), llm_settings(args), clock=clock_for(args.today))
    if not components.offline:  # offline mode is already logged as a warning
        print(f"genie-bot: {components.message}", file=sys.stderr)
    with sandboxed(sandbox):
        return run_chat(Agent.from_components(components), debug=args.debug)


def run_chat(agent: Agent, debug: bool = False, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from ..adapters.text import plain_text  # markdown-it, for the replies of this command only

    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if stdin.isatty():
        return _interactive(agent, debug)
    state = agent.new_state()
    stdout.write(plain_text(agent.greeting(state)) + "\n\n")
    for line in stdin:
        text = line.rstrip("\n")
        if not text.strip():
            continue
        reply = _respond(agent, state, text)
        if isinstance(reply, str):
            stdout.write(reply + "\n\n")
            continue
        state = reply.state
        if debug:
            stdout.write(_debug_text(reply) + "\n")
        stdout.write(plain_text(reply.text) + "\n\n")
        stdout.flush()
    return 0


def _interactive(agent: Agent, debug: bool) -> int:
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.panel import Panel

    console = Console()
    state = agent.new_state()
    console.print(Panel(Markdown(agent.greeting(state)), title=agent.spec.name, subtitle=COMMANDS_HELP))
    while True:
        try:
            text = console.input("[bold cyan]you>[/] ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return 0
        command = text.strip().lower()
        if command in ("/quit", "/exit"):
            return 0
        if command == "/reset":
            state = agent.new_state()
            console.print("[dim](started over)[/]")
            continue
        if command == "/state":
            console.print_json(state.to_json())
            continue
        if not text.strip():
            continue
        reply = _respond(agent, state, text)
        if isinstance(reply, str):
            console.print(reply)
            continue
        state = reply.state
        if debug:
            console.print(Panel(_debug_text(reply), title="debug", style="dim"))
        console.print(Markdown(reply.text))


def _respond(agent: Agent, state: DialogueState, text: str) -> AgentReply | str:
    """The agent's reply, or what the bot says of a message the sandbox did not apply."""
    try:
        return agent.respond(state, text)
    except (EvaluationAbandoned, SandboxBusy) as exc:
        return abandoned_reply(exc)


def _debug_text(reply: AgentReply) -> str:
    lines = [f"parse ({reply.parse.source}): {reply.parse.statements or '(nothing)'}"]
    lines += [f"error: {e}" for e in reply.errors]
    lines += [f"act: {a.formal()}" for a in reply.acts]
    answer = reply.state.answer
    if answer is not None and answer.query and any(a.kind == "Report" for a in reply.acts):
        lines.append(f"query: {answer.query}")
    lines.append("latency ms: " + ", ".join(f"{k} {v:.2f}" for k, v in reply.latencies_ms.items()))
    lines.append("state: " + json.dumps(reply.state.to_dict()["instances"], ensure_ascii=False))
    return "\n".join(lines)
