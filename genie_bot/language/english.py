"""English: the words of the language that are about no domain, as data.

Everything the offline parser knows of English and of no particular agent lives here: numbers,
the calendar, yes and no, declining and not knowing, greetings and farewells, fillers, stop
words, negation, the words for people and the words that correct or take back. What a word means
in one agent's domain (that "class" is a course, that "guests" are counted in a party) is the
worksheet's vocabulary, never this module's.

Lists are phrases in lower case; the parser builds its patterns from them
(:func:`genie_bot.language.tokens.phrase_pattern`), so adding a word here teaches every agent.
"""

from __future__ import annotations

# -- numbers ----------------------------------------------------------------------------------------------
NUMBER_WORDS = {"zero": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "couple": 2, "pair": 2, "three": 3,
                "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12, "dozen": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
                "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
VAGUE_NUMBER_WORDS = ("a", "an", "single", "couple", "pair", "dozen")
"""Words that count only loosely ("a couple of things"): a number only next to what they count."""
ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                 "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
ORDINAL_INDEX = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4,
                 "5th": 4, "last": -1}
"""Positions in a list the agent showed ("the second one")."""
ONE_STANDS_FOR_A_THING = ("the", "that", "this", "which", "any", "each", "every", "another", "other", "first", "second",
                          "third", "fourth", "fifth", "last", "next", "same", "right", "wrong", "cheaper", "better",
                          "nicer", "closer", "new", "old")
"""Words before "one" that make it a thing, not a number ("the second one")."""
ROUGH_COUNTS = {"couple of": 2, "few": 3}
"""Counts of days or weeks said loosely ("a couple of days after")."""

# -- the calendar -----------------------------------------------------------------------------------------
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAY_STEMS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
"""Weekdays before "day"."""
WEEKDAY_ABBREVIATIONS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
DAY_WORDS = ("today", "tonight", "tomorrow", "yesterday")
PERIOD_WORDS = ("week", "month", "year", "weekend", "fortnight")
DATE_WORDS = (*DAY_WORDS, *WEEKDAYS, *(m for m in MONTHS if m != "may"), "weekend", "fortnight")
"""Words long enough to be mended when mistyped ("tomorow", "wendesday")."""
DATE_SHORTHAND = {"tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "tmw": "tomorrow", "tmoro": "tomorrow",
                  "tomoz": "tomorrow", "tonite": "tonight", "yday": "yesterday", "yest": "yesterday", "wknd": "weekend",
                  "tues": "tuesday", "thur": "thursday", "thurs": "thursday", "weds": "wednesday"}
"""Chat shorthand for date words."""
RELATIVE_WEEKS = {"last": -1, "this": 0, "next": 1}
RIGHT_NOW = ("now", "asap", "as soon as possible", "immediately", "straight away", "right away")
PARTS_OF_DAY = {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "evening",
                "tonight": "evening", "midday": "afternoon"}
"""Words that say which half of the day a time without am/pm is in ("9 tonight" is 21:00)."""
CLOCK_WORDS = {"noon": 12, "midday": 12, "midnight": 0}
PERIOD_LEADS = ("in", "during", "early", "late", "mid", "by", "around", "the end of", "the start of",
                "the beginning of", "the middle of", "end of", "start of", "beginning of", "middle of", "of")
"""Words before a month that make it a period, not a day ("early march")."""
RANGE_STARTS = ("from", "between", "starting")
RANGE_ENDS = ("to", "until", "till", "til", "through", "thru", "and", "-", "–")
"""Words that join the two ends of a range of days ("from dec 21 to jan 4", "between the 3rd and the 7th")."""

# -- yes and no -------------------------------------------------------------------------------------------
YES_PHRASES = ("yes", "y", "k", "kk", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "confirm", "confirmed",
               "definitely", "absolutely", "please do", "go ahead", "do it", "sounds good", "that's right",
               "that is right", "of course", "true", "affirmative", "perfect", "great", "yes please", "alright",
               "all right", "one more", "another one", "next", "next one", "next question", "keep going", "continue",
               "go on", "let's go", "let's do it", "why not", "i'd love to", "looks good", "look good", "looks great",
               "looks right", "lgtm", "that works", "works for me", "all correct", "all right then",
               "yes that's right", "good to go", "go for it", "proceed", "yes go ahead")
YES_LEADS = ("looks good", "looks great", "looks right", "perfect", "great", "sounds good", "go ahead", "all correct",
             "that's right", "thats right", "correct", "lgtm", "yes", "yeah", "yep", "yup", "sure")
"""A clear yes said first ("perfect go ahead"), unless a word after it takes it back."""
TAKING_BACK = ("but", "change", "wrong", "not", "instead", "except", "actually", "should", "fix")
NO_PHRASES = ("no", "n", "nope", "nah", "not really", "don't", "do not", "negative", "false", "wrong", "incorrect",
              "no thanks", "no thank you", "not now", "i don't think so", "never mind", "i'm good", "i am good",
              "i'm fine", "i am fine", "i'm all set", "i am all set", "all good", "i'm ok", "i'm okay", "not today")
LONG_YES_NO = {"correct": True, "confirm": True, "confirmed": True, "absolutely": True, "definitely": True,
               "perfect": True, "sounds good": True, "looks good": True, "go ahead": True, "incorrect": False,
               "negative": False, "not really": False}
