"""The web console: try an agent in the browser and inspect every turn (``genie-bot console``).

Not to be confused with the terminal adapter (``genie_bot.adapters.console``). One local page
shows a chat with an agent, rendered as on the platforms (Confirm / Cancel cards), beside the
inspector of each turn; the same page opens any stored session of a deployment's database.

=====================  ========================================================================
module                 what it holds
=====================  ========================================================================
:mod:`.inspection`     the agent the console runs, keeping what each turn did beyond its trace
:mod:`.live`           the console's own conversations, through a private engine
:mod:`.sources`        reading sessions, traces and pending actions from an engine database
:mod:`.views`          a session as JSON for the page, redacted as the turn log is
:mod:`.state_diff`     the state before and after a turn, per instance and field
:mod:`.export`         a conversation as a conversation test, checked by running it
:mod:`.access`         the operator's token and the checks every request passes
:mod:`.server`         the aiohttp server: pages, static files, the JSON API
=====================  ========================================================================
"""

from .access import TOKEN_ENV, Access
from .live import LiveConsole, agent_dir_config, sandbox_config
from .server import Console, ConsoleServer, session_url
from .sources import SessionSource

__all__ = ["TOKEN_ENV", "Access", "Console", "ConsoleServer", "LiveConsole", "SessionSource", "agent_dir_config",
           "sandbox_config", "session_url"]
