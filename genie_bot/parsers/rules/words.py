"""What kind of message it is: commands, small talk, questions, requests, remarks.

Patterns over the message as a whole; what a message says about a field is read elsewhere
(``extract`` for typed values, ``about`` for which field a clause is about).
"""

from __future__ import annotations

import re

from ...language import english
from ...spec import AgentSpec, Field
from .. import extract

CANCEL = re.compile(r"(cancel|cancel (it|that|this|the \w+|my \w+)( (please|then|now|for now))?|stop|abort|never ?mind|"
                    r"forget (it|about it|that|the whole thing)|quit|exit|scrap (it|that)|drop (it|that)|call it off|"
                    r"i'?ve changed my mind|i (have )?changed my mind|"
                    r"i (don'?t|do not|no longer) (want|need) (it|this|that|to \w+( \w+)?)( any ?more)?)[.!]*", re.I)
"""A clause that drops the task in progress ("forget it", "i don't want to enroll anymore")."""
_LEAD_IN = re.compile(r"^((ugh|uh|um+|hmm+|oh|ok(ay)?|well|so|actually|just|no|nah|nope|please|you know what|"
                      r"on second thought)[\s,.!]+)+", re.I)
START_OVER = re.compile(r"^(start over|restart|reset|start again|begin again|let'?s start over)[.!]*$", re.I)
CHITCHAT = re.compile(r"^((hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|please|"
                      r"thanks?( you)?( so much)?|thank you|ok(ay)?|cool|great|bye|goodbye|see you)( there)?[ ,.!]*)+"
                      r"(how are you( doing)?( today)?[ ?.!]*)?$", re.I)
QUESTION = re.compile(r"(\?\s*$)|^(what|which|who|where|when|how|is|are|does|do|can|could|tell me|show me|list|find|"
                      r"search|recommend|any)\b", re.I)
ASKS_THE_AGENT = re.compile(r"^(why|who|how|what)\b.*\?|^.*\b(you|your)\b.*\?\s*$", re.I)
"""A question to the agent ("Who are you?", "Why do you need that?"), not an answer."""
ABOUT_THE_AGENT = re.compile(r"^(hi|hey|hello|so|ok(ay)?|um+|hm+)?[\s,.!]*((what|how) (can|do|could|else can) (you|u) "
                             r"(do|help( me)?( with)?)( for me)?|what are (you|u)|what is this( bot)?|options|menu)[\s?!.]*$",
                             re.I)
"""A question about what the agent is for ("what can you do?"): answered with its greeting."""
REQUEST = re.compile(r"\b(can|could|would|will) you\b|\b(i want|i'?d like|i would like|i need|help me|please|let'?s)\b",
                     re.I)
"""A request; a message with none and no question is a remark ("this is so frustrating")."""
SENTENCE = re.compile(r"\b(i|i'?m|me|you|we|they|he|she|is|are|was|were|am|be|do|does|did|can|could|will|would|"
                      r"should|have|has|had|sounds?|looks?|think|know|want|need|go|going|get|got|see|like|love|make|"
                      r"take|tell|give|let'?s|please|excuse|sorry|what|why|how)\b", re.I)
"""Words of a sentence said to someone ("sounds right", "I love eggs"), not of a bare value ("Ann Lee")."""
FILLER = re.compile(r"(h+m+|u+m+|u+h+|a+h+|o+h+|w+o+w+|l+o+l+|(ha)+h?|(he)+h?|hm+|er+m*|geez|oops|ok+)[.!?]*", re.I)
"""Sounds and interjections ("hmm", "lol"): no value for any field."""
PLEA = re.compile(r"^(?:(?:hi|hello|hey|please|i|i'?m|am|me|my|a|an|in|some|real|really|can|could|would|you|"
                  r"need|needs|your|help|out|urgent|urgently|quick|quickly|hurry|desperate|situation|now)"
                  r"\b[\s,.!?]*)+$", re.I)
CLOSING = re.compile(r"\banything else\b", re.I)
NOTHING_MORE = re.compile(r"^((no+|nope|nah|ok(ay)?|so)\b[\s,.!]*)?(that'?s (it|all|everything)|that is (it|all|everything)|"
                          r"that will be all|that'?ll be all|nothing (else|more)|i'?m (done|all set|finished)|"
                          r"i am (done|all set|finished)|all done)( for now)?[\s,.!]*((thanks?|thank (you|u)|thx|ty)[\s.!]*)?$",
                          re.I)
