"""Small agents used by the core tests, written out by the ``make_agent`` fixture."""

ORDER_AGENT = """
name: diner
description: Orders food and looks up dishes.
tasks:
  - name: Order
    description: order food
    fields:
      - {name: dish, type: enum, values: [Pizza, Pasta], description: the dish}
      - {name: size, type: enum, values: [Small, Large], predicate: "self.dish == 'Pizza'"}
      - name: count
        type: int
        validation: {min: 1, max: 5, message: "Between 1 and 5, please."}
      - {name: name, type: str, confirm: true, actions: "say('Hi ' + self.name)"}
      - {name: note, type: str, required: false}
      - {name: secret, type: str, kind: internal, required: false}
      - {name: extra, type: str, dont_ask: true, required: false}
      - {name: when, type: date, required: false}
      - {name: order_id, type: str, kind: output}
    api: {function: place_order, side_effects: true}
    actions: say(f"Order {self.order_id} placed")
  - name: Menu
    description: read the menu
    fields:
      - {name: section, type: enum, values: [Mains, Desserts]}
    api: menu
    actions: |
      if self.section == 'Desserts':
          propose(Order, {'dish': 'Pasta'})
  - name: Party
    description: plan a party
    fields:
      - {name: host, type: Guest}
      - {name: size, type: int}
  - name: Guest
    fields:
      - {name: guest_name, type: str}
      - {name: vegan, type: bool}
  - name: Quit
    fields:
      - name: sure
        type: bool
        actions: |
          if self.sure:
              exitws()
knowledge:
  - name: dishes
    csv: data/dishes.csv
    primary_key: name
    columns:
      name: the dish name
      city: {description: the city to search in, required: true}
"""

ORDER_API = """
def place_order(dish, count, name, size=None, note=None, when=None, idempotency_key=None):
    CALLS.append(dict(dish=dish, count=count, name=name))
    return {"order_id": f"O{len(CALLS)}"}

def menu(section):
    return ["Margherita", "Carbonara"] if section == "Mains" else ["Tiramisu"]

CALLS = []
"""

ORDER_FILES = {"data/dishes.csv": "name,city\nMargherita,Rome\nCarbonara,Rome\n"}

GENIE_COURSE_AGENT = """
name: genie_courses
start: Main
{policy}
tasks:
  - name: Main
    fields:
      - {{name: courses_to_take, type: CoursesToTake, description: The courses that the student wants to take}}
      - {{name: student_info_details, type: StudentInfo, description: The details about the student}}
      - {{name: confirm_submission, type: confirm, description: Ask the student to confirm the submission}}
    api: {{function: courses_to_take_oval, side_effects: true}}
  - name: StudentInfo
    fields:
      - {{name: student_name, type: str}}
      - {{name: student_id, type: str}}
  - name: CoursesToTake
    fields:
      - {{name: course_0_details, type: Course}}
      - {{name: more_courses_1, type: bool}}
      - {{name: course_1_details, type: Course, predicate: "not self.more_courses_1 == False", required: false}}
      - {{name: confirm, type: confirm, description: Confirm all the course details, required: false}}
  - name: Course
    fields:
      - {{name: course_name, type: str}}
      - {{name: grade_type, type: enum, values: [Credit/No Credit, Letter]}}
      - {{name: course_num_units, type: int}}
knowledge:
  - name: courses
    columns:
      course_id: the course id
      title: the course title
"""
"""The reference Genie's course agent, cut down: its names, its nested worksheets and confirm fields."""

GENIE_COURSE_API = """
def courses_to_take_oval(courses_to_take, student_info_details, confirm_submission, **kwargs):
    CALLS.append(dict(courses_to_take=courses_to_take, student_info_details=student_info_details))
    return {"success": True}

CALLS = []
"""

GENIE_POLICY = "policy: {nested_worksheet_question: parent_field, start_task: when_nothing_asked}"
"""The reference Genie's choices, as `genie-bot import-csv` writes them."""
