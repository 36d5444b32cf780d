"""Conversation tests: scripted conversations written as data, checked turn by turn.

One YAML file per scenario (the schema is ``schema.yaml`` beside this module)::

    name: join a waitlist
    today: 2026-11-21                 # optional, the date the conversation happens on
    apis: {submit_ticket: {ticket_id: TKT-00042, status: submitted}}   # what API functions return
    turns:
      - user: I need help joining a waitlist
        expect:
          acts: [AskField trouble_shoot_0.issue_type]   # every act, in order
          says: [waitlist]                              # substrings of the reply (any case)
          not_says: [submitted]
          state: {main_0.student_task: TroubleShoot}    # instance.field (through nested instances)
          submissions: 0                                # side-effecting API calls so far
          api_calls: [{submit_ticket: {full_name: Ann Lee}}]   # this turn's calls, with arguments
          errors: 0                                     # statements the runtime rejected

An act pattern is the act's type, optionally followed by ``field``, ``instance``, or
``instance.field`` (``Report main_0``, ``AskForConfirmation main_0``, ``Say``). Each turn
runs through the agent as a user's message would (parser, runtime, responder). A
side-effecting API is never really called unless the run asks for it (``--real-apis``).
"""

from .checks import act_matches, check_turn, state_value
from .format import Scenario, ScenarioInvalid, load_scenario
from .runner import ScenarioResult, TurnFailure, run_scenario, scenario_files

__all__ = ["Scenario", "ScenarioInvalid", "ScenarioResult", "TurnFailure", "act_matches", "check_turn",
           "load_scenario", "run_scenario", "scenario_files", "state_value"]
