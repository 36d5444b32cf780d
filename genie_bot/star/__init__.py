"""The STAR benchmark (Mosig et al., 2020): replaying its dialogues against worksheet agents.

``genie-bot eval star`` replays each recorded dialogue user turn by user turn, maps the
agent's acts to STAR's system-action labels and scores them against the wizard's labels.
The protocol is documented in ``worksheets/star/README.md``.
"""

from pathlib import Path

AGENTS_DIR = Path(__file__).resolve().parents[2] / "worksheets" / "star"
"""The STAR agents of this repository, one directory per STAR task."""
