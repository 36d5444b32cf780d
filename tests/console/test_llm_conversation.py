"""The console with an LLM (the scripted OpenAI-compatible server): what the LLM writes stays text."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from genie_bot.agent import build_agent
from genie_bot.config import LlmConfig, ModelPrice
from genie_bot.console_web import Console, LiveConsole, agent_dir_config
from tests.fakes.openai_server import ScriptedOpenAIServer
from tests.llm.conftest import RoleScript, make_settings

from .harness import NOON, TICKETS, ServedConsole, expect, open_new_conversation, say

ATTACK = '<img src=x onerror="document.body.dataset.pwned=1">'
PRICES = {"test-parser": ModelPrice(prompt=1.0, completion=2.0), "test-responder": ModelPrice(prompt=1.0, completion=2.0)}


def test_markup_in_an_llm_reply_is_shown_as_text_and_each_llm_call_is_listed(page, tmp_path: Path):
    script = RoleScript()
    script.add("parser", "main_0.student_task = 'Leave of Absence'")
    reply = f"{ATTACK}Has your <b>leave of absence</b> form been submitted?<script>document.body.dataset.pwned=2</script>"
    script.add("responder", reply)
    with ScriptedOpenAIServer(responder=script) as llm:
        settings = make_settings(llm, fast_path=False)
        config = replace(agent_dir_config("ticket_submission", TICKETS, f"sqlite:///{tmp_path / 'console.sqlite3'}"),
                         llm=LlmConfig(prices=PRICES))

        def console() -> Console:
            return Console(LiveConsole(config, lambda spec: build_agent(spec, settings, clock=lambda: NOON)), None)

        with ServedConsole(console) as served:
            open_new_conversation(page, served.url)
            expect(page.locator("#mode")).to_contain_text("LLM mode")
            say(page, "I need to take a leave of absence")

    bot = page.locator(".msg.bot").last
    expect(bot).to_contain_text(reply)
    expect(page.locator("#turn-0 pre.reply")).to_contain_text(reply)
    assert page.locator("main img, main script, main b").count() == 0
    assert page.locator("body").get_attribute("data-pwned") is None

    turn = page.locator("#turn-0")
    expect(turn.locator("summary")).to_contain_text("parse: llm")
    expect(turn.locator("pre.statements")).to_have_text("main_0.student_task = 'Leave of Absence'")
    calls = turn.locator("dd.llm table.llm-calls tr")
    expect(calls).to_have_count(3)  # a header, the parser's call, the responder's
    expect(calls.nth(1)).to_contain_text("parser")
    expect(calls.nth(1)).to_contain_text("test-parser")
    expect(calls.nth(2)).to_contain_text("test-responder")
    expect(turn.locator("dd.llm")).to_contain_text("2 call(s)")
    total = re.fullmatch(r"2 call\(s\), (\d+) prompt \+ (\d+) completion tokens, \$(\d+\.\d+)",
                         turn.locator(".llm-total").text_content())
    assert total and int(total[1]) > 500 and float(total[3]) == round((int(total[1]) + 2 * int(total[2])) / 1e6, 6)
