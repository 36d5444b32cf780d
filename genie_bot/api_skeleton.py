"""The ``api.py`` an imported agent starts with: every function its spec names, not yet written.

A Genie Worksheets spreadsheet names its backend APIs (a worksheet's Name cell, called with
the worksheet's fields when it completes) and calls others from actions (``@function(...)``),
but holds no code. The skeleton gives each of them the signature genie-bot calls it with and
a body raising :class:`~genie_bot.errors.ApiNotImplemented`, so the agent validates and chats
at once and the developer fills the functions in.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass


@dataclass(frozen=True)
class ApiStub:
    """One function of the skeleton."""

    name: str
    parameters: tuple[str, ...] = ()
    """Keyword parameters genie-bot always passes (a worksheet's fields)."""
    optional: tuple[str, ...] = ()
    """Keyword parameters some calls leave out (default None)."""
    positional: bool = False
    """Whether some call passes positional arguments (``*args``)."""
    purpose: str = ""


def render_api_skeleton(agent: str, source: str, stubs: list[ApiStub]) -> str:
    """The text of ``api.py`` for ``agent``, imported from the file named ``source``."""
    lines = [
        f'"""API functions of the {agent} agent, imported from {source} by genie-bot.',
        "",
        "Each function the spec names is here with the parameters genie-bot calls it with. Until it",
        "is written it raises ApiNotImplemented, which the agent reports as a failed call.",
        '"""',
        "",
        "from genie_bot.errors import ApiNotImplemented",
    ]
    for stub in stubs:
        lines += ["", "", f"def {stub.name}({_signature(stub)}):"]
        if stub.purpose:
            lines.append(f'    """{stub.purpose}"""')
        lines.append(f"    raise ApiNotImplemented({stub.name!r})")
    return "\n".join(lines) + "\n"


def _signature(stub: ApiStub) -> str:
    required = [p for p in stub.parameters if not keyword.iskeyword(p)]
    optional = [f"{p}=None" for p in stub.optional if not keyword.iskeyword(p) and p not in stub.parameters]
    return ", ".join([*required, *optional, *(["*args"] if stub.positional else []), "**kwargs"])
