"""The load test's LLM: a scripted OpenAI-compatible server with a fixed latency, and the parser it serves.

Server: ``python -m tests.benchmarks.loadtest_llm LATENCY_MS`` prints its base URL and answers
every chat completion after LATENCY_MS: a responder prompt with its own templated reply (what a
faithful LLM would say), a parser prompt with a comment.

Parser (``llm.parser: tests.benchmarks.loadtest_llm:parser``): a scripted server cannot write
the ticket agent's statements, so this parser does everything the LLM parser does on the way to
the LLM (the real prompt, rendered from the worksheets and the state; the real client, with
its accounting; one blocking HTTP call of LATENCY_MS) and then applies the rule-based parser's
statements, or, for a message starting with :data:`STATEMENTS`, the statements after it: what an
LLM talked into writing the worst statements would return (the load test's hostile users). The responder is the real one (``responder: auto``). So every turn
makes two LLM calls of fixed latency, as the paper's design does (parser + response generator).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from typing import Any

from genie_bot.agent import Agent, settings_from_config
from genie_bot.llm import make_client
from genie_bot.llm.client import LLMError
from genie_bot.observability.observer import PARSER_UNAVAILABLE
from genie_bot.parsers import Parse
from genie_bot.parsers.llm import LLMParser
from genie_bot.spec import AgentSpec
from genie_bot.state import DialogueState
from tests.fakes.openai_server import ScriptedOpenAIServer

TEMPLATED = "Templated reply (correct but plain; rephrase it naturally, keeping every fact and question):\n"
TEMPLATED_END = "\n\nWrite the assistant's message."
PARSER_PROMPT = "You are the semantic parser"
STATEMENTS = "#statements\n"


class LatencyParser:
    """The LLM parser's prompt and call, the rule-based parser's statements."""

    def __init__(self, agent: Agent, llm: Any):
        self.rules = agent.parser
        self.client = make_client(settings_from_config(llm))
        self.prompts = LLMParser(self.client, self.rules)

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        if text.startswith(STATEMENTS):
            parsed = Parse(text[len(STATEMENTS):], source="llm")
        else:
            parsed = self.rules.parse(spec, state, text, today)
        try:
            completion = self.client.complete("parser", self.prompts.prompt(spec, state, text, today))
        except LLMError as exc:
            return dataclasses.replace(parsed, llm_calls=1, notes=[f"{PARSER_UNAVAILABLE} ({exc.kind})"])
        return dataclasses.replace(parsed, source="llm", llm_calls=1, prompt_tokens=completion.prompt_tokens,
                                   completion_tokens=completion.completion_tokens)


def parser(agent: Agent, llm: Any) -> LatencyParser:
    return LatencyParser(agent, llm)


def answer(latency_s: float):
    def respond(body: dict[str, Any]) -> dict[str, Any]:
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        if PARSER_PROMPT in system:
            return {"delay": latency_s, "content": "# (statements written by the rule-based parser)"}
        start = user.find(TEMPLATED)
        text = user[start + len(TEMPLATED):user.find(TEMPLATED_END, start)] if start >= 0 else "OK."
        return {"delay": latency_s, "content": text.strip() or "OK."}
    return respond


def main() -> None:
    latency_s = float(sys.argv[1]) / 1000
    with ScriptedOpenAIServer(responder=answer(latency_s)) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()  # serve until the load test closes our stdin


if __name__ == "__main__":
    main()
