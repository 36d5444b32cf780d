"""Chat-platform adapters (Slack, Discord): thin translators between a platform and the engine.

Nothing in ``genie_bot`` imports from here; adapters only call the engine's public API.
"""
