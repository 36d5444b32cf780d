"""Chat-platform adapters (Slack, Discord, a terminal console): thin translators between a
platform and the engine, installed as ``genie_bot.adapters`` (the repository keeps them in the
top-level ``adapters/`` folder).

Nothing else in ``genie_bot`` imports from here but the command line; adapters only call the
engine's public API (:mod:`genie_bot.engine`).
"""
