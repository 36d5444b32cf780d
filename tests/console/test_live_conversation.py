"""The console's own conversations in headless Chromium: chat, Confirm, the turn inspector, the export."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from genie_bot.cli import main
from genie_bot.submissions import submissions

from .harness import (REPO, TICKETS, ServedConsole, click_confirm, console_for, expect, file_waitlist_ticket,
                      open_new_conversation, say)


@pytest.fixture
def served(tmp_path: Path):
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}")) as console:
        yield console


def test_a_ticket_is_filed_once_by_clicking_confirm_on_its_card(served, page):
    file_waitlist_ticket(page, served.url)
    card = page.locator("#messages .card")
    expect(card.locator(".card-title")).to_have_text("File a student services ticket")
    expect(card.locator(".summary")).to_contain_text("Ann Lee")
    expect(card.locator(".summary")).to_contain_text("CS 224V")
    assert submissions("ticket") == []
    action_id = card.get_attribute("data-action")

    click_confirm(page)

    expect(page.locator(".msg.user").last).to_have_text("Clicked Confirm")
    expect(page.locator(".msg.bot").last).to_contain_text("Your ticket TKT-00001 has been submitted")
    expect(page.locator("#messages .card button")).to_have_count(0)
    expect(page.locator(f'#messages .card[data-action="{action_id}"]')).to_have_attribute("data-status", "done")
    expect(page.locator("#turn-5 dd.pending")).to_contain_text("submit_ticket: done")
    [ticket] = submissions("ticket")
    assert ticket["idempotency_key"] == action_id and ticket["payload"]["full_name"] == "Ann Lee"

    # A late second click (a double click) and a typed "yes" run nothing again.
    late = page.request.post(served.url + "/api/session/action",
                             data={"key": page.locator("body").get_attribute("data-key"), "action_id": action_id,
                                   "decision": "confirm"})
    assert late.ok and late.json()["turns"][-1]["reply"] == "That was already done."
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-turns", "8")
    say(page, "yes")
    assert len(submissions("ticket")) == 1


def test_the_inspector_shows_statements_acts_rejections_and_the_state_diff(served, page):
    open_new_conversation(page, served.url)
    say(page, "I need help joining a waitlist")
    first = page.locator("#turn-0")
    expect(first.locator("summary")).to_contain_text("#1 · message · parse: rules · ok")
    expect(first.locator("pre.statements")).to_have_text(
        "main_0.student_task = 'TroubleShoot'\nmain_0.troubleshoot_details = TroubleShoot(issue_type='Join Waitlist')")
    expect(first.locator("ul.acts")).to_have_text(
        ['AskField(join_waitlist_0, course_name, "the course whose waitlist to join")'])
    expect(first.locator("tr.instance")).to_have_text(["main_0 (Main) changed", "trouble_shoot_0 (TroubleShoot) added",
                                                       "join_waitlist_0 (JoinWaitlist) added"])
    expect(first.locator("tr.field", has_text="issue_type").locator("td.after")).to_have_text("'Join Waitlist'")

    say(page, "CS 224V")
    second = page.locator("#turn-1")
    expect(second).to_have_attribute("open", "")
    expect(first).not_to_have_attribute("open", "")  # earlier turns fold away
    expect(second.locator("tr.instance")).to_have_text(["join_waitlist_0 (JoinWaitlist) changed"])
    course = second.locator("tr.field", has_text="course_name")
    expect(course.locator("td.before")).to_have_text("—")
    expect(course.locator("td.after")).to_have_text("'CS 224V'")
    expect(second.locator("dd.llm")).to_have_text("0 call(s), 0 prompt + 0 completion tokens, $0.000000")
    expect(second.locator("dd.latency")).to_contain_text("total")

    for text in ("winter", "skip", "Ann Lee", "ann@stanford,edu"):
        say(page, text)
    typo = page.locator("#turn-5")
    expect(typo.locator("ul.rejections")).to_contain_text("main_0.email = 'ann@stanford,edu'")
    expect(typo.locator("ul.acts")).to_contain_text("AskField(main_0, email")

    page.locator(".msg.user").first.click()  # a message opens its turn
    expect(first).to_have_attribute("open", "")


def test_the_conversation_exported_as_a_test_passes_genie_bot_test(served, page, tmp_path: Path, capsys):
    file_waitlist_ticket(page, served.url)
    click_confirm(page)
    with page.expect_download() as download:
        page.click("#export")
    expect(page.locator("#export-status")).to_have_text(
        "Passes genie-bot test. Save it as AGENT_DIR/tests/i_need_help_joining_a_waitlist.yaml.")
    agent = tmp_path / "agent"
    shutil.copytree(TICKETS, agent, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    saved = agent / "tests" / download.value.suggested_filename
    saved.parent.mkdir()
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert page.locator("#export-yaml").text_content() == text

    scenario = yaml.safe_load(text)
    assert scenario["today"] == "2026-11-21"
    assert scenario["apis"] == {"submit_ticket": {"ticket_id": "TKT-00001", "status": "submitted"}}
    assert [turn["user"] for turn in scenario["turns"]] == [
        "I need help joining a waitlist", "CS 224V", "winter", "the class is required for my major",
        "my name is Ann Lee", "ann@stanford.edu", "yes"]
    confirmed = scenario["turns"][-1]["expect"]
    assert confirmed["acts"] == ["Report main_0", "Say"] and confirmed["submissions"] == 1
    assert confirmed["api_calls"][0]["submit_ticket"]["full_name"] == "Ann Lee"
    assert scenario["turns"][1]["expect"]["state"] == {"join_waitlist_0.course_name": "CS 224V"}

    capsys.readouterr()
    assert main(["test", str(agent)]) == 0
    assert "PASS" in capsys.readouterr().out


def test_markup_in_a_user_message_is_shown_as_text_everywhere(served, page):
    attack = '<img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script>'
    open_new_conversation(page, served.url)
    for text in ("I need help joining a waitlist", "CS 224V", "winter", attack, "Ann Lee", "ann@stanford.edu"):
        say(page, text)
    expect(page.locator(".msg.user").nth(3)).to_have_text(attack)
    expect(page.locator("#messages .card .summary")).to_contain_text(attack)
    expect(page.locator(".msg.bot").last).to_contain_text(attack)
    expect(page.locator("#turn-3 dd.user")).to_have_text(attack)
    expect(page.locator("#turn-3 pre.statements")).to_contain_text(attack)
    expect(page.locator("#turn-3 tr.field", has_text="extra_details").locator("td.after")).to_contain_text(attack)
    assert page.locator("main img, main script, #turns img").count() == 0
    assert page.locator("body").get_attribute("data-pwned") is None


def test_the_inspector_shows_a_knowledge_query_with_its_result(page, tmp_path: Path):
    courses = REPO / "worksheets" / "course_enrollment"
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}", courses)) as served:
        open_new_conversation(page, served.url)
        say(page, "CS 224V")
        say(page, "how many units is CS 224V?")
    asked = page.locator("#turn-1")
    expect(asked.locator("ul.acts li").first).to_contain_text("Report(answer(")
    knowledge = asked.locator("dd .knowledge")
    expect(knowledge).to_contain_text("Question: how many units is CS 224V?")
    expect(knowledge.locator("pre.query")).to_contain_text("SELECT")
    expect(knowledge.locator("pre.result")).to_contain_text("\"course_id\": \"CS224V\"")