"""Yes and no long enough to be recognised when mistyped ("corect", "looks goood")."""
EXCLAMATIONS = ("no way", "oh no", "oh my god", "oh my", "omg")
"""Said first, these are surprise, not a no."""
DONE_BEFORE = ("did", "have", "had", "do")
"""Verbs that answer yes by saying it was done ("already did", "I have")."""
GOING_ON = ("one more", "another one", "another question", "another round", "another game", "another try",
            "another go", "last one", "keep going", "keep playing", "keep on", "continue", "go on", "go again",
            "once more", "play more", "some more", "a few more", "two more", "couple more", "more please",
            "more questions", "more question", "let's play", "let's go", "let's do", "let's keep", "let's continue")
"""Asking to go on: a yes to "shall we go on?"."""
STOPPING = ("no more", "i'm done", "i am done", "all done", "that's it", "that's all", "that's enough",
            "enough for now", "enough for today", "stop", "quit")

# -- declining, not knowing, closing ------------------------------------------------------------------------
DECLINE_PHRASES = ("skip", "skip it", "skip this", "pass", "i don't know", "i do not know", "idk", "dunno", "i dunno",
                   "no idea", "no clue", "not sure",
                   "i'd rather not", "i'd rather not say", "rather not", "rather not say", "prefer not to",
                   "prefer not to say", "none", "nothing", "no comment", "n/a", "na", "not applicable",
                   "nothing else", "no, that's it", "no that's it", "no, that's all", "no that's all", "that's all",
                   "that is all", "that's it", "that is it", "that's everything", "that is everything",
                   "nothing more", "no thanks")
NARRATIVE_WORDS = ("description", "describe", "described", "details", "detail", "problem", "issue", "reason", "note",
                   "notes", "comment", "comments", "message", "instructions", "own words", "what happened",
                   "explain", "explanation", "anything else", "summary", "story")
"""Words of a field's name or description that make it the user's own account (a problem, a note), whose
every word is kept, rather than the name of something."""
QUESTION_LEADS = ("what", "what's", "whats", "which", "who", "who's", "whos", "where", "when", "how", "is", "are", "does",
                  "do", "did", "can", "could", "will", "would", "has", "have", "any", "tell me", "show me", "list", "find",
                  "search", "recommend")
"""Words a question (or a request for information) starts with."""
RELATIVE_WORDS = ("where", "which", "that", "who", "whose", "when")
"""Words that start a relative clause ("the branch where the car is picked up")."""
COUNTING_ONE = ("for", "of", "plus", "and", "just", "only")
"""Words after which "one" is a number ("a table for one"), not a thing."""
NONE_OF = ("no", "without", "without a", "without an", "without any", "no need for a", "no need for")
"""Words before a field's name that decline it ("no guest", "without extras")."""
DECLINE_LEADS = ("i guess", "i think", "well", "ok", "okay", "so", "um", "uh", "hmm")
"""Said before a decline without changing it ("I guess that is it")."""
COURTESY_TAILS = ("for now", "for today", "for the moment", "right now", "thanks", "thank you", "thank you so much",
                  "thanks a lot", "thx", "ty", "please")
"""Said after a decline without changing it ("that is all, thank you", "that is it for now")."""
MISTYPED_DECLINES = ("nothing else", "nothing more", "nothing", "no thanks", "no idea", "not sure", "skip", "skip it",
                     "no comment", "rather not say", "prefer not to say")
"""Declines long enough to be recognised when mistyped ("nohing else", "skp it")."""
NOT_KNOWING_VERBS = ("know", "remember", "recall", "recollect", "find", "think of")
NOTHING_MORE = ("that's it", "that's all", "that's everything", "that is it", "that is all", "that is everything",
                "that will be all", "that'll be all", "nothing else", "nothing more", "i'm done", "i'm all set",
                "i'm finished", "i am done", "i am all set", "i am finished", "all done")
"""Nothing more to add ("thats all"): while a summary waits for yes or no, neither yes nor no."""
FAREWELLS = ("goodbye", "good bye", "good-bye", "bye", "see you", "see ya", "take care", "have a good day",
             "have a great day", "have a nice day", "have a lovely day", "have a good one", "have a great one",
             "have a good night", "have a good evening", "have a good weekend", "have a nice weekend",
             "that's all", "that's it", "that is all", "that is it", "that will be all", "that'll be all", "i'm done",
             "i'm all set", "i'm finished", "i am done", "i am all set", "i am finished", "all done",
             "done for now", "done for today", "done for the day", "call it quits", "i give up")
GOODBYES = ("goodbye", "good bye", "good-bye", "bye", "see you", "see ya", "take care", "have a good", "have a great",
            "have a nice", "have a lovely")
"""A farewell that is only a farewell ("no, bye!"), never an answer."""
OTHERWISE = ("otherwise", "by default", "in any other case")
"""In a member's description, they make it the answer to a remark that names no member ("proceed: ..., and otherwise
after a remark")."""
MORE_HELP = ("anything else", "something else", "anything more", "more help", "further help", "help with anything")
"""A yes/no question offering more help says so ("is there anything else I can do?"): thanks alone answers it no."""
COURTESY_AROUND_THANKS = ("so much", "a lot", "very much", "for your help", "for the help", "for everything", "again",
                          "anyway", "anyways")
