"""Choosing the worksheets a parser prompt shows when an agent declares many.

Beyond ``limit`` worksheets (the paper suggests about 20) the prompt would grow with the
spec. We keep everything the state already uses (open instances, the last question, the
start worksheet), add the worksheets whose names, descriptions, examples and fields share
the most words with the message, and close the set over nested worksheet types so every
constructor the parser may need is declared.
"""

from __future__ import annotations

import re

from ..language.words import content_words
from ..spec import AgentSpec
from ..state import DialogueState


def relevant_worksheets(spec: AgentSpec, state: DialogueState, text: str, limit: int) -> list[str]:
    """Names of the worksheets to show, in declaration order (all of them when few)."""
    names = spec.worksheet_names()
    if len(names) <= limit:
        return names
    chosen = _in_use(spec, state)
    words = content_words(text)
    overlap = {name: len(words & _vocabulary(spec, name)) for name in names}
    for name in sorted(names, key=lambda n: -overlap[n]):
        if not overlap[name] or len(_closure(spec, chosen)) >= limit:
            break
        chosen.add(name)
    chosen = _closure(spec, chosen)
    return [n for n in names if n in chosen]


def _in_use(spec: AgentSpec, state: DialogueState) -> set[str]:
    used = {i.worksheet for i in state.instances.values() if i.open}
    if spec.start:
        used.add(spec.start)
    if state.answer is not None and state.answer.table:
        used.add(state.answer.table)
    return used


def _vocabulary(spec: AgentSpec, name: str) -> frozenset[str]:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|_", " ", name)
    if name in spec.tasks:
        ws = spec.tasks[name]
        parts = [spaced, ws.description, *ws.examples, *(f"{f.name.replace('_', ' ')} {f.description}"
                                                          for f in ws.fields.values())]
    else:
        kb = spec.knowledge[name]
        parts = [spaced, kb.description, *(f"{c.name.replace('_', ' ')} {c.description}" for c in kb.columns.values())]
    return content_words(" ".join(parts))


def _closure(spec: AgentSpec, names: set[str]) -> set[str]:
    """``names`` plus every worksheet their fields refer to, transitively."""
    out, frontier = set(names), list(names)
    while frontier:
        ws = spec.tasks.get(frontier.pop())
        for f in ws.fields.values() if ws else ():
            ref = f.type.referenced()
            if ref and ref not in out and (ref in spec.tasks or ref in spec.knowledge):
                out.add(ref)
                frontier.append(ref)
    return out
