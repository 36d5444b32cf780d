"""Matcher: messages that steer the conversation itself: cancel, start over, goodbye, and a question
about the agent ("what can you do?", answered with its greeting). Each is read whole."""

from __future__ import annotations

from ....acts import AskField, AskForConfirmation, ProposeWorksheet
from ....language.words import content_words
from ..analysis.model import ABOUT_AGENT, CANCEL, GOODBYE, NAME, NOTHING_MORE, OPTION, START_OVER
from ..context import Context
from ..proposals import LINES, Proposal


def propose(ctx: Context) -> list[Proposal]:
    whole = ctx.analysis.whole
    out = []
    if whole.get(CANCEL):
        features = {"cancel"}
        if _an_option(ctx):
            features.add("cancel is an option asked for")  # "cancel it" to "move it or cancel it?"
        lines = ("exitws()",) if ctx.open_instances else ("# nothing to cancel",)
        out.append(Proposal(LINES, frozenset(features), ctx.every_token, exclusive=True, lines=lines))
    if whole.get(START_OVER):
        out.append(Proposal(LINES, frozenset({"start over"}), ctx.every_token, exclusive=True, lines=_start_over(ctx)))
    if (whole.get(GOODBYE) and not _values_before_the_goodbye(ctx)) or (whole.get(NOTHING_MORE) and not ctx.open_instances):
        features = {"goodbye"} if whole.get(GOODBYE) else {"nothing more, nothing open"}
        if isinstance(ctx.question, AskField):
            features.add("a question is waiting")
        out.append(Proposal(LINES, frozenset(features), ctx.every_token, exclusive=True, lines=_farewell(ctx)))
    if any(c.act == ABOUT_AGENT for c in ctx.analysis.cues):
        said = " ".join((ctx.spec.greeting or ctx.spec.description).split())
        out.append(Proposal(LINES, frozenset({"about the agent"}), ctx.every_token, exclusive=True,
                            lines=("# a question about the agent",), reason=said))
    return out


def _values_before_the_goodbye(ctx: Context) -> bool:
    """A message that ends on a goodbye gave a value before it ("my email is ann@x.com, bye"): not a goodbye alone.
    A person named on the way out is no value ("I will ask Abner for help. Bye.")."""
    farewell_starts = ctx.analysis.clauses[-1][0] if ctx.analysis.clauses else 0
    return any(e.usable and e.kind != NAME and e.start < farewell_starts for e in ctx.analysis.entities)


def _an_option(ctx: Context) -> bool:
    """The cancel word is an option of an open field ("Cancel" of whether to move or cancel), or a word the
    open tasks use for what they do ("just drop it" while changing a course, "swap or drop a course")."""
    if any(e.kind == OPTION for e in ctx.analysis.entities):
        return True
    fields = [f for i in ctx.open_instances for f in ctx.spec.tasks[i.worksheet].fields.values()]
    said = " ".join(ctx.text[c.start:c.end] for c in ctx.analysis.cues if c.act == CANCEL)
    described = " ".join(f"{f.description} {' '.join(f.value_descriptions.values())}" for f in fields)
    return bool(content_words(said) & content_words(described))


def _farewell(ctx: Context) -> tuple[str, ...]:
    """"Thanks, bye": no to a pending confirmation, else the end of every open task (each asked about
    first when it holds what the user told)."""
    act = ctx.question
    if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
        return (f"{act.instance}.confirmed = False",)
    roots = sorted({ctx.state.root_of(i).name for i in ctx.open_instances})
    return tuple(f"exitws({name})" for name in roots) or ("# farewell",)


def _start_over(ctx: Context) -> tuple[str, ...]:
    roots = sorted({ctx.state.root_of(i).name for i in ctx.open_instances})
    lines = [f"exitws({name}, confirmed=True)" for name in roots]
    if ctx.spec.start:
        lines.append(f"{ctx.state.new_instance_name(ctx.spec.start)} = {ctx.spec.start}()")
    return tuple(lines) or ("# nothing to start over",)
