"""The STAR evaluator: its protocol pieces, its metric, and a smoke run of ``genie-bot eval star``.

The smoke run replays the dialogues listed in ``smoke_ids.txt`` (five per task) from the copy of
STAR dialogues in ``data/`` (MIT licence, ``data/LICENSE.txt``); its figures are pinned, so any
change to the agents, the parser or the protocol shows up here and must be looked at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genie_bot.acts import AskField, Report, Say
from genie_bot.cli import main
from genie_bot.runtime import ApiRequest
from genie_bot.spec import load_agent
from genie_bot.star import AGENTS_DIR
from genie_bot.star.dialogues import ApiResult, UserTurn, WizardTurn, read_dialogue, read_ids
from genie_bot.star.labels import API_PENDING, load_label_map
from genie_bot.star.metrics import score
from genie_bot.star.recorded import NotRecordedYet, RecordedApiExecutor
from genie_bot.state import DialogueState

HERE = Path(__file__).parent
DATA = HERE / "data"
SMOKE_IDS = HERE / "smoke_ids.txt"


def run_eval(tmp_path: Path, *args: str) -> tuple[int, dict]:
    out = tmp_path / "results.json"
    code = main(["eval", "star", "--data", str(DATA), "--out", str(out), *args])
    return code, json.loads(out.read_text()) if out.exists() else {}


def test_smoke_run_on_five_dialogues_per_task(tmp_path, capsys):
    code, results = run_eval(tmp_path, "--ids", str(SMOKE_IDS), "--parser", "rules")
    assert code == 0
    figures = {task: (r["dialogues"], r["scored_turns"], r["accuracy"], r["weighted_f1"])
               for task, r in results["tasks"].items()}
    assert figures == {  # the understanding parser (issue 35); the cascade had 0.7576 / 0.6111 / 0.8868 accuracy
        "bank_fraud_report": (5, 33, 0.8182, 0.8442),
        "trip_directions": (5, 36, 0.6389, 0.6159),
        "trivia": (5, 53, 0.8868, 0.8959),
    }
    scored = {p["dialogue"] for p in results["predictions"]}
    assert scored <= {i for _, i in read_ids(SMOKE_IDS)} and "654" not in scored  # 654 is in data/, not listed
    assert "most frequent errors" in capsys.readouterr().out


def test_the_run_is_deterministic(tmp_path):
    first = run_eval(tmp_path, "--ids", str(SMOKE_IDS), "--tasks", "trivia")[1]["predictions"]
    second = run_eval(tmp_path, "--ids", str(SMOKE_IDS), "--tasks", "trivia")[1]["predictions"]
    assert first == second


def test_unknown_task_and_missing_llm_are_reported(tmp_path, monkeypatch, capsys):
    assert run_eval(tmp_path, "--tasks", "restaurant_search")[0] == 2
    for variable in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY",
                     "GENIE_LLM_REPLAY"):
        monkeypatch.delenv(variable, raising=False)
    assert run_eval(tmp_path, "--parser", "llm", "--tasks", "trivia")[0] == 1
    assert "--parser llm" in capsys.readouterr().err


# -- what the agent is shown ---------------------------------------------------------------------------
def test_a_dialogue_keeps_only_user_turns_api_results_and_wizard_labels():
    dialogue = read_dialogue(DATA / "dialogues" / "614.json")
    assert dialogue.task == "bank_fraud_report"
    assert {type(e) for e in dialogue.events} == {UserTurn, ApiResult, WizardTurn}
    assert all(set(vars(e)) == {"label", "index"} for e in dialogue.events if isinstance(e, WizardTurn))  # no text


def test_ids_file_takes_plain_ids_and_task_tab_id(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("# a comment\n42\ntrivia\t7\n\n")
    assert read_ids(ids) == {(None, "42"), ("trivia", "7")}


def test_recorded_results_are_served_only_once_revealed_and_latest_first():
    spec = load_agent(AGENTS_DIR / "trivia")
    executor = RecordedApiExecutor(spec, "trivia")
    request = ApiRequest("question_0", "Question", "trivia", {"question_number": 1}, False)
    with pytest.raises(NotRecordedYet):
        executor.call_api(request)
    executor.reveal(ApiResult("trivia", {"APIName": "trivia", "Question": "Q1?", "Answer": "a1"}))
    executor.reveal(ApiResult("trivia", {"APIName": "trivia", "Question": "Q2?", "Answer": "a2"}))
    assert executor.call_api(request) == {"question": "Q2?", "answer": "a2"}
    with pytest.raises(NotRecordedYet):
        executor.call_api(request)  # the first result went to no call of the agent: it is skipped
    local = ApiRequest("game_0", "Game", "check_answer", {"guess": "a snail", "answer": "snail"}, False)
    assert executor.call_api(local) == "correct"


# -- from acts to labels -------------------------------------------------------------------------------
def test_labels_follow_the_first_matching_act_then_understanding_then_idleness():
    labels = load_label_map(AGENTS_DIR / "trivia")
    state = DialogueState()
    assert labels.label([], state, understood=True) == "hello"
    assert labels.label([], state, understood=False) == "out_of_scope"
    game = state.add_instance("Game")
    game.values["outcome"] = "correct"
    ask_next = AskField(game.name, "keep_playing", "whether to go on")
    assert labels.label([Say("Well done!"), ask_next], state, understood=True) == \
        "trivia_inform_answer_correct_ask_next"
    game.values["outcome"] = None
    assert labels.label([ask_next], state, understood=True) == "trivia_inform_answer_2_ask_next"
    pending = Report("question_0", {"error": "trivia failed: not recorded yet"})
    assert labels.label([pending, ask_next], state, understood=True) == API_PENDING
    assert labels.label([], state, understood=True) == "trivia_bye"


# -- the metric --------------------------------------------------------------------------------------
def test_weighted_f1_weighs_each_gold_label_by_its_support():
    result = score([("a", "a"), ("a", "a"), ("a", "b"), ("b", "b"), ("c", "a")])
    # a: P 2/3 R 2/3 F1 2/3 (support 3); b: P 1/2 R 1 F1 2/3 (support 1); c: F1 0 (support 1)
    assert result.turns == 5
    assert result.accuracy == pytest.approx(0.6)
    assert result.weighted_f1 == pytest.approx((3 * 2 / 3 + 1 * 2 / 3 + 0) / 5)
    assert result.errors == (("a", "b", 1), ("c", "a", 1))
