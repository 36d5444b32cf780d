"""Matcher: the values the message gives fields, asked or not, by the slot mappings.

Each value of each field is a proposal of its own, with the evidence the slot mappings found and
what the message and the state add: whether the message asks for the task the field belongs to,
whether another field takes the same words, whether a change of mind is said beside it.
"""

from __future__ import annotations

from collections import Counter

from ....spec import NA
from ..analysis.model import CHANGE, OPTION, PROPOSAL, SELF_CORRECTION
from ..context import Context, Target
from ..field_classes import ACCOUNT, field_class
from ..proposals import LINES, PROBLEM, VALUE, Proposal
from ..parts import anchor_at, every_part, is_a_part, part_at
from ..requests import TaskRequests, task_requests
from ..roles import field_role, said_role
from ..slots import LAST_DAY_OF_A_LENGTH, Candidate, candidates
from ..text import ROLE_READING


def propose(ctx: Context) -> list[Proposal]:
    found = [c for target in ctx.targets for c in candidates(ctx, target)]
    takers = Counter(span for span, _ in {(span, c.target.key) for c in found for span in c.spans if c.value is not None})
    requests = task_requests(ctx)
    order = _orders(ctx, found)
    given = {(c.target.owner, c.target.field.name, repr(c.value)) for c in found}
    return [_proposal(ctx, c, takers, requests, order.get(id(c), set()), given) for c in found]


def _orders(ctx: Context, found: list[Candidate]) -> dict[int, set[str]]:
    """For values of several empty fields of one class in one task ("dec 5 ... dec 9" for the pick-up and
    the return day): whether a value goes to the field whose place among them is its place among the
    values said for them, and whether the words before it say its role ("back dec 9")."""
    out: dict[int, set[str]] = {}
    groups: dict[tuple[str, str], list[Candidate]] = {}
    for c in found:
        if c.spans and c.value is not None and ctx.value_of(c.target) is None:
            groups.setdefault((c.target.owner, _domain(ctx, c)), []).append(c)
    for group in groups.values():
        fields = list(dict.fromkeys(c.target.field.name for c in group))
        if len(fields) < 2:
            continue
        spans = sorted({c.spans[0] for c in group if LAST_DAY_OF_A_LENGTH not in c.features})
        in_roles = {c.target.field.name for c in group if ROLE_READING in c.features}
        for c in group:
            if LAST_DAY_OF_A_LENGTH in c.features:  # a length has no place among the days: it ends a later field
                features = {"in order" if fields.index(c.target.field.name) > 0 else "out of order"}
            else:
                features = {"in order" if spans.index(c.spans[0]) == fields.index(c.target.field.name) else "out of order"}
            if ROLE_READING in c.features and len(in_roles) > 1:
                features.add("each said in its role")  # "i'm in history 156 ... i want physics 148c instead"
            role, said = field_role(c.target.field), said_role(ctx, c.spans[0][0])
            if role and said:
                features.add("role agrees" if role == said else "role disagrees")
            out[id(c)] = features
    return out


def _domain(ctx: Context, c: Candidate) -> str:
    """What values of the field are: the records of a table (a field and a list of them), the members of an
    enum (two fields with the same options), else the field's class."""
    f = c.target.field
    table = ctx.index.table_of(f)
    if table is not None:
        return f"table:{table}"
    if f.values:
        return "options:" + "|".join(sorted(f.values))
    return field_class(f, ctx.index)


