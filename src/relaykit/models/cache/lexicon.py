"""Word lists behind the semantic-cache guards: opposed senses (approve/reject), negation cues, units,
number words, months and weekdays, the prepositions that give a value its role ("from 3 pm", "to 5 pm").

An opposition is a *concept* with *poles*; two requests may only share an answer when, for every
concept, they use the same poles the same number of times ("approve" and "accept" share a pole,
"approve" and "reject" do not). Words are looked up after a light stemming (``base_forms``).
"""

from __future__ import annotations

from collections.abc import Iterator

CONCEPTS: dict[str, list[list[str]]] = {
    "approval": [["approve", "accept", "allow", "permit", "authorize", "authorise", "grant", "confirm", "agree",
                  "admit", "greenlight", "endorse"],
                 ["reject", "deny", "decline", "refuse", "forbid", "prohibit", "ban", "block", "veto", "cancel",
                  "revoke", "dismiss", "overrule"]],
    "inclusion": [["include", "including", "inclusive", "incl", "plus"],
                  ["exclude", "excluding", "except", "exclusive", "excl", "omit", "omitting", "minus", "besides"]],
    "when": [["now", "immediately", "instantly", "asap", "straightaway"],
             ["later", "afterwards", "eventually", "someday", "postpone", "defer", "delay"]],
    "day": [["today"], ["tomorrow"], ["yesterday"], ["tonight"], ["weekend"], ["weekday"]],
    "sequence": [["before", "prior", "earlier", "previous", "previously", "preceding"],
                 ["after", "subsequent", "next", "afterward"]],
    # common words whose opposite is rare stay out ("up", "over", "more", "new"): the rare side is enough
    "direction": [["increase", "raise", "grow", "rise", "boost", "expand", "extend", "upgrade", "inflate",
                   "scale-up", "double", "maximize", "maximise", "climb", "soar", "surge", "jump", "gain"],
                  ["decrease", "reduce", "cut", "shrink", "down", "downgrade", "lessen", "deflate", "halve",
                   "minimize", "minimise", "shorten", "trim", "fall", "sink", "dip", "plunge", "plummet",
                   "decline"]],
    "comparison": [["high", "greater", "above", "over", "exceed", "higher", "larger", "bigger", "longer", "heavier",
                    "older", "plenty"],
                   ["low", "less", "fewer", "below", "under", "lower", "smaller", "shorter", "lighter", "younger"]],
    "extreme": [["max", "maximum", "highest", "largest", "biggest", "greatest", "top", "upper", "peak",
                 "latest", "newest"],
                ["min", "minimum", "least", "lowest", "smallest", "fewest", "bottom", "floor", "earliest", "oldest"]],
    "membership": [["add", "insert", "create", "append", "attach", "join", "subscribe", "register", "enroll",
                    "enrol", "hire", "install", "keep", "retain"],
                   ["remove", "delete", "drop", "erase", "detach", "discard", "leave", "quit", "fire", "dismissal",
                    "uninstall", "purge", "destroy", "unsubscribe"]],
    "trade": [["buy", "purchase", "acquire", "rent"], ["sell", "resell", "refund"]],
    "flow": [["import", "inbound", "incoming", "input", "receive", "deposit", "credit", "borrow", "pull"],
             ["export", "outbound", "outgoing", "output", "send", "transfer", "pay", "wire", "withdraw", "withdrawal",
              "debit", "lend", "push"]],
    "transfer_dir": [["upload"], ["download"]],
    "state": [["open", "login", "unlock", "start", "begin", "launch", "resume", "enable", "activate", "online",
               "unmute", "unhide", "connect"],
              ["close", "lock", "stop", "end", "finish", "halt", "pause", "terminate", "disable", "deactivate",
               "suspend", "off", "offline", "mute", "hide", "conceal", "hidden", "disconnect", "shut", "logout",
               "shutdown"]],
    "price": [["cheap", "inexpensive", "affordable", "budget", "discount", "discounted", "low-cost"],
              ["expensive", "pricey", "costly", "premium", "luxury", "overpriced", "high-end"]],
    "speed": [["fast", "quick", "quickly", "rapid", "rapidly", "express", "urgent", "urgently", "speed"],
              ["slow", "slowly", "leisurely", "gradual", "gradually", "economy"]],
    "timing": [["early", "sooner"], ["late", "overdue", "delayed", "tardy"]],
    "temperature": [["hot", "warm", "heat", "warmer", "hotter"], ["cold", "cool", "chill", "cooler", "colder",
                                                                  "freeze", "frozen"]],
    "size": [["big", "large", "huge", "giant", "tall", "wide", "thick", "heavy"],
             ["small", "little", "tiny", "mini", "short", "narrow", "thin", "light"]],
    "age": [["fresh", "modern", "young"], ["old", "stale", "legacy", "ancient", "outdated",
                                                            "former", "expired"]],
    "visibility": [["public", "external", "shared"], ["private", "internal", "confidential", "secret"]],
    "obligation": [["required", "mandatory", "compulsory", "obligatory", "must", "necessary", "essential"],
                   ["optional", "voluntary", "allowed"]],
    "duration": [["permanent", "permanently", "forever", "indefinite", "indefinitely"],
                 ["temporary", "temporarily", "interim", "provisional", "briefly"]],
    "sameness": [["same", "identical", "similar", "equal", "matching"], ["different", "distinct", "other",
                                                                        "another", "unequal"]],
    "truth": [["true", "correct", "right", "valid", "accurate"],
              ["false", "incorrect", "wrong", "invalid", "inaccurate"]],
    "outcome": [["win", "pass", "succeed", "success", "successful", "gain", "profit", "positive", "won", "passed"],
                ["lose", "fail", "failure", "loss", "negative", "lost", "failed", "deficit"]],
    "side": [["left"], ["right"]],
    "compass": [["north", "northern"], ["south", "southern"], ["east", "eastern"], ["west", "western"]],
    "entry": [["arrive", "arrival", "check-in", "checkin", "landing"],
              ["depart", "departure", "exit", "check-out", "checkout", "takeoff", "leaving"]],
    "sort": [["ascending", "asc", "a-z", "oldest-first"], ["descending", "desc", "z-a", "newest-first"]],
    "gender": [["he", "him", "his", "male", "man", "men", "boy", "boys", "father", "husband", "mr", "son",
                "brother", "gentleman"],
               ["she", "her", "hers", "female", "woman", "women", "girl", "girls", "mother", "wife", "mrs", "ms",
                "daughter", "sister", "lady"]],
    "quantity": [["all", "every", "everything", "everyone", "always", "entire", "whole", "both"],
                 ["several", "sometimes", "partial", "partially", "few", "occasionally"],
                 ["single", "once"]],
    "alternative": [["or", "either", "alternatively"]],
    "only": [["only", "solely", "exclusively"]],
    "containment": [["inside", "within"], ["out-of", "outside", "beyond"]],
    "encryption": [["encrypt", "encrypted", "encode", "compress", "zip", "pack"],
                   ["decrypt", "decrypted", "decode", "decompress", "unzip", "unpack"]],
    "access": [["read-only", "readonly", "viewer", "reader"], ["write", "edit", "editor", "writer", "admin"]],
}

