"""Importing the reference Genie's JSON spec layout as an ``agent.yaml``.

Later versions of the reference (stanford-oval/genie-worksheets) read a spec from JSON as
well as from a spreadsheet: a list of worksheets ``{ws_predicate, ws_name, ws_type,
ws_backend_api, ws_actions, fields}``, each field ``{field_name, field_predicate,
field_kind, field_type, enum_values, field_description, field_dont_ask, field_required,
field_confirm, field_actions}``, ``enum_values`` a list of ``{value, description}`` (a field
with values is an Enum whatever its ``field_type``). Each entry becomes the spreadsheet row it
stands for, and the rows go through the same conversion as a CSV (:mod:`.csv_import`), so
both layouts mean exactly the same; warnings name the entry (``spec.json:Main.courses_to_take``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .csv_import import ImportedAgent, Row, SpecImporter

_WORKSHEET_CELLS = {"ws_predicate": "form_predicate", "ws_name": "form_name", "ws_type": "type",
                    "ws_backend_api": "name", "ws_actions": "form_actions"}
_FIELD_CELLS = {"field_predicate": "predicate", "field_kind": "kind", "field_type": "type", "field_name": "name",
                "field_description": "description", "field_actions": "actions"}
_FIELD_FLAGS = {"field_dont_ask": "dont_ask", "field_required": "required", "field_confirm": "confirm"}


def import_genie_json(path: Path) -> ImportedAgent:
    """Convert the reference's JSON spec at ``path``; ValueError if it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, list) or not all(isinstance(ws, dict) for ws in data):
        raise ValueError("expected a list of worksheets, each a mapping with 'ws_name' and 'fields'")
    rows: list[Row] = []
    labels: dict[int, str] = {}

    def add(cells: dict[str, str], label: str) -> None:
        number = len(rows) + 1
        rows.append(Row(number, {k: v for k, v in cells.items() if v.strip()}))
        labels[number] = label

    for i, ws in enumerate(data):
        name = _text(ws.get("ws_name")) or f"[{i}]"
        add({cell: _text(ws.get(key)) for key, cell in _WORKSHEET_CELLS.items()}, name)
        fields = ws.get("fields") or []
        for j, f in enumerate(fields if isinstance(fields, list) else []):
            if not isinstance(f, dict):
                continue
            label = f"{name}.{_text(f.get('field_name')) or f'fields[{j}]'}"
            values = [v for v in (f.get("enum_values") or []) if isinstance(v, (dict, str))]
            cells = {cell: _text(f.get(key)) for key, cell in _FIELD_CELLS.items()}
            if _text(ws.get("ws_type")).lower() != "db":  # the layout sets them on table columns too, meaning nothing
                cells.update({cell: "TRUE" if _flag(f.get(key)) else "" for key, cell in _FIELD_FLAGS.items()})
            cells["kind"] = _kind(cells["kind"])
            if values:
                cells["type"] = "List[Enum]" if cells["type"].lower().startswith("list") else "Enum"
            add(cells, label)
            for value in values:
                item = value if isinstance(value, dict) else {"value": value}
                add({"enum_values": _text(item.get("value")), "description": _text(item.get("description"))},
                    f"{label} enum value")
    return SpecImporter(path, labels, layout="a Genie Worksheets JSON spec", command="import-json").run(rows)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _flag(value: Any) -> bool:
    """``true``, ``"TRUE"`` (either spelling occurs in the reference's files)."""
    return value is True or (isinstance(value, str) and value.strip().upper() == "TRUE")


def _kind(kind: str) -> str:
    """``internal primary`` / ``internal; primary`` -> the spreadsheet's ``internal; primary``."""
    words = kind.replace(";", " ").split()
    return "; ".join([w for w in words if w != "primary"][:1] + ["primary"] * ("primary" in words))
