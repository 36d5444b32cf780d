"""A terminal adapter: ``genie-bot run`` serves it when no chat platform is configured.

One session, one user. ``/confirm`` and ``/cancel`` click the buttons of the last pending
action; ``/reset``, ``/reload`` and ``/status`` call the engine's admin operations. It stops
at end of input.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Callable
from typing import TextIO

from genie_bot.engine import Decision, Engine, Notification, PendingActionView, Reply, SessionKey

from .text import plain_text

SESSION = SessionKey("console", "local", "console")
USER = "console-user"


class ConsoleAdapter:
    platform = "console"

    def __init__(self, on_end: Callable[[], None], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.on_end = on_end
        self.stdin = stdin
        self.stdout = stdout
        self.pending: PendingActionView | None = None
        self._task: asyncio.Task | None = None

    async def start(self, engine: Engine) -> None:
        self._task = asyncio.create_task(self._serve(engine))

    async def stop(self) -> None:
        if self._task and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def deliver(self, notification: Notification) -> None:
        self._show(notification.reply)

    async def _serve(self, engine: Engine) -> None:
        self._print("(console: type a message; /confirm, /cancel, /reset, /reload, /status; end of input quits)")
        try:
            while line := await asyncio.get_running_loop().run_in_executor(None, self.stdin.readline):
                for reply in await self._command(engine, line.strip()):
                    self._show(reply)
        finally:
            self.on_end()

    async def _command(self, engine: Engine, text: str) -> list[Reply]:
        event_id = uuid.uuid4().hex
        if not text:
            return []
        if text in ("/confirm", "/cancel"):
            if self.pending is None:
                return [Reply("(nothing to confirm)")]
            decision = Decision.CONFIRM if text == "/confirm" else Decision.CANCEL
            return await engine.handle_action(SESSION, USER, self.pending.id, decision, event_id)
        if text == "/reset":
            await engine.reset(SESSION)
            return [Reply("(conversation reset)")]
        if text == "/reload":
            return [Reply("\n".join((await engine.reload()).lines()))]
        if text == "/status":
            return [Reply(str(await engine.status()))]
        return await engine.handle_message(SESSION, USER, text, event_id)

    def _show(self, reply: Reply) -> None:
        self._print(f"bot> {plain_text(reply.text)}")
        self.pending = reply.pending_action or self.pending
        if reply.pending_action:
            view = reply.pending_action
            for label, value in view.summary:
                self._print(f"      {label}: {value}")
            warning = " (destructive)" if view.destructive else ""
            self._print(f"      [/confirm = {view.confirm_label}{warning}]  [/cancel = {view.cancel_label}]")

    def _print(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)
