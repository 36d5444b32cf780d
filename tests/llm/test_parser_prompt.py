"""What the LLM parser's prompt contains: signatures, state as statements, last acts, last turn only."""

from __future__ import annotations

import shutil

from genie_bot.agent import build_agent
from genie_bot.llm.prompts import prompts_for
from genie_bot.spec import load_agent

from .conftest import NOW, WORKSHEETS

ORDER_AGENT = """
name: diner
description: Orders food for pick-up.
tasks:
  - name: Order
    description: order food for pick-up
    examples: [I want to order a pizza]
    fields:
      - {name: dish, type: enum, values: [Pizza, Pasta], description: the dish}
      - {name: size, type: enum, values: [Small, Large], predicate: "self.dish == 'Pizza'"}
      - {name: count, type: int, description: how many}
      - {name: secret_score, type: int, kind: internal, required: false, description: HIDDEN-INTERNAL}
      - {name: note, type: str, required: false, description: a note for the kitchen}
      - {name: order_id, type: str, kind: output, description: the order id}
"""


def test_signatures_show_types_options_descriptions_and_hide_internal_fields(server, script, make_agent, chat_with):
    chat = chat_with(load_agent(make_agent(ORDER_AGENT)))
    script.add("parser", "```python\norder_0 = Order(dish='Pizza')\n```")
    script.add("responder", "What size?")
    chat.say("a pizza please")
    prompt = script.prompt("parser")
    assert "Order: order food for pick-up" in prompt
    assert "dish: enum['Pizza', 'Pasta']  # the dish" in prompt
    assert "only when self.dish == 'Pizza'" in prompt
    assert "note: str  # a note for the kitchen; optional" in prompt
    assert "order_id: str  # the order id; output, set by the agent: never assign it" in prompt
    assert "secret_score" not in prompt and "HIDDEN-INTERNAL" not in prompt


def test_state_previous_acts_last_turn_only_and_date(server, script, settings, course_spec, chat_with):
    chat = chat_with(course_spec, settings.replace(fast_path=False))
    script.add("parser", "```python\nmain_0.courses_to_take = CoursesToTake(course_0_details=Course("
                         "course_name='CS 224V', grade_type='Letter'))\n```")
    script.add("parser", "course_0.course_num_units = 3")
    script.add("responder", "How many units?", "Which second course?")
    chat.say("FIRST-MESSAGE: I want CS 224V for a letter grade")
    chat.say("3 units, SECOND-MESSAGE")

    system, user = (m["content"] for m in script.requests["parser"][-1]["messages"])
    assert "course_0 = Course(course_name='CS 224V', grade_type='Letter')\n" \
           "courses_to_take_0 = CoursesToTake(course_0_details=course_0)\n" \
           "main_0 = Main(courses_to_take=courses_to_take_0)" in user
    assert 'AskField(course_0, course_num_units, "the number of units to take the course for (1 to 5)")' in user
    assert "Agent: How many units would you like to take it for?\nUser: 3 units, SECOND-MESSAGE" in user
    assert "FIRST-MESSAGE" not in system + user  # only the last exchange, never the history
    assert "Monday, 2026-11-23" in user
    assert "CoursesToTake: The two to four courses the student wants to take" in system
    assert "main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 224V'" in system  # examples
    assert "Update, do not duplicate" in system and '"NA"' in system and "answer(" in system


def test_first_turn_shows_the_greeting_and_no_acts(server, script, settings, restaurant_spec, chat_with):
    chat = chat_with(restaurant_spec, settings.replace(fast_path=False))
    script.add("parser", "# hello")
    script.add("responder", "Hi!")
    chat.say("hello there")
    user = script.requests["parser"][0]["messages"][1]["content"]
    assert "# nothing yet" in user and "(none)" in user
    assert "Agent: Hi! I can help you find a restaurant" in user