# whose thing a request is about, and when: a paraphrase may drop these ("can you tell me where my order is" /
# "where's my order"), but never swaps one for another ("my invoice" / "your invoice", "who is" / "who was")
POSSESSIVES = {"my": 1, "mine": 1, "our": 1, "ours": 1, "your": 2, "yours": 2, "his": 3, "hers": 3, "their": 3,
               "theirs": 3, "its": 3}
TENSES = {"is": 0, "are": 0, "am": 0, "does": 0, "do": 0, "has": 0, "have": 0, "was": 1, "were": 1, "did": 1,
          "had": 1, "will": 2, "shall": 2}

# light words: swapping one for another rarely changes a request ("bring" / "take", "per" / "each"), so the
# one-word-swap guard ignores them
LIGHT_WORDS = frozenset({
    "per", "each", "please", "like", "want", "wish", "need", "get", "got", "take", "bring", "put", "use", "apply",
    "make", "do", "give", "set", "setup", "show", "tell", "find", "see", "let", "know", "help", "try", "cost",
    "much", "many", "way", "ship", "deliver", "provide", "offer", "look", "check", "go", "come", "say", "ask",
    "kindly", "able", "possible", "okay", "ok", "thing", "things", "currently", "right", "now", "just", "really",
    "also", "still", "again", "me", "us", "mine", "ours", "d", "ll", "would", "could", "should", "shall",
})

