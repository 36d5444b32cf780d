"""``genie-bot validate`` finds what would otherwise fail later or silently (issue 36, item 6): a CSV row
with more values than columns, a value not of its column's type, a comma that ends an unquoted value of a
``{...}`` mapping, and a ``#`` that cuts a text, each with its file and line."""

from __future__ import annotations

AGENT = """
    name: laundry
    description: Answers questions about a laundry's services.
    knowledge:
      - name: services
        csv: services.csv
        primary_key: id
        columns:
          id: the code
          name: the service's name
          price: {type: float, description: the price in dollars}
"""


def test_every_bad_row_of_a_csv_is_a_problem_with_its_line(genie, make_agent):
    rows = "id,name,price\nS1,Wash,10\nS2,Wash, dry and fold,12\nS3,Iron,cheap\nS4,\"Dry, clean\",9\n"
    directory = make_agent(AGENT, files={"services.csv": rows})
    result = genie("validate", directory)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f'{directory}/services.csv:3: 4 values for 3 columns (id, name, price); a value with a comma in it must '
        'be quoted ("a, b")',
        f"{directory}/services.csv:4: column price holds 'cheap', not a float",
        "2 problems found"]


def test_a_table_that_does_not_import_stops_chat_with_its_line_not_a_traceback(genie, make_agent):
    directory = make_agent(AGENT, files={"services.csv": "id,name,price\nS1,Wash, dry and fold,12\n"})
    result = genie("chat", directory, stdin="hello\n")
    assert result.returncode == 1
    assert f"{directory}/services.csv:2: 4 values for 3 columns" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_comma_in_an_unquoted_value_of_a_braced_mapping_says_how_to_quote_it(genie, make_agent):
    directory = make_agent("""
        name: laundry
        tasks:
          - name: Order
            description: Order a wash
            fields:
              - {name: items, type: str, description: what to wash, and how}
              - {name: note, type: str, description: "anything else, if any"}
              - {name: pickup, type: str, description: when to pick it up, required: }
        """)
    result = genie("validate", directory)
    assert result.stdout.splitlines()[0] == (
        f"{directory}/agent.yaml:6:61: a comma ends an unquoted value inside {{...}}: 'description: what to wash, "
        "and how' reads as description 'what to wash' and a key 'and how' with no value; quote the value: "
        'description: "what to wash, and how"')
    assert "unknown field key" not in result.stdout  # what happened, not its consequence
    assert "'note'" not in result.stdout and "anything else" not in result.stdout  # quoted: fine
    assert result.stdout.splitlines()[1] == f"{directory}/agent.yaml:8:77: 'required' must be true or false"


def test_a_hash_one_space_after_a_text_would_cut_it(genie, make_agent):
    directory = make_agent("""
        name: laundry
        tasks:
          - name: Order
            description: Order a wash  # two spaces: a comment
            fields:
              - name: locker
                type: str
                ask: Which locker # is on your key?
                description: "the locker # on the key"
        """)
    result = genie("validate", directory)
    assert result.stdout.splitlines() == [
        f"{directory}/agent.yaml:8:27: ' #' starts a YAML comment, so the value is 'Which locker' without '# is on "
        "your key?'; quote it to keep the '#' (\"Which locker # is on your key?\"), or put two spaces before a "
        "comment", "1 problem found"]
