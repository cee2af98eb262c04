"""More verdict words of the hand-off reader (``relaykit.handoff.lexicon`` joins them to its own): idioms of
acceptance and rejection ("falls short", "off the table", "a no-brainer", "gets the axe"), verbs that judge the
option they name ("kills ST4", "let's keep DK-5", "move HQ2 forward", "we toss VA1 out"), and a small lexicon of
verdicts in German, French, Spanish, Italian, Portuguese and Dutch ("passt", "raus", "retenu", "écarté",
"descartado", "aprobado"), with the negations that flip a pass there ("passt nicht", "non retenu", "no cumple").

Like the remark phrases, their words are verdict only inside a verdict's span: elsewhere ("2 sinks", "a cut of
12%", "advanced features") they stay evidence. Every phrase is lower case (the patterns read folded text).
"""

from __future__ import annotations

IDIOM_PASS = (
    "no-brainer", "a no brainer", "passes muster", "pass muster", "passed muster", "go ahead with",
    "going ahead with", "went ahead with", "goes ahead", "sign off on", "signed off on", "signs off on",
    "green-light", "green-lighted", "greenlight", "greenlighted", "greenlit", "get the nod", "got the nod",
    "given the nod", "fits the bill", "fit the bill", "ticks the boxes", "ticks all boxes", "clears the bar",
    "advance to the next round", "advances to the next round", "advanced to the next round",
    "through to the next round", "a strong yes", "a definite yes", "still on the table",
    "a go-ahead", "the go-ahead", "gets the go-ahead", "makes it through", "made it through", "thumbs-up",
    "wins out", "comes out on top", "came out on top", "we'll run with", "we will run with",
    "we'll roll with", "ticks all our boxes", "ticks our boxes", "ticks all my boxes", "a solid choice",
    "a good choice", "a great choice", "a safe choice", "the right choice", "a solid option", "a good option",
    "a safe bet", "is cleared", "was cleared", "has been cleared", "gets cleared", "good to book",
    "wins the tender", "wins the contract", "wins the bid", "won the tender", "won the contract", "won the bid",
    "gets the contract", "got the contract", "get the contract", "lands the contract", "landed the contract",
    "awarded the contract", "gets the job", "got the job", "get the job", "wins the deal", "won the deal",
    "gets the deal")
IDIOM_FAIL = (
    "off the table", "falls short", "fell short", "fall short", "falling short", "comes up short",
    "came up short", "gets the axe", "got the axe", "gets the ax", "gets the boot", "got the boot", "gets the chop",
    "got the chop", "axed", "culled", "weeded out", "screened out", "filtered out", "thrown out", "tossed out",
    "a pass from me", "a pass from us", "a hard pass", "hard pass", "dead in the water", "out of the picture",
    "written off", "write it off", "a write-off", "thumbs-down", "say no to", "said no to", "saying no to",
    "turned it down", "turn it down", "a no-go", "not a contender",
    "no longer a contender", "we passed on", "i passed on", "passed on it", "we're passing on", "we are passing on",
    "out of the race", "out of the question", "is out of the question",
    "are out of the question", "was out of the question", "sinks it", "kills it", "killed it", "torpedoes it",
    "rule out", "rule it out", "rule them out", "priced out", "loses on", "loses out", "lost out", "lost on",
    "loses the tender", "lost the tender")

FOREIGN_PASS = (
    # German
    "passt", "passt gut", "geeignet", "angenommen", "akzeptiert", "ausgewählt", "genommen", "nehmen wir",
    "kommt in frage", "in ordnung", "erfüllt", "erfüllt alle", "genehmigt", "freigegeben", "bleibt drin",  # French
    "retenu", "retenue", "retenus", "retenues", "accepté", "acceptée", "validé", "validée", "approuvé",
    "approuvée", "sélectionné", "sélectionnée", "choisi", "choisie", "conservé", "conservée", "gardé", "gardée",
    "convient", "on garde", "on prend",  # Spanish
    "aprobado", "aprobada", "aceptado", "aceptada", "seleccionado", "seleccionada", "elegido", "elegida",
    "cumple", "apto", "apta", "sirve", "nos quedamos con",  # Italian, Portuguese, Dutch
    "approvato", "approvata", "accettato", "accettata", "idoneo", "idonea", "selezionato", "selezionata",
    "aceito", "aprovado", "aprovada", "goedgekeurd", "geschikt", "akkoord")
FOREIGN_FAIL = (
    # German
    "raus", "ist raus", "abgelehnt", "ausgeschieden", "ausgeschlossen", "gestrichen", "verworfen", "ungeeignet",
    "passt nicht", "passt leider nicht", "kommt nicht in frage", "fällt raus", "fällt weg", "fliegt raus",
    "scheidet aus", "entfällt", "nicht erfüllt", "erfüllt nicht", "zu teuer", "zu weit", "zu klein", "zu groß",
    "zu langsam", "zu spät", "zu wenig",  # French
    "écarté", "écartée", "écartés", "écartées", "rejeté", "rejetée", "refusé", "refusée", "éliminé", "éliminée",
    "exclu", "exclue", "ne convient pas", "hors budget", "recalé", "recalée", "abandonné", "abandonnée",
    "trop cher", "trop chère", "trop loin", "trop petit", "trop petite",  # Spanish
    "descartado", "descartada", "rechazado", "rechazada", "eliminado", "eliminada", "excluido", "excluida",
    "no cumple", "no sirve", "no apto", "no apta", "queda fuera", "demasiado caro", "demasiado cara",
    "demasiado lejos",  # Italian, Portuguese, Dutch
    "scartato", "scartata", "respinto", "respinta", "escluso", "esclusa", "bocciato", "bocciata", "rejeitado",
    "rejeitada", "recusado", "recusada", "afgewezen", "valt af", "afgevallen", "ongeschikt")