def _proposal(ctx: Context, c: Candidate, takers: Counter, requests: TaskRequests, order: set[str],
              given: set[tuple[str, str, str]]) -> Proposal:
    features = set(c.features) | {"value"} | order
    features.add("one field takes the words" if all(takers[s] <= 1 for s in c.spans) else "several fields take the words")
    task = c.target.new_task
    if task is not None:
        features.add("task asked for" if requests.asks_for(task) else "task not asked for")
        if requests.asks_for(task):
            features.add("the task asked for most" if requests.best()[0] == task else "a task asked for less")
        if "said in a question" in features and requests.asks_for(task):
            features.add("a question that asks for the task")
        if ctx.open_instances:
            features.add("another task is open")
    elif ctx.asked is not None and c.target.owner == ctx.asked.owner:
        features.add("task being asked about")
    if "changes a value" in features and _change_said(ctx, c):
        features.add("change said")
    elif "changes a value" in features and "volunteered" in features and ctx.asked is not None and not any(
            cue.act in (CHANGE, SELF_CORRECTION) for cue in ctx.analysis.cues):
        features.add("a change nobody asked for, said unasked")  # the words answer the question asked instead
    if c.problem is not None:
        features.add("refused")
    if c.target.needs:
        features.add("opened by what the message names" if _opened(ctx, c.target) else "opened by what it implies")
        if _contradicts(ctx, c.target, given):
            features.add("implies another choice than the one made")
    part = part_at(ctx, c.spans[0][0]) if c.spans else None
    shared = False
    named = anchor_at(ctx, c.spans[0]) if c.spans else None
    sibling = is_a_part(ctx, c.target.owner)
    if named is not None and sibling:
        features.add("names its part" if named == c.target.owner else "names another part")
    elif sibling and every_part(ctx) and (part is None or every_part(ctx, part)) and ctx.value_of(c.target) in (None, NA):
        features.add("said for every part" if c.target.exists else "a part not made yet while every part is meant")
        shared = c.target.exists
    elif part is not None and sibling:
        if c.target.owner in part.owners:
            features.add("in its part")
            shared = len(part.owners) > 1
        else:
            features.add("in another part")
    claims = ctx.tokens_in(c.spans)
    slots = frozenset({c.target.key})
    if c.listed:
        return Proposal(LINES, frozenset({*features, "names several records"}), claims, slots, lines=c.listed,
                        target=c.target, phase=6)
    if c.problem is not None and "vague" in features:
        return Proposal(PROBLEM, frozenset(features), claims, slots, target=c.target, reason=c.problem, understood=False)
    phase = 1 if "changes a value" in features else 2 if "asked" in features else 4 if task else 5
    return Proposal(VALUE, frozenset(features), claims, slots, target=c.target, value=c.value,
                    answers="asked" in features,
                    shares_words=field_class(c.target.field, ctx.index) == ACCOUNT or "option by currency" in features
                    or shared,
                    phase=phase, naming=ctx.tokens_in(c.naming), extra={"problem": c.problem})


def _contradicts(ctx: Context, target: Target, given: set[tuple[str, str, str]]) -> bool:
    """Every way the field comes to apply needs a value another field holds otherwise already, and the message
    does not give it (the email of a form "submitted by email" while the student asked about credits; but
    "actually I did submit it, online" gives the form's status too)."""
    def held(owner: str, name: str) -> object:
        instance = ctx.state.instances.get(owner)
        return instance.values.get(name) if instance is not None else None
    return all(any(held(owner, name) not in (None, NA, value) and (owner, name, repr(value)) not in given
                   for owner, name, value in way) for way in target.needs)


def _opened(ctx: Context, target: Target) -> bool:
    """Whether an option the message names makes the field apply ("my AP credits are missing" names no
    task, "help with external test credits" does)."""
    named = {(h.field, h.member) for e in ctx.analysis.entities if e.kind == OPTION and e.usable for h in e.value}
    return any(all((field, value) in named for _, field, value in way) for way in target.needs)


def _change_said(ctx: Context, c: Candidate) -> bool:
    """A change of mind is said in the clause of the value, or the message is short and says one."""
    start, end = ctx.analysis.clause_of(c.spans[0][0]) if c.spans else (0, len(ctx.text))
    return any(cue.act in (CHANGE, PROPOSAL) and (start <= cue.start < end or len(ctx.text.split()) <= 8)
               for cue in ctx.analysis.cues)
