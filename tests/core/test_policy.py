"""The agent policy (Algorithm 1) and the application of parser statements, turn by turn."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.acts import AskField, AskForConfirmation, Say
from genie_bot.runtime import ApiRequest, KnowledgeResult, LocalApiExecutor, RecordedKnowledge, Runtime
from genie_bot.runtime.after_submission import FOLLOW_UP_TEXT
from genie_bot.runtime.policy import CascadeLimitExceeded
from genie_bot.spec import NA, InstanceRef, load_agent
from genie_bot.state import InstanceStatus

from .agents import ORDER_AGENT, ORDER_API, ORDER_FILES

ABANDONED, ACTIVE, COMPLETED = InstanceStatus.ABANDONED, InstanceStatus.ACTIVE, InstanceStatus.COMPLETED

TODAY = dt.datetime(2026, 11, 21, 12, 0)


class Conversation:
    """Runs statements turn by turn and keeps the state, like a session would."""

    def __init__(self, runtime: Runtime):
        self.runtime = runtime
        self.state = runtime.new_state()
        self.result = None

    def say(self, statements: str, executor=None) -> list[str]:
        self.result = self.runtime.run_turn(self.state, statements, executor=executor)
        self.state = self.result.state
        return [a.formal() for a in self.result.acts]

    @property
    def acts(self):
        return self.result.acts

    def instance(self, name: str):
        return self.state.instances[name]


@pytest.fixture
def spec(make_agent):
    spec = load_agent(make_agent(ORDER_AGENT, ORDER_API, ORDER_FILES))
    api_calls(spec).clear()  # the API module is shared by every agent loaded from the same source
    return spec


@pytest.fixture
def chat(spec):
    return Conversation(Runtime(spec, clock=lambda: TODAY))


def api_calls(spec):
    return spec.apis["place_order"].fn.__globals__["CALLS"]


def fill_order(chat):
    chat.say("order = Order(dish='Pasta', count=2, name='Ann')")
    chat.say("order.name.confirmed = True")
    chat.say("order.note = 'NA'")
    return chat.say("order.when = NA")


def test_step4_asks_first_unfilled_askable_field_respecting_predicates(chat):
    assert chat.say("order = Order()") == ['AskField(order, dish, "the dish")']
    assert chat.say("order.dish = 'pizza'") == ['AskField(order, size, "size")']
    chat.say("order.dish = 'Pasta'")
    assert chat.acts == [AskField("order", "count", "count")]  # size no longer applies


def test_internal_and_dont_ask_fields_are_never_asked(chat, spec):
    fill_order(chat)
    asked = {a.field for a in chat.state.last_acts if isinstance(a, AskField)}
    assert not asked & {"secret", "extra", "order_id"}
    assert isinstance(chat.acts[0], AskForConfirmation)  # complete without secret/extra


def test_step2_confirm_field_asks_for_confirmation_then_runs_its_actions(chat):
    assert chat.say("order = Order(dish='Pasta', count=2, name='Ann')") == ["AskForFieldConfirmation(order, name, 'Ann')"]
    assert chat.say("order.name.confirmed = True") == ['Say("Hi Ann")', 'AskField(order, note, "note")']
    assert "name" in chat.instance("order").confirmed_fields


def test_declined_field_confirmation_clears_the_value_and_asks_again(chat):
    chat.say("order = Order(dish='Pasta', count=2, name='Ann')")
    assert chat.say("order.name.confirmed = False") == ['AskField(order, name, "name")']
    assert "name" not in chat.instance("order").values


def test_changing_a_confirmed_field_resets_its_confirmation(chat):
    chat.say("order = Order(dish='Pasta', count=2, name='Ann')")
    chat.say("order.name.confirmed = True")
    assert chat.say("order.name = 'Bob'") == ["AskForFieldConfirmation(order, name, 'Bob')"]
    assert chat.instance("order").confirmed_fields == []


def test_step3_side_effecting_api_waits_for_confirmation_and_runs_once(chat, spec):
    assert fill_order(chat) == ["AskForConfirmation(order)"]
    act = chat.acts[0]
    assert act.values == {"dish": "Pasta", "count": 2, "name": "Ann"} and act.api == "place_order"
    assert api_calls(spec) == []
    assert chat.say("# user chats about the weather") == ["AskForConfirmation(order)"]
    assert api_calls(spec) == []
    assert chat.say("order.confirmed = True") == ["Report(order, {'order_id': 'O1'})", 'Say("Order O1 placed")']
    assert api_calls(spec) == [{"dish": "Pasta", "count": 2, "name": "Ann"}]
    assert chat.instance("order").status == COMPLETED and chat.instance("order").values["order_id"] == "O1"
    chat.say("order.confirmed = True")
    assert len(api_calls(spec)) == 1


def test_a_change_after_the_summary_needs_a_fresh_confirmation(chat, spec):
    fill_order(chat)
    assert chat.say("order.count = 3") == ["AskForConfirmation(order)"]
    assert chat.acts[0].values["count"] == 3
    chat.say("order.confirmed = True")
    assert api_calls(spec)[-1]["count"] == 3


def test_declining_the_confirmation_does_not_run_the_api(chat, spec):
    fill_order(chat)
    assert chat.say("order.confirmed = False") == [Say(__import__("genie_bot.runtime.policy", fromlist=["x"]).DECLINED_TEXT).formal()]
    assert chat.say("# nothing") == ["AskForConfirmation(order)"]  # nothing changed: the summary is shown again
    assert api_calls(spec) == []
    assert chat.say("order.confirmed = False") == [Say(__import__("genie_bot.runtime.policy", fromlist=["x"]).DECLINED_TEXT).formal()]
    assert chat.say("order.count = 4") == ["AskForConfirmation(order)"]
    assert api_calls(spec) == []


def test_a_change_to_a_submitted_worksheet_is_a_new_request_and_what_was_submitted_stays(chat):
    fill_order(chat)
    chat.say("order.confirmed = True")
    acts = chat.say("order.count = 4")
    assert acts == [f'Say("{FOLLOW_UP_TEXT}")', "AskForConfirmation(order_0)"]
    assert chat.instance("order").values["count"] == 2 and chat.instance("order").status == COMPLETED
    assert chat.instance("order_0").values["count"] == 4 and "order_id" not in chat.instance("order_0").values


def test_worksheet_without_side_effects_runs_and_reports_immediately(chat):
    acts = chat.say("menu = Menu(section='Mains')")
    assert acts == ["Report(menu, ['Margherita', 'Carbonara'])"]
    assert chat.instance("menu").status == COMPLETED


def test_propose_accept_decline_and_ignore(chat):
    assert chat.say("m = Menu(section='Desserts')") == ["Report(m, ['Tiramisu'])", "ProposeWorksheet(Order, {'dish': 'Pasta'})"]
    proposed = chat.acts[1].instance
    assert chat.say(f"{proposed}.confirmed = True") == [f'AskField({proposed}, count, "count")']
    assert chat.instance(proposed).status == ACTIVE and chat.instance(proposed).values["dish"] == "Pasta"
    chat.say("m2 = Menu(section='Desserts')")
    second = chat.acts[1].instance
    chat.say(f"{second}.confirmed = False")
    assert chat.instance(second).status == ABANDONED
    chat.say("m3 = Menu(section='Desserts')")
    third = chat.acts[1].instance
    chat.say("# the user talks about something else")
    assert chat.instance(third).status == InstanceStatus.DROPPED  # let pass, not cancelled


def test_nested_worksheet_is_asked_then_completes_the_parent_field(chat):
    assert chat.say("party = Party()") == ['AskField(guest_0, guest_name, "guest name")']
    assert chat.instance("guest_0").parent == ("party", "host")
    assert chat.say("guest_0.guest_name = 'Zoe'") == ['AskField(guest_0, vegan, "vegan")']
    assert chat.say("party.host.vegan = 'yes'") == ['AskField(party, size, "size")']
    assert chat.instance("guest_0").status == COMPLETED
    assert chat.instance("party").values["host"] == InstanceRef("guest_0")
    chat.say("party.size = 10")
    assert chat.instance("party").status == COMPLETED


def test_nested_constructors_in_one_statement(chat):
    chat.say("party = Party(host=Guest(guest_name='Zoe', vegan=False), size='12')")
    assert chat.instance("party").status == COMPLETED and chat.instance("party").values["size"] == 12


def test_exitws_from_worksheet_code_and_from_the_parser(chat):
    chat.say("q = Quit(sure=True)")
    assert chat.instance("q").status == ABANDONED
    chat.say("order = Order(dish='Pasta')")
    chat.say("party = Party()")
    chat.say("exitws()")  # the most recent task and what is nested in it
    assert chat.instance("party").status == ABANDONED and chat.instance("guest_0").status == ABANDONED
    assert chat.say("exitws(order)") == ["AskToCancel(order)"]  # it holds a dish the user chose: asked first
    assert chat.instance("order").status == ACTIVE
    assert chat.say("exitws(order)") == ["Cancelled(order)"]  # the answer to AskToCancel
    assert chat.instance("order").status == ABANDONED


def test_a_task_with_details_is_dropped_only_once_the_user_confirms(chat):
    chat.say("order = Order(dish='Pasta')")
    assert chat.say("exitws()") == ["AskToCancel(order)"]
    assert chat.say("# keep going") == ['AskField(order, count, "count")']  # no: nothing lost
    assert chat.instance("order").values["dish"] == "Pasta"
    assert chat.say("exitws(order, confirmed=True)") == ["Cancelled(order)"]  # goodbye: no question
    assert chat.instance("order").status == ABANDONED


def test_rejected_values_are_asked_again_with_the_reason(chat):
    chat.say("order = Order(dish='Pasta')")
    assert chat.say("order.count = 9") == ['AskField(order, count, "count", reason="Between 1 and 5, please.")']
    assert chat.say("order.count = 'many'") == ['AskField(order, count, "count", reason="\'many\' is not a whole number")']
    assert chat.say("order.dish = 'Sushi'") == ['AskField(order, dish, "the dish", reason="\'Sushi\' is not one of: Pizza, Pasta")']
    assert "count" not in chat.instance("order").values


def test_na_declines_optional_fields_but_not_required_ones(chat):
    chat.say("order = Order(dish='Pasta', count=1, name='Ann')")
    chat.say("order.name.confirmed = True")
    assert chat.say("order.note = 'NA'") == ['AskField(order, when, "when")']
    assert chat.instance("order").values["note"] == NA
    assert chat.say("order.count = 'NA'") == ['AskField(order, count, "count", reason="This one is required, so I can\'t skip it.")']


def test_at_most_one_question_per_turn(chat):
    acts = chat.say("order = Order(dish='Pasta', count=9, name='Ann')")
    assert sum(a.is_question for a in chat.acts) == 1 and len(acts) == 1


def test_step1_knowledge_query_asks_for_missing_required_parameter_then_reports(chat, spec):
    executor = LocalApiExecutor(spec, knowledge=RecordedKnowledge([{"name": "Margherita", "city": "Rome"}], sql="SELECT 1"))
    assert chat.say("answer('pizzas?')", executor) == ['AskField(answer, city, "the city to search in")']
    assert chat.state.answer.status == "needs_param"
    assert chat.say("answer.city = 'Rome'", executor) == ["Report(answer('pizzas?'), [{'name': 'Margherita', 'city': 'Rome'}])"]
    assert chat.state.answer.query == "SELECT 1" and chat.state.answer.status == "done"


def test_knowledge_without_backend_reports_an_error_not_a_crash(chat):
    acts = chat.say("answer('pizzas in Rome?', city='Rome')")
    assert acts == ["Report(answer('pizzas in Rome?'), {'error': 'this agent cannot look things up right now'})"]


def test_misspelt_names_are_snapped_and_unknown_ones_rejected_with_choices(chat):
    chat.say("order = Ordr(dihs='pizza')")
    assert chat.instance("order").values["dish"] == "Pizza"
    chat.say("ordr.cuont = 2")
    assert chat.instance("order").values["count"] == 2
    chat.say("order.flavour = 'x'")
    assert chat.result.errors == ["order.flavour = 'x': line 1: Order has no field 'flavour'; its fields are: dish, size, "
                                  "count, name, note, secret, extra, when, order_id"]
    chat.say("zzz = Zebra()")
    assert "unknown name 'Zebra'; worksheets are Order, Menu, Party, Guest, Quit, dishes" in chat.result.errors[0]
    chat.say("import os\norder.count = 3")
    assert chat.result.errors == ["line 1: imports are not allowed"] and chat.instance("order").values["count"] == 2


def test_parser_output_outside_the_grammar_is_rejected(chat):
    chat.say("for i in range(3):\n    order = Order()")
    assert chat.result.errors == ["for i in range(3):\n    order = Order(): line 1: parser output may only contain "
                                  "assignments, answer(...) and exitws(...)"]
    chat.say("order = Order(dish='Pasta')\norder = 5")
    assert "'order' is Order order: set its fields with order.field = value" in chat.result.errors[0]


def test_dates_are_coerced_relative_to_today(chat):
    chat.say("order = Order(dish='Pasta', count=1, name='Ann')")
    chat.say("order.when = 'tomorrow'")
    assert chat.instance("order").values["when"] == dt.date(2026, 11, 22)


def test_policy_io_goes_only_through_the_executor(spec):
    class Recording:
        def __init__(self):
            self.requests: list[ApiRequest] = []

        def call_api(self, request):
            self.requests.append(request)
            return {"order_id": "X"}

        def query_knowledge(self, answer):
            return KnowledgeResult(None, [])

    executor = Recording()
    chat = Conversation(Runtime(spec, executor, clock=lambda: TODAY))
    fill_order(chat)
    chat.say("order.confirmed = True")
    assert [r.function for r in executor.requests] == ["place_order"]
    assert executor.requests[0].side_effects and executor.requests[0].args["name"] == "Ann"
    assert api_calls(spec) == []


def test_a_failing_turn_leaves_the_state_untouched(spec):
    class Exploding:
        def call_api(self, request):
            raise KeyboardInterrupt  # not an API error: simulates a crash mid-turn

        def query_knowledge(self, answer):
            raise KeyboardInterrupt

    chat = Conversation(Runtime(spec, clock=lambda: TODAY))
    fill_order(chat)
    before = chat.state.to_json()
    with pytest.raises(KeyboardInterrupt):
        chat.runtime.run_turn(chat.state, "order.confirmed = True", executor=Exploding())
    assert chat.state.to_json() == before


def test_api_failure_is_reported_and_can_be_retried(chat, spec):
    class Failing:
        def call_api(self, request):
            raise RuntimeError("kitchen closed")

        def query_knowledge(self, answer):
            return KnowledgeResult(None, [])

    fill_order(chat)
    assert chat.say("order.confirmed = True", Failing()) == ["Report(order, {'error': 'place_order failed: kitchen closed'})"]
    assert chat.instance("order").status == ACTIVE
    assert chat.say("# retry?") == ["AskForConfirmation(order)"]


def test_instance_names_snap_typos_but_never_change_the_number(chat):
    chat.say("order_0 = Order(dish='Pasta')")
    chat.say("ordr_0.count = 2")
    assert chat.instance("order_0").values["count"] == 2
    chat.say("order_1.count = 3")
    assert chat.result.errors == ["order_1.count = 3: line 1: unknown instance 'order_1'; open instances: order_0"]
    assert chat.instance("order_0").values["count"] == 2
    chat.say("exitws(order_0, confirmed=True)")
    chat.say("order_1.count = 3")  # the name is close to the worksheet Order: still a clear error, no crash
    assert chat.result.errors == ["order_1.count = 3: line 1: unknown instance 'order_1'; open instances: none yet"]


RUNTIME_AGENT = """
name: flow
tasks:
  - name: Conversation
    fields:
      - {name: report, type: Report, required: false}
      - {name: anything_else, type: bool}
  - name: Report
    fields:
      - name: pin
        type: str
        required: false
        on_decline: say("Without a PIN I cannot authenticate you.")
      - {name: details, type: str}
      - {name: audit, type: Audit, kind: internal, required: false}
    api: {function: file_report, side_effects: true, when: "self.pin != 'NA'"}
  - name: Audit
    fields: [{name: note, type: str}]
  - name: Lookup
    fields: [{name: key, type: str}]
    actions: boom(key=self.key)
  - name: Survey
    fields:
      - {name: answer, type: str}
      - {name: audit, type: Audit, kind: internal, required: false}
    api: record_survey