# concepts whose unmarked reading is one pole: a request without "now" or "later" means now
DEFAULT_POLES = {"when": 0}

NEGATIONS = frozenset({
    "not", "no", "never", "none", "nothing", "nobody", "nor", "neither", "without", "cannot", "dont", "doesnt",
    "didnt", "isnt", "arent", "wasnt", "werent", "wont", "wouldnt", "shouldnt", "cant", "couldnt", "mustnt",
    "hasnt", "havent", "hadnt", "unless", "nowhere", "lack", "lacking", "avoid", "stop", "refrain",
})

# prefixes that turn a word into its opposite (eligible/ineligible, lock/unlock, agree/disagree)
NEGATING_PREFIXES = ("non-", "non", "un", "in", "im", "il", "ir", "dis", "de", "anti", "counter")
# suffix pairs that turn a word into its opposite (careful/careless)
OPPOSED_SUFFIXES = (("ful", "less"), ("able", "less"))

# the prepositions that give a value or name its role; others (in, at, of, on, ...) say less about roles
# in "from X to Y" the words after "from" and "to" carry roles even when they are common nouns
ROUTE_PREPOSITIONS = frozenset({"from", "to", "into", "onto"})
ROLE_PREPOSITIONS = frozenset({"from", "to", "into", "onto", "until", "till", "til", "since", "before", "after",
                               "than", "via", "toward", "towards", "between", "by", "per", "versus", "vs", "out",
                               "off", "against", "instead"})
# words skipped when looking for a value's neighbour ("account number 200" reads as "account 200")
FILLERS = frozenset({"the", "a", "an", "my", "our", "your", "their", "his", "its", "this", "that", "these",
                     "those", "number", "no", "nr", "num", "#", "id", "some", "about", "around", "approximately",
                     "roughly", "exactly", "just", "of", "is", "are", "be", "was", "at"})
BOUNDARIES = frozenset({"and", "or", "but", "then", "also", ",", ";", ".", "?", "!", ":", "(", ")", "&"})

UNITS: dict[str, str] = {}
for _unit, _names in {
    "usd": ["$", "usd", "us$", "dollar", "dollars", "buck", "bucks"], "eur": ["€", "eur", "euro", "euros"],
    "gbp": ["£", "gbp", "sterling"], "jpy": ["¥", "jpy", "yen"], "inr": ["₹", "inr", "rupee", "rupees"],
    "cad": ["cad"], "aud": ["aud"], "chf": ["chf", "franc", "francs"], "cny": ["cny", "rmb", "yuan"],
    "btc": ["btc", "bitcoin", "bitcoins"], "%": ["%", "percent", "pct", "percentage"],
    "deg": ["°", "degree", "degrees", "deg"], "c": ["°c", "celsius", "centigrade"], "f": ["°f", "fahrenheit"],
    "km": ["km", "kilometer", "kilometers", "kilometre", "kilometres", "kms"],
    "m": ["meter", "meters", "metre", "metres"], "cm": ["cm", "centimeter", "centimeters", "centimetre"],
    "mm": ["mm", "millimeter", "millimeters", "millimetre"], "mi": ["mi", "mile", "miles"],
    "ft": ["ft", "foot", "feet"], "kg": ["kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"],
    "g": ["gram", "grams"], "mg": ["mg", "milligram", "milligrams"], "lb": ["lb", "lbs", "pound", "pounds"],
    "oz": ["oz", "ounce", "ounces"], "l": ["liter", "liters", "litre", "litres"], "ml": ["ml", "milliliter",
                                                                                          "milliliters"],
    "ms": ["ms", "millisecond", "milliseconds"], "s": ["sec", "secs", "second", "seconds"],
    "min": ["min", "mins", "minute", "minutes"], "h": ["h", "hr", "hrs", "hour", "hours"],
    "day": ["day", "days"], "week": ["week", "weeks", "wk", "wks"], "month": ["month", "months"],
    "year": ["year", "years", "yr", "yrs"], "kb": ["kb", "kib"], "mb": ["mb", "mib"], "gb": ["gb", "gib"],
    "tb": ["tb", "tib"], "x": ["x", "times"], "pcs": ["pcs", "pieces", "units", "items"],
}.items():
    for _name in _names:
        UNITS[_name] = _unit

MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6, "bn": 1e9,
               "billion": 1e9, "billions": 1e9, "trillion": 1e12, "hundred": 1e2, "dozen": 12.0}

NUMBER_WORDS = {w: float(i) for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
NUMBER_WORDS.update({w: float(10 * i) for i, w in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2)})
NUMBER_WORDS.update({"half": 0.5, "a-half": 0.5, "twice": 2.0, "thrice": 3.0, "pair": 2.0, "couple": 2.0})

ORDINALS = {w: i for i, w in enumerate(
    ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
     "eleventh", "twelfth"])}
ORDINALS.update({"last": -1, "final": -1, "penultimate": -2, "next-to-last": -2})

MONTHS = {w: i for i, w in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"], start=1)}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
WEEKDAYS = {w: i for i, w in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])}
WEEKDAYS.update({"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                 "sun": 6})

# concept -> pole index of every listed word
POLES: dict[str, tuple[str, int]] = {}
for _concept, _poles in CONCEPTS.items():
    for _pole, _words in enumerate(_poles):
        for _word in _words:
            POLES.setdefault(_word, (_concept, _pole))


IRREGULAR = {"rose": "rise", "risen": "rise", "fell": "fall", "fallen": "fall", "sold": "sell", "bought": "buy",
             "sent": "send", "began": "begin", "begun": "begin", "hid": "hide", "froze": "freeze", "grew": "grow",
             "grown": "grow", "shrank": "shrink", "shrunk": "shrink", "lent": "lend", "withdrew": "withdraw",
             "withdrawn": "withdraw", "paid": "pay", "forbade": "forbid", "forbidden": "forbid", "sank": "sink",
             "sunk": "sink", "shut": "shut", "quit": "quit", "rang": "ring", "upheld": "uphold"}
# two-word phrases read as one word by the polarity guard
PHRASES = {("turn", "on"): "enable", ("switch", "on"): "enable", ("turn", "off"): "disable",
           ("switch", "off"): "disable", ("at", "least"): "min", ("at", "most"): "max", ("no", "later"): "before",
           ("out", "of"): "out-of", ("log", "out"): "logout", ("sign", "out"): "logout", ("log", "in"): "login",
           ("sign", "in"): "login", ("set", "up"): "setup", ("scale", "up"): "scale-up", ("scale", "down"): "down",
           ("pick", "up"): "pickup", ("drop", "off"): "dropoff", ("back", "up"): "backup", ("check", "in"): "checkin",
           ("check", "out"): "checkout", ("sign", "up"): "register", ("shut", "down"): "shutdown",
           ("opt", "in"): "include", ("opt", "out"): "exclude", ("one", "way"): "one-way",
           ("close", "to"): "near", ("have", "to"): "must", ("has", "to"): "must", ("had", "to"): "must"}


def base_forms(word: str) -> Iterator[str]:
    """``word`` and the stems a light English stemmer would try (approved -> approve, cheaper -> cheap)."""
    yield word
    if word in IRREGULAR:
        yield IRREGULAR[word]
    for suffix, replacements in (("ies", ("y",)), ("ied", ("y",)), ("ing", ("", "e")), ("ed", ("", "e")),
                                 ("es", ("", "e")), ("s", ("",)), ("est", ("", "e")), ("er", ("", "e")),
                                 ("ly", ("",)), ("al", ("", "e"))):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            stem = word[: -len(suffix)]
            for replacement in replacements:
                yield stem + replacement
            if len(stem) >= 3 and stem[-1] == stem[-2]:  # stopped -> stop, bigger -> big
                yield stem[:-1]


def pole_of(word: str) -> tuple[str, int] | None:
    """The (concept, pole) of ``word`` or of one of its stems; ``None`` for a word outside the lexicon."""
    for form in base_forms(word):
        found = POLES.get(form)
        if found is not None:
            return found
    return None
