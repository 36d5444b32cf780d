"""The Bolt ``AsyncApp``: listeners that acknowledge at once and leave the work to a background task.

Slack wants every event, click and command acknowledged within 3 seconds, and a turn may take
longer (an LLM, an API call). Bolt acknowledges events itself before calling their listener
and, with ``process_before_response`` off, sends the HTTP response or Socket Mode ack as soon
as ``ack()`` is called; each listener then only hands the turn to :class:`.tasks.Background`.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from .blocks import ACTION_ID
from .clicks import Click, ClickTurns
from .commands import GenieCommand
from .messages import MessageTurns, incoming
from .poster import Respond
from .settings import SlackSettings
from .tasks import Background


def bolt_app(settings: SlackSettings, client: AsyncWebClient, tasks: Background, messages: MessageTurns,
             clicks: ClickTurns, genie: GenieCommand) -> AsyncApp:
    app = AsyncApp(client=client, signing_secret=settings.signing_secret,
                   request_verification_enabled=settings.mode == "http", process_before_response=False,
                   logger=logging.getLogger("adapters.slack.bolt"))

    async def on_message(body: dict[str, Any], request: AsyncBoltRequest) -> None:
        retry_num = int(request.headers.get("x-slack-retry-num", ["0"])[0])
        message = incoming(body, messages.bot_user_id, settings.ignore_bots, retry_num)
        if message is not None:
            tasks.spawn(messages.run(message), f"turn of event {message.event_id}")

    async def on_click(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        await ack()
        click = Click.of(body, action)
        tasks.spawn(clicks.run(click, respond), f"turn of {click.event_id}")

    async def on_command(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        tasks.spawn(genie.answer(command, respond), f"{command['command']} {command.get('text', '')}")

    app.event("app_mention")(on_message)
    app.event("message")(on_message)
    app.action(ACTION_ID)(on_click)
    app.command(settings.command)(on_command)
    return app
