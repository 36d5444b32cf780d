"""genie-bot: Genie Worksheets task assistants for Slack and Discord.

The package is split along the paper's pipeline: ``spec`` (the worksheet language),
``interpreter`` (the safe evaluator), ``state``/``acts``/``policy`` (the deterministic
runtime) and, around them, parsers, responders, the engine and the CLI.
"""

__version__ = "0.1.0"