def test_knowledge_results_in_the_state_are_abbreviated(server, script, settings, restaurant_spec, chat_with):
    chat = chat_with(restaurant_spec, settings.replace(fast_path=False))
    script.add("parser", "answer('Thai restaurants in Seattle')", "# ok")
    script.add("knowledge", "SELECT * FROM restaurants WHERE city = 'Seattle' AND cuisine = 'Thai'")
    script.add("responder", "Found some.", "Ok.")
    chat.say("thai in seattle?")
    chat.say("ok")
    user = script.requests["parser"][1]["messages"][1]["content"]
    assert "answer('Thai restaurants in Seattle')  # " in user
    assert "restaurants(id=257, name='Jasmine Thai Kitchen')" in user
    assert "pad see ew" not in user  # reviews stay out of the parser's state
    assert "Report(answer('Thai restaurants in Seattle'), [(id=237, name='Sukhothai Thai Street Eats'), " in user


def test_a_bot_builder_overrides_a_template_for_one_agent(tmp_path, server, script, settings, chat_with):
    agent_dir = tmp_path / "restaurants"
    shutil.copytree(WORKSHEETS / "restaurant_reservation", agent_dir)
    (agent_dir / "prompts" / "parser.user.j2").write_text("CUSTOM USER PROMPT for {{ user }} on {{ today }}")
    (agent_dir / "prompts" / "parser.system.j2").write_text(
        '{% extends "default/parser.system.j2" %}{% block guidelines %}CUSTOM GUIDELINES{% endblock %}')
    chat = chat_with(load_agent(agent_dir), settings.replace(fast_path=False))
    script.add("parser", "# hi")
    script.add("responder", "Hi!")
    chat.say("hi")
    system, user = (m["content"] for m in script.requests["parser"][0]["messages"])
    assert user == "CUSTOM USER PROMPT for hi on 2026-11-23"
    assert "CUSTOM GUIDELINES" in system and "Update, do not duplicate" not in system
    assert "BookRestaurant: Book a table at a restaurant" in system  # the other blocks are the defaults
    assert "Trattoria Sole" in system  # and the agent's examples are still there


def test_the_built_in_templates_serve_agents_without_prompts_directory(make_agent):
    library = prompts_for(make_agent(ORDER_AGENT))
    assert library.examples("parser") == ""
    (user,) = library.messages("parser_repair", errors=["line 1: unknown name 'x'"])
    assert user["role"] == "user" and "- line 1: unknown name 'x'" in user["content"]


TOPICS = ("apples bicycles candles dentists elevators ferries glaciers harbours igloos jackets kettles lanterns "
          "mirrors novels orchards parcels quilts rockets saddles tunnels umbrellas violins wagons yachts zebras "
          "anchors barrels cactuses dolphins engines").split()
MANY_TASKS = "\n".join(f"""
  - name: Task{i}
    description: handle a request about {topic}
    fields:
      - {{name: value{i}, type: str, description: what the user wants done with the {topic}}}"""
                       for i, topic in enumerate(TOPICS))


def test_many_worksheets_are_narrowed_to_the_relevant_ones(server, script, make_agent, settings):
    spec = load_agent(make_agent(f"""
name: big
description: An agent with thirty tasks.
tasks:
  - name: Wrapper
    description: a wrapper around task seven
    fields:
      - {{name: inner, type: Task7}}
{MANY_TASKS}
"""))
    agent = build_agent(spec, settings.replace(max_worksheets=5, fast_path=False), clock=lambda: NOW)
    state = agent.runtime.run_turn(agent.new_state(), "task3_0 = Task3()").state
    script.add("parser", "# noted")
    script.add("responder", "Ok.")
    agent.respond(state, "something about mirrors and the wrapper")
    system = script.requests["parser"][0]["messages"][0]["content"]
    shown = {line.split(":")[0] for line in system.splitlines() if line.startswith(("Task", "Wrapper"))}
    assert shown == {"Task3", "Task12", "Wrapper", "Task7"}  # open, mentioned, and what those contain


def test_a_chosen_record_is_rendered_as_the_parser_writes_it(server, script, restaurant_spec, settings, chat_with):
    chat = chat_with(restaurant_spec, settings.replace(fast_path=False))
    chat.statements("book_restaurant_0 = BookRestaurant(restaurant=restaurants(id=1, name='The Oak Spoon'))")
    script.add("parser", "# ok")
    script.add("responder", "For which date?")
    chat.say("hmm")
    assert "book_restaurant_0 = BookRestaurant(restaurant=restaurants(id=1, name='The Oak Spoon'))" in \
        script.prompt("parser")
