"""The STAR benchmark (Mosig et al., 2020): replaying its dialogues against worksheet agents.

``genie-bot eval star`` replays each recorded dialogue user turn by user turn, maps the
agent's acts to STAR's system-action labels and scores them against the wizard's labels.
The protocol is documented in ``worksheets/star/README.md``.
"""

from pathlib import Path

AGENTS_DIR = (Path(__file__).parent / "agents").resolve()
"""The STAR agents, one directory per STAR task: the repository's ``worksheets/star`` (``agents``
is a link to it), shipped in the wheel as package data so an installed ``genie-bot eval star``
finds them."""
