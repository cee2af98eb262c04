"""The verdict phrases of the hand-off reader (``relaykit.handoff.lexicon`` compiles them with its patterns):
pass and fail phrases, and those of remarks, whose words are verdict only inside a verdict. Every phrase is lower
case (the patterns read folded text)."""

from __future__ import annotations

from relaykit.text import STOPWORDS

PASS_PHRASES = ("stays on the shortlist", "on the shortlist", "shortlisted", "shortlist", "is a go", "clears every",
                "meets every", "meeting every", "qualifies", "qualified", "passes", "passed", "pass", "accepted",
                "is kept", "kept", "kept it", "keep it", "keeping it", "feasible", "looks good", "look good",
                "looks fine", "a fit", "good fit", "good to go", "remains", "suitable", "usable", "meets", "satisfies",
                "fits", "matches", "eligible", "approved", "survives", "ok", "okay", "✓", "✔", "✅", "👍", "selected",
                "accept", "acceptable", "retained", "is retained", "chosen", "picked", "our pick", "top pick",
                "the pick", "winner", "recommended", "go with it", "approve", "green light", "green-lit", "thumbs up",
                "go with", "going with", "went with", "we'll take", "we take", "we keep", "we'll keep",
                "we will keep", "we are keeping", "we're keeping",
                "clears everything", "clears all", "meets all", "ticks every box", "ticks all the boxes",
                "still standing", "it's a go", "that's a go", "strong hire")
REMARK_PASS_PHRASES = ("viable", "keep on the list", "keep it on the list", "kept on the list",
                "stays on the list", "still on the list", "remains on the list", "in the running",
                "still in the running", "keep on the shortlist", "in contention", "still in contention", "good enough",
                "sounds good", "makes the cut", "made the cut", "make the cut", "moves forward", "moving forward",
                "goes forward", "a keeper", "back on the list", "fine by me", "still good", "can live with it",
                "keep as backup", "keep it as backup", "keep it as a backup", "count it in", "book it", "go for it",
                "take it", "sounds like a plan", "a yes", "a clear yes", "a firm yes", "happy with it",
                "happy with that one", "my choice", "our choice", "my pick", "first choice", "what we take",
                "what we'll take", "the one we take", "we'll book", "we will book", "i'll book", "let's book",
                "we're booking", "we book", "i recommend", "we recommend", "i'd recommend", "we'd recommend",
                "qualify", "survive", "my vote", "our vote", "gets the nod", "sole survivor", "only survivor",
                "the only one left", "only one left", "only option left", "only one remaining",
                "only option remaining",
                "only candidate left", "only choice left", "last one standing", "within budget", "within the budget",
                "within our budget", "within the limit", "within our limit", "within the limits", "within limits",
                "within the cap", "pursue it", "pursuing it", "pursue this one", "go forward with it",
                "going forward with it", "move forward with it", "moving forward with it", "under budget",
                "under the limit", "below the limit",
                "meets both", "satisfies both", "clears both", "decided in favour of",
                "decided in favor of", "opted for", "settled on", "voted for", "makes the shortlist",
                "make the shortlist", "made the shortlist", "i'd hire", "we'd hire", "i would hire", "we would hire",
                "we'll hire", "we will hire", "hire her", "hire him", "carried unanimously", "motion carried",
                "proceed to offer", "proceed with", "go ahead", "go ahead with", "good for us", "we can take",
                "can take it", "is good for us")
"""Pass phrases of remarks ("Made the cut.", "Back in."): verdicts, but their words are evidence elsewhere."""
FAIL_PHRASES = ("drops out", "dropped out", "crossed off", "ruled out", "rules out", "no-go", "no go", "✗", "✘", "❌",
                "eliminated", "eliminate", "rejected", "excluded", "disqualified", "discarded", "dropped", "fails",
                "failed", "fail", "is out", "out on", "struck", "infeasible", "ineligible", "does not meet",
                "doesn't meet", "does not match", "doesn't match", "not met", "misses", "violates", "exceeds",
                "beyond the", "over the limit", "over budget", "reject", "rejects", "rejecting", "cross it off",
                "crossed it off", "cross off", "crosses off", "cross out", "strike it", "struck off", "not usable",
                "unusable", "unsuitable", "not suitable", "no good", "drop it", "dropping it", "does not work",
                "doesn't work", "won't work", "will not work", "no deal", "pass on it", "dealbreaker", "deal-breaker",
                "deal breaker", "showstopper", "non-starter", "nonstarter", "insufficient", "inadequate", "not enough",
                "too few", "skipped", "skip it", "declined", "decline", "set aside", "passed over", "pass on",
                "turned down", "turn it down", "dismissed", "scrapped", "vetoed", "unacceptable", "thumbs down", "✖",
                "👎", "are out", "were out", "was out", "both out", "all out", "lacks", "lacking",
                "we drop", "we'll drop", "we are dropping", "we're dropping", "can't afford", "cannot afford",
                "can not afford", "unaffordable", "defeated", "voted down", "was voted down", "cannot be used",
                "can't be used", "can not be used", "could not be used", "booked solid", "no hire")
