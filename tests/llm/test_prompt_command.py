"""``genie-bot prompt`` renders prompts for inspection without calling an LLM."""

from __future__ import annotations

import argparse

from genie_bot.cli import prompt as cli

from .conftest import WORKSHEETS


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_parser_prompt_at_a_state(capsys):
    statements = "main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 224V'))"
    assert run(["prompt", str(WORKSHEETS / "course_enrollment"), "--message", "letter please", "--today", "2026-11-23",
                "--statements", statements]) == 0
    out, err = capsys.readouterr()
    assert "===== system =====" in out and "===== user =====" in out
    assert "course_0 = Course(course_name='CS 224V')" in out and "User: letter please" in out
    assert "Monday, 2026-11-23" in out and "tokens" in err


def test_knowledge_prompt(capsys):
    assert run(["prompt", str(WORKSHEETS / "restaurant_reservation"), "--role", "knowledge",
                "--message", "quiet places in Seattle"]) == 0
    out, _ = capsys.readouterr()
    assert "CREATE TABLE restaurants (" in out and "Question: quiet places in Seattle" in out


def test_bad_statements_are_reported(capsys):
    assert run(["prompt", str(WORKSHEETS / "ticket_submission"), "--statements", "nonsense_0.x = 1"]) == 0
    assert "--statements: " in capsys.readouterr().err
