"""Numbers written as words, shared by the extractors and the head count."""

NUMBER_WORDS = {"zero": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "couple": 2, "pair": 2, "three": 3,
                "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12, "dozen": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
VAGUE_NUMBER_WORDS = ("a", "an", "single", "couple", "pair", "dozen")
"""Words that count only loosely ("a couple of classes"): a number only next to what they count."""
