"""``genie-bot chat`` driven through stdin, as a script or a new user on a fresh machine would: the scripted
conversation in a process of its own, as the README shows it, the rest in this process."""

from __future__ import annotations

import subprocess
import sys

from genie_bot.submissions import submissions
from tests.conftest import REPO, WORKSHEETS

SCRIPT = """hi
I need help with joining a waitlist
join the waitlist
CS 224V
winter
skip
Ann Lee
ann@stanford.edu
yes
"""


def test_scripted_chat_submits_a_ticket_end_to_end_offline(_isolated_data_dir):
    result = subprocess.run([sys.executable, "-m", "genie_bot.cli", "chat", str(WORKSHEETS / "ticket_submission")],
                            input=SCRIPT, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("Offline mode: no LLM is configured") == 1
    replies = [r for r in result.stdout.split("\n\n") if r.strip()]
    assert replies[0].startswith("Hi! I'm the student services assistant")
    assert "What can I help you with" in replies[1]
    assert "Shall I go ahead and file a student services ticket?" in result.stdout
    assert "Your ticket TKT-00001 has been submitted" in result.stdout
    tickets = submissions("ticket")
    assert len(tickets) == 1
    assert tickets[0]["payload"]["details"] == {"issue_type": "Join Waitlist",
                                                "join_waitlist": {"course_name": "CS 224V", "quarter": "Winter"}}
    assert tickets[0]["payload"]["full_name"] == "Ann Lee"


def test_debug_shows_parse_and_acts(genie):
    result = genie("chat", "--debug", WORKSHEETS / "ticket_submission", stdin="a leave of absence\n")
    assert "parse (rules): main_0.student_task = 'Leave of Absence'" in result.stdout
    assert 'act: AskField(leave_of_absence_0, form_status, "the status of the leave of absence form")' in result.stdout


def test_piped_replies_are_plain_text(genie):
    result = genie("chat", WORKSHEETS / "course_enrollment", "--today", "2026-11-21",
                   stdin="what is cs 224n about?\n")
    assert result.returncode == 0
    assert "CS224N" in result.stdout and "**" not in result.stdout


def test_a_message_the_bot_would_park_is_set_aside_in_chat_too(make_agent):
    """Under the bot's limits (what ``genie-bot chat`` runs in), a runaway statement is stopped, the
    bot's reply given, and the conversation goes on from the state before it."""
    import io

    from genie_bot.cli.chat import run_chat
    from genie_bot.runtime.isolation import PARKED, sandboxed
    from genie_bot.runtime.sandbox import Sandbox, WorkerPool
    from genie_bot.spec import load_agent
    from tests.core.test_sandbox import POISONED_ORDER
    from tests.engine.support import build_agent

    agent = build_agent(load_agent(make_agent(POISONED_ORDER)))  # messages with '=' are used as statements
    out = io.StringIO()
    messages = "order = Order(dish='Pasta')\norder.code = '" + "x" * 50 + "'\norder.dish = 'Pizza'\n"
    pool = WorkerPool()  # of its own: the CPU other tests' runaways used counts against no budget of this one
    with sandboxed(Sandbox(pool=pool)):
        assert run_chat(agent, stdin=io.StringIO(messages), stdout=out, debug=True) == 0
    replies = [r for r in out.getvalue().split("\n\n") if r.strip()]
    assert PARKED in replies
    last_state = [line for line in out.getvalue().splitlines() if line.startswith("state: ")][-1]
    assert '"dish": "Pizza"' in last_state and '"code"' not in last_state
