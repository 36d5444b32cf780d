"""The client the settings call for: recorded completions when replaying, else the API (recorded if asked).

The ``openai`` package (a second of CPU to import) is loaded here, by the first client that calls
an API, and nowhere else: offline mode and replays never load it.
"""

from __future__ import annotations

from .client import LLMClient, Transport
from .recording import RecordingTransport, ReplayTransport
from .settings import LLMSettings


def make_client(settings: LLMSettings) -> LLMClient:
    transport: Transport
    if settings.replay_dir is not None:
        transport = ReplayTransport(settings.replay_dir)
    else:
        from .transport import OpenAITransport, make_openai_client

        transport = OpenAITransport(make_openai_client(settings))
        if settings.record_dir is not None:
            transport = RecordingTransport(transport, settings.record_dir)
    return LLMClient(settings, transport)