"""
RUNTIME_API = """
def file_report(pin, details):
    return {"id": 1}

def boom(key):
    raise ConnectionError("backend down")

SURVEYS = []

def record_survey(answer):
    SURVEYS.append(answer)
    return len(SURVEYS)
"""


@pytest.fixture
def flow(make_agent):
    return Conversation(Runtime(load_agent(make_agent(RUNTIME_AGENT, RUNTIME_API)), clock=lambda: TODAY))


def test_an_optional_nested_worksheet_in_progress_keeps_its_parent_open(flow):
    flow.say("c = Conversation()")
    assert flow.acts == [AskField("report_0", "pin", "pin")]
    assert flow.instance("c").status == ACTIVE
    flow.say("report_0.pin = '1234'")
    assert flow.acts == [AskField("report_0", "details", "details")] and flow.instance("c").status == ACTIVE


def test_on_decline_runs_and_a_conditional_api_is_skipped_without_confirmation(flow):
    flow.say("c = Conversation()")
    assert flow.say("report_0.pin = 'NA'") == ['Say("Without a PIN I cannot authenticate you.")',
                                               'AskField(report_0, details, "details")']
    assert flow.say("report_0.details = 'card stolen'") == ['AskField(c, anything_else, "anything else")']
    assert flow.instance("report_0").status == COMPLETED and flow.instance("report_0").result is None


def test_a_nested_worksheet_waiting_for_confirmation_blocks_the_later_fields(flow):
    flow.say("c = Conversation()")
    flow.say("report_0.pin = '1234'")
    assert flow.say("report_0.details = 'card stolen'") == ["AskForConfirmation(report_0)"]
    assert flow.say("report_0.confirmed = False")[0].startswith("Say(")
    assert not any(isinstance(a, AskField) and a.field == "anything_else" for a in flow.acts)


def test_internal_nested_fields_do_not_reopen_a_completed_parent(flow):
    surveys = flow.runtime.spec.apis["record_survey"].fn.__globals__["SURVEYS"]
    surveys.clear()
    flow.say("s = Survey(answer='yes', audit=Audit(note='first'))")
    assert flow.instance("s").status == COMPLETED and surveys == ["yes"]
    flow.say("audit_0.note = 'second'")
    assert flow.instance("audit_0").values["note"] == "second"
    assert flow.instance("s").status == COMPLETED and surveys == ["yes"]  # the API did not run again
    flow.say("s.answer = 'no'")  # an input change does re-run a worksheet without side effects
    assert surveys == ["yes", "no"]


def test_an_api_failing_inside_worksheet_code_is_reported_not_raised(flow):
    assert flow.say("l = Lookup(key='x')") == ['Say("Something went wrong in Lookup: boom() failed: ConnectionError: backend down")']


AHEAD_AGENT = """
name: ahead
tasks:
  - name: Auth
    fields:
      - {name: name, type: str}
      - {name: birthday, type: str, required: false}
      - {name: maiden, type: str, required: false}
      - {name: pet, type: str, required: false}
      - {name: details, type: str, required: false}
      - {name: extra, type: str, required: false, dont_ask: true, predicate: "self.name == 'Ann'"}