"""Said with thanks, they leave a message thanks alone ("thanks again", "thank you so much for your help")."""
COURTESY_AROUND_GREETINGS = ("there", "how are you", "how are you doing", "how are you today")
FOR_NOW = ("for now", "for today")
THANKS = ("thanks", "thank", "thank you", "thank u", "thx", "ty", "appreciate", "appreciate it", "grateful")
GREETINGS = ("hi", "hello", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening")
CANCEL_PHRASES = ("cancel", "stop", "abort", "never mind", "nevermind", "nvm", "nm", "forget it", "forget about it", "forget that",
                  "forget the whole thing", "quit", "exit", "scrap it", "scrap that", "drop it", "drop that",
                  "call it off", "i've changed my mind", "i changed my mind", "i have changed my mind")
START_OVER_PHRASES = ("start over", "restart", "reset", "start again", "begin again", "let's start over")
FILLERS = ("hm", "hmm", "um", "umm", "uh", "ah", "oh", "wow", "lol", "haha", "hehe", "er", "erm", "geez", "oops",
           "ok", "well", "so")
"""Sounds and interjections: no value for any field."""
LEAD_INS = ("um", "umm", "uh", "uhh", "well", "so", "and", "but", "plus", "and also", "also", "btw", "by the way",
            "oh and", "oh also", "oh plus", "ah and")
"""Words that lead into what is said ("oh and we have a peanut allergy")."""
VALUE_ENDINGS = ("and", "but", "or", "so", "plus", "also", "please", "pls", "plz", "thanks", "thank you", "thx", "ty",
                 "instead", "right now", "now")
"""Words that end a value without being part of it ("cs107 please")."""
ANSWER_LEADS = ("it's", "it is", "that's", "that is", "i'm", "i am", "call me", "i'd like", "i want", "i would like",
                "please")
"""Words before a short answer ("it's Ann Lee")."""
BACK_REFERENCES = ("it", "it's", "its", "it is", "it was", "that's", "that is", "that was", "which is")
"""A clause starting with them says the value of what the clause before named ("I remembered my PIN. It is 5380")."""
HEDGES = ("actually", "really", "now", "still", "spelled", "spelt", "written", "in fact", "just")
"""Words between "is" and a value stated ("my name is spelled Jayne Doe")."""

# -- the grammar of values -----------------------------------------------------------------------------------
CLAUSE_BREAKS = ("but", "though", "however", "although")
"""Words that start a new clause ("I forgot my id but my pin is 3941")."""
AND_BEFORE_A_CLAUSE = ("my", "her", "his", "the", "in", "on", "during", "for")
"""After "and", these start a new clause ("cs 107 and in spring")."""
STATING_VERBS = ("is", "was", "were", "are", "should be", "needs to be", "has to be", "must be", "is actually")
POSSESSORS = ("my", "her", "his", "our", "their", "the")
NAME_PREPOSITIONS = ("for", "of", "on", "in", "to", "from", "at")
"""Between a word of a field's description and the name it introduces ("the waitlist for CS 107")."""
NAME_ENDS = ("in", "on", "at", "by", "because", "please", "so", "but", "and", "since", "for", "to", "with", "this",
             "next", "tomorrow", "today")
ROLE_PREPOSITIONS = ("from", "to", "at", "near", "in", "for", "with", "on")
"""Prepositions a field's description may end with, which then introduce its value ("leaves from X")."""
ROLE_VERBS = {"from": ("picked up", "pick up", "pickup", "picking up", "collected", "collect", "leaves", "left", "leaving",
                        "departs", "depart", "starts", "comes", "sent from", "shipped from", "moved out of",
                        "moving out of", "get it", "grab it"),
              "to": ("delivered", "deliver", "dropped off", "drop off", "drop it off", "dropping off", "dropped",
                     "taken", "brought", "sent", "shipped", "goes", "arrives", "moved into", "moving into", "moving to",
                     "returned", "return", "return it", "returning", "back", "bring it back")}
"""Verbs a field's description may say its value with ("the address where the items are picked up"),
and the preposition that then introduces its value in a message ("from 12 Oak St")."""
PHRASE_ENDS = ("right now", "at the moment", "at", "by", "on", "for", "around", "via", "using", "with", "because",
               "please", "so", "then", "and then", "leaving", "starting", "i want", "i'd like", "id like", "departing",
               "arriving", "tomorrow", "today", "tonight", "now", "asap", "if", "but", "when", "where", "as", "to",
               "from", "towards", "into", "next", "this", "this coming")
"""Words that end a phrase introduced by a preposition ("from Palo Alto to the office")."""
COMMON_VERBS = ("get", "go", "be", "have", "head", "make", "find", "reach", "take", "walk", "drive", "meet", "see",
                "do", "help", "leave", "start", "travel", "arrive", "come", "visit", "know", "use", "give", "play",
                "file", "report")
"""Verbs after a preposition start no value ("to get there")."""
PRESENT_ADVERBS = ("now", "currently", "at present")
"""A description ending so is of a present state ("the plan the user is on now")."""
PRESENT_LEADS = ("i'm", "im", "i am", "currently", "still", "now")
ASKING_WORDS = ("help", "helping", "need", "want", "wanna", "like", "get", "please", "assist", "assistance", "support",
                "try", "trying", "do", "something", "some", "request")
"""Words that ask for something without saying what: "help with an order" asks for the ordering and nothing more."""
WANTING = ("want", "wanna", "would like", "i'd like", "id like", "we'd like", "rather have", "rather take", "rather do", "switch to",
           "switching to", "change to", "changing to", "move to", "get")
"""Words before what is wanted instead ("i want physics 148c instead")."""
NEAR_A_PLACE = ("near", "close to", "next to", "nearby")
"""Before a place the user goes to or near ("my date is near Broadway and Main")."""
BEFORE_AN_INFINITIVE = ("need", "needs", "want", "wants", "wanna", "like", "love", "have", "has", "going", "trying",
                        "try", "able", "hoping", "hope", "plan", "planning", "used", "how", "way", "time")
"""Words after which "to" starts what someone does ("i need to reorder"), not where something goes."""
NUMBER_LINKS = ("at", "from", "with", "on", "number", "no", "the", "#", "is", "are", "was", "be", "should", "to", "of")
"""Words between a noun and its number ("question number 4", "starting at 5")."""
SHORTHAND = {"ppl": "people", "pple": "people", "pax": "people", "hrs": "hours", "hr": "hours", "mins": "minutes",
             "wks": "weeks", "yrs": "years", "of us": "people", "persons": "people"}
"""Chat shorthand for what numbers count ("3 ppl")."""
COUNTING_LEADS = ("number of", "how many", "count of", "amount of", "quantity of")
"""Before the noun a number field counts ("the number of attendees")."""

# -- corrections and taking things out ----------------------------------------------------------------------
CORRECTION_WORDS = ("actually", "actualy", "acutally", "actully", "instead", "change", "i meant", "correction",
                    "sorry", "wait", "wrong", "mistake", "typo", "spelled", "spelt", "should be", "is not", "isn't",
                    "how about", "what about", "move it", "switch")
"""Words that say a value given before is being changed."""
REPLACING_VERBS = ("change", "replace", "swap", "switch")
CHANGING_VERBS = ("change", "update", "fix", "edit", "correct", "modify")
WRONG_WORDS = ("wrong", "incorrect", "not right", "a mistake", "off")
REMOVING_VERBS = ("remove", "delete", "erase", "clear", "scrap")
REMOVING_PHRASES = ("take out", "get rid of", "leave out", "no need for", "there's no", "there is no", "i have no",
                    "i've got no", "don't need", "do not need", "don't want", "do not want", "didn't ask for",
                    "did not ask for", "never asked for")
SELF_CORRECTIONS = ("no actually", "no, actually", "actually", "i mean", "sorry", "make that", "or rather", "rather")
"""Words with which a message corrects itself ("3... no actually 4")."""
FOR_ALL = ("both", "each", "all", "every", "them all", "for all", "all of them", "same")
"""A value said for every part ("letter for both")."""

# -- negation ---------------------------------------------------------------------------------------------
NEGATIONS = ("not", "no", "never", "n't", "don't", "doesn't", "isn't", "aren't", "can't", "cannot", "won't",
             "haven't", "hasn't", "hadn't", "didn't", "wasn't", "weren't", "am not", "i'm not")
NEGATED_PREFIXES = ("not", "no")
"""Words that negate a member's name ("Not Submitted")."""

# -- people -----------------------------------------------------------------------------------------------
PERSON_NOUNS = ("people", "person", "persons", "ppl", "pple", "pax", "adults", "adult", "kids", "kid", "children",
                "child", "attendees", "attendee", "participants", "participant", "visitors", "visitor", "passengers",
                "passenger", "travelers", "traveler", "travellers", "traveller", "members", "member", "individuals",
                "heads", "folks", "of us")
"""Nouns whose count is a number of people: a field counting any of them counts people."""
RELATIONS = ("wife", "husband", "partner", "spouse", "boyfriend", "girlfriend", "bf", "gf", "fiance", "fiancee",
             "fiancé", "fiancée", "date", "friend", "buddy", "colleague", "coworker", "co-worker", "boss", "client",
             "mom", "mum", "mother", "dad", "father", "son", "daughter", "brother", "sister", "sibling", "cousin",
             "aunt", "uncle", "niece", "nephew", "grandma", "grandpa", "grandmother", "grandfather", "grandson",
             "granddaughter", "roommate", "neighbor", "neighbour", "kid", "child", "baby", "toddler",
             "mother-in-law", "father-in-law", "plus-one", "plus one")
"""One person each, said with "my", "a" or "our" ("me and my wife")."""
PAIRS = ("parents", "grandparents", "in-laws", "folks")
"""Two people, said with "my" or "our"."""
COUNTED_PEOPLE = ("friends", "colleagues", "coworkers", "co-workers", "kids", "children", "adults", "people",
                  "cousins", "sisters", "brothers", "sons", "daughters", "grandkids", "grandchildren", "babies",
                  "toddlers", "teenagers", "teens", "clients", "others", "more")
"""People said with a number ("3 friends", "2 kids")."""
UNCOUNTED_PEOPLE = ("friends", "colleagues", "coworkers", "kids", "children", "family", "folks", "people", "cousins",
                    "team", "group", "crew", "gang", "relatives", "others", "grandkids", "grandchildren", "siblings",
                    "classmates")
"""People in a number not said ("me, my wife and kids")."""
NAME_OWNERS = ("full", "first", "last", "given", "family", "maiden", "middle", "customer", "user", "contact",
               "person", "your", "my", "his", "her", "their", "mother", "mothers", "father", "owner", "holder",
               "legal", "preferred")
"""Words that say a name field holds a person's name ("full_name", "the contact's name")."""
USER_NOUNS = ("user", "customer", "client", "caller", "person", "applicant", "employee", "member", "buyer",
              "requester", "requestor")
"""How descriptions commonly call the person talking to the agent ("the customer's email"); an agent
adds its own (``vocabulary: {users: [...]}``)."""
SENTENCE_WORDS = frozenset("""
i i'm im me my mine you your we our it it's its this that these those the a an
is are am was were be been being so very really too not no yes yeah ok okay and but
or if because please pls thanks thank help want need know don't dont can can't could would will should do
does did have has had what why how when where who which with for from to of in on at
about just still already here there again sorry hi hello hey great good fine cool nice perfect sure alright right
wow oops lol
""".split())
"""Words that make a reply a sentence or a description rather than a name ("this is so frustrating")."""
NAME_PARTICLES = ("van", "von", "der", "den", "de", "la", "le", "del", "della", "da", "di", "du", "dos", "bin", "ibn",
                  "al", "el", "st", "mc", "mac", "y")
TITLES = ("dr", "mr", "mrs", "ms", "mx", "prof")

# -- pointing at things -----------------------------------------------------------------------------------
PRONOUNS = ("it", "they", "them", "there", "this one", "that one", "this place", "that place", "the place")
"""Words that stand for the thing in focus ("is it good for kids?")."""
PLURAL_PRONOUNS = ("they", "them", "their", "those", "these", "those places", "these places", "those ones",
                   "these ones")
DEMONSTRATIVES = ("this", "that", "the")
"""Said before a noun of a table ("this <noun>"), they point at the record in focus."""
POSSESSIVES = ("my", "our", "the", "that", "this")

# -- words for the same thing ------------------------------------------------------------------------------
SYNONYMS = {"switch": "change", "swap": "change", "additional": "extra", "info": "detail", "information": "detail",
            "child": "kid", "children": "kid", "kiddo": "kid"}
"""Everyday words for the same thing, in any domain: a user who wants to "switch" something wants to
change it. An agent adds its own (``vocabulary: {synonyms: ...}``)."""

# -- stop words -------------------------------------------------------------------------------------------
STOP_WORDS = frozenset("""
i me my we our you your a an the to of for in on at and or is are be it this that with want would like need please
can could do does have has some about from get help hi hello hey just so also there what how which will am was im id
yes no as by not all after whether why had were been its if than but really very else something anything up
into onto
""".split())
"""Words that carry no meaning of their own when a message is matched against descriptions."""
CLAUSE_LABEL_LEADS = ("what", "which", "who", "when", "where", "why", "how", "whether", "anything", "any other",
                      "something")
"""A field label starting so is a clause, not a noun ("what you need help with", "anything else"): it
is named as "label: value", not "the label is value"."""
SEARCH_FILLER = frozenset("""
who when where whats tell show find list give got much many one more most less place places spot spots somewhere
option options thing things stuff looking look know idk maybe hmm ok okay tonight today tomorrow people person persons
""".split())
"""Words of asking for records that say nothing of which ("any spots open tonight?")."""
UNCHOSEN_RECORD = ("somewhere", "anywhere", "some place", "any place", "a place", "something", "anything",
                   "any good", "recommend", "recommendation", "suggest", "suggestion", "options", "ideas", "what do you have",
                   "what do u have", "do you have", "looking for")
"""Words saying the user has no record chosen yet and wants some found ("somewhere romantic in new york")."""
INFLECTIONS = ("ings", "ing", "ed", "es", "s")
"""Endings taken off a word to look for it in texts ("reviews" finds "review")."""
PERSON = "<person>"
"""Stands, among a question cue's words, for a column that holds someone's name."""
COUNT = "<count>"
"""Stands, among a question cue's words, for a column that holds a whole number."""
QUESTION_CUES: dict[str, tuple[str, ...]] = {
    "who": (PERSON, "person", "people", "staff"),
    "where": ("location", "address", "room", "building", "place", "city", "where"),
    "when": ("time", "day", "days", "date", "hours", "schedule", "when", "term", "quarter", "semester", "season"),
    "how many": (COUNT, "number", "count"),
    "how much": ("price", "cost", "fee", "hours"),
    "what time": ("time", "opening", "closing", "start", "end"),
    "hours": ("opening", "closing"),
    "how late": ("closing",),
    "how early": ("opening",),
}
"""Question words and the words of the columns they ask for ("who" -> an instructor's name,
"when" -> days and times, "how many" -> a number)."""
GENERIC_FIELD_WORDS = frozenset({"name", "number", "date", "of", "the", "details", "detail", "id", "code", "type",
                                 "value", "my", "num", "count"})
"""Words of field names that do not tell fields apart ("student_name" is told by "student")."""

# -- dialogue acts: the cues a message's parts are read by ------------------------------------------------
SELF_CORRECTION_CUES = ("no wait", "wait no", "no no", "i mean", "i meant", "sorry i meant", "sorry i mean", "make that",
                        "or rather", "scratch that", "correction", "oops", "no sorry", "sorry no", "actually no",
                        "no actually", "wait", "err", "erm", "uh no", "um no", "no scratch that")
"""Said between two values of one thing, they take the first back: "tuesday, no wait, wednesday"."""
CHANGE_CUES = ("actually", "actualy", "acutally", "actully", "instead", "make it", "make that", "change it to",
               "change that to", "change to", "switch to", "switch it to", "swap to", "move it to", "move to",
               "can we make it", "can we do", "could we do", "can we move it to", "how about", "what about",
               "let's do", "lets do", "rather", "i'd rather", "id rather", "prefer", "after all", "on second thought",
               "changed my mind", "should be", "should have been", "needs to be", "it's", "its", "it was",
               "wrong", "i meant")
"""Cues of a change of mind or a correction of a value given before ("actually make it unpaid leave")."""
SECOND_CHOICES = ("or", "or maybe", "or perhaps", "or possibly", "or it could be", "but it could be", "or else")
"""Between two values of one thing, the second is only another guess: "either 9503 or 1596" is 9503 first."""
NEGATING_CUES = ("not", "instead of", "rather than", "no longer", "never mind the", "wrong")
"""Before a value they deny it ("wednesday not tuesday", "instead of the hotel", "i took the wrong bus")."""
PROPOSING_LEADS = ("can we", "could we", "can i", "could i", "can you make it", "could you make it", "how about",
                   "what about", "is it possible to", "would it be possible to", "any chance we can", "can it be")
"""A question that proposes a value rather than asking about the records ("can we do 8pm instead?")."""
POLITE_QUESTION_LEADS = ("hey", "hi", "so", "ok", "okay", "oh", "and", "also", "btw", "um", "uh", "hm", "hmm", "well",
                         "wait", "actually", "quick question", "sorry",
                         "can you tell me", "could you tell me", "can you let me know", "do you know", "do you have",
                         "i want to know", "i'd like to know", "i wonder", "tell me")
"""Words before the question itself ("hey, do you know who teaches cs 107?")."""
ABOUT_THE_AGENT = ("what can you do", "what can you help with", "what can you help me with", "what do you do",
                   "how can you help", "how can you help me", "what else can you do", "what are you",
                   "who are you", "what is this", "what is this bot", "help", "menu", "options")
"""Questions about the agent itself: answered with its greeting."""
REQUEST_LEADS = ("i want", "i wanna", "i'd like", "id like", "i would like", "i need", "we need", "help me",
                 "can you", "could you", "would you", "will you", "please", "pls", "plz", "let's", "lets",
                 "i'm looking for", "im looking for", "looking for")
"""Words that ask for something: a message with none and no question is a remark."""
UNKNOWN_PHRASES = ("i don't know", "i dont know", "i do not know", "idk", "dunno", "no idea", "no clue", "not sure",
                   "i'm not sure", "im not sure", "i forgot", "i forget", "i can't remember", "i cant remember",
                   "i don't remember", "i dont remember", "can't recall", "cant recall", "unsure", "don't have one",
                   "dont have one", "i don't have it", "i dont have it", "don't have it", "don't know", "dont know",
                   "don't remember", "dont remember", "can't remember", "cant remember", "don't have that",
                   "dont have that", "don't recall", "dont recall", "cannot remember", "cannot recall", "can't think of",
                   "cant think of", "can not think of", "cannot think of", "can not remember", "don't think i remember",
                   "dont think i remember", "do not think i remember",
                   "do not remember", "do not recall", "can't seem to remember", "i've forgotten", "ive forgotten",
                   "i have forgotten")
"""Not knowing or not having a value: a decline of the question it answers."""
BELIEF_WORDS = frozenset({"think", "guess", "believe", "suppose", "really", "honestly", "sorry", "afraid"})
"""Before not knowing, they leave it so ("I don't think I remember it", "I'm afraid I can't recall")."""
NOT_KNOWN_OBJECTS = ("it", "that", "this", "one", "them", "any")
"""Said after not knowing, they stand for what was asked ("i cannot remember it for the life of me")."""
DECLINE_WORDS = ("none", "nothing", "no", "nope", "nah", "n/a", "na", "skip", "pass", "not really", "no thanks",
                 "nothing else", "no need", "not needed", "nope that's it", "no that's it", "no that's all",
                 "nothing to add", "no note", "no notes", "none needed", "all good", "i'm good", "im good")
"""A whole reply that declines an optional question ("nope", "n/a", "no need")."""
NO_LEADS = ("no", "nope", "nah", "none", "without", "without a", "without an", "without any", "no need for",
            "no need for a", "don't have a", "dont have a", "don't have an", "do not have a", "there's no", "theres no",
            "there is no", "we don't have a", "we dont have a", "don't want a", "dont want a", "don't want any",
            "dont want any", "don't need a", "dont need a", "don't need any", "dont need any")
"""Before a field's name, they decline it ("no code", "no gate code", "without extras")."""
TAKE_BACK_CUES = ("but", "except", "though", "however", "only", "just")
"""After a yes, they take part of it back ("yes but change the time")."""
CONTRADICTING = ("but", "although", "though", "even though")
"""Join two clauses that may say opposite things of one field."""

# -- amounts of money --------------------------------------------------------------------------------------
CURRENCY_SYMBOLS = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "c$": "CAD",
                    "ca$": "CAD", "a$": "AUD", "au$": "AUD", "chf": "CHF", "₩": "KRW"}