"""Nothing more to add ("thats all", "no that's it thanks"): while a summary waits for yes or no, this
neither confirms it nor drops it nor says goodbye."""
CORRECTION = re.compile(r"\b(actually|actualy|acutally|actully|instead|change|make (?!a\b|an\b|sure\b|me\b)|i meant|"
                        r"correction|sorry|wait|wrong|mistake|typo|"
                        r"spelled|spelt|should be|is not|isn'?t|not\b.*\bbut|how about|what about|move it|switch|"
                        r"can we (do|make|move|change)|let'?s do (?!it\b|that\b|this\b))", re.I)


def correcting(text: str) -> bool:
    """Whether the message says a value given before is being changed ("actually", "I meant", "wrong")."""
    return bool(CORRECTION.search(text))


def names_only_a_field(spec: AgentSpec, text: str) -> bool:
    """A request about a field that gives no value for it ("change the student full name", "update
    the special request"): its words are a changing verb and the field's own, so they are no text
    for any field."""
    changing = extract.content_words(" ".join((*english.CORRECTION_WORDS, *english.CHANGING_VERBS,
                                               *english.REPLACING_VERBS)))
    said = extract.content_words(text)
    if not (correcting(text) or said & changing):
        return False
    left = said - changing
    for ws in spec.tasks.values():
        for f in ws.fields.values():
            own = extract.content_words(" ".join((f.name.replace("_", " "), f.label or "", f.description, *f.synonyms)))
            if f.kind == "input" and extract.mentions(text, f) and not left - own:
                return True
    return False


MAX_SMALL_TALK_WORDS = 6
"""A short message of thanks or yes/no ("ok great, thank you!", "yes please") is no name or report."""


def cancels(text: str) -> bool:
    """Whether a clause of the message drops the task ("ugh forget it", "nevermind, I'll come back
    later") and no other clause gives a value or asks ("never mind, my id is 06123456" corrects)."""
    clauses = [part for clause in extract.clauses(text) for part in _after_a_cancel(clause)]
    dropping = [c for c in clauses if CANCEL.fullmatch(_LEAD_IN.sub("", c).strip())]
    rest = " ".join(c for c in clauses if c not in dropping)
    return bool(dropping) and not re.search(r"\d|\?", rest) and "?" not in text


_CANCEL_FIRST = re.compile(r"^((?:never ?mind|forget (?:it|about it)|scrap (?:it|that)|cancel (?:it|that))[.!,]*)\s+(.+)$", re.I)


def _after_a_cancel(clause: str) -> list[str]:
    """A clause that opens with a cancel, then says why ("never mind i fixed it myself"), as two."""
    found = _CANCEL_FIRST.match(_LEAD_IN.sub("", clause).strip())
    return [found.group(1), found.group(2)] if found else [clause]


def addresses_the_agent(text: str) -> bool:
    """Greetings, farewells and questions to the agent: the message answers no free-text question."""
    return bool(CHITCHAT.match(text) or extract.is_farewell(text) or ASKS_THE_AGENT.search(text))


def closing_question(f: Field) -> bool:
    """"Is there anything else I can do for you?": the question that closes a conversation."""
    return bool(CLOSING.search(f"{f.ask or ''} {f.description}"))


def thanks_only(text: str) -> bool:
    """Thanks, maybe with an ok or a remark, and no request or question ("ok great, thanks for your help")."""
    return extract.is_thanks(text) and not QUESTION.search(text) and not re.search(
        r"\b(can|could|would|will) you\b|\b(i want|i'?d like|i would like|i need|help me with|let'?s)\b", text, re.I)


def plea_for_help(text: str) -> bool:
    """A plea for help that says nothing of what is wanted ("help me please!"): the answer is
    "how can I help?", not a task."""
    return bool(PLEA.match(text.strip())) and bool(re.search(r"\b(help|situation|hurry|urgent)", text, re.I))


def remark(text: str) -> bool:
    """Neither a question nor a request nor a farewell: "this is so frustrating", "I see the park"."""
    return not (QUESTION.search(text) or REQUEST.search(text) or extract.is_farewell(text))


def small_talk(clause: str) -> bool:
    """A short clause of thanks, or of yes or no ("ok great", "yes please"), which is no value
    ("ok add cs229 too" says more than ok)."""
    if len(clause.split()) > MAX_SMALL_TALK_WORDS:
        return False
    if CHITCHAT.match(clause) or extract.is_thanks(clause):
        return True
    rest = _YES_NO_LEAD.sub("", clause.strip())
    return extract.yes_no(clause) is not None and (not extract.content_words(rest) or extract.yes_no(rest) is not None)


_YES_NO_LEAD = re.compile(r"^((yes|yeah|yep|yup|sure|ok(ay)?|no|nope|nah|great|fine|cool|please|alright|right)\b[\s,.!]*)+",
                          re.I)


def capitalised(text: str) -> str:
    return re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), text)
