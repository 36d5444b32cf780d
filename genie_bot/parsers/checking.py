"""Keeping the statements of a parse that apply, one by one, and measuring what they change.

An LLM (a small one especially) writes a block in which one line may be broken: a syntax
error, an unknown field, a value of the wrong kind. Parsed as one block, one bad line would
discard the good ones. Here the block is cut into statements (a statement may span lines:
lines are gathered until they make a complete statement, as an interactive interpreter
does, with :mod:`codeop`, which compiles and never runs), each is tried in turn on a
throw-away copy of the state, and only those the interpreter applies without error are kept
(:mod:`genie_bot.runtime.trials`: the parses a turn checks together go to the sandbox as one call).

The *effect* of the kept statements counts what they would change: values assigned or
rejected, confirmations, tasks created, started or dropped, knowledge queries. A parse with
no effect (``# nothing yet``, ``main_0 = Main()`` for the task that already exists) says
nothing the agent can act on.
"""

from __future__ import annotations

import codeop
import datetime as dt
import textwrap
import warnings

from ..runtime.trials import Checked, check_all, new_task
from ..spec import AgentSpec
from ..state import DialogueState

__all__ = ["Checked", "check", "check_texts", "says_less", "split_statements"]


def split_statements(text: str) -> tuple[list[str], list[str]]:
    """(complete statements, in order; an error for each piece that is not valid Python)."""
    chunks: list[str] = []
    errors: list[str] = []
    buffer: list[str] = []
    for line in text.splitlines():
        if not buffer and (not line.strip() or line.lstrip().startswith("#")):
            continue
        buffer.append(line)
        source = textwrap.dedent("\n".join(buffer))  # a block indented as a whole is still statements
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                complete = codeop.compile_command(source + "\n", "<parser>", "exec")
        except (SyntaxError, ValueError, OverflowError) as exc:
            errors.append(f"{source.strip()}: syntax error: {getattr(exc, 'msg', exc)}")
            buffer = []
            continue
        if complete is not None:
            chunks.append(source)
            buffer = []
    if buffer:
        errors.append(f"{chr(10).join(buffer).strip()}: syntax error: the statement is not complete")
    return chunks, errors


def check(spec: AgentSpec, state: DialogueState, chunks: list[str], today: dt.date,
          dropped: list[str] | None = None) -> Checked:
    """The chunks that apply without error, one after the other, and the effect of those kept."""
    return check_all(spec, state, [(chunks, dropped or [])], today)[0]


def check_texts(spec: AgentSpec, state: DialogueState, texts: list[str], today: dt.date) -> list[Checked]:
    """:func:`check` of each text cut into statements (a syntax error drops its piece), in one batch."""
    return check_all(spec, state, [split_statements(text) for text in texts], today)


def says_less(parse: Checked, other: Checked, state: DialogueState) -> bool:
    """Whether ``other`` gives every value ``parse`` gives, the same, and more: the details of a task
    ``parse`` started without them (a weak model's ``student_task = 'External Test Credits'`` for
    "my AP credits are missing"). The more must be fields of tasks ``state`` does not have yet, with
    fixed options or typed values: the rules read leftovers of a message as free text, and may
    spread one answer over tasks that exist ("letter" for every course)."""
    more = other.values.keys() - parse.values.keys()
    return bool(more) and parse.values.keys() <= other.values.keys() and not more & other.free_text and \
        all(new_task(state, key, other.values[key]) for key in more) and \
        all(other.values[k] == v for k, v in parse.values.items())