"""Signs written before or after an amount, and the currency they usually mean."""
CURRENCY_WORDS = {"dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD", "usd": "USD", "euro": "EUR",
                  "euros": "EUR", "eur": "EUR", "pound": "GBP", "pounds": "GBP", "quid": "GBP", "gbp": "GBP",
                  "sterling": "GBP", "yen": "JPY", "jpy": "JPY", "cad": "CAD", "canadian dollars": "CAD",
                  "aud": "AUD", "australian dollars": "AUD", "rupees": "INR", "inr": "INR", "francs": "CHF",
                  "swiss francs": "CHF"}
"""Words said after an amount, and the currency they mean ("45 bucks", "twelve hundred euros")."""
MAGNITUDES = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "hundred": 100, "million": 1_000_000, "mil": 1_000_000}
"""Words and letters after a number that multiply it ("3k", "about 7 thousand", "1.2k")."""
MONEY_WORDS = ("amount", "cost", "costs", "price", "spent", "spend", "paid", "pay", "payment", "fee", "fees", "total",
               "charge", "charged", "tip", "budget", "damage", "damages", "refund", "fare", "expense", "money",
               "salary", "rent", "deposit", "bill", "dollars", "euros", "currency", "value", "worth")
"""Words of a number field's name or description that make it an amount of money."""