_OBJECT = r"(?:[a-z]{1,8}-?\d{1,6}[a-z]?|it|them|this one|that one)"
"""What a judging verb acts on: an option's id (a word with a digit, folded), or a pronoun for one."""
VERB_FAIL = (
    r"(?:sinks?|sank|sunk|kills?|killed|torpedo(?:es|ed)?|axe[sd]?|ax|culls?|culled|dumps?|dumped|nix(?:es|ed)?"
    r"|ditch(?:es|ed)?|scrap(?:s|ped)?|bin(?:s|ned)?|veto(?:es|ed)?|drops?|dropped|cuts?|tossed|toss(?:es)?"
    r"|disqualif(?:y|ies|ied)|exclud(?:e|es|ed)|eliminat(?:e|es|ed)|discard(?:s|ed)?|strikes?) " + _OBJECT
    + r"(?=\s*(?:[,.;:!)]|$|and\b|but\b|from\b|because\b|since\b|as\b|for\b|on\b|too\b|outright\b))"
    r"|(?:toss|tosses|tossed|throw|throws|threw|thrown|weed|weeds|weeded|screen|screens|screened|filter|filters"
    r"|filtered|kick|kicks|kicked|boot|boots|booted|vote|votes|voted|price|prices|priced) " + _OBJECT + r" out\b"
    r"|(?:we|i|they)(?:['’]ll| will| had to| have to| must| decided to| chose to| need to)?"
    r" (?:drop|reject|cut|skip|scrap|ditch|nix)(?=\s*[.!]*\s*$)"  # "..., we had to drop."
    r"|(?:cannot|can['’]t|can not|could not|couldn['’]t) use(?: it| them| " + _OBJECT + r")?(?=\s*(?:[,.;:!)]|$))")
"""A fail verb before the option it acts on ("which sinks AN6", "we toss VA1 out"): "2 sinks" has no object."""
VERB_PASS = (
    r"(?:let['’]s |we |we['’]ll |we will |i |i['’]ll |i['’]d |we['’]d |i would |we would |so |then |(?<=[,;:] )|^)"
    r"(?:keep|take|pick|choose|select|book|approve|accept|shortlist|hire|retain|green-light|greenlight"
    r"|go for|opt for|sign for|sign with|settle for) "
    + _OBJECT + r"(?=\s*(?:[,.;:!)]|$|and\b|but\b|for\b))"
    r"|(?:move|moves|moved|moving|push|pushes|pushed|take|takes|took|bring|brings|brought|put|puts|send|sends"
    r"|sent) " + _OBJECT + r" (?:forward|ahead|through)\b")
"""A pass verb before the option it acts on ("Let's keep DK-5", "we move HQ2 forward"), said by the writer."""
FOREIGN_EXTRA_FAIL = (r"(?:zu|trop|demasiado|troppo) [a-zäöüßéèêàçñíóú]+(?=\s*(?:[,.;:!)]|$))"
                      r"|(?:^|(?<=[-–—,:;] ))(?:raus|fuera|dehors)(?=\s*[.!]?\s*$)")
"""A foreign "too <adjective>" at a clause end ("zu klein,", "trop cher."), a final "raus" / "fuera"."""
EXTRA_TRIGGERS = frozenset({"zu", "trop", "demasiado", "troppo", "raus", "fuera", "dehors"})
VERB_FAIL_TRIGGERS = frozenset({
    "sink", "sinks", "sank", "sunk", "kill", "kills", "killed", "torpedo", "torpedoes", "torpedoed", "axe", "axes",
    "ax", "cull", "culls", "dump", "dumps", "dumped", "nix", "nixes", "ditch", "ditches", "scrap", "scraps", "bin",
    "bins", "veto", "vetoes", "drop", "drops", "cut", "cuts", "toss", "tosses", "tossed", "disqualify", "exclude",
    "excludes", "eliminates", "discard", "discards", "strike", "strikes", "reject", "skip", "cannot", "can't",
    "couldn't", "dropping", "rejecting", "excluding", "eliminating", "scrapping", "ditching", "removing", "cutting"})
"""The words ``VERB_FAIL`` needs: its verbs that are no fail phrase by themselves ("eliminated", "dropped" are) and
need no "out" (a trigger word already): more would make the slower pattern run for nothing ("priced at")."""
VERB_PASS_TRIGGERS = frozenset({
    "keep", "take", "pick", "choose", "select", "book", "approve", "accept", "shortlist", "hire", "retain",
    "green-light", "greenlight", "forward", "ahead", "through", "go", "opt", "sign", "settle"})
NEGATED_BEFORE = r"nicht|non|pas|no|kein|keine|niet|nie|neither|none|no (?:nos|me|le|les|se|lo|la)"
"""Negations of other languages before a pass word ("nicht geeignet", "non retenu", "no cumple", "no nos sirve")."""
NEGATED_AFTER = r"\s+(?:leider\s+|wirklich\s+|aber\s+|vraiment\s+|plus\s+)?(?:nicht|pas)(?![\w-])"
"""Negations after it ("passt nicht", "convient pas"): a pass followed by one is a fail."""


__all__ = ["EXTRA_TRIGGERS", "FOREIGN_EXTRA_FAIL", "FOREIGN_FAIL", "FOREIGN_PASS", "IDIOM_FAIL", "IDIOM_PASS",
           "NEGATED_AFTER", "NEGATED_BEFORE", "VERB_FAIL", "VERB_FAIL_TRIGGERS", "VERB_PASS", "VERB_PASS_TRIGGERS"]
