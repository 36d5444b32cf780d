"""The Bolt ``AsyncApp``: listeners that record, acknowledge, and leave the turn to a background task.

Slack wants every event, click and command acknowledged within 3 seconds, and a turn may take
longer (an LLM, an API call). With ``process_before_response`` on, Bolt sends the HTTP response
(or Socket Mode ack) when the listener returns, so each listener first records the message or
click in the engine (a few milliseconds), then returns and hands the turn to
:class:`.tasks.Background`. Slack thus never holds an acknowledgement for something this
process could still lose; a message that could not be recorded gets HTTP 500, and Slack
delivers it again. A click is not redelivered by Slack, so one that could not be recorded is
acknowledged and its clicker told privately to try again. Nothing here calls Slack before
the acknowledgement but ``users.info`` for the names a message mentions (bounded, cached).

With "Add to Slack" (:mod:`.oauth`) the same app serves every workspace installed: Bolt
authorizes each request with its workspace's installation, which also tells the bot's user
there; ``app_uninstalled`` and ``tokens_revoked`` remove an installation.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from .blocks import ACTION_ID
from .clicks import Click, ClickTurns
from .commands import GenieCommand
from .edits import EditNotes, edit_of
from .messages import FAILURE, Membership, MessageTurns, incoming
from .oauth import Installs
from .poster import Respond
from .settings import SlackSettings
from .tasks import Background

log = logging.getLogger(__name__)


def bolt_app(settings: SlackSettings, client: AsyncWebClient, tasks: Background, messages: MessageTurns,
             clicks: ClickTurns, genie: GenieCommand, edits: EditNotes, installs: Installs | None = None) -> AsyncApp:
    app = AsyncApp(client=client, signing_secret=settings.signing_secret,
                   request_verification_enabled=settings.mode == "http", process_before_response=True,
                   logger=logging.getLogger("genie_bot.adapters.slack.bolt"),
                   **(installs.app_options() if installs is not None else {}))

    async def on_message(body: dict[str, Any], context: AsyncBoltContext) -> None:
        bot_user = context.bot_user_id or ""
        edit = edit_of(body, bot_user)
        if edit is not None:
            tasks.spawn(edits.answer(edit), f"note on the edit {edit.edit}")
            return
        message = incoming(body, bot_user, settings.ignore_bots)
        if message is None:
            return
        membership = await messages.membership(message)
        if membership is Membership.NO or not messages.answers(message):
            return
        if membership is Membership.UNKNOWN:
            tasks.spawn(messages.look_up_and_run(message), f"thread lookup for {message.event_id}")
        elif message.attachments_only:
            tasks.spawn(messages.explain_attachments(message), f"attachments of {message.event_id}")
        elif (accepted := await messages.accept(message)) is not None:
            tasks.spawn(messages.run(message, accepted), f"turn of {message.event_id}")

    async def on_click(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        click = Click.of(body, action)
        try:
            accepted = await clicks.accept(click)
        except Exception:  # noqa: BLE001 - the clicker must hear back; Slack does not resend clicks
            log.exception("could not record the click %s", click.event_id)
            accepted = None
            tasks.spawn(respond(text=FAILURE, response_type="ephemeral", replace_original=False),
                        f"apology for {click.event_id}")
        await ack()
        if accepted is not None:
            tasks.spawn(clicks.run(click, accepted, respond), f"turn of {click.event_id}")

    async def on_command(ack: Any, command: dict[str, Any], respond: Respond) -> None:
        await ack()
        tasks.spawn(genie.answer(command, respond), f"{command['command']} {command.get('text', '')}")

    app.event("app_mention")(on_message)
    app.event("message")(on_message)
    app.action(ACTION_ID)(on_click)
    app.command(settings.command)(on_command)
    if installs is not None:
        app.event("app_uninstalled")(installs.on_app_uninstalled)
        app.event("tokens_revoked")(installs.on_tokens_revoked)
    return app
