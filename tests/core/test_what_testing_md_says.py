"""What docs/testing.md says a conversation test can expect, on a made-up agent: instance names, every act,
list items, ``status``, a declined field as ``NA`` in the state and ``null`` in an API call."""

from __future__ import annotations

AGENT = """
    name: vet
    description: Books vet appointments.
    tasks:
      - name: BookAppointment
        description: Book a vet appointment
        examples: [book an appointment, my dog needs a vet]
        fields:
          - name: pets
            type: list[enum]
            description: the pets to bring
            values: [Dog, Cat, Rabbit]
          - name: notes
            type: str
            description: anything the vet should know
            required: false
          - name: confirm
            type: confirm
            description: whether to book it
        api: {function: book, side_effects: true}
        actions: say("Booked.")
"""
API = "def book(pets, notes):\n    return {'ok': True}\n"
TEST = """
    name: a declined note reaches the API as null
    today: 2026-11-21
    apis: {book: {ok: true}}
    turns:
      - user: book an appointment
        expect: {acts: [AskField book_appointment_0.pets]}
      - user: my dog and my cat
        expect:
          acts: [AskField book_appointment_0.notes]
          state: {book_appointment_0.pets.0: Dog, book_appointment_0.pets.1: Cat, book_appointment_0.status: active}
      - user: skip
        expect:
          acts: [AskForConfirmation book_appointment_0]
          state: {book_appointment_0.notes: NA}
      - user: "yes"
        expect:
          acts: [%s]
          api_calls: [{book: {pets: [Dog, Cat], notes: null}}]
          state: {book_appointment_0.status: completed, book_appointment_0.confirmed: true}
"""


def test_the_expectations_testing_md_describes_hold(genie, make_agent):
    directory = make_agent(AGENT, API, {"tests/declined_note.yaml": TEST % "Report book_appointment_0, Say"})
    result = genie("test", directory)
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().endswith("1 passed, 0 failed")


def test_an_act_left_out_of_acts_fails_the_turn(genie, make_agent):
    directory = make_agent(AGENT, API, {"tests/declined_note.yaml": TEST % "Report book_appointment_0"})
    result = genie("test", directory)
    assert result.returncode == 1
    assert "acts: expected ['Report book_appointment_0'], got [" in result.stdout