# -- durations and relative dates --------------------------------------------------------------------------
DURATION_UNITS = {"second": 1 / 60, "sec": 1 / 60, "minute": 1, "min": 1, "mins": 1, "hour": 60, "hr": 60,
                  "hrs": 60, "day": 1440, "night": 1440, "week": 10080, "wk": 10080, "month": 43200, "year": 525600,
                  "yr": 525600}
"""Units of a length of time, in minutes."""
AGO_WORDS = ("ago", "back", "earlier")
"""After a length of time, a day in the past ("3 days ago")."""
FROM_NOW_WORDS = ("from now", "from today", "later", "out")
"""After a length of time, a day in the future ("2 weeks from now")."""
ROUGHLY_AFTER = ("or more", "or less", "or fewer", "or so", "or two", "plus")
"""Between a number and its unit, they leave the unit the number's ("one or more nights" is a length, no count)."""
OVERNIGHT_UNITS = ("night", "nights", "nite", "nites")
"""A stay counted in them ends the morning after its last night: "2 nights from friday" leaves on sunday."""
PARTS_OF_DAY_HOURS = {"morning": 9, "afternoon": 15, "evening": 19, "night": 21, "tonight": 21, "noon": 12,
                      "midday": 12, "midnight": 0, "lunchtime": 12}
