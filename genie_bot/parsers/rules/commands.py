"""Strategy: messages that steer the conversation itself: cancel, start over, goodbye."""

from __future__ import annotations

import re

from ...acts import AskField, AskForConfirmation, ProposeWorksheet
from ...language import english
from ...language.tokens import phrase_pattern
from .. import extract
from .evidence import whole
from .proposals import WHOLE_MESSAGE_COMMAND, Proposal
from .reading import Reading
from .words import ABOUT_THE_AGENT, NOTHING_MORE, START_OVER, cancels


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a message that is a command, or a question about the agent, is read whole."""
    steered = command(reading)
    if steered is not None:
        return [Proposal("commands", tuple(steered.splitlines()), WHOLE_MESSAGE_COMMAND, whole(reading), exclusive=True)]
    if ABOUT_THE_AGENT.match(reading.text):  # "what can you do?": what the agent is for, then its question
        said = " ".join((reading.spec.greeting or reading.spec.description).split())
        return [Proposal("commands", ("# a question about the agent",), WHOLE_MESSAGE_COMMAND, whole(reading),
                         exclusive=True, reason=said)]
    return []


def command(reading: Reading) -> str | None:
    """The statements for a command, or None when the message is not one."""
    if cancels(reading.text) and not _says_what_the_task_does(reading):
        return "exitws()" if reading.open_instances() else "# nothing to cancel"
    if START_OVER.match(reading.text):
        return _start_over(reading)
    if (extract.is_farewell(reading.text) and not _answers_with_yes_or_no(reading) and not _declines_the_question(reading)
            and not _nothing_more_to_a_summary(reading)
            and (_GOODBYE.search(reading.text) or not reading.open_instances() or _done_instead_of_answering(reading))):
        return _farewell(reading)  # "got it, thanks, bye" closes the conversation whatever was asked; "that's it"
    return None  # in a task is no goodbye: it answers the question, and only words that ask to stop drop a task


def _says_what_the_task_does(reading: Reading) -> bool:
    """"just drop it" while changing a course described as "swap or drop a course" asks for what
    the task does; it does not drop the task."""
    verbs = extract.content_words(reading.text) & _DROPPING_VERBS
    described = " ".join(f"{f.description} {' '.join(f.value_descriptions.values())}" for f in reading.open_fields())
    return bool(verbs & extract.content_words(described))


_DROPPING_VERBS = {"drop", "cancel", "stop", "quit", "exit", "abort", "scrap"}


def _done_instead_of_answering(reading: Reading) -> bool:
    """"that is all, thank you" asked for what must be answered (an account number): the user is done."""
    act = reading.question
    if not isinstance(act, AskField) or not _SAYS_NOTHING_MORE.search(reading.text):
        return False
    instance = reading.state.instances.get(act.instance)
    f = reading.spec.tasks[instance.worksheet].fields.get(act.field) if instance else None
    return f is not None and f.required and not f.type.is_boolean


_SAYS_NOTHING_MORE = re.compile(phrase_pattern(english.NOTHING_MORE), re.I)


def _declines_the_question(reading: Reading) -> bool:
    """"that's all" to "anything else?" is no to the question, not goodbye with the task dropped; to
    a question that must be answered (an account number) it can only be goodbye (which asks before
    dropping what was given)."""
    act = reading.question
    if not isinstance(act, AskField) or not extract.declines(reading.text):
        return False
    instance = reading.state.instances.get(act.instance)
    f = reading.spec.tasks[instance.worksheet].fields.get(act.field) if instance else None
    return f is None or not f.required or f.type.is_boolean


def _nothing_more_to_a_summary(reading: Reading) -> bool:
    """"that's all" while a summary waits for yes or no, or after a no to it while the agent asks what
    to change, says there is nothing to add: the summary is asked again, the task is kept."""
    if not NOTHING_MORE.match(reading.text.strip()):
        return False
    return isinstance(reading.question, AskForConfirmation) or any(
        i.confirmed is False and not i.actions_done for i in reading.open_instances())


def _answers_with_yes_or_no(reading: Reading) -> bool:
    """"no thats it" to a question is the answer no, not a goodbye; "no, bye!" stays one."""
    first = [_FILLERS.sub("", c) for c in extract.clauses(reading.text)[:1]]  # "uh nope thats it"
    said = extract.yes_no(first[0].split()[0]) if first and first[0].split() else None
    return (reading.question is not None and said is not None and not extract.is_thanks(first[0])
            and not _GOODBYE.search(reading.text))


_FILLERS = re.compile(rf"^(?:{phrase_pattern(english.FILLERS)}[\s,.!]*)+", re.I)
_GOODBYE = re.compile(r"\b(good\s*-?\s*bye|bye|see (you|ya)|take care|have a (good|great|nice|lovely) \w+)\b", re.I)


def _farewell(reading: Reading) -> str:
    """"Thanks, bye": no to a pending confirmation, else the end of every open task, each asked about
    first when it holds what the user told (the runtime asks: "Do you want me to drop your request?")."""
    act = reading.question
    if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
        return f"{act.instance}.confirmed = False"
    roots = sorted({reading.state.root_of(i).name for i in reading.open_instances()})
    return "\n".join(f"exitws({name})" for name in roots) or "# farewell"


def _start_over(reading: Reading) -> str:
    roots = {reading.state.root_of(i).name for i in reading.open_instances()}
    lines = [f"exitws({name}, confirmed=True)" for name in sorted(roots)]
    if reading.spec.start:
        lines.append(f"{reading.state.new_instance_name(reading.spec.start)} = {reading.spec.start}()")
    return "\n".join(lines) or "# nothing to start over"
