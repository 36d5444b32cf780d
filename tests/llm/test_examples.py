"""The example agents' few-shot examples teach statements the runtime accepts.

Each parser example is a state (itself statements), the previous acts, the last exchange and
the expected statements; we rebuild the state and dry-run the statements against it. The
knowledge examples' SQL must pass the validator over the agent's tables.
"""

from __future__ import annotations

import re

import pytest

from genie_bot.knowledge import KnowledgeStore
from genie_bot.knowledge.sql import validate_select
from genie_bot.llm.prompts import prompts_for
from genie_bot.parsers.repair import dry_run
from genie_bot.runtime import Runtime
from genie_bot.runtime.statements import apply_statements
from genie_bot.runtime.turn import Turn
from genie_bot.spec import load_agent

from .conftest import NOW, TODAY, WORKSHEETS

AGENTS = ["ticket_submission", "restaurant_reservation", "course_enrollment"]
_EXAMPLE = re.compile(r"State:\n```python\n(.*?)```.*?Statements:\n```python\n(.*?)```", re.S)
_SQL = re.compile(r"```sql\n(.*?)```", re.S)


@pytest.mark.parametrize("agent", AGENTS)
def test_parser_examples_apply_without_errors(agent):
    spec = load_agent(WORKSHEETS / agent)
    examples = _EXAMPLE.findall(prompts_for(spec.directory).examples("parser"))
    assert len(examples) >= 4
    runtime = Runtime(spec, clock=lambda: NOW)
    for state_source, statements in examples:
        turn = Turn(spec, runtime.new_state(), runtime.executor, TODAY, NOW)
        apply_statements(turn, state_source)
        assert not turn.update.errors, (state_source, turn.update.errors)
        update = dry_run(spec, turn.state, statements, TODAY)
        assert not update.errors, (statements, update.errors)


@pytest.mark.parametrize("agent", ["restaurant_reservation", "course_enrollment"])
def test_knowledge_examples_are_valid_queries(agent):
    spec = load_agent(WORKSHEETS / agent)
    tables = [t.name for t in KnowledgeStore(spec).tables.values()]
    queries = _SQL.findall(prompts_for(spec.directory).examples("knowledge"))
    assert len(queries) >= 4
    for sql in queries:
        validate_select(sql, tables, 20)
