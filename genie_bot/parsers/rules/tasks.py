"""Which task a message asks for, and the statement that starts it with what the message gives."""

from __future__ import annotations

from ...spec import TaskWorksheet
from ...state import InstanceStatus
from .fields import top_level_tasks
from .reading import Reading
from .requested import TASK_THRESHOLD, task_match
from .volunteered import constructor
from .words import CHITCHAT, plea_for_help, thanks_only


def start(reading: Reading, ws: TaskWorksheet) -> None:
    """Start ``ws`` with the values the message gives for it and for the worksheets it nests."""
    name = reading.state.new_instance_name(ws.name)
    reading.statements.append(f"{name} = {constructor(reading, ws, name)}")


def is_open(reading: Reading, ws: TaskWorksheet) -> bool:
    return any(i.status == InstanceStatus.ACTIVE for i in reading.state.of_worksheet(ws.name))


def task_match_requested(reading: Reading) -> bool:
    """Whether the message asks for a task (open already or not)."""
    ws, score = task_match(reading)
    return ws is not None and score >= TASK_THRESHOLD


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
