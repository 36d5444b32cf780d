"""The client the settings call for: recorded completions when replaying, else the API (recorded if asked)."""

from __future__ import annotations

from .client import LLMClient, Transport
from .recording import RecordingTransport, ReplayTransport
from .settings import LLMSettings
from .transport import OpenAITransport, make_openai_client


def make_client(settings: LLMSettings) -> LLMClient:
    transport: Transport
    if settings.replay_dir is not None:
        transport = ReplayTransport(settings.replay_dir)
    else:
        transport = OpenAITransport(make_openai_client(settings))
        if settings.record_dir is not None:
            transport = RecordingTransport(transport, settings.record_dir)
    return LLMClient(settings, transport)