"""The hour a part of the day stands for when no hour is said ("tomorrow morning" is no time, but it
says which half of the day "around 8" is in)."""
NIGHT_BEFORE = ("last night", "yesterday evening", "yesterday night")
"""Said of the evening before today."""
TIME_LEADS = ("at", "around", "about", "by", "before", "after", "like", "say", "maybe", "till", "until", "from", "since")
"""Words before a bare hour that make it a time ("at 8", "around 6")."""
CLOCK_SUFFIXES = ("o'clock", "oclock", "ish", "-ish")
CLOCK_FRACTIONS = {"half": 30, "quarter": 15}
PAST_THE_HOUR = ("past", "after")
TO_THE_HOUR = ("to", "before", "til", "till")
HALF_WORDS = {"half": 0.5, "half an": 0.5, "a half": 0.5, "quarter": 0.25, "a quarter": 0.25}
"""Parts of a unit of time ("half an hour")."""
DURATION_TAILS = ("long", "each", "apiece")
"""Words after a length of time that belong to it ("hour long walks")."""
PARTS_OF_TODAY = {"this morning": 0, "this afternoon": 0, "this evening": 0, "tonight": 0, "last night": -1,
                  "yesterday morning": -1, "yesterday afternoon": -1, "yesterday evening": -1,
                  "tomorrow morning": 1, "tomorrow afternoon": 1, "tomorrow evening": 1, "tomorrow night": 1}
