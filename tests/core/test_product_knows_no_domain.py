"""The product knows no domain: the words of the example agents (courses, tickets, restaurants)
are in their worksheets, never in the code that reads messages, answers questions or runs turns.

Every string in ``genie_bot`` that is not a docstring (docstrings may use the examples to
explain) is searched for the examples' words; a few uses are English or a message about the
shipped agents themselves, and are listed with their reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

SOURCES = (REPO / "genie_bot", REPO / "adapters")
"""The package, and the platform adapters the wheel installs as genie_bot.adapters."""
EXAMPLE_WORDS = frozenset("""
course courses quarter instructor instructors professor enroll enrolled enrollment waitlist ticket tickets
restaurant restaurants reservation reservations cuisine dish pizza booking student students guest guests diner
diners italian seattle dinner lunch breakfast brunch
""".split())
"""Words of the example agents (worksheets/) that a generic dialogue engine has no use for."""
ALLOWED = {
    ("language/english.py", "course"): "'of course' is a yes",
    ("language/english.py", "quarter"): "a quarter is a period of time a question may ask about ('when')",
    ("parsers/dates.py", "quarter"): "'a quarter past eight'",
    ("config.py", "tickets"): "an example of agents: in genie.yaml, naming the shipped example agent",
    ("config.py", "ticket"): "an example of agents: in genie.yaml, naming the shipped example agent",
    ("cli/genie.py", "course"): "compare-genie's help: the field of the reference Genie's course agent",
}
"""(file under genie_bot/ or adapters/, word): why the word is no domain knowledge there."""
SKIPPED = ("star/", "spec/reference.py")
"""The STAR benchmark's own code (its agents are data under star/agents), and the worksheet
reference, whose strings are documentation: each key's example is taken from the example agents."""


def example_words_in_code(path: Path) -> list[tuple[int, str]]:
    """(line, word) for each example word in a string of ``path`` that is not a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            docstrings.add(id(body[0].value))
        for before, after in zip(body, body[1:]):  # an attribute's docstring, after its assignment
            if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr) \
                    and isinstance(after.value, ast.Constant):
                docstrings.add(id(after.value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found += [(node.lineno, w) for w in sorted(set(re.findall(r"[a-z]+", node.value.lower())) & EXAMPLE_WORDS)]
    return found


def test_no_code_string_uses_a_word_of_the_example_agents():
    found = []
    for root in SOURCES:
        for path in sorted(root.rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if relative.startswith(SKIPPED):
                continue
            found += [f"{root.name}/{relative}:{line}: {word!r}" for line, word in example_words_in_code(path)
                      if (relative, word) not in ALLOWED]
    assert found == [], "words of the example agents belong in their worksheets:\n" + "\n".join(found)


@pytest.mark.parametrize("source, expected", [
    ('X = re.compile(r"\\b(book a table|reservation)")\n', [(1, "reservation")]),
    ('def f():\n    """Reads "a table for 2 at the restaurant"."""\n    return "restaurant"\n', [(3, "restaurant")]),
    ('WORDS = ("a",)\n"""Unlike the restaurant agent\'s."""\n', []),
])
def test_the_search_finds_example_words_in_code_and_not_in_docstrings(tmp_path, source, expected):
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    assert example_words_in_code(path) == expected
