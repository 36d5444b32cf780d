"""Which task a message asks for, and the statement that starts it with what the message gives."""

from __future__ import annotations

from ...parse import ALREADY_HANDLED
from ...spec import TaskWorksheet
from ...state import InstanceStatus
from .. import extract
from .evidence import proposal, whole
from .fields import top_level_tasks
from .proposals import NOTHING, ONLY_TASK, TASK, Proposal
from .reading import Reading
from .requested import TASK_THRESHOLD, gives_a_typed_value, request_words, task_match, task_match_requested
from .searches import record_search
from .volunteered import constructor
from .words import CHITCHAT, plea_for_help, thanks_only


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: the task the message asks for, started with every value it gives (and the records it
    describes, looked up: "a table for two tonight somewhere romantic in new york"); scored by how
    well the message matches the task's description or examples."""
    scratch = reading.fresh()
    if not start_requested_task(scratch, answered_already=False):
        return []
    ws, score = task_match(reading)
    claims = _request_tokens(reading)
    searched = record_search(scratch, " ".join(scratch.masked().split())) if record_search(reading.fresh()) else []
    return [proposal(scratch, "tasks", scratch.statements + searched, TASK * score, claims=claims,
                     slots=frozenset({f"new:{ws.name}"}) if ws else frozenset(), starts=True, phase=4)]


def propose_fallbacks(reading: Reading) -> list[Proposal]:
    """Matcher of last resort: the first message to an agent with one task asks for it; a request for
    the task already being filled asks for nothing new. Both explain the whole message, weakly."""
    scratch = reading.fresh()
    out = []
    asked_for = task_match_requested(reading) and not thanks_only(reading.text)  # ``propose`` starts it already
    if not asked_for and opens_the_only_task(scratch):
        out.append(proposal(scratch, "tasks", scratch.statements, ONLY_TASK, claims=whole(reading), starts=True,
                            phase=4))
    if restates_open_task(reading) and not gives_a_typed_value(reading.text, reading.today):  # a date is a value
        out.append(Proposal("tasks", (ALREADY_HANDLED,), 2 * NOTHING, whole(reading)))
    return out


def _request_tokens(reading: Reading) -> frozenset[int]:
    """The tokens of the words with which the message asks for a task."""
    asking = request_words(reading)
    return frozenset(i for i, token in enumerate(reading.whole_tokens)
                     if reading.offset <= token.start < reading.offset + len(reading.text)
                     and extract.content_words(token.text) & asking)


def start(reading: Reading, ws: TaskWorksheet) -> None:
    """Start ``ws`` with the values the message gives for it and for the worksheets it nests."""
    name = reading.state.new_instance_name(ws.name)
    reading.statements.append(f"{name} = {constructor(reading, ws, name)}")


def is_open(reading: Reading, ws: TaskWorksheet) -> bool:
    return any(i.status == InstanceStatus.ACTIVE for i in reading.state.of_worksheet(ws.name))


def requests_a_new_task(reading: Reading) -> bool:
    """Whether the message asks for a task that is not open yet."""
    ws, score = task_match(reading)
    return ws is not None and score >= TASK_THRESHOLD and not is_open(reading, ws)


def start_requested_task(reading: Reading, answered_already: bool) -> bool:
    """Strategy: start the task the message asks for, unless it is open already; whether it did."""
    ws, score = task_match(reading)
    if ws is None or score < TASK_THRESHOLD or (answered_already and score < 0.8) or thanks_only(reading.text):
        return False  # "I'll find my way, thanks" closes a conversation rather than opening one
    if is_open(reading, ws):
        return False
    start(reading, ws)
    return True


def restates_open_task(reading: Reading) -> bool:
    """"I want to file a ticket" while that ticket is being filled: the agent carries on."""
    ws, score = task_match(reading)
    return ws is not None and score >= TASK_THRESHOLD and any(
        reading.state.root_of(i).worksheet == ws.name for i in reading.open_instances())


def opens_the_only_task(reading: Reading) -> bool:
    """Strategy: start the agent's one task on the first message that is more than a greeting.

    An agent with a single task and no start worksheet exists for that task: whatever the
    user opens with is a request for it.
    """
    tasks = top_level_tasks(reading.spec)
    if reading.state.instances or len(tasks) != 1 or CHITCHAT.match(reading.text) or plea_for_help(reading.text):
        return False
    start(reading, tasks[0])
    return True