"""A part of a day said with the day: the day's offset from today ("last night" is yesterday's)."""
DAYS_AFTER = ("after", "from")
DAYS_BEFORE = ("before",)
"""Words between a count of days and the day it counts from ("two days after tomorrow")."""
DATE_PHRASE_EDGES = ("at", "on", "in", "by", "from", "since", "until", "till", "to", "around", "starting", "for")
"""Prepositions at the edges of a date phrase that are no part of the date ("from dec 21")."""
NONE_OF_THESE = ("something else", "some other", "another one", "another kind", "another type", "some other one",
                 "a different one", "a different kind", "a different type", "none of those", "none of these",
                 "none of them", "none of the above", "neither", "not any of those", "not one of those")
"""The user means none of the options named: the member that stands for the rest, if the enum has one."""
THE_REST = ("other", "others", "another", "something else", "none", "none of the above", "anything else")
"""A member named or described so stands for every case the others do not ("Other: another test")."""
NAME_INTRODUCTIONS = ("my name is", "my name's", "name is", "name's", "names", "call me", "name", "the name is",
                      "it's under", "its under", "under the name", "under", "booked under", "signed")
"""Words right before a person's name ("my name is Ann Lee", "call me Ann")."""
SELF_INTRODUCTIONS = ("i'm", "im", "i am", "this is", "it's", "its", "here's", "heres", "me", "am")
"""Words before a name the user gives as their own ("im Jenna Ortiz"), when the name reads as one."""
CANCEL_OBJECTS = ("it", "that", "this", "everything", "the whole thing", "all of it", "all that", "about it",
                  "about that")
"""What a cancel is said of ("forget about it", "cancel that")."""
YES_NO_LEADS = ("actually", "um", "uh", "well", "hmm", "oh", "ok so", "so", "wait")
"""Said before a yes or a no without changing it ("actually no, i'd rather be home")."""
PARTY_LINKS = ("and", "plus", "with", "&", "+", ",")
"""Words that list the people of a party ("me and my wife", "me plus 3 friends")."""
SELF_WORDS = ("me", "myself")
BRINGING = ("i'll bring", "i will bring", "i'm bringing", "i am bringing", "i'll be bringing", "i will be bringing")
ALONE = ("just me", "only me", "just myself", "only myself", "me alone", "myself alone", "just me alone", "solo")
NUMBER_SAID_FOR_A_PARTY = ("including me", "incl me", "counting me", "with me", "including myself", "of us", "in total",
                           "total", "altogether", "all together")
"""A number said for the whole party: "4 of us including me" is a number, not people listed."""
PARTY_TOTAL_NOUNS = ("people", "persons", "ppl", "pax", "heads")
"""Counted, they give the whole party ("my brother is coming too so 4 people"), unless kinds of people are counted
beside them ("2 adults and 3 people from work")."""
PHONE_WORDS = ("phone", "cell", "mobile", "telephone", "number to reach", "callback", "call back")
EMAIL_WORDS = ("email", "e-mail", "mail address")
ADDRESS_WORDS = ("address", "street", "where the walker picks up", "home address", "location of the home")
"""Words of a text field's name or description that make it a street address."""
ACTION_REQUESTS = ("can you", "could you", "would you", "will you", "can u", "could u", "please", "can i", "could i",
                   "may i", "can someone", "could someone", "can anyone", "could anyone", "can somebody", "can we",
                   "could we")
