"""genie-bot: Genie Worksheets task assistants for Slack and Discord.

The packages follow the flow of one message, each importing only those below it: ``spec``
(the worksheet language) and ``interpreter`` (the safe evaluator); ``state``/``acts``; the
deterministic ``runtime`` (statements, the policy); ``parsers``, ``responders``, ``knowledge``
and the ``llm`` client; ``agent`` (which of them an agent is made of); the ``engine``; the
chat-platform ``adapters``; the ``cli``. docs/layout.md has the whole map, and
pyproject.toml's import-linter contracts state the order.
"""

__version__ = "0.1.0"
