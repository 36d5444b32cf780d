"""A simulated user's own words for the example agents' fields: what they call a field, how they
say an enum value, and the cue words around a fact ("for 4 people", "at 7pm", "starting winter").

Fields without an entry fall back to words taken from the field's description, so any agent can
be simulated; these entries only make the example agents' users sound like people.
"""

from __future__ import annotations

TASK_WORDS: dict[tuple[str, str], list[str]] = {
    ("restaurant_reservation", "BookRestaurant"): ["book a table", "make a reservation", "reserve a table"],
    ("ticket_submission", "Main"): ["file a ticket", "open a support ticket", "submit a ticket"],
    ("course_enrollment", "Main"): ["enroll in some classes", "sign up for courses", "register for classes"],
}
"""What a user asks for, by (agent, task); other tasks are asked for by their description."""

SEVERAL = ["i want to take {rows}", "can you enroll me in {rows}", "i'd like to sign up for {rows}", "{rows} please"]
"""Several rows of the same kind (courses) named at once."""

ENUM_WORDS: dict[tuple[str, str], list[str]] = {
    ("student_task", "TroubleShoot"): ["i have an enrollment problem", "i'm having trouble with my classes",
                                      "problem with a course", "something is wrong with my enrollment"],
    ("student_task", "Leave of Absence"): ["leave of absence", "i need to take a leave of absence",
                                          "i want to request a leave of absence"],
    ("student_task", "External Test Credits"): ["external test credits", "my test credits are messed up",
                                               "it's about my external credits", "problem with my test credit"],
    ("issue_type", "Change Course"): ["change a course", "i want to switch courses", "swap one of my classes",
                                      "i need to change classes"],
    ("issue_type", "Join Waitlist"): ["join a waitlist", "i need to get on the waitlist", "waitlist",
                                      "the waitlist one"],
    ("form_status", "Submitted"): ["i already submitted it", "yes already submitted", "submitted",
                                   "yeah i sent it in already"],
    ("form_status", "Not Submitted"): ["not yet", "i haven't submitted it", "no not submitted yet",
                                       "haven't sent it"],
    ("submission_method", "Online"): ["online", "through the online portal", "i did it online"],
    ("submission_method", "Email"): ["email", "by email", "i emailed it"],
    ("submission_method", "In Person"): ["in person", "i dropped it off in person", "handed it in in person"],
    ("test_type", "AP"): ["AP", "ap exams", "advanced placement"],
    ("test_type", "IB"): ["IB", "ib", "international baccalaureate"],
    ("test_type", "A-Level"): ["a levels", "A-Level", "british a-levels"],
    ("test_type", "Other"): ["other", "a different test", "something else, not ap or ib"],
    ("issue", "Missing Credits"): ["the credits are missing", "they don't show up", "missing credits",
                                   "my credits aren't there"],
    ("issue", "Wrong Credits"): ["wrong number of units", "they gave me the wrong units", "the credits are wrong"],
    ("issue", "Scores Not Received"): ["they never got my scores", "scores not received",
                                       "the school hasn't received my scores"],
    ("grade_type", "Letter"): ["letter", "letter grade", "a letter grade", "graded, letter"],
    ("grade_type", "Credit/No Credit"): ["credit/no credit", "cr/nc", "pass/fail", "credit no credit"],
}

FACT_CUES: dict[str, list[str]] = {
    "num_people": ["for {v}", "for {v} people", "party of {v}", "{v} of us", "{v} people"],
    "num_people=1": ["just me", "for one person", "table for one", "1 person"],
    "date": ["{v}", "on {v}", "for {v}"],
    "time": ["at {v}", "around {v}", "at {v}"],
    "restaurant": ["at {v}", "at {v}"],
    "course_name": ["{v}"],
    "current_course": ["from {v}", "i'm in {v} right now"],
    "new_course": ["to {v}", "i want {v} instead"],
    "quarter": ["in {v}", "for {v} quarter", "{v}"],
    "start_quarter": ["starting {v}", "from {v} quarter", "beginning in {v}"],
    "submission_date": ["on {v}", "i sent it {v}"],
    "submission_time": ["sent them {v}", "i sent the scores {v}"],
    "course_num_units": ["{v} units", "for {v} units"],
    "course_num_units=1": ["1 unit", "one unit", "for 1 unit"],
    "grade_type": ["{v}", "for {v}"],
}

LABELS: dict[str, list[str]] = {
    "num_people": ["number of people", "party size", "number of guests"],
    "restaurant": ["restaurant", "place"],
    "course_num_units": ["units", "number of units"],
    "grade_type": ["grading", "grade option"],
    "course_name": ["course", "class"],
    "full_name": ["name"],
    "student_name": ["name"],
    "email": ["email", "email address"],
    "student_email_address": ["email", "email address"],
    "student_id": ["student id", "id number"],
    "submission_date": ["date", "submission date"],
    "submission_time": ["date", "date i sent them"],
    "is_international_student": ["international status"],
    "extra_details": ["note", "extra details", "additional info"],
    "reason": ["reason"],
    "special_request": ["special request", "note for the restaurant"],
}

QUESTIONS: dict[str, list[str]] = {
    # by the column a question needs; {row} is what the user calls the row
    "phone": ["what's the phone number for {row}?", "can i get {row}'s number"],
    "review": ["is {row} good for kids?", "does {row} have vegetarian options", "is {row} quiet?"],
    "closing_time": ["what time does {row} close?", "how late is {row} open"],
    "address": ["where is {row}?", "whats the address of {row}"],
    "description": ["what does {row} cover?", "what is {row} about"],
    "prerequisites": ["what are the prereqs for {row}?", "does {row} have prerequisites"],
    "max_units": ["how many units is {row}?"],
    "instructor": ["who teaches {row}?", "who's the instructor for {row}"],
    "days": ["when does {row} meet?", "what days is {row} on"],
}

YES = ["yes", "yep", "yeah", "sure", "yes please", "y"]
NO = ["no", "nope", "nah", "no thanks"]
DECLINE = ["no", "nope", "skip", "no thats it", "nothing else", "no thanks", "that's all"]
CONFIRM = ["yes", "yep", "looks good", "correct", "yes that's right", "perfect, go ahead", "yes please", "lgtm"]
DONT_KNOW = ["i don't know", "not sure", "no idea"]
