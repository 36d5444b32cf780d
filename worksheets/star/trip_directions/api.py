"""The route-finding API of STAR's trip_directions task, over STAR's own routes (data/routes.json).

STAR's knowledge base has three routes per travel mode, each with simple and detailed steps
(``dbs/trip.json`` of the STAR data, MIT licence); it picks one whatever the places are. This
function picks one deterministically from the places. ``genie-bot eval star`` replaces its
result with the one recorded in the dialogue being replayed.
"""

from __future__ import annotations

import datetime as dt
import json
import zlib
from pathlib import Path
from typing import Any

ROUTES = json.loads((Path(__file__).parent / "data" / "routes.json").read_text(encoding="utf-8"))


def trip_directions(travel_mode: str, departure_location: str, arrival_location: str,
                    departure_time: dt.time | None = None) -> dict[str, Any]:
    """The route's steps under the keys STAR uses, e.g. ``transit_instructions``."""
    routes = ROUTES[travel_mode]
    route = routes[zlib.crc32(f"{departure_location}|{arrival_location}".lower().encode()) % len(routes)]
    mode = travel_mode.lower()
    return {"travel_mode": travel_mode, f"{mode}_instructions": route["steps"],
            f"detailed_{mode}_instructions": route["detailed_steps"]}