"""A question that asks the agent to do something ("can you book me a table?"), not about the records."""
SECOND_PERSON = ("you", "your", "u", "ur", "yours")
"""Words that address the agent: a question with them is about the agent, not the records."""
REPLACEMENT_LINKS = ("to", "with", "for", "into", "by")
"""Between the old value and the new in "change X to Y"."""
AGE_WORDS = ("age", "years old", "how old")
"""Words of a number field's name or description that make it someone's age."""
MEASURE_UNITS = ("lb", "lbs", "pound", "pounds", "kg", "kgs", "kilo", "kilos", "g", "oz", "ounce", "ounces", "ft",
                 "feet", "foot", "in", "inch", "inches", "cm", "m", "meter", "meters", "metre", "metres", "km", "mi",
                 "mile", "miles", "%", "percent", "degrees", "sq", "sqft", "mph", "years", "yrs", "yr", "year",
                 "months", "mo", "weeks", "wks", "days", "hours", "hrs", "minutes", "mins")
"""Units a number measures something in ("45 lb", "2 years"): such a number counts no thing."""
AGE_TAILS = ("years old", "year old", "yrs old", "yr old", "yo", "y/o", "years of age", "years")
"""Words after a number that say it is an age ("25 years old")."""
ASKING_ABOUT_WHAT_IS_OFFERED = ("do you have", "have you got", "do you carry", "do you sell", "do you offer",
                               "can you recommend", "would you recommend", "do u have", "you have", "you got",
                               "do you guys have", "you guys have")
"""Words with "you" that ask about the records, not about the agent ("what electric cars do you have?")."""
QUESTION_WORDS = ("what", "what's", "whats", "which", "who", "who's", "whos", "where", "where's", "when", "how",
                  "why", "tell me", "show me", "list", "find", "search", "recommend", "any")
"""Words that make a clause a question wherever they lead it."""
AUXILIARIES = ("is", "are", "was", "were", "does", "do", "did", "can", "could", "will", "would", "has", "have", "should",
               "may", "might")
ASKED_SUBJECTS = ("you", "u", "it", "there", "they", "we", "i", "he", "she", "this", "that", "these", "those", "any",
                  "anyone", "anything", "someone", "ya", "y'all")
"""After an auxiliary that leads a clause, these make it a question ("is it good for kids", "do you have")."""
ARTICLES = ("a", "an", "the", "my", "our", "your", "some", "this", "that")
"""Words that may stand between the words of an option's name ("join a waitlist" for Join Waitlist)."""
EXAMPLE_LEADS = ("like", "such as", "for example", "e.g", "eg", "including")
"""Words after which a description lists examples ("a special request, like a high chair or an allergy")."""
LIST_JOINS = ("and", "plus", "&", "also", "as well as", "and also")
"""Words that join the items of a list ("cs 106a for 5 units and cs 103 letter")."""
SAME_WORDS = ("same", "the same")
"""A value said as another field's ("return it at the same place", "same as the pickup")."""
ROLES_IN_DESCRIPTIONS = {"from": ("now", "currently", "at present", "current"),
                         "to": ("instead", "new", "wants instead", "would like instead")}
"""Words of a field's description that give it a role: what the user has now is what a switch is from,
what they want instead is what it is to ("switch from cs 106b to cs 106x")."""
PRESENT_PLACES = ("i'm in", "im in", "i am in", "currently in", "i'm taking", "im taking",
                  "i am taking", "currently taking")
"""Words before what the user has now ("i'm in history 156 right now")."""
DATE_NOUNS = ("day", "date", "days")
TIME_NOUNS = ("time", "hour")
PLACE_NOUNS = ("place", "location", "spot", "branch", "address", "store", "office", "station", "one")
"""Nouns "the same ..." is said with, by the kind of value it stands for ("same place" is no day)."""
LIST_OR = ("or", "and", "and/or")
"""Words that join the last item of a list ("mice, rats or roaches")."""
ADDING_VERBS = ("add", "also add", "plus", "include", "also include", "throw in", "and also", "also")
"""Before an item added to a list ("add gps too")."""
OCCUPANCY_WORDS = ("apt", "apartment", "room", "rm", "suite", "ste", "unit", "floor", "fl", "bldg", "building", "flat")
"""Words a number of a place within a building follows ("room 204", "apt 3"): the number names that place; it
counts nothing."""
PROGRESS_QUESTIONS = ("any update", "any updates", "an update", "any news", "any progress", "how's it going",
                      "how is it going", "how's it coming", "how is it coming", "is it done", "is it ready",
                      "are you done", "done yet", "ready yet", "still working", "are you on it",
                      "are you working on it", "what's happening", "what is happening", "what's going on",
                      "what is going on", "where are we", "where are we at", "what's the status",
                      "what is the status", "status update", "how long will it take", "how much longer",
                      "are we done", "still there", "are you still there", "taking so long", "taking this long")
"""Questions about the progress of a request: "Sure, we're on it." answers them, and nothing else."""
CLOSINGS = (*NOTHING_MORE, *FAREWELLS, *THANKS, *NO_PHRASES, *MISTYPED_DECLINES, "im good", "we're good",
            "all set", "that'll do", "that will do", "cheers", "no more", "not right now", "not at the moment",
            "maybe later")
"""What closes a conversation once its task is done ("no thanks", "nope thats it", "thats all, bye")."""
CLOSING_COMPANIONS = ("awesome", "cool", "good", "nice", "lovely", "much", "lot", "k", "kk", "again", "guys",
                      "everything", "today", "now")
"""Words said with a closing that add no request ("awesome thanks so much!"), beside yes words, fillers and
stop words: a message of only these and closings closes; one with any other word ("no, i wanted something
else") does not."""
PRO_FORMS = ("one", "ones")
"""Words standing for a thing named before ("the plaza one"): never a value of their own."""
