"""Record and replay of prompt/completion pairs, so a real session becomes a regression test.

With ``GENIE_LLM_RECORD=DIR`` every successful call is saved as ``DIR/<role>-<key>.json``
(the prompt, the completion and its usage); the LLM parser also appends each turn to
``DIR/trace.jsonl`` in the format ``genie-bot replay`` reads. With ``GENIE_LLM_REPLAY=DIR``
the saved completions are served back by prompt, with no network; a prompt that was never
recorded fails like an unreachable LLM (``kind="not_recorded"``), so the offline fallbacks
take over and the replay shows where the conversation diverged.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from .client import ChatRequest, Completion, LLMError, Transport

TRACE_FILE = "trace.jsonl"


class RecordingTransport:
    def __init__(self, inner: Transport, directory: Path):
        self.inner = inner
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    def send(self, request: ChatRequest) -> Completion:
        completion = self.inner.send(request)
        record = {"role": request.role, "model": request.model, "messages": list(request.messages),
                  "temperature": request.temperature, "completion": completion.text,
                  "prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens}
        _write_atomically(self.directory / f"{request.role}-{request.key()}.json", record)
        return completion


class ReplayTransport:
    def __init__(self, directory: Path):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise FileNotFoundError(f"no recorded completions: {self.directory} is not a directory")

    def send(self, request: ChatRequest) -> Completion:
        path = self.directory / f"{request.role}-{request.key()}.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            detail = f"no recorded completion {path.name} for this {request.role} prompt"
            raise LLMError("not_recorded", detail) from None
        except (OSError, ValueError) as exc:
            raise LLMError("malformed", f"{path.name}: {exc}") from exc
        return Completion(record["completion"], record.get("prompt_tokens", 0), record.get("completion_tokens", 0))


class TraceRecorder:
    """Appends ``{"user", "parse", "today"}`` lines: the trace of the recorded session."""

    def __init__(self, directory: Path):
        self.path = Path(directory) / TRACE_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def __call__(self, user: str, statements: str, today: str) -> None:
        line = json.dumps({"user": user, "parse": statements, "today": today}, ensure_ascii=False)
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")


def _write_atomically(path: Path, data: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
    os.replace(tmp, path)
