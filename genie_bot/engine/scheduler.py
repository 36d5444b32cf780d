"""Periodic jobs of a running engine, scheduled by APScheduler and persisted in its SQLAlchemy job store.

Persisted jobs must name importable functions, so the job functions below find the engine
of this process through :func:`attach`. Each job is idempotent per session (it takes the
session's lease and changes rows conditionally): when two processes share the job store
and both run a job, nothing happens twice.
"""

from __future__ import annotations

import datetime as dt
import logging

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from ..config import SchedulerSettings
from .engine import Engine

log = logging.getLogger(__name__)

JOB_TABLE = "genie_scheduler_jobs"
_engine: Engine | None = None


def attach(engine: Engine | None) -> None:
    """Make ``engine`` the one the scheduled jobs of this process work on."""
    global _engine
    _engine = engine


def _attached() -> Engine:
    if _engine is None:
        raise RuntimeError("no engine attached to the scheduler")
    return _engine


async def close_idle_sessions() -> None:
    log.info("closed %d idle session(s)", await _attached().maintenance.close_idle_sessions())


async def expire_pending_actions() -> None:
    log.info("expired %d confirmation(s)", await _attached().maintenance.expire_pending_actions())


async def send_reminders() -> None:
    log.info("sent %d reminder(s)", await _attached().maintenance.send_reminders())


async def purge_traces() -> None:
    log.info("purged %s", await _attached().maintenance.purge())


def planned_jobs(settings: SchedulerSettings) -> dict[str, float]:
    """Job name -> interval in seconds, for the jobs the settings enable."""
    every = settings.check_every_seconds
    jobs = {"expire_pending_actions": every, "purge_traces": max(every, 3600.0)}
    if settings.idle_session_minutes is not None:
        jobs["close_idle_sessions"] = every
    if settings.reminder_after_minutes is not None:
        jobs["send_reminders"] = every
    return jobs


def start_scheduler(engine: Engine) -> AsyncIOScheduler:
    """Start the jobs of ``engine``, stored in its database; call it inside the running event loop.

    Jobs a previous configuration enabled but this one does not are removed from the store.
    """
    attach(engine)
    store = SQLAlchemyJobStore(engine=engine.db.engine, tablename=JOB_TABLE)
    scheduler = AsyncIOScheduler(jobstores={"default": store}, timezone=dt.timezone.utc,
                                 job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 300})
    scheduler.start()
    planned = planned_jobs(engine.config.scheduler)
    for job in scheduler.get_jobs():
        if job.id not in planned:
            job.remove()
    for name, seconds in planned.items():
        scheduler.add_job(f"{__name__}:{name}", "interval", seconds=seconds, id=name, replace_existing=True)
    return scheduler
