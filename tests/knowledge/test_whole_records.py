"""A record in a field is always the whole row, however it was chosen (issue 36, item 4): also from an
answer that showed only some of its columns, so that a check on another column works."""

from __future__ import annotations

import datetime as dt

from genie_bot.agent import Agent
from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.knowledge.importer import load_tables
from genie_bot.runtime import LocalApiExecutor, Runtime
from genie_bot.spec import load_agent
from genie_bot.state import DialogueState

AGENT = """
    name: kennel
    description: Boards dogs at a kennel.
    tasks:
      - name: BoardDog
        description: Board a dog at a kennel
        examples: [board my dog]
        fields:
          - name: nights
            type: int
            description: the number of nights
          - name: kennel
            type: kennels
            description: the kennel to board at
            validation:
              expression: value.max_nights >= self.nights
              message: That kennel does not take dogs for so long.
    knowledge:
      - name: kennels
        noun: kennel
        csv: kennels.csv
        {key}
        columns:
          id: the kennel's code
          name: the kennel's name
          price: {{type: float, description: the price per night}}
          max_nights: {{type: int, description: the longest stay it takes}}
"""
KENNELS = "id,name,price,max_nights\nK1,Barkley House,40,7\nK2,Tail End,55,30\n"
WHOLE = {"id": "K1", "name": "Barkley House", "price": 40.0, "max_nights": 7}


def spec(make_agent, key: str = "primary_key: id"):
    return load_agent(make_agent(AGENT.format(key=key), files={"kennels.csv": KENNELS}))


def test_the_whole_rows_of_records_an_answer_shows_in_part(make_agent, database):
    agent = spec(make_agent)
    load_tables(database, agent)
    store = KnowledgeStore(agent, database)
    shown = [{"id": "K1", "name": "Barkley House", "price": 40.0}]
    assert store.whole_records(shown, ["kennels"]) == {"kennels": [WHOLE]}
    assert store.whole_records([WHOLE], ["kennels"]) == {}  # whole already: nothing to keep twice
    assert store.whole_records([{"id": "K1", "owner": "Ann"}], ["kennels"]) == {}  # a join: not its rows
    keyless = spec(make_agent, key="")
    load_tables(database, keyless)
    by_name = KnowledgeStore(keyless, database).whole_records([{"name": "Barkley House"}], ["kennels"])
    assert by_name == {"kennels": [WHOLE]}  # without a primary key, by the column that names records


def test_a_record_chosen_from_an_answer_that_showed_some_columns_is_the_whole_row(make_agent):
    bot = Agent(spec(make_agent), clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = bot.new_state()
    for message in ("board my dog for 5 nights", "what is the price of Barkley House?"):
        reply = bot.respond(state, message)
        state = reply.state
    assert "max_nights" not in reply.acts[0].result[0]  # the answer showed the price, not the longest stay
    reply = bot.respond(state, "that one")
    assert reply.state.instances["board_dog_0"].values["kennel"] == WHOLE
    assert "does not take dogs" not in reply.text


def test_a_record_an_answer_assigns_to_its_field_is_the_whole_row(make_agent):
    agent = spec(make_agent)
    runtime = Runtime(agent, LocalApiExecutor(agent, knowledge=KeywordQuery(KnowledgeStore(agent))),
                      clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = runtime.run_turn(runtime.new_state(), "board_dog_0 = BoardDog(nights=5)").state
    result = runtime.run_turn(state, "board_dog_0.kennel = answer('what is the price of Barkley House?')")
    assert not result.update.rejected
    assert result.state.instances["board_dog_0"].values["kennel"] == WHOLE
    assert result.state.answer.records == {"kennels": [WHOLE]}
    assert DialogueState.from_json(result.state.to_json()).answer == result.state.answer  # kept as stored
