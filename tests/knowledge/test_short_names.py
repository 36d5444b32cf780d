"""Short names of records ("alvarez" for Dr. Maria Alvarez, "corolla" for Toyota Corolla) and
names shared by several records, on SQLite and PostgreSQL."""

from __future__ import annotations

from genie_bot.knowledge import KnowledgeStore
from genie_bot.knowledge.importer import load_tables
from genie_bot.knowledge.mentions import SHARED_SCORE, SHORT_SCORE, short_names
from genie_bot.spec import load_agent

AGENT = """
name: clinic
knowledge:
  - name: staff
    csv: data/staff.csv
    primary_key: staff_id
"""
ROWS = """staff_id,name,weekday
S1,Dr. Maria Alvarez,Monday
S2,Dr. Samuel Okafor,Monday
S3,Maria Chen,Tuesday
S4,Toyota Corolla,Tuesday
S5,Spin 45,Tuesday
S6,Spin 45,Thursday
S7,The Oak Spoon,Friday
"""


def store(make_agent, database) -> KnowledgeStore:
    spec = load_agent(make_agent(AGENT, files={"data/staff.csv": ROWS}))
    load_tables(database, spec)
    return KnowledgeStore(spec, database)


def test_the_short_names_of_a_name_are_its_first_and_last_words():
    assert short_names("Dr. Maria Alvarez") == ["alvarez", "drmaria", "mariaalvarez"]  # "dr": too short
    assert short_names("Spin 45") == ["spin"]  # "45" alone says nothing
    assert short_names("The Oak Spoon") == ["oak", "spoon"]
    assert short_names("Zumba") == []  # one word: the name itself


def test_a_short_name_that_one_name_has_names_its_record(make_agent, database):
    names = store(make_agent, database).record_names("staff")
    (found,) = names.find("can i see alvarez on monday")
    assert found.record["staff_id"] == "S1" and found.score == SHORT_SCORE and found.by == "name"
    (found,) = names.find("a corolla please")
    assert found.record["staff_id"] == "S4"  # a product without its brand
    (found,) = names.find("Maria Chen")
    assert found.record["staff_id"] == "S3" and found.score == 100.0  # a whole name beats a short one


def test_a_short_name_of_several_names_names_them_all_weaker_than_any_other_name(make_agent, database):
    """The caller lists them and asks which: "maria" is Maria Chen, or Dr. Maria Alvarez (inside whose name it is)."""
    names = store(make_agent, database).record_names("staff")
    found = names.find("maria")
    assert sorted(m.record["staff_id"] for m in found) == ["S1", "S3"]
    assert {m.score for m in found} == {SHARED_SCORE} and SHARED_SCORE < SHORT_SCORE
    assert names.find("tuesday") == []  # a column's value is no name
    assert names.find("the dr") == []  # two doctors


def test_a_name_several_records_share_names_them_all_by_that_column(make_agent, database):
    knowledge = store(make_agent, database)
    (found,) = knowledge.record_names("staff").find("spin on thursday")
    assert found.by == "name"  # not the key: the caller asks for every record with that name
    assert sorted(r["staff_id"] for r in knowledge.rows("staff", {"name": found.record["name"]})) == ["S5", "S6"]
    (by_key,) = knowledge.record_names("staff").find("S6")
    assert by_key.by == "staff_id" and by_key.record["weekday"] == "Thursday"