"""


@pytest.fixture
def ahead(make_agent):
    return Conversation(Runtime(load_agent(make_agent(AHEAD_AGENT, "")), clock=lambda: TODAY))


def test_an_answer_to_a_later_question_moves_the_flow_on_and_the_skipped_question_comes_back(ahead):
    ahead.say("a = Auth(name='Ann')")
    assert ahead.acts == [AskField("a", "birthday", "birthday")]
    # asked the birthday, the user gave the maiden name: the next question is the pet, not the birthday again
    assert ahead.say("a.maiden = 'Cooper'") == ['AskField(a, pet, "pet")']
    assert ahead.say("a.pet = 'Rex'") == ['AskField(a, birthday, "birthday")']  # then back to the skipped one
    assert ahead.say("a.birthday = 'NA'") == ['AskField(a, details, "details")']


def test_a_required_question_or_a_declined_later_field_does_not_move_the_flow(ahead):
    ahead.say("a = Auth()")
    assert ahead.say("a.maiden = 'Cooper'") == ['AskField(a, name, "name")']  # the name is required
    ahead.say("a.name = 'Ann'")
    assert ahead.say("a.pet = 'NA'") == ['AskField(a, birthday, "birthday")']  # declining says nothing of the flow
    assert ahead.say("a.birthday = 'NA'") == ['AskField(a, details, "details")']  # nor declining the asked one


def test_field_applies_evaluates_a_predicate_read_only(ahead, make_agent):
    from genie_bot.runtime.policy import field_applies

    ahead.say("a = Auth(name='Ann')")
    instance, extra = ahead.instance("a"), ahead.runtime.spec.tasks["Auth"].fields["extra"]
    assert field_applies(ahead.runtime.spec, ahead.state, instance, extra, TODAY.date())
    ahead.say("a.name = 'Bob'")
    assert not field_applies(ahead.runtime.spec, ahead.state, ahead.instance("a"), extra, TODAY.date())
    assert ahead.instance("a").values["name"] == "Bob"


def test_field_actions_that_loop_fail_the_turn_with_a_named_error(make_agent, caplog):
    spec = load_agent(make_agent("""
        name: counter
        description: counts forever, each count proposing the next counter
        tasks:
          - name: Counter
            fields:
              - name: count
                type: int
                actions: "propose(Counter, {'count': self.count + 1})"
    """))
    runtime = Runtime(spec)
    state = runtime.new_state()
    with pytest.raises(CascadeLimitExceeded, match=r"more than 200 fields in one turn \(counter_0.count x1, "):
        runtime.run_turn(state, "counter_0 = Counter(count=1)")
    assert "field actions assigned more than 200 fields" in caplog.text
    assert state.instances == {}  # the caller's state is untouched