REMARK_FAIL_PHRASES = ("not an option", "not viable", "unviable", "non-viable",
                "set it aside", "set them aside", "setting it aside", "sets it aside", "put it aside", "put aside",
                "park it", "parked it", "we park", "shelve it", "shelved", "shelving it", "shelve",
                "passing on it", "pass on this one", "out of the running",
                "out of contention", "not for us", "not for me", "doesn't cut it", "does not cut it",
                "won't do", "will not do", "off the list", "off the shortlist", "removed from the list",
                "remove it", "take it off", "taken off", "ditch it", "ditched", "scrap it", "nixed", "nix it",
                "no thanks", "hard no", "forget it", "bin it", "binned", "not happening", "absolutely not",
                "definitely not", "certainly not", "we'll pass", "i'll pass", "we will pass", "i will pass",
                "we pass", "we’ll pass", "i’ll pass", "no dice", "strike that one", "a firm no", "a clear no",
                "don't fit", "do not fit", "doesn't fit", "does not fit", "don't make it", "doesn't make it",
                "does not make it", "do not make it", "didn't make it", "did not make it", "fully booked",
                "sold out", "booked up", "no longer available", "decided against", "decide against",
                "ruled against", "voted against", "went against")
"""Fail phrases of remarks ("Shelved.", "Not for us."): verdicts, but their words are evidence elsewhere."""


VERDICT_WORDS = frozenset(w for p in PASS_PHRASES + FAIL_PHRASES for w in p.lower().split()) - {
    "the", "is", "on", "no", "every", "not", "budget", "limit", "good", "work", "fine", "deal", "will", "does",
    "a", "it", "to", "fit", "cross", "look", "looks", "green", "light", "top", "down", "up", "set", "over", "few",
    "enough", "aside", "turn", "turned", "passed", "go", "going", "went", "take", "we", "we'll", "all", "both", "were",
    "was", "are", "pick", "thumbs", "still", "box", "boxes", "everything", "standing", "ticks"} | {
    "keep", "keeping", "works"}
FILLER = frozenset([
    "present", "next", "looked", "look", "looking", "just", "consider", "considered", "considering", "then", "come",
    "comes",
    "came", "last", "also", "reviewed", "review", "checked", "check", "checks", "verdict", "verdicts", "status",
    "result", "option", "options", "candidate", "item", "entry", "listed", "reported", "quoted", "stated",
    "shows", "showing", "charging", "charges", "priced", "sitting", "sits", "located", "away", "costing",
    "costs", "cost", "asking", "expecting", "offering", "offers", "holding", "holds", "seating", "renting",
    "running", "bringing", "needing", "quoting", "selling", "delivering", "hosted", "billing", "promising",
    "paying", "covering", "working", "preferring", "open", "meeting", "requirement", "requirements",
    "so", "because", "due", "while", "whereas", "but", "though", "although", "former", "latter", "one", "audit",
    "audited", "went", "order", "nothing", "outside", "list", "considered", "count", "inventory", "closed",
    "only", "note", "notes", "per", "also", "both", "each", "every", "either", "neither", "such", "very",
    "that's", "it's", "this's", "there's", "here's", "what's", "which", "puts", "therefore", "thus", "hence", "deemed",
    "found", "sorry", "afraid", "unfortunately", "sadly", "i'm", "i'd", "say", "guess", "think"
])
DROP_WORDS = (STOPWORDS - {"yes", "no", "not"}) | FILLER | VERDICT_WORDS | {"most", "least"}
"""Words left out of an evidence row (yes / no / not carry values and stay)."""
COMPARATORS = frozenset({"limit", "limits", "cap", "ceiling", "maximum", "max", "minimum", "min", "budget",
                         "threshold", "than", "most", "least", "exceeds", "beyond", "under", "over", "below",
                         "above", "within", "required", "requirement", "target"})


__all__ = ["COMPARATORS", "DROP_WORDS", "FAIL_PHRASES", "FILLER", "PASS_PHRASES", "REMARK_FAIL_PHRASES",
           "REMARK_PASS_PHRASES", "VERDICT_WORDS"]
