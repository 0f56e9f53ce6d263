"""Reading a post's text into actions, in the order written (Rule 4E7).

The text is cut into sentences; each sentence is matched against every
phrasing in the registry. What a sentence can be:

* an action ("I give m5 to Wooble"), perhaps repeated ("... 3 times"),
  perhaps for later ("On nday 8, I ..."), perhaps done under an intent
  ("Having received no objections, I ...": the preamble is only informative);
* a Transaction (Rule 4E12): the sentences between "BEGIN TRANSACTION" and
  "END TRANSACTION", actions and assertions about the gamestate;
* not understood: it reads like an attempted action (first person, an
  action's keyword) but matches nothing; reported with the closest phrasings;
* conversation: ignored quietly.
"""
from __future__ import annotations

import bisect
from functools import cache, lru_cache
import contextlib
import contextvars
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from ..config import defaults
from .budget import charge
from .frames import ASIDES, FILLERS, FINITE_VERBS, REF_KINDS, RELATIVES, adverb, fill, has_needs, match_phrase, may_fill, said_words
from .lexer import DISPLAY_SUBJECTS, EVERYONE, ORDINALS, lex, raw_tokens
from .lexer import NUMBER_WORDS as LEXER_NUMBER_WORDS
from .registry import ACTIONS, ASSERTIONS, UNCHECKED, ActionSpec, AssertionSpec
from .vocabulary import Vocabulary, words

# The reader's version, stored with every pinned reading (handlers/pinned.py,
# docs/reader.md): raise it when readings change
READER_VERSION = 18

# (dot leaders, "Proposal 10 (Fishy Business) ....... FOR", end no sentence)
_SENTENCE_END = re.compile(r"(?<!\.\.\.\.)(?<=[.!?])\s+|;\s*")
_LEAD = re.compile(r"^(?:[-*•–—+>]++(?!\d)\s*|\(?\d+[.)]\s+|\(?[a-z]\)\s+)")
_POLITE = re.compile(r"^(?:(?:sure thing|of course|no problem|in return|in exchange|as promised|as agreed|"
                     r"(?:please\s++)?(?:note|be\s++aware)\s++that|please\s++note(?=\s++i\b)|fyi|just\s++so\s++you\s++know|"
                     r"as discussed|for the record|on reflection|on second thoughts?|actually|hereby|"
                     r"and|but(?!\s++(?:not|except|for|on)\b)|then|also|now|finally|next|so|ok|okay|well|anyway|right|alright|oh|um|btw|"
                     r"yes(?!\s++(?:to|on)\s)|"                     # "yes to 12" is a stand-in for a Vote
                     r"yeah|sure|fine|agreed|first|firstly|secondly|lastly|meanwhile|"
                     # "What matters is that I give m7 to Ais523": the point made, then the action
                     r"what\s++matters\s++(?:now\s++)?+is(?:\s++that)?+|the\s++(?:point|upshot)\s++is(?:\s++that)?+|bottom\s++line|"
                     # "In case my last mail got eaten by the list: I ZOT ...": why it is said again
                     r"in\s++case\s[^:.;!?]{1,100}+(?=:\s*+i\s)"
                     r"|\+\s*+1(?=\s*+[,!;:]))\b[,!;:\s]*)+", re.I)   # "+1, support.": "+1 on 13" is a Vote's stand-in
# Rule 4E15: "Revised version of my Sock Drawer proposal:" over its text: the author revising it
_REVISED_VERSION = re.compile(r"^(?:a\s++|the\s++|my\s++)?+(?:revised|new|updated|amended)\s++(?:version|text|draft)\s++of\s++"
                              r"(?=(?:my|proposal|prop|p\d|#|[A-Z]))", re.I)
# a postscript's mark before the sender's words: "PS:", "P.S.", "PPS"
_POSTSCRIPT_LEAD = re.compile(r"^p\.?+\s*+p?+\.?+\s*+s\b\.?+\s*+[:,-]?+\s*+(?=\S)", re.I)
# "in return", "in exchange" closing what is given: why, not a role
_IN_RETURN = re.compile(r"(?<!\s)\s++in\s++(?:return|exchange)(?=\s*+(?:[,.;!)]|$))", re.I)
# "the intent of Alice", "the Tweak of Bob": whose it is, said after it, as "Alice's intent"
_KIND_OF_WHOM = re.compile(r"\bthe\s++(?P<kind>intent(?:ion)?|tweak|refresh\s++proposal)\s++of\s++"
                           r"(?P<who>[A-Z][\w’'-]{1,30}+)\b(?!\s*+\d)(?![’']s\b)")
# "i give wooble m 10 sorry for the ZOT joke": an apology or thanks run on after the action, with
# no stop, is the sender's remark, no part of it
_TRAILING_COURTESY = re.compile(r"(?<!\s)(?:\s*+,)?+\s++(?:sorry|apologies|thanks|thank\s++you|cheers)\s++(?:for|about)\s[^:,;()]*+$",
                                re.I | re.S)    # (to the end: "sorry about X, my client does this: FOR 10" goes on)
# "I have decided to give m10 to Chuck, which I hereby do": the decision said, then done
_DECIDED_AND_DONE = re.compile(r"\bi(?:['’]ve|\s++have)\s++decided\s++to\s++(?P<act>[^,;.]{3,200}+)\s*+,\s*+which\s++i\s++"
                               r"(?:hereby\s++|now\s++|also\s++)?+do\b", re.I)
# Rule 4E7: "the vote I scheduled for Thirnight", "the action I scheduled for Breakday": my
# scheduled one, named by what it is and when
_I_SCHEDULED = re.compile(r"\b(?:the|that)\s++(?P<kind>[a-z]{3,20}+)\s++(?:that\s++)?+i\s++(?:had\s++|have\s++)?+scheduled\b", re.I)
# "the Ministries of Time and Fauna": each Ministry so named
_MINISTRIES_OF = re.compile(r"\bministries\s++of\s++(?P<a>(?-i:[A-Z])[\w'’-]{1,30}+)\s*+(?:,|and|&)\s*+(?:the\s++)?+"
                            r"(?P<b>(?-i:[A-Z])[\w'’-]{1,30}+)\b", re.I)
# "I approve of the report": liking it, never the Game Action that Approves a Public Display
# (Rule 4E50), which takes its display "the"/"this"/"X's", not "of": the two words made one
_APPROVE_OF = re.compile(r"\bapprove\s++of\b", re.I)
# "... and vote AGAINST 10, in that order, because ...": the order of the actions said, which
# is the order they are written in (Rule 4E7), no part of the last one
_IN_THAT_ORDER = re.compile(r"(?<!\s)\s*+,?\s*+\bin\s++(?:that|this|the\s++same|the\s++above|the\s++given)\s++order"
                            r"(?=\s*+(?:[,.;!)]|$))", re.I)
_SAID_ASIDE = re.compile(r"(?<!\s)(?:\s*+,)?+\s*+\b(?:for\s++what\s++it['’]s\s++worth|fwiw)\b\s*+,?+", re.I)
# "and then immediately revise its Reward": a manner said before the second verb, not a word of it
_ADVERB_BEFORE_VERB = re.compile(r"\b(?P<join>(?:and|then)\s++(?:then\s++)?+)(?P<adv>[a-z]{3,20}?ly)\s++(?P<verb>[a-z]++)\b")


def _adverb_dropped(m: re.Match) -> str:
    return m.group("join") + m.group("verb") if m.group("verb") in _verbs().heads else m.group(0)


# "while I'm here", "whilst I'm at it" before "I": said in passing
_WHILE_HERE = re.compile(r"(?P<and>\band\s++)?+\b(?:while|whilst)\s++i(?:['’]m|\s++am)\s++(?:here|at\s++it)\b\s*+,?+\s*+"
                         r"(?=i\b)", re.I)
_TO_HIM_MYSELF = re.compile(r"\bto\s++(?P<who>[\w'’-]{1,30}+)\s++myself\b", re.I)


def _myself_dropped(m: re.Match) -> str:
    vocab = _VOCAB.get()
    named = vocab is not None and m.group("who").lower() in {p.lower() for p in vocab.players}
    return f"to {m.group('who')}" if named else m.group(0)


_OF_COURSE_I = re.compile(r"\b(?:of\s++course|obviously|naturally)\s++(?=i\s)", re.I)
# "I retract my AGAINST on 16 and instead vote ABSTAIN on it", "Scratch my vote on 10; make it
# ABSTAIN", "Retracting my vote on 11 and voting FOR instead": the Vote said last, on it (4E15)
_RETRACTING = r"(?:retract|retracting|scratch|withdraw|withdrawing|cancel|undo)"
_RETRACTED_THEN = re.compile(r"^(?:i\s++)?+" + _RETRACTING + r"\s++my\s++"
                             r"(?:vote|for|against|abstain|shelve)\s++on\s++(?:proposal\s++)?+(?P<n>\d{1,4}+)"
                             r"\s*+[,;]?+\s*+(?:and\s++)?+(?:i\s++)?+(?:instead\s++)?+"
                             r"(?:vote|voting|make\s++it|change\s++it\s++to|cast)\s++"
                             r"(?P<v>(?i:for|against|abstain|shelve))\b(?:\s++on\s++it|\s++instead)?+", re.I)
# "While we're on the list:", "Since I'm here:": a circumstance said as a heading
_WHILE_HEADING = re.compile(r"^(?:while|whilst|since|now\s++that)\s++[^:.;!?]{1,50}+:\s*+(?=\S)", re.I)
# "FOR 11 while I remember, and ...", "... before I forget": when it came to mind, said after it
_REMEMBERED = re.compile(r"(?<!\s)\s++(?:while|whilst|before)\s++i\s++(?:remember|forget|think\s++of\s++it)\b", re.I)
# whom an action replaces, said after it: "in Dana's place", "in place of Dana", "in her stead"
_IN_PLACE = re.compile(r"(?<!\s)(?:\s*+,)?+\s++in\s++(?:[A-Z][\w-]{0,30}+['’]s|his|her|their|its)\s++(?:place|stead)\b"
                       r"|(?<!\s)(?:\s*+,)?+\s++in\s++place\s++of\s++[A-Z][\w-]{0,30}+\b")
# a proposal's Title said to be none: it has none, which is no part of what is submitted
_NO_TITLE = re.compile(r"(?<!\s)\s*+,?\s*+(?:with\s++no\s++title|without\s++(?:a\s++)?+title|with\s++no\s++title\s++at\s++all)\b", re.I)
# "I vote AGAINST 10, same for 12": the same action on another, said as a list of both
_SAME_FOR = re.compile(r"(?<!\s)\s*+,\s*+(?:and\s++)?+(?:the\s++)?+same\s++(?:goes\s++)?+(?:for|on|with)\s++"
                       r"(?=(?:proposals?+\s*+|prop\.?+\s*+|p|#)?+\d)", re.I)
_MAKE_THAT = re.compile(r"^(?:actually\s*+,?\s*+)?make\s++that\s++(?=(?-i:FOR|AGAINST|ABSTAIN|SHELVE)\b)", re.I)
_I_POLITE = re.compile(r"^i\s+(?:(?:hereby|also|now|then|further|additionally)\s+)+", re.I)
# what may trail an action without being part of it: punctuation, "please", a smiley.
# Stripped one piece at a time from the end (strip_trail): as one regular expression
# ("(?:[\s.!?;,]+|...)+$") a run of spaces made it backtrack exponentially.
_TRAIL_PUNCT = " \t\r\n\f\v.!?;,"
# words that say an action is done now, after it ("..., for the time being") or before it ("for
# the present I ABSTAIN on 16": _NOW_FIRST)
_NOW_SAID = ("for now", "for the moment", "at the moment", "at present", "for the present", "currently",
             "for the time being")
_TRAIL_WORDS = ("please", "pls", "plz", "thanks", "thank you", "thx", "anyway", "too", "as well",
                "though", "instead", "on the same grounds", "for the same reason", "for the same reasons",
                "on the same basis", "likewise", "today", "for today", "this nweek", "for this nweek",
                "this week", "for this week", "on my way out", "on the way out", "while i'm at it",
                *_NOW_SAID, "as things stand", "as it stands", "the beast included", "including the beast", "beast included",
                "of course", "obviously", "and nothing else", "nothing else", "only", "and that's all",
                "that's all", "and that is all", "effective immediately", "with immediate effect",
                "effective now", "as of now", "sorry typos", "sorry for typos", "sorry for the typos",
                "excuse the typos", "excuse typos", "sorry caps lock", "sorry for the caps lock",
                "sorry for the caps", "sorry for shouting", "caps lock", "sorry",
                "lol", "haha", "hehe", "heh", "lmao", "rofl")          # laughter after the action: "i ordain myself lol"
_TRAIL_ENDS = frozenset({w[-2:] for w in _TRAIL_WORDS} | {"d", "p", "en"})   # quick test: may a trail word end here?
_TRAIL_BY_END: dict[str, tuple[str, ...]] = {}          # the trail words by their last two letters
for _w in _TRAIL_WORDS:
    _TRAIL_BY_END[_w[-2:]] = _TRAIL_BY_END.get(_w[-2:], ()) + (_w,)
_TRAIL_SMILEY = re.compile(r"(?<=\s)[:;]-?[()dp]++$")
# Rules 4E21/4E22: how players say they act under an announced intent
_FEW = (r"(?:no|zero|fewer\s+than\s+\w+|not\s+enough|the\s+required|enough|\w+)\s+"
        r"(?:objections?|support(?:ers?|s)?)")
_UNDER_INTENT = re.compile(
    r"^(?:(?:having\s+(?:received|had|got|gotten|seen)|with|there\s+being"
    r"|(?:as|since)\s+there\s+(?:were|was|are|is|have\s+been|has\s+been))\s+"
    + _FEW + r"(?:\s+(?:and|but)\s+" + _FEW + r")?"
    r"|without\s+(?:any\s+)?objections?|with\s+(?:the\s+required\s+|enough\s+)?support(?:ers?)?"
    r"|(?:as|since)\s+(?:no\s*one|nobody|no\s+players?)\s+(?:has\s+|have\s+)?objected"
    r"|(?:per|pursuant\s+to|under|following|as\s+per)\s+(?:my\s+)?(?:intent(?:ion)?|announcement)"
    r"(?:\s+(?:#\s*|number\s+|no\.?\s*)?\d+)?"
    r"|as\s+(?:previously\s+)?announced|as\s+intended)"
    r"(?:\s+(?:to|on|against|for)\s+(?:it|this|that|(?:my\s+|the\s+)?(?:intent(?:ion)?|announcement)"
    r"(?:\s*(?:#\s*|number\s+)?\d+)?|#\s*\d+))?"
    r"[\s,:]*(?=i\b(?!\s++(?:also\s++)?+(?:intend|plan|announce)\b))", re.I)
# "I intend, without objection, to X" is "I intend to X without objection"
_INTEND_FIRST = re.compile(
    r"^(?P<head>i\s+(?:intend|plan|announce\s+(?:my|an)\s+intent(?:ion)?)(?:\s+to)?)\s*,\s*"
    r"(?P<cond>with(?:out)?\b[^,]+?)\s*,\s*(?P<rest>.+)$"
    # "I intend with 4 Support and no Objections to Approve ...": the same, with no commas
    r"|^(?P<head2>i\s++(?:intend|plan))\s++(?P<cond2>with(?:out)?+\s[^,]{1,80}?(?:objections?|support(?:ers?|s)?))"
    r"\s++(?P<rest2>to\s++\S.*)$", re.I)


def _intend_first(m: re.Match) -> str:
    """The intent said with its way last: "I intend to X without objection"."""
    if m.group("head2"):
        return f"{m.group('head2')} {m.group('rest2')} {m.group('cond2')}"
    return f"{m.group('head')} {m.group('rest')} {m.group('cond')}"

# "With 2 supporters and without objection, I intend to teach ...": the same, the way said first
_INTEND_FRONTED = re.compile(
    r"^(?P<cond>with(?:out)?\b[^,]{1,80}?)\s*,\s*(?P<head>i\s+(?:also\s+)?(?:intend|plan|announce\s+(?:my|an)\s+"
    r"intent(?:ion)?)(?:\s+to)?)\s+(?P<rest>.+)$", re.I | re.S)
# "I intend without 2 objections to retitle ...": the same, with no commas
_HOW = r"with(?:out)?\s++(?:(?:\d++|one|two|three|four|five)\s++)?+(?:objections?|supporters?|support)\b"
_INTEND_PLAIN = re.compile(r"^(?P<head>i\s++intend)\s++(?P<cond>" + _HOW + r"(?:\s++and\s++" + _HOW
                           + r")?+)\s++(?P<rest>to\s.+)$", re.I)
# "I intend to set the Message of the Nweek, with support, to "...": the way said inside
# the action, between commas: said after it
_INTEND_MIDDLE = re.compile(r"^(?P<head>i\s++(?:also\s++)?+intend\s++to\s++[^,]{1,120}?)\s*+,\s*+"
                            r"(?P<cond>with(?:out)?+\s[^,]{0,60}?(?:objections?+|support(?:ers?+|s)?+))"
                            r"\s*+,\s*+(?P<rest>(?:to|on|of|from|into|onto|at|in)\s.*)$", re.I | re.S)
# "Intent: without objection, cause the Beast to vote AGAINST 16."
_INTENT_LABEL = re.compile(r"^(?:intent|intention|notice\s++of\s++intent)\s*+:\s*+(?P<cond>" + _HOW
                           + r"(?:\s++and\s++" + _HOW + r")?+)\s*+,?\s*+(?:to\s++|i\s++(?:will\s++|shall\s++)?+)?+(?P<rest>\S.*)$"
                           # "Intent: to cause the OCB to transfer ...": the way left to the default
                           r"|^(?:intent|intention|notice\s++of\s++intent)\s*+:\s*+(?:to\s++|i\s++(?:will\s++|shall\s++)?+)"
                           r"(?P<rest2>[a-z]\S*+\s.*)$", re.I)
# ("Intent: without objection, I retitle Rule 4E9 to "Eras"": the action said as the one announced)

# One sentence may hold several clauses, each its own action ("I give m5 to A and I
# forfeit"), or one verb with several objects ("I give m5 to A and m3 to B")...
# (a separator starts where a run of spaces starts, (?<!\s), and spaces are taken
# possessively: a long run of spaces is then scanned once, not once per position)
_COMMA_I = re.compile(r"(?<!\s)\s*+,\s*+(?=(?:(?:on|for|as\s++for)\s++(?!which\s|whom\s)[^,\s]++\s++"
                      r"|(?:proposal\s*+|prop\.?+\s*+|#)?+\d++\s++)?"      # ", proposal 16 I am AGAINST it"
                      r"i(?:['’](?:ll|m|d|ve))?\s++(?!think|guess|hope|suppose|believe|mean)[a-z])", re.I)   # ", on 11 I vote FOR"
# (every cut begins with a space or ",;:": a position before anything else is passed over
# at one test, not at every alternative's)
_CLAUSE = re.compile(r"(?=[\s,;:])(?:"
                     r"(?<!\s)(?:\s*+,\s*+|\s++)(?:and(?:\s++then)?|then|so|but)\s++(?=i(?:['’](?:d|m|ll))?\s"
                     # "... to m44 and we'll see who blinks first": another's clause, the sender's words
                     r"|(?:we|you|he|she|they|there)(?:['’](?:ll|re|s|d|ve))?+\s"
                     # "..., and on nday 1 of nweek 8 I will turn the Clock On", "and on 15 and 16 I ABSTAIN"
                     # (", so in the end I give ...")
                     r"|(?:on|at|from|as|per|in(?=\s++the\s++end\b)|for(?=\s++(?:the\s++)?(?:proposal\s*+|prop\.?+\s*+|#)?+\d))"
                     r"\s++[^,.;]{1,60}?\s(?:,\s*+)?i(?:['’](?:d|m|ll))?\s"
                     # "..., but for the record I vote FOR 12": an aside said before the "I"
                     r"|(?:for\s++the\s++record|in\s++any\s++case|(?:honestly|frankly|anyway|actually|also|instead|meanwhile)\b)"
                     r"(?:\s*+,)?+\s*+i(?:['’](?:d|m|ll))?\s"
                     # "..., and on 13, 14 and 15 I ABSTAIN": a list of proposals, then "I"
                     r"|on\s++[^.;:]{1,100}?\s++i\s++(?:(?:also|will|shall)\s++)?+(?:abstain|vote)\b)"
                     r"|(?<!\s)\s*+:\s++(?=i\s|(?:my\s++)?+votes?+\s)"      # "Quick one: votes FOR 12"
                     # "My votes stand, except that on 16 I now vote SHELVE": the exception said whole
                     r"|(?<!\s)(?:\s*+,\s*+|\s++)except\s++(?:that\s++)?+(?=i\s|on\s++[^,.;]{1,60}?\si\s)"
                     # "My vote on 14 is FOR, my vote on 12 is AGAINST": another Vote said whole
                     r"|(?<!\s)\s*+[,;]\s*+(?=my\s++votes?+\s++(?:on|for)\s)"
                     # "I want to make vote: proposal 10 is FOR": a lead-in that says it votes
                     r"|(?<=\bmake\svote):\s++|(?<=\bmake\sa\svote):\s++|(?<=\bmake\smy\svote):\s++"
                     # "..., so: FOR 16, AGAINST 13", "Re: the Ballot -- FOR 16": Votes after a lead-in
                     r"|(?<![\s\d])(?:\s*+:|\s++--?+)\s++(?=(?-i:FOR|AGAINST|ABSTAIN|SHELVE)\s++\S)"
                     # "Sock Amnesty is mine, so obviously FOR on 11": the Vote the sentence comes to
                     r"|(?<!\s)(?:\s*+,\s*+|\s++)so\s++(?:[a-z]{3,20}+(?<=ly)\s++)?+(?=(?-i:FOR|AGAINST|ABSTAIN|SHELVE)\s++\S)"
                     r"(?![^.;\n]{0,40}?\b(?:that|it|this|those|them)\b))", re.I)    # (not "so FOR on that")
_OBJECTS = re.compile(r"(?<!\s)(?:\s*+,\s*+(?:and\s++|then\s++)?|\s++and\s++(?:then\s++)?|\s++then\s++)", re.I)
# ...but a condition binds what follows it: "If Wooble objects then I forfeit" is one sentence
_CONDITIONAL = re.compile(r"^(?:if|unless|when|whenever|once|provided|assuming|in\s+case|should)\b", re.I)
# Rule 4E7 knows no conditional actions: "I give m5 to Wooble if he asks" is asked about
_CONDITION = re.compile(r"\b(?:if|unless|provided\s+that|as\s+long\s+as|only\s+when|in\s+case)\b", re.I)
# Rule 4E4: a name given in another sentence of a request to join
_NAME_GIVEN = re.compile(
    r"(?:\bmy\s+name(?:\s+(?:for|in)\s+(?:the|this)\s+game)?\s+(?:is|will\s+be|shall\s+be)|\bmy\s+name['’]s|\b(?:be\s+)?known\s+as|\bname\s*:"
    r"|\b(?:go|goes|going)\s+by|\bunder\s+the\s+name"                  # "I'll go by Hobbes"
    r"|(?:^|[.!?]\s+)(?:please\s+)?call\s+me)"
    r"\s+(?P<name>[^\s.,;:!?][^.,;:!?\n]*?)(?=\s*(?:[.,;:!?\n(]|$)|\s+(?:and|but|so|please)\b)", re.I | re.M)
# "Hello! I'm Petra and I'd like to join": a newcomer introduced by a name, one capitalised word
_NAME_INTRODUCED = re.compile(r"(?:^|[.!?,]\s*+)(?i:(?:hello|hi|hey)\W*+)?(?i:i['’]m|i\s++am|this\s++is)\s++"
                              r"(?P<name>[A-Z][\w'’-]{0,30}+)(?=\s*+(?:[.,;:!?\n]|$)|\s++(?i:and|but|so|here)\b)", re.M)
# a sentence in the first person that is talk, not action: "I think ...", "I didn't ..."
_TALK = frozenset("""think thought guess wonder wondered believe suppose doubt suspect reckon assume
    expect feel felt agree disagree know knew remember forgot notice noticed see saw was were had did
    didn't don't doesn't can't cannot couldn't won't wouldn't shouldn't haven't hadn't wasn't never
    tried wanted hoped planned intended said asked meant mean should could might almost nearly
    count counted note noted observe report""".split())

# A document written after the sentence that submits it (Rule 4E8): "... proposal:"
# and the lines after it, up to a line "END PROPOSAL" (or END TWEAK, END LIST,
# END DOCUMENT...) or the end of the message; never read as actions itself.
_ENDED_KINDS = (r"(?:proposal|tweak|tidiness\s+list"
                r"|list|document|oracularity|body|refresh\s+proposal|indictment|punishment"
                r"|consultation|answer|trick|subgame"
                r"|contract|articles(?:\s+of\s+incorporation)?)")     # issue 15: Contracts (4E70, 4E79)
DOCUMENT_END = re.compile(r"^\W*end(?:\s+of)?(?:\s+(?:the|this|my))?\s+" + _ENDED_KINDS + r"\W*$", re.I)
# "(End of proposal.) Separately, while I'm here: I vote FOR 15.": the end said, then more on its line
_END_THEN_MORE = re.compile(r"^(?P<end>[ \t]*+[(\[]?+end(?:[ \t]++of)?+(?:[ \t]++(?:the|this|my))?+[ \t]++" + _ENDED_KINDS
                            + r"[ \t]*+[.!]?+[ \t]*+[)\]]?+[.!]?+)[ \t]++(?P<rest>[A-Za-z].*+)$", re.I | re.M)
_INTENDED = re.compile(r"^(?P<action>.*?[^\s,])(?:[\s,]++(?:with|without)\b.*)$", re.I)
# The way an intended action is to be done, said at its end (Rules 4E21, 4E22): "<action>
# without objection", "<action>, with 2 supporters and without objection in 2 rdays"
_WITHIN = r"(?:\s++(?:in|within|after)\s++(?:\w++\s++)?(?:r?days?|ndays?|jiffy|jiffies))?"
INTENT_METHOD = re.compile(
    r"^(?P<action>.*?[^\s,:])(?P<cond>(?:[\s,:]++(?:and\s++|but\s++)?(?:(?:without|with\s++no|no)\s++(?:\w++\s++)?"
    r"objections?|with\s++(?:\w++\s++)?(?:supporters?|supports?))" + _WITHIN + r")+)"
    r"(?:\s*+:)?+$", re.I)         # (": " before the document it announces, "... with 4 Support:")

# "BEGIN TRANSACTION", "Start of transaction:", "Transaction start" (Rule 4E12)
BEGIN = re.compile(r"^\W*+(?:(?:begin|start)\s++(?:of\s++(?:the\s++)?)?transaction|transaction\s++(?:start|begin)s?+"
                   # "Transaction:", "Transaction (all or nothing, please):" alone on a line
                   r"|(?:a\s++|my\s++)?+transaction(?:\s*+\([^()\n]{0,80}+\))?+\s*+:"
                   # "Transaction {" ... "}": braces mark its start and its end
                   r"|(?:a\s++|my\s++)?+transaction\s*+\{)"
                   r"\W*+$", re.I)
END = re.compile(r"^\W*+(?:(?:end|finish|commit)\s++(?:of\s++(?:the\s++)?)?transaction"
                 r"|transaction\s++(?:end|ends|over|complete|done))\W*+$", re.I)
# inside a Transaction begun by a heading: "BEGIN" and "END" alone on their lines
_BARE_BEGIN = re.compile(r"^\W*+(?:begin|start)\W*+$", re.I)
_BARE_END = re.compile(r"^(?:\W*+(?:end|done|commit)\W*+|\s*+\}[\s;.]*+)$", re.I)

NUMBER_WORDS = {
    "once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_REPEAT = re.compile(r"^(?P<body>.*?[^,\s])(?:[,\s]++(?P<n>\d++|[a-z]++)\s++times?|\s++(?P<n2>once|twice|thrice))"
                     r"(?:,?\s++(?:for|as|because|since|(?:just\s++)?+in\s++case)\b.*)?$", re.I)     # "... 3 times, for the maps"

# Rule 4E7 lets a player repeat an action "a specific positive integer" of times;
# a bound keeps a typo from queueing a million of them.
MAX_REPEAT = 100


def number(word: str) -> int | None:
    word = word.strip().lower()
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


# ------------------------------------------------------- scheduled actions

@dataclass(frozen=True)
class When:
    """Rule 4E7: when a scheduled action is to happen."""
    kind: str                   # "nday" (start of the next nday N), "nweek" (start of the next nweek), "utc"
    nday: int | None = None
    at: datetime | None = None
    text: str = ""
    nweek: int | None = None    # "at the start of nweek 8": that nweek, not the next
    # "daytime": a time of a UTC day, "HH:MM" ("at 18:00 UTC"), on the day `day` days after
    # (and "nday" with a `time`: that UTC time once the nday has begun)
    # the message's ("today" 0, "tomorrow" 1), or None: its next occurrence
    time: str | None = None
    day: int | None = None
    weekday: int | None = None  # "at 18:00 UTC on Tuesday": that UTC weekday (Monday 0), its next one
    month: int | None = None    # "at 12:00 UTC on 25 November": that UTC date, its next one (no year said)
    mday: int | None = None
    next_nweek: bool = False    # "on Teucer of next nweek": that nday of the nweek after this one


def _recurring() -> re.Pattern:
    # "every Breakday", "each nweek", "every other nday": a time said again and again
    return re.compile(r"\b(?:every|each)\s++(?:other\s++|single\s++)?+(?:nday|nweek|rday|day|week|month|morning"
                      r"|evening|night|ballotday|" + "|".join(n.lower() for n in defaults()["calendar"]["names"])
                      + r")s?+\b", re.I)


def _nday_names() -> dict[str, int]:
    return {n.lower(): i for i, n in enumerate(defaults()["calendar"]["names"], 1)}


_NDAY_NAMES = _nday_names()
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH = r"(?P<month>" + "|".join(_MONTHS) + r"|" + "|".join(m[:3] for m in _MONTHS) + r")\.?+"
_MDAY = r"(?P<mday>[0-3]?\d)(?:st|nd|rd|th)?+"
_DAY_OF_MONTH = r"(?:" + _MDAY + r"\s+(?:of\s+)?+" + _MONTH + r"|" + _MONTH.replace("month>", "month2>") + r"\s+" + \
    _MDAY.replace("mday>", "mday2>") + r")\b"
_RECURRING = _recurring()
_DAY = r"(?:(?:on|at\s+the\s+(?:start|beginning)\s+of|at|from|come)\s+(?:the\s+next\s+)?|at\s+the\s+(?:start|beginning)\s+of\s+next\s+|next\s+)"   # "next Breakday", "Come Thirnight", "at the start of next Breakday"
_DATE = r"(?P<date>\d{4}-\d{2}-\d{2})"
_TIME = r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)"
_ZONE = r"(?:\s*(?:utc|gmt|z))?"
# the times a player may name, written before the action ("On nday 8, I ...") or after
# it, as in Rule 4E7's own example ("I do X on nday 8")
_WHEN_SAID = [
    # Rule 4E7: a UTC time within a named nday: "at 09:00 UTC on nday 11", "on Teucer at 23:59
    # UTC": the first such time once that nday has begun (the Clock may stop it; docs/readings.md)
    ("nday", r"at\s+(?P<time>\d{1,2}:\d{2}|noon)\s*+(?:utc|gmt|z)\s+on\s+nday\s+(?P<n>\d+)"),
    ("name", r"at\s+(?P<time>\d{1,2}:\d{2}|noon)\s*+(?:utc|gmt|z)\s+on\s+(?P<name>" + "|".join(_NDAY_NAMES) + r")"),
    ("nday", r"on\s+nday\s+(?P<n>\d+)(?:\s*+,)?+\s+at\s+(?P<time>\d{1,2}:\d{2}|noon)\s*+(?:utc|gmt|z)\b"),
    ("name", r"on\s+(?P<name>" + "|".join(_NDAY_NAMES) + r")(?:\s*+,)?+\s+at\s+(?P<time>\d{1,2}:\d{2}|noon)"
             r"\s*+(?:utc|gmt|z)\b"),
    ("nday", _DAY + r"nday\s+(?P<n>\d+)\s+of\s+nweek\s+(?P<w>\d+)"),      # "on nday 1 of nweek 8"
    # "on Teucer of next nweek": that nday of the nweek after this one
    ("nday_next", _DAY + r"nday\s+(?P<n>\d+)\s+of\s+(?:the\s+)?next\s+nweek"),
    ("name_next", _DAY + r"(?P<name>" + "|".join(_NDAY_NAMES) + r")\s+of\s+(?:the\s+)?next\s+nweek"),
    ("nday", _DAY + r"nday\s+(?P<n>\d+)"),
    ("name", _DAY + r"(?P<name>" + "|".join(_NDAY_NAMES) + r")\s+of\s+nweek\s+(?P<w>\d+)"),   # "on Breakday of nweek 8"
    ("name", _DAY + r"(?P<name>" + "|".join(_NDAY_NAMES) + r")"),
    ("name", r"(?P<name>" + "|".join(_NDAY_NAMES) + r")"),          # "(Next) Breakday, I ..."
    ("nweek", r"(?:at\s+the\s+(?:start|beginning)\s+of|on|in)\s+the\s+next\s+nweek"),
    # the end of this nweek is the start of the next (Rule 4E14: one nweek follows another)
    ("nweek", r"(?:at|by)\s+the\s+end\s+of\s+(?:this|the|the\s+current)\s+nweek"),
    # an nday starts at 00:00 UTC: "at 00:00 UTC on Breakday", "at midnight UTC on nday 3"
    ("nday", r"at\s+(?:00:00|0:00|midnight)" + _ZONE + r"\s+on\s+nday\s+(?P<n>\d+)"),
    ("name", r"at\s+(?:00:00|0:00|midnight)" + _ZONE + r"\s+on\s+(?P<name>" + "|".join(_NDAY_NAMES) + r")"),
    ("nweek_n", r"(?:at\s+the\s+(?:start|beginning)\s+of|on|in)\s+nweek\s+(?P<w>\d+)"),
    ("utc", r"(?:on|at)\s+" + _DATE + r"(?:(?:\s+at\s+|[\sT])" + _TIME + r")?" + _ZONE),
    ("utc", r"at\s+" + _TIME + _ZONE + r"\s+on\s+" + _DATE),
    # Rule 4E7: "with reference ... to Coordinated Universal Time (UTC)": a time of a UTC
    # day, said as one ("18:00 UTC"), today's, tomorrow's or its next occurrence. A time
    # with no zone, or "tomorrow" alone, names no UTC time (docs/readings.md)
    # a date of the UTC calendar with no year, with its UTC time: "at 12:00 UTC on 25 November"
    ("daytime", r"(?:at\s+)?+(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\s+(?:on\s+)?+(?:the\s+)?+"
                + _DAY_OF_MONTH),
    ("daytime", r"(?:on\s+)?+(?:the\s+)?+" + _DAY_OF_MONTH + r"(?:\s*+,)?+\s+at\s+"
                r"(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\b"),
    # a weekday of the UTC calendar, with its UTC time: "at 18:00 UTC on Tuesday", "Tuesday at 18:00 UTC"
    ("daytime", r"(?:at\s+)?+(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\s+(?:on\s+)?+(?:next\s+)?+"
                r"(?P<weekday>" + "|".join(_WEEKDAYS) + r")"),
    ("daytime", r"(?:on\s+)?+(?:next\s+)?+(?P<weekday>" + "|".join(_WEEKDAYS) + r")(?:\s*+,)?+\s+at\s+"
                r"(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\b"),
    ("daytime", r"(?:at\s+)?+(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\b"
                + r"(?:\s+(?P<day>today|tonight|tomorrow))?+"),
    ("daytime", r"(?P<day>today|tonight|tomorrow)\s+at\s+(?P<time>\d{1,2}:\d{2}|noon|midnight)\s*+(?:utc|gmt|z)\b"),
]
_CLOCK_WORDS = {"noon": "12:00", "midnight": "00:00"}
# what one of the times above says, whichever it is: a quick test before trying each
_WHEN_WORDS = ("nday", "nweek", "noon", "midnight", ":", "-", *_NDAY_NAMES)
_WHEN_HINT = re.compile("|".join(map(re.escape, _WHEN_WORDS)), re.I)
# (of those, ":" and "-" are said only in a clock time or a date, between digits: "18:00",
# "2026-11-25")
_WHEN_NAMED = tuple(w for w in _WHEN_WORDS if w not in (":", "-"))
_CLOCK_OR_DATE = re.compile(r"\d[:-]\d")


def _no_time_said(s: str) -> bool:
    """Whether an ASCII sentence says nothing any time of _WHEN_SAID has (then none is said)."""
    return _ascii_lacks(s, _WHEN_NAMED) and (":" not in s and "-" not in s or not _CLOCK_OR_DATE.search(s))
_WHEN = [(kind, re.compile(said + r"[\s,:]+(?P<rest>i\b.*)$", re.I),
          re.compile(r"(?P<rest>i\b(?:.*?[^\s,])?)[\s,]++" + said + r"$", re.I)) for kind, said in _WHEN_SAID]


# a time said first, then a command with no "I": "on zarpint: vote FOR 11", "Thirnight, give m5
# to Bob"
_WHEN_IMPERATIVE = [re.compile(said + r"[\s,:]++(?P<rest>(?!i\b)[a-z][\w'’-]*+\b.*+)$", re.I) for _, said in _WHEN_SAID]


def _imperative_at_a_time(body: str) -> str:
    """A time said first and a command after it, as the sender's own action at that time:
    "On Zarpint, I vote FOR 11" (what split_when reads); as written if the word after the
    time begins no action's verb (and no Vote word)."""
    for pattern in _WHEN_IMPERATIVE:
        m = pattern.match(body)
        if m is None:
            continue
        first = m.group("rest").split(None, 1)[0]
        if first.lower() in _verbs().heads or first in _VOTE_WORDS:
            return body[:m.start("rest")].rstrip(" ,:") + ", " + _imperative_said(m.group("rest"))
        return body
    return body


def _month_day(m: re.Match) -> tuple[int | None, int | None]:
    said = m.groupdict()
    month = said.get("month") or said.get("month2")
    if not month:
        return None, None
    number = next(k for k, name in enumerate(_MONTHS, 1) if name.startswith(month.lower().rstrip(".")[:3]))
    return number, int(said.get("mday") or said.get("mday2"))


_TIME_GLOSSED = re.compile(r"(?P<time>(?:on|at)\s++[^()\s,]{1,20}+(?:\s++[^()\s,]{1,20}+){0,5}?)"
                           r"\s*+\([^()]{1,80}+\)\s*+,?\s*+(?P<rest>i\b.*+)", re.I | re.S)


# the subject of a clause of another's doing: a time said in it is when they did it
_ANOTHER_SUBJECT = frozenset(words()["reader"]["subjects"]) - {"i", "this", "that", "its", "there"}
# a past said after "I" ("the reasons I gave on Winday"): the time is when it was done
_PAST = frozenset(words()["reader"]["pasts"])
# a subject said with no stop before it ("the sock he lent me"): never the one addressed, "you"
_HE = frozenset(words()["reader"]["others_doing"])
_CLAUSE_STARTS = re.compile(r"[,;:]|\b(?:but|and|as|because|since|though|although|while|when)\b", re.I)


# "... has got heated enough that I'm hoisting the Polka Dots flag", "... so long that I resign":
# what made the sender act, then the action
_RESULT_THAT = re.compile(r"\b(?:enough|so\s++(?:much|many|long|badly|often|[a-z]{2,15}ly)|such\s++a\s++[a-z]{2,15})"
                          r"\s++that\s++(?=i(?:['’]m)?+\s)", re.I)
_NOT_SO_BEFORE = re.compile(r"\b(?:i|i['’]m|not|never|if|whether|unless|would|could|might)\b|n['’]t\b", re.I)


def _time_of_another(sentence: str, when) -> bool:
    """A time said at the end of a clause whose subject is someone else ("I challenge the
    Registrar's report: it says Dana has m100, but she gave Wooble m10 on Joel"): the time of
    what they did, never when the sender's action is to be done (Rule 4E7)."""
    at = sentence.lower().rfind(when.text.lower()) if when.text else -1
    if at <= 0 or sentence[at + len(when.text):].strip(" .!"):
        return False
    near = sentence[:at].lower().split()[-8:]
    he = next((k for k in range(len(near) - 1, -1, -1) if near[k] in _HE), None)
    if he is not None and "i" not in near[he:]:
        return True             # "... for the sock he lent me on Tango": when he lent it
    if any(near[k] == "i" and (near[k + 1] in _PAST or near[k + 1].endswith("ed")) for k in range(len(near) - 1)):
        return True             # "..., for the reasons I gave on the discussion list on Winday": when I gave them
    if not _CLAUSE_STARTS.search(sentence, 0, at):
        return False
    clause = _CLAUSE_STARTS.split(sentence[:at])[-1].split()
    # (or a habit: "I give m5 to the Beast, as is my custom on Teucer")
    return bool(clause) and (clause[0].lower() in _ANOTHER_SUBJECT or clause[0].lower() in ("is", "was"))


def split_when(sentence: str) -> tuple[When | None, str]:
    """'On nday 8, I give m5 to A' or 'I give m5 to A on nday 8'
    -> (When(nday 8), 'I give m5 to A'). A date that does not exist is
    When('invalid'): the sentence is not understood."""
    if _no_time_said(sentence) or not sentence.isascii() and not _WHEN_HINT.search(sentence):
        return None, sentence           # (no word every time said has: none is)
    if "(" in sentence[:60]:
        # "On Breakday (the start of nweek 8) I give ...": the time said first, glossed in brackets
        m = _TIME_GLOSSED.match(sentence)
        if m is not None:
            when, rest = split_when(m.group("time") + " " + m.group("rest"))
            if when is not None and rest != sentence:
                return when, rest
    for kind, before, after in _WHEN:
        m = before.match(sentence) or after.fullmatch(sentence)
        if not m:
            continue
        said = (sentence[:m.start("rest")] + sentence[m.end("rest"):]).strip(" ,:")
        if kind in ("nday_next", "name_next"):
            n = int(m.group("n")) if kind == "nday_next" else _NDAY_NAMES[m.group("name").lower()]
            return When("nday", nday=n, next_nweek=True, text=said), m.group("rest")
        if kind in ("nday", "name"):
            w = m.groupdict().get("w")
            n = int(m.group("n")) if kind == "nday" else _NDAY_NAMES[m.group("name").lower()]
            time = _CLOCK_WORDS.get((m.groupdict().get("time") or "").lower(), m.groupdict().get("time"))
            if time is not None:
                hh, mm = (int(x) for x in time.split(":"))
                if hh > 23 or mm > 59:
                    return When("invalid", text=said), m.group("rest")
                time = f"{hh:02d}:{mm:02d}" if hh or mm else None      # (00:00 is the nday's start)
            return When("nday", nday=n, nweek=int(w) if w else None, text=said, time=time), m.group("rest")
        if kind == "nweek":
            return When("nweek", text=said), m.group("rest")
        if kind == "nweek_n":
            return When("nweek", nweek=int(m.group("w")), text=said), m.group("rest")
        if kind == "daytime":
            time = m.groupdict().get("time") or "00:00"
            time = _CLOCK_WORDS.get(time.lower(), time)
            hh, mm = (int(x) for x in time.split(":"))
            if hh > 23 or mm > 59:
                return When("invalid", text=said), m.group("rest")
            day = {"today": 0, "tonight": 0, "tomorrow": 1}.get((m.groupdict().get("day") or "").lower())
            weekday = m.groupdict().get("weekday")
            month, mday = _month_day(m)
            if month is not None and not 1 <= mday <= (29 if month == 2 else 30 if month in (4, 6, 9, 11) else 31):
                return When("invalid", text=said), m.group("rest")
            return When("daytime", time=f"{hh:02d}:{mm:02d}", day=day, text=said,
                        weekday=_WEEKDAYS.index(weekday.lower()) if weekday else None,
                        month=month, mday=mday), m.group("rest")
        try:
            at = datetime.fromisoformat(f"{m.group('date')}T{m.group('time') or '00:00'}")
        except ValueError:
            return When("invalid", text=said), m.group("rest")
        return When("utc", at=at.replace(tzinfo=timezone.utc), text=said), m.group("rest")
    return None, sentence


# ------------------------------------------------------------------ readings

@dataclass
class Reading:
    """One sentence (or one Transaction) of the post, as understood."""
    text: str
    spec: ActionSpec | None = None           # the action, if it is one
    args: dict = field(default_factory=dict)
    times: int = 1
    suggestions: tuple[str, ...] = ()
    when: When | None = None                 # a scheduled action
    assertion: AssertionSpec | None = None   # an assertion (inside a Transaction)
    steps: list["Reading"] | None = None     # a Transaction's steps
    error: str = ""                          # why it cannot even be read
    missing: tuple[str, ...] = ()            # an attempt that left these roles out
    alternatives: tuple[str, ...] = ()       # two or more readings tied: each described
    read_as: str = ""                        # the reading described, as the receipt echoes it
    unread: tuple[str, ...] = ()             # words of an incomplete attempt not understood
    hints: tuple[str, ...] = ()              # unknown names and the Player meant: "Woobel → Wooble"

    @property
    def kind(self) -> str:
        if self.steps is not None:
            return "transaction"
        if self.assertion is not None:
            return "assertion"
        if self.alternatives:
            return "ambiguous"
        if self.spec is not None:
            return "incomplete" if self.missing else "action"
        return "unknown"


_SPACES = re.compile(r"\s+")


def _ascii_lacks(s: str, words: tuple[str, ...]) -> bool:
    """Whether `s` is ASCII and holds none of `words` (lower case), in any case: then no
    case-insensitive pattern that must match one of them can match. A quick, exact test
    before such a pattern (Python's re scans an alternation at every position); text that
    is not ASCII is left to the pattern (re.IGNORECASE also takes "K" for "k", "ſ" for "s")."""
    if not s.isascii():
        return False
    return not any(map(s.lower().__contains__, words))


# "..., unless I change my mind before then": no condition (an author may always cancel what
# it scheduled, Rule 4E7, or vote again, 4E15), said in passing
_MIND_CHANGED = re.compile(r"(?:\bunless\s++i\s++change\s++my\s++mind(?:\s++(?:before\s++then|first|by\s++then"
                           r"|in\s++the\s++meantime))?+(?:\s*+,?\s*+in\s++which\s++case\s++i['’]?(?:ll|\s++will)"
                           r"\s++(?:say\s++so|tell\s++you|let\s++you\s++know|post\s++again))?+"
                           # "FOR 15 if I haven't said so": what holds either way is no condition
                           r"|(?<!\s),?\s*+(?:\bif|\bin\s++case)\s++i\s++(?:haven['’]t|have\s++not|didn['’]t|did\s++not)"
                           r"\s++(?:already\s++)?(?:said\s++so|done\s++so|voted(?:\s++on\s++it)?|already))\s*+$", re.I)


# "I'm gonna go ahead and", "I'll go ahead and", "I go ahead and": the lead before a verb
_GO_AHEAD = re.compile(r"(?<=\bI)(?:['’]m|['’]ll|\s++(?:am|will|shall))?+(?:\s++(?:gonna|going\s++to))?+"
                       r"(?:\s++(?:just|now|also))?+\s++go\s++ahead\s++and\b", re.I)


# "I have decided that I vote ...", "I've decided that I'll give ...": the decision, said now
_DECIDED_THAT = re.compile(r"\bI(?:\s++have|['’]ve)\s++(?:now\s++)?+decided\s++that\s++I\b", re.I)


_NOW_FIRST = re.compile(r"^(?:" + "|".join(r"\s++".join(w.split()) for w in (*_NOW_SAID, "right now")) + r")(?:\s*+,)?+\s++(?=i\b)", re.I)
_MADE_A_VOTE = re.compile(r"\bmake\s++(?P<n>(?:proposal\s*+|prop\.?+\s*+|#)?+\d{1,4}+)\s++an?\s++"
                          r"(?P<v>(?-i:FOR|AGAINST|ABSTAIN|SHELVE))\b", re.I)
_GOING_VOTE = re.compile(r"\bi(?:['’]m|\s++am)\s++going\s++(?=(?-i:FOR|AGAINST|ABSTAIN|SHELVE)\b)", re.I)


def normalise(part: str) -> str:
    """The sentence without its lead, courtesies and asides (once per message)."""
    memo = _MEMO.get()
    if memo is None:
        return _normalised(part)
    key = ("normalise", part)
    if key not in memo:
        memo[key] = _normalised(part)
    return memo[key]


def _normalised(part: str) -> str:
    s = _LEAD.sub("", part.strip())
    if s[:1] in "Rr" and _REVISED_VERSION.match(s):
        s = _REVISED_VERSION.sub("I revise ", s, count=1)     # "Revised version of my proposal:" (4E15)
    if s[:1] in "Pp" and _POSTSCRIPT_LEAD.match(s):
        s = _POSTSCRIPT_LEAD.sub("", s, count=1)         # "PS: AGAINST 16", "P.S. I vote ..."
    if "mind" in s or "if i ha" in s.lower() or "case i" in s.lower() or "if i di" in s.lower():
        s = _MIND_CHANGED.sub("", s.rstrip(" .!;")).rstrip(" ,\t")
    if s[:1] == "(" and s.rstrip(_TRAIL_PUNCT)[-1:] == ")" and s.count("(") == 1:
        s = s.rstrip(_TRAIL_PUNCT)[1:-1].strip()        # "(For the record I vote SHELVE on 14.)"
    s = _POLITE.sub("", s)
    s = _I_POLITE.sub("I ", s)
    if "ahead" in s:
        s = _GO_AHEAD.sub("", s)                 # "I'm gonna go ahead and vote FOR 11": "I vote FOR 11"
    if "decided" in s:
        s = _DECIDED_THAT.sub("I", s)            # "I have decided that I vote AGAINST 16": "I vote ..."
    if "going" in s:
        s = _GOING_VOTE.sub("I vote ", s)        # "i'm going AGAINST 12 and FOR 14": a Vote in capitals
    if "resent" in s[:16] or "oment" in s[:20] or "now" in s[:10] or "urrently" in s[:10] or "ime being" in s[:24]:
        s = _NOW_FIRST.sub("", s, count=1)       # "for the present I ABSTAIN on Proposal 16": now
    if "ake " in s:
        s = _MADE_A_VOTE.sub(r"\g<v> on \g<n>", s)   # "except make 16 a SHELVE": SHELVE on 16
    if " & " in s:
        s = s.replace(" & ", " and ")           # "I transfer my Blue Sock to Dana & give her m5"
    if "worth" in s or "fwiw" in s.lower() or "make that" in s.lower():
        s = _SAID_ASIDE.sub(" ", s).strip()      # "..., and, for what it's worth, AGAINST 12"
        s = _MAKE_THAT.sub("", s)                # "Actually make that AGAINST on 15."
    if "same " in s.lower():
        s = _SAME_FOR.sub(" and ", s)
    if "itle" in s:
        s = _NO_TITLE.sub("", s)                 # "I submit a proposal with no title: ..." (Rule 4E15)
    if "ly " in s and ("then " in s or "and " in s):
        s = _ADVERB_BEFORE_VERB.sub(_adverb_dropped, s)    # "... and then immediately revise ..."
    if "hile" in s and ("here" in s or " at it" in s):
        s = _WHILE_HERE.sub(lambda m: m.group("and") or "", s).strip()   # "and while I'm here I object ..."
    if "course" in s:
        s = _OF_COURSE_I.sub("", s)             # "..., so of course I vote FOR it"
    if " myself" in s and " to " in s:
        s = _TO_HIM_MYSELF.sub(_myself_dropped, s)     # "I give m15 to chuck myself then": I, myself
    if ("etract" in s or "cratch" in s or "ithdraw" in s or "ancel" in s) and _RETRACTED_THEN.match(s):
        s = _RETRACTED_THEN.sub(lambda m: f"I vote {m.group('v')} on {m.group('n')}", s, count=1)
    if ":" in s[:64] and s[:1] in "WwSsNn":
        s = _WHILE_HEADING.sub("", s, count=1)   # "While we're on the list: add ... to my addresses"
    if "remember" in s or "forget" in s:
        s = _REMEMBERED.sub("", s)               # "FOR 11 while I remember, and AGAINST 14"
    if "place" in s or "stead" in s:
        s = _IN_PLACE.sub("", s)                 # "... as Priest of Consultation 5 in Dana's place"
    if " in re" in s or " in ex" in s:
        s = _IN_RETURN.sub("", s)                # "I give Dana m5 in return, as promised."
    if " of " in s and "the " in s.lower():
        s = _KIND_OF_WHOM.sub(lambda m: f"{m.group('who')}'s {m.group('kind')}", s)   # "the intent of Alice"
    if "scheduled" in s and _I_SCHEDULED.search(s):
        s = _I_SCHEDULED.sub(lambda m: f"my scheduled {m.group('kind')}", s)   # "the vote I scheduled for ..."
    if "inistries of" in s:
        s = _MINISTRIES_OF.sub(lambda m: f"Ministry of {m.group('a')} and the Ministry of {m.group('b')}", s)
    if ("orry" in s or "hank" in s or "polog" in s or "heers" in s) and _TRAILING_COURTESY.search(s):
        s = _TRAILING_COURTESY.sub("", s)        # "... m 10 sorry for the ZOT joke"
    if "decided" in s and "which" in s:
        s = _DECIDED_AND_DONE.sub(lambda m: f"I {m.group('act')}", s)   # "..., which I hereby do"
    if "pprove of" in s:
        s = _APPROVE_OF.sub("approve-of", s)     # "I approve of the report": an opinion
    if " order" in s:
        s = _IN_THAT_ORDER.sub("", s)            # "..., in that order, because I'm complicated."
    if not s.isascii():
        s = _PICTOGRAPHS.sub("", s)             # "... to wooble too 🧦": no word of the action
    s = strip_trail(s)
    # (ASCII text that is printable, without two spaces running, has no space to join)
    return s if s.isascii() and s.isprintable() and "  " not in s else _SPACES.sub(" ", s)


# emoji and other pictographs, with their joiners and variation selectors
_PICTOGRAPH = "[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]++"
_PICTOGRAPHS = re.compile(_PICTOGRAPH)


def strip_trail(s: str) -> str:
    """'I vote FOR 12, please :)' -> 'I vote FOR 12': punctuation, a polite word
    after a space or comma, a smiley after a space, ', then'; in linear time."""
    while True:
        t = s.rstrip(_TRAIL_PUNCT)
        low = t.lower()
        tail = low[-10:]
        if tail[-1:].isalnum() and tail[-2:] not in _TRAIL_ENDS and tail[-1:] not in _TRAIL_ENDS:
            return t
        for word in _TRAIL_BY_END.get(low[-2:], ()):
            cut = len(t) - len(word)
            if low.endswith(word) and cut > 0 and (t[cut - 1].isspace() or t[cut - 1] == ","):
                t = t[:cut]
                break
        else:
            m = _TRAIL_SMILEY.search(low) if low.endswith((")", "(", "d", "p")) else None
            if m:
                t = t[:m.start()]
            elif low.endswith("then") and t[:-4].rstrip().endswith(","):
                t = t[:-4]
        if t == s:
            return s
        s = t


# (an initial is a letter alone: the "t" of "don't." ends a sentence)
_ABBREVIATION = re.compile(r"(?:\b(?:dr|mr|mrs|ms|st|jr|sr|prof|no|vs|etc|e\.g|i\.e)|(?<![\w'’])[a-z])\.$", re.I)


# "..., so scratch that, I assign it to Bob": a taking back said between commas ends the
# sentence before it, as "Scratch that." would (_takes_back)
_MID_TAKE_BACK = re.compile(r"(?:^\s*+|(?<!\s)\s*+[,;]\s*+)(?:so\s++|oh\s++|wait\s*+,?\s*+)?(?P<said>scratch\s++that|never\s++mind"
                            r"|ignore\s++that|strike\s++that)\s*+[,;:]\s*+(?=i\b)", re.I)


# "I object to #3 being listed as mine, oh wait it is mine, never mind, carry on": a taking
# back said last, after a comma, takes back what the sentence did, as "Never mind." would
_END_TAKE_BACK = re.compile(r"(?<!\s)\s*+[,;]\s*+(?:(?:so|oh|wait)\b[\s,]*+){0,2}+(?P<said>scratch\s++that|never\s++mind"
                            r"|ignore\s++that|strike\s++that)(?=\s*+(?:[,;:]\s*+(?:carry\s++on|as\s++you\s++were"
                            r"|forget\s++it|sorry|my\s++bad))?+[\s.!]*+$)", re.I)
_PICTOGRAPH_MID = re.compile(r"(?<=\w)[ \t]*+" + _PICTOGRAPH + r"[ \t]++(?=\w)")
_RETRACT_SEMI = re.compile(r"\b" + _RETRACTING + r"\s++my\s++vote\s++on\s++(?:proposal\s++)?+\d{1,4}+\s*+;", re.I)
_LAUGH_MID = re.compile(r"(?<=\w)\s++(?:lol|lmao|haha(?:ha)*+)\b[!.]*+\s++(?=[a-z])")


def split_sentences(line: str) -> list[str]:
    """Cut a line at sentence ends, but not inside double quotes ('"Dr. Who"')
    nor after an abbreviation or an initial ('Dr. Who', 'J. Smith')."""
    if "cratch" in line or "ever mind" in line or "gnore" in line or "trike" in line:
        line = _MID_TAKE_BACK.sub(lambda m: (". " if m.start() else "") + m.group("said").capitalize() + ". ", line)
        line = _END_TAKE_BACK.sub(lambda m: ". " + m.group("said").capitalize(), line)
    if ";" in line and "my vote on" in line:
        line = _RETRACT_SEMI.sub(lambda m: m.group(0)[:-1] + ",", line)   # "Scratch my vote on 10; make it ABSTAIN"
    if "lol" in line or "haha" in line or "lmao" in line:
        line = _LAUGH_MID.sub(". ", line)       # "support intent 3 lol why not": laughter ends a sentence
    if not line.isascii():
        line = _PICTOGRAPH_MID.sub(". ", line)  # "FOR 16 🎂 happy birthday Chuck": so does an emoji
    parts: list[str] = []
    for piece in _SENTENCE_END.split(line):
        if parts and (parts[-1].count('"') % 2 == 1 or parts[-1].count("(") > parts[-1].count(")") or
                      (_ABBREVIATION.search(parts[-1], max(0, len(parts[-1]) - 8))
                       and not re.match(r"i\b", piece, re.I)
                       # "No. 12" is a number; "lol no. object" two sentences
                       and not (parts[-1][-3:].lower() == "no." and not piece[:1].isdigit()
                                and piece[:1] != "#"))):
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return parts


def _asks(part: str) -> bool:
    """Whether a sentence is a question: it ends with "?", outside a quotation it ends
    with ('... to "Have you checked your Vested status today?"' asks nothing)."""
    p = part.rstrip(" \t)")
    close = p[-1:]
    if close in ('"', "”"):
        at = p.rfind("“" if close == "”" else '"', 0, len(p) - 1)
        if at > 0 and "?" in p[at:]:
            return p[:at].rstrip().endswith("?")
    return p.rstrip("\"'’”").rstrip("!").endswith("?")      # "AGAINST 15?!" asks too


# a question asked after a statement, about something else: ", did it arrive?", "; can
# someone check?" (the statement before it stands)
_QUESTION_AFTER = re.compile(r"(?<=\S)\s*+[,;]\s*+(?:and\s++|but\s++|so\s++)?+(?:did|does|do|is|are|was|were|can|could"
                             r"|would|will|has|have|should)\s++(?:it|that|this|you|anyone|anybody|someone|somebody"
                             r"|they|he|she|e|we)\b[^,;?]{0,200}+\?[\s?!]*+$", re.I)


def sentences(text: str) -> list[str]:
    """The text's sentences, normalised, questions left out (cut once per message: the
    reader asks again of the same lines)."""
    memo = _MEMO.get()
    if memo is None:
        return list(_sentences(text))
    key = ("sentences", text)
    if key not in memo:
        memo[key] = tuple(_sentences(text))
    return list(memo[key])


def _sentences(text: str):
    for line in text.splitlines():
        charge(8 * len(line) + 1500)      # cutting and normalising: a few linear passes, and calls
        for part in split_sentences(_LEAD.sub("", line.strip())):    # "1. I give ..." is one sentence
            charge(500)
            if _asks(part) and not ("ZOT" in part and _ASKED_TO_ZOT.match(part.strip())):
                told = _QUESTION_AFTER.search(part) if part[:2].lower() == "i " else None
                if told is None:
                    continue    # a question is never an action (a Priest's "Chuck, could you ZOT ...?" asks one)
                part = part[:told.start()]      # "I vote FOR 10 and I gave Alice m5, did it arrive?"
            s = normalise(part)
            if s:
                yield s


# A line ending like this was cut by the sender's mail program, not by them.
_DANGLING = re.compile(r"(?:,|\b(?:by|to|as|and|the|of|from|for|with|without|under|name|give|i|my|a|an|at|on"
                       r"|its|his|her|their|your|vote|votes|voted|voting|cast|not|never|don['’]t|won['’]t|can['’]t|cannot|didn['’]t"
                       r"|shan['’]t|wouldn['’]t|doesn['’]t|rather|really|quite|very|truly|gets|get"
                       # a modal or an adverb whose verb is on the next line ("I'd happily" / "support ...")
                       r"|i['’]d|i['’]ll|i['’]m|would|will|shall|should|could|might|must|may|can|[a-z]{3,12}ly"
                       # a subject whose verb is on the next line ("... and then he" / "votes FOR 10")
                       r"|he|she|they|we|e|who|which|that|you|you['’]d|you['’]ll|we['’]d|they['’]d"
                       r"|every|each|any|some))\s*$", re.I)     # ("... answer for every" / "ZOT.")     # "I've already voted" / "AGAINST it"


# a vote word that begins a group at a line's end ("... and AGAINST"), not a ballot's "10 FOR"
_VOTE_AT_END = re.compile(r"(?:\band|,|\bvote|\bvotes)\s++(?:FOR|AGAINST|ABSTAIN|SHELVE)\s*+$")
_CONTINUED = re.compile(r"(?:and|or|&|plus)\s", re.I)
# a line ending in the kind of a thing whose number begins the next ("... FOR Proposal" / "11.")
_KIND_AT_END = re.compile(r"\b(?:proposals?+|prop|consultations?+|rules?+|indictments?+|tweaks?+|tricks?+"
                          r"|contracts?+|subgames?+|intents?+)\s*+$", re.I)
_NUMBER_FIRST = re.compile(r"\s*+#?+\d++\s*+(?:[.,;!?)]|$)")
_NUMBER_THEN_WORD = re.compile(r"[ \t]*+#?+\d++[ \t]++[A-Za-z]")
_REF_FIRST = re.compile(r"\s*+(?:proposals?+|prop\.?+|p(?=\d)|#)\s*+\d", re.I)
# a ballot's line, whatever its case: "P10: for", "12 - against"
# (its number in figures or in words: "Proposal ten - FOR")
_IN_WORDS = "|".join(sorted(map(re.escape, LEXER_NUMBER_WORDS), key=len, reverse=True))
_BALLOT_LINE = re.compile(r"\s*+(?:proposal|prop\.?+|p|#)?+\s*+(?:\d++|(?:" + _IN_WORDS + r")(?:-(?:" + _IN_WORDS
                          + r"))?+)\s*+[:.)=-]?+\s*+(?:for|against|abstain|shelve)\s*+[.!]?+\s*+$", re.I)
_BALLOT_ITEM = re.compile(r"\b(?i:for|against|abstain|shelve)\b")     # a line that holds a vote of its own
# "for 12" / "against 13": a ballot written a Vote word, then the proposal, a line each
_VOTE_FIRST_LINE = re.compile(r"\s*+(?:for|against|abstain|shelve)\s*+[:=-]?+\s*+(?:on\s++)?+"
                              r"(?:proposal\s*+|prop\.?+\s*+|p|#)?+\d++\s*+[.!]?+\s*+$", re.I)
_LIST_GOES_ON = re.compile(r"\d[\s,]*+(?:,|\band|\bor|&)\s*+$")    # "FOR on 10, 14 and" / "15."
# "Fishy Business - FOR" / "Sock Amnesty - FOR": a ballot written a title, then its Vote, a
# line each (a Vote in capitals, after a dash or a colon, ends the line)
_TITLE_THEN_VOTE_LINE = re.compile(r"\S[ \t]*+(?:[-–—:=]|->)[ \t]*+(?:FOR|AGAINST|ABSTAIN|SHELVE)[ \t]*+[.!]?+\s*+$")
# "Re Proposal 10: FOR" / "Re Proposal 12: SHELVE - needs another pass": a ballot written a
# proposal, then its Vote, a line each, with remarks after the Vote
_VOTE_ITEM_FIRST = re.compile(r"[ \t]*+(?:[-*•][ \t]*+)?+(?:re[ \t]*+:?+[ \t]*+)?+(?:proposal[ \t]*+|prop\.?+[ \t]*+|p|#)?+"
                              r"\d{1,4}+[ \t]*+[:.)=-][ \t]*+(?:FOR|AGAINST|ABSTAIN|SHELVE)\b", re.I)
_STOPS = frozenset(".!?;:")         # a line ending in one (then spaces) ends its sentence


# a line that begins with a preposition in lower case continues the line before it
_PREPOSITION_FIRST = re.compile(r"[ \t]*+(?:of|to|for|with|from|by|than|into|onto)[ \t]++\S")


# a line of one word in lower case, the last of a sentence the mailer wrapped
_ONE_WORD_LINE = re.compile(r"[ \t]*+[a-z][a-z'’-]{0,20}+[.!?]?+[ \t]*+")
# a line that ends with a role's marker and a colon ("... to:"): the value is on the next line
_MARKER_COLON = re.compile(r"\s(?:to|as|into)\s*+:\s*+$", re.I)


def unwrap(lines: list[str]) -> list[str]:
    """Join lines a mail program hard-wrapped in the middle of a sentence: the
    line ends with no full stop and either dangles ('... recruited by') or is
    no action alone while it and the next line together are one."""
    out: list[str] = []
    for line in lines:
        prev = out[-1] if out else ""
        if ((prev.count('"') % 2 == 1 or prev.count("(") > prev.count(")")) and line.strip()
                and not BEGIN.match(line) and not END.match(line) and len(prev) < 2000):
            out[-1] = prev.rstrip() + " " + line.strip()      # a quotation or bracket the mailer wrapped
            continue
        if (_TITLE_THEN_VOTE_LINE.search(prev) and _TITLE_THEN_VOTE_LINE.search(line)
                or _VOTE_ITEM_FIRST.match(prev) and _VOTE_ITEM_FIRST.match(line)):
            out.append(line)        # an item of a ballot, after another: no line the mailer cut
            continue
        if (prev.strip() and prev.rstrip().endswith(_VOTE_WORDS) and _VOTE_AT_END.search(prev)
                and (line.lstrip()[:1].isdigit() or _REF_FIRST.match(line))):
            out[-1] = prev.rstrip() + " " + line.strip()      # "... and AGAINST" / "16. Also I ..."
            continue
        if (prev.strip() and prev.rstrip()[-1:] not in _STOPS and prev.rstrip()[-1:] not in ":;"
                and _PREPOSITION_FIRST.match(line) and not BEGIN.match(prev) and not _BALLOT_LINE.match(prev)
                and not (_VOTE_FIRST_LINE.match(prev) and _VOTE_FIRST_LINE.match(line))):
            out[-1] = prev.rstrip() + " " + line.strip()      # "... I assign a Punishment" / "of a fine of m15."
            continue
        if prev.strip() and _NUMBER_FIRST.match(line) and (
                not _LEAD.match(line.strip()) and _KIND_AT_END.search(prev, max(0, len(prev.rstrip()) - 14))
                or _LIST_GOES_ON.search(prev, max(0, len(prev.rstrip()) - 12))):
            out[-1] = prev.rstrip() + " " + line.strip()      # "... and FOR Proposal" / "11."; "10, 14 and" / "15."
            continue
        if (prev.strip() and _NUMBER_THEN_WORD.match(line) and not _LEAD.match(line.strip())
                and _KIND_AT_END.search(prev, max(0, len(prev.rstrip()) - 14))):
            out[-1] = prev.rstrip() + " " + line.strip()      # "..., and on Proposal" / "13 I ABSTAIN ..."
            continue
        if (prev.strip() and prev.rstrip()[-1:] not in _STOPS and prev.rstrip()[-1:] not in ":;"
                and _ONE_WORD_LINE.fullmatch(line) and not _BALLOT_LINE.match(prev) and read_sentence(line.strip())):
            out[-1] = prev.rstrip() + " " + line.strip()      # "... the more fitting" / "name.": no action alone
            continue
        if (line.strip() and _MARKER_COLON.search(prev, max(0, len(prev.rstrip()) - 6)) and not BEGIN.match(line)
                and not END.match(line) and not _LEAD.match(line.strip())):
            joined = prev.rstrip()[:-1].rstrip() + " " + line.strip()     # (the colon said where, no more)
            got = read_sentence(joined)
            if got and all(r.kind == "action" for r in got):
                out[-1] = joined        # "... set the Message of the nweek to:" / "Fish are friends, not food."
                continue
        if (prev.strip() and line.strip() and prev.rstrip()[-1:] not in _STOPS and not _BALLOT_LINE.match(prev)
                # ("11: for, obviously" / "14: abstain": an item of its own, after another item)
                and not (_BALLOT_LINE.match(line) and _BALLOT_ITEM.search(prev))
                and not (_VOTE_FIRST_LINE.match(prev) and _VOTE_FIRST_LINE.match(line))
                and not BEGIN.match(line) and not END.match(line) and not BEGIN.match(prev)
                and not _LEAD.match(line.strip())):
            last = (list(sentences(prev)) or [""])[-1]
            if prev.rstrip().endswith(",") and not last.endswith(","):
                last += ","             # (normalising took the line's last comma: "Tidy Up: FOR," / "obviously, ...")
            first = (list(sentences(line)) or [""])[0]
            # (a dangling word ends the line: searched from a few characters before its end)
            dangling = _DANGLING.search(prev, max(0, len(prev.rstrip()) - 9))
            # (or a verb: "..., then revise" / "its Reward to m60", joined where it then reads)
            ends = prev.rstrip().rsplit(None, 2)[-2:]
            verb_last = ends[-1].lower() in _verbs().heads or (     # ("... and give it" / "the number 7.")
                len(ends) == 2 and ends[-1].lower() in ("it", "them") and ends[0].lower() in _verbs().heads)
            continued = _CONTINUED.match(line.strip())
            alone = match_action(last)
            # (joined is read only where it can decide: a line that reads alone, and neither
            # dangles nor is continued, stays as it is)
            if dangling and not alone or ends[-1].lower() in ("a", "an", "the"):
                join = True         # ("I submit it as a" / "proposal:": an article ends no sentence)
            elif dangling and split_when(f"{last} {first}".rstrip(" .!"))[0] is not None:
                join = True         # "... Reward m100, at" / "2026-11-25 06:00 UTC.": a time, cut
            elif not alone or dangling or continued or verb_last:
                join = bool(match_action(f"{last} {first}"))
                if not join and (continued or not alone or verb_last or dangling):
                    got = read_sentence(f"{last} {first}")     # several actions: "AGAINST 13\nand 16"
                    # (or one whose "it" the action before names: "... and give it" / "the number 7.")
                    join = bool(got) and all(r.kind == "action" or verb_last and _only_it_missing(r) for r in got)
                    if not join and continued and got:
                        # ("... hereby give Bob m12" / "and Wooble m8, and vote FOR 10": more actions
                        # read together than the line alone, a remark before them aside)
                        acts = sum(r.kind == "action" for r in got)
                        join = acts > sum(r.kind == "action" for r in read_sentence(last))
            else:
                join = False
            if join:
                out[-1] = prev.rstrip() + " " + line.strip()
                continue
        out.append(line)
    return out



def _only_it_missing(r: "Reading") -> bool:
    """An attempt missing only the one thing it calls "it" (which _its gives it from the action
    before, once the message is read)."""
    return (r.kind == "incomplete" and r.spec is not None and len(r.missing) == 1 and bool(_ITS.search(r.text or ""))
            and any(x.name == r.missing[0] and x.type in REF_KINDS for x in r.spec.roles))


def split_repeat(sentence: str) -> tuple[str, int]:
    """'I do X 3 times' -> ('I do X', 3); 'I do X 0 times' -> ('I do X', 0), which is
    no positive integer (Rule 4E7); anything else -> (sentence, 1)."""
    m = _REPEAT.match(sentence) if not _ascii_lacks(sentence, ("time", "once", "twice", "thrice")) else None
    if not m:
        return sentence, 1
    n = number(m.group("n") or m.group("n2"))
    if n is None:
        return sentence, 1
    return m.group("body"), n         # more than MAX_REPEAT is refused when applied


# ------------------------------------------------------------ reading a clause

_LEADS = frozenset("""so ok okay well anyway right alright oh um btw yes yeah sure fine agreed first
    firstly secondly thirdly lastly finally next meanwhile also now then and please hereby actually
    and, sure, of course no problem whatever btw fyi""".split())
_AUX: dict[str, list[tuple[str, ...]]] = {}
for _a in sorted((tuple(a.replace("’", "'").split()) for a in words()["reader"]["auxiliaries"]),
                 key=len, reverse=True):
    _AUX.setdefault(_a[0], []).append(_a)
_TALK_WORDS = frozenset(words()["reader"]["talk"])
# Rule 4E7 knows no conditional actions: "I give m5 to Wooble if he asks" is asked about
_CONDITION_WORDS = frozenset({"if", "unless", "provided", "assuming", "whenever", "when", "once"})
_NO_CONDITIONS = ("Rule 4E7 knows no conditional actions: say it without \"if\" or \"unless\", "
                  "or announce it later")
# "I give m5 to Bob (if the transfer from Alice arrives)", "As Gamemaster (well, as soon as I am
# Gamemaster) I'll open Mackerel Poker": a condition said in brackets is a condition all the
# same (Rule 4E7), not a remark; a hedge of a word or two ("(if any)", "(if needed)") is none
_CONDITION_ASIDE = re.compile(r"(?:(?:well|but|and|only|that\s++is)\b[\s,]*+){0,2}+"
                              # (not a hedge on what is said: "if you ask me", "if I'm not mistaken")
                              r"(?!if\s++(?:you\s++ask\s++me|i\s++may|i(?:['’]m|\s++am)\s++(?:honest|not\s++mistaken)"
                              r"|anything|i\s++recall|memory\s++serves|you\s++will|i\s++remember)\b)"
                              r"(?:if|unless|provided|providing|assuming|as\s++soon\s++as"
                              r"|once(?=\s++(?:i|i['’]m|we|the|he|she|they|it|everyone|my)\b))"
                              r"\s++\S++\s++\S", re.I)
_ASKING = frozenset({"please", "pls", "plz", "kindly", "everyone", "everybody", "folks", "guys",
                     "people", "let's", "lets", "someone", "somebody", "anyone", "y'all", "all"})
_OTHERS = frozenset({"you", "your", "you're", "you'd", "you'll", "you've", "yourself", "everyone", "everybody", "y'all", "someone",
                     "somebody", "anyone", "us", "we", "let's"})
# verbs too common to say, alone, that an action was attempted ("I am.", "I do.")
_WEAK_VERBS = frozenset({"am", "i am", "be", "become", "feel", "make", "take", "get", "have", "set", "turn",
                         "do", "put", "go", "keep", "hold", "find", "say", "declare", "change", "enter"})
# an auxiliary that is a verb of an action too ("I do vote ...": emphatic)
_EMPHATIC = frozenset({"do"})
_QUESTION_WORDS = frozenset("""should shall can could may might would will do does did must am is are was
    were why how what when where who whether""".split())


@dataclass
class _Verbs:
    """Every frame's verbs and openers, indexed by their first word."""
    size: int = -1
    by_first: dict = field(default_factory=dict)
    openers: dict = field(default_factory=dict)
    bare: list = field(default_factory=list)
    bare_words: frozenset = frozenset()
    all_verbs: tuple = ()
    heads_by_length: dict = field(default_factory=dict)    # every verb's first word, by its length
    heads: frozenset = frozenset()      # every verb's first word as written (not its "-ing" form)
    # (example, the words each of its `needs` may be) of every frame whose needs name no kind of thing
    needing: tuple = ()


_VERBS = _Verbs()


def _progressive(word: str) -> tuple[str, ...]:
    """'vote' -> 'voting', 'give' -> 'giving', 'submit' -> 'submitting', 'pay' -> 'paying'."""
    if len(word) < 3 or not word.isalpha():
        return ()
    out = {word + "ing"}
    if word.endswith("e") and not word.endswith("ee"):
        out = {word[:-1] + "ing"}
    elif word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou":
        out.add(word + word[-1] + "ing")
    return tuple(sorted(out))


def _unprogressive(word: str) -> str | None:
    """'voting' -> 'vote', 'submitting' -> 'submit': the verb an "-ing" form is of, if any."""
    if not word.endswith("ing"):
        return None
    stem, heads = word[:-3], _verbs().heads
    return next((b for b in (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else "")
                 if b and b in heads), None)


_GERUND_PREDICATES = frozenset(words()["reader"]["gerund_predicates"])
_GERUND_STOPS = frozenset(words()["reader"]["gerund_stops"])


def _gerund_subject(clause: str) -> bool:
    """A clause that opens on a verb's "-ing" form and goes on to say something of that
    doing ("Causing the Beast to act is once per nweek"): it names the action, as a
    subject, and takes none (words.toml `gerund_predicates`)."""
    if "ing " not in clause[:24]:
        return False            # (no "-ing" word first: the common case, told cheaply)
    words_ = clause.split()
    if len(words_) < 3 or _unprogressive(words_[0].lower()) is None:
        return False
    for w in words_[1:]:
        bare = w.strip("\"'“”‘’()[].!?").lower()
        if bare in _GERUND_STOPS:
            return False
        if bare in _GERUND_PREDICATES:
            return True
        if w[-1:] in ",;:—–-(" or w[:1] in "-—–(":
            return False        # "Withdrawing my support -- Ais has convinced me": a remark after it
    return False


def _verbs() -> _Verbs:
    if _VERBS.size == len(ACTIONS):
        return _VERBS
    by_first, openers, bare, every = {}, {}, [], set()
    for spec in ACTIONS:
        for fr in spec.frames:
            for v in fr.verbs:
                by_first.setdefault(v[0], []).append((v, spec, fr))
                every.add(" ".join(v))
                for ing in _progressive(v[0]):      # "I am voting FOR 12"
                    by_first.setdefault(ing, []).append(((ing,) + v[1:], spec, fr))
            for o in fr.openers:
                openers.setdefault(o[0], []).append((o, spec, fr))
            if fr.bare:
                bare.append((spec, fr))
    for table in (by_first, openers):
        for k in table:
            table[k].sort(key=lambda x: len(x[0]), reverse=True)
    _VERBS.by_first, _VERBS.openers, _VERBS.bare = by_first, openers, bare
    _VERBS.bare_words = frozenset({w for spec, fr in bare for r in fr.roles for w in _role_words(r)}
                                  | {w for spec, fr in bare for need in fr.needs for w in need.split("|")})
    _VERBS.all_verbs = tuple(sorted(every))
    _VERBS.heads = frozenset(phrase.split()[0] for phrase in _VERBS.all_verbs)
    _VERBS.heads_by_length = {}
    for phrase in _VERBS.all_verbs:
        head = phrase.split()[0]
        if head not in _VERBS.heads_by_length.setdefault(len(head), []):
            _VERBS.heads_by_length[len(head)].append(head)
    _VERBS.needing = tuple((spec.example, tuple(tuple(need.split("|")) for need in fr.needs))
                           for spec in ACTIONS for fr in spec.frames
                           # (nor a Vote word: "I'll wait for his Reasoning" meant no vote)
                           if fr.needs and not any(alt in _KIND_WORDS or alt in _VOTE_WORDS_LOW
                                                   for need in fr.needs for alt in need.split("|")))
    _VERBS.size = len(ACTIONS)
    return _VERBS


_phrase_at = match_phrase


def _role_words(r) -> set[str]:
    """Words that can begin a bare frame's role: vote words, choices."""
    if r.type == "vote":
        return set(words()["votes"]["words"])
    return {phrase[0] for phrase, _ in r.choices}


def _vote_after(toks, i: int) -> bool:
    """A Vote word next, in capitals, after a comma or not ("Reluctantly, FOR 12"; not
    "Luckily for all of you ...")."""
    i += i < len(toks) and toks[i].low == ","
    return i < len(toks) and toks[i].has("vote") and toks[i].text.isupper()


def _candidates(toks) -> tuple[list, bool, int]:
    """The frames a clause may be: [(spec, frame, where its roles start, verb length)],
    whether it is an attempt in the first person, and where its verb stands."""
    v = _verbs()
    s = 0
    while s < len(toks) and (toks[s].low in _LEADS or toks[s].low in (",", ":", "-")
                             # "Obviously FOR on 11": how it is said, before a bare Vote
                             or _vote_after(toks, s + 1) and toks[s].low not in _HEDGES
                             and adverb(replace(toks[s], text=toks[s].low))):
        s += 1
    found: list = []
    first_person = False
    verb_at = s
    if s < len(toks) and toks[s].low == "i":
        first_person = True
        j = s + 1
        # "I, Bob, hereby give ...": the writer names themself
        if j + 2 < len(toks) and toks[j].low == "," and toks[j + 1].has("player") and toks[j + 2].low == ",":
            j += 3
        elif j + 2 < len(toks) and toks[j].low == "," and toks[j + 1].low in ("a", "an", "the", "as"):
            # "I, an External Force, request to become a Player": the writer says what e is
            close = next((k for k in range(j + 2, min(len(toks), j + 8)) if toks[k].low == ","), None)
            if close is not None:
                j = close + 1
        positions = [j]
        while j < len(toks):
            step = next((len(a) for a in _AUX.get(toks[j].low, ()) if _phrase_at(toks, j, a)), 0)
            if (not step and adverb(toks[j]) and toks[j].low not in _HEDGES and j + 1 < len(toks)
                    and toks[j + 1].first in v.by_first and toks[j].first not in v.by_first):
                step = 1        # "I obviously vote FOR 13": a word about the action before its verb
            if not step:
                break
            j += step
            positions.append(j)
        for p in positions:
            had = len(found)
            if p < len(toks):
                for phrase, spec, fr in v.by_first.get(toks[p].first, ()):
                    k = _phrase_at(toks, p, phrase)
                    if k:
                        found.append((spec, fr, p + k, len(phrase)))
            if found and not had:
                verb_at = p
            # ("I do vote AGAINST 16": "do" is a verb of its own too; the verb after it is tried as well)
            if found and not (p < len(toks) and toks[p].low in _EMPHATIC):
                break
        if not found:
            verb_at = positions[-1]
    # "Please convert four of my points": a request to the processor, in the first person
    # by its "my" (not "Please vote FOR 12" nor "Please give me m5", asked of others)
    # An imperative at the start of a sentence is the sender's own action ("Transfer 25
    # mackerel to Dana"), unless it is asked of others ("Please vote FOR 12", "Everyone,
    # give ...", "... you ..."); a request about the sender's own things ("Please convert
    # four of my points") is the sender's all the same.
    said = toks[:_why_at(toks, s)]      # (not "... for being patient with us": why, no one asked)
    if (not found and not first_person and s < len(toks)
            and (not (any(t.low in _ASKING for t in toks[:s]) or any(t.low in _OTHERS for t in said))   # asked
                 or any(t.low == "my" or "@" in t.low for t in toks[s:]))):    # (an address: the sender's own)
        mine = any(t.low == "my" for t in toks[s:]) or not (
            any(t.low in _ASKING for t in toks[:s]) or any(t.low in _OTHERS for t in said))
        for phrase, spec, fr in v.by_first.get(toks[s].first, ()):
            k = _phrase_at(toks, s, phrase)
            if k and (mine or any(r.type == "email" for r in fr.roles)):    # "Please add bob@... as an address"
                found.append((spec, fr, s + k, len(phrase)))
        if found:
            first_person, verb_at = True, s
    if s < len(toks) and (not found or not first_person or verb_at == s) and toks[s].low:
        for phrase, spec, fr in v.openers.get(toks[s].first, ()):
            k = _phrase_at(toks, s, phrase)
            if k:
                found.append((spec, fr, s + k, len(phrase)))
    if not found and not first_person and not (s < len(toks) and toks[s].text in _OBJECT_FIRST):
        # (a clause that begins with "me", in lower case, is the end of another's sentence:
        # "... nobody will indict" / "me for the other three.")
        voted, firsts = any(t.has("vote") for t in toks), {t.first for t in toks}
        found = [(spec, fr, s, 0) for spec, fr in v.bare if may_fill(fr, voted, firsts)]
    return found, first_person, verb_at


_OBJECT_FIRST = frozenset({"me", "him", "them", "us"})


def _why_at(toks, s: int) -> int:
    """Where a reason begins in a command or a doing said first ("Giving Alice m20 for being
    patient with us"): "because", "since", or "for" / "as" before no value (not "for 12")."""
    for j in range(s + 2, len(toks)):
        low = toks[j].low
        if low in ("because", "since", "cuz", "coz", "bc") or low in ("for", "as") and (
                j + 1 < len(toks) and not toks[j + 1].senses and not toks[j].text.isupper()):
            return j
    return len(toks)


def _score(fill, verb_len: int) -> int:
    return 10 * fill.filled + 4 * verb_len - 6 * fill.loose + (0 if verb_len else -2)


@dataclass
class _Clause:
    """What one clause is: readings (one per action it holds), or why not."""
    readings: list = field(default_factory=list)
    attempt: bool = False


_NEGATED_STATE = re.compile(r"\s*+i(?:\s++am|['’]m)\s++not\b", re.I)


def read_clause(text: str, vocab: Vocabulary | None = None) -> list["Reading"] | None:
    """One clause: its readings (an action, several with one verb, an incomplete or an
    ambiguous attempt, a near-miss), or None when it is conversation."""
    got = _read_clause(text, vocab)
    if got:
        kept = _UNREAD.get()
        if kept is not None:
            kept.append(None)       # (something was read: the post is not one that reads to nothing)
    return got


def _read_clause(text: str, vocab: Vocabulary | None = None) -> list["Reading"] | None:
    charge(40 * len(text) + 400)
    if _NEGATED_STATE.match(text):
        return None             # "I'm not ordained", "I am not Paranoid": what is so, no change of it
    if _gerund_subject(text):
        return None             # "Causing the Beast to act is once per nweek": the doing named
    raw = raw_tokens(text)
    if not _may_act(raw):
        return None
    toks = lex(text, vocab, raw)
    if not toks or toks[-1].low == "?":
        return None
    if _unknown_time(toks):
        at = next(i for i, t in enumerate(toks) if t.low == "i")
        got = read_clause(_span_text(text, toks[at:]), vocab)
        if got and got[0].kind == "action":
            return [Reading(text, suggestions=(got[0].spec.example,),
                            error="not done: bnomic knows no such time; Rule 4E7 lets an action "
                                  "be done later \"on nday N\", \"at the start of the next nweek\" "
                                  "\"on YYYY-MM-DD at HH:MM UTC\" or \"at HH:MM UTC [today|tomorrow]\"")]
        return None
    conditional = _without_condition(toks)
    if conditional is not None:
        got = read_clause(_span_text(text, conditional), vocab) if conditional else None
        if got and got[0].kind == "action":
            return [Reading(text, suggestions=(got[0].spec.example,), error=_NO_CONDITIONS)]
        return None
    toks = _fronted(_without_citations(toks))
    cands, first_person, verb_at = _candidates(toks)
    if not cands:
        if first_person and verb_at < len(toks):
            word = toks[verb_at].low
            near = _near_verbs(word, gaps=True) if word not in _TALK_WORDS else ()
            told = _misspelt_verb(text, word, near, vocab) if near else None
            if told is not None:
                return [told]
            near = _near_verbs(word) if near else ()
            if near:
                return [Reading(text, suggestions=near)]
            if word not in _TALK_WORDS and word.isalpha() and not word.endswith("ed"):
                # an unknown verb over the very words of an action ("I frobnicate the Active
                # property of Wooble"): answered with that action, never guessed
                meant = _meant(toks[verb_at + 1:])
                if meant:
                    return [Reading(text, suggestions=meant,
                                    error=f"not understood: bnomic knows no action “{word}” (Rule 4E7)")]
        return None
    if first_person and verb_at < len(toks) and toks[verb_at].low in _TALK_WORDS and not any(
            k for _, _, _, k in cands):
        return None

    open_world = not (vocab and vocab.players)
    # a frame whose own required words are absent is not this action at all (and, but for
    # an intent's clause, never reported as an attempt at it): not tried
    said = said_words(toks)
    cands = [c for c in cands if not c[1].needs or c[1].has_clause or has_needs(c[1], said)]
    charge(sum(len(fr.roles) for _, fr, _, _ in cands) * 8 * len(toks))
    # (a fill that leaves words unread is of use only as an attempt, with a verb, and with
    # one word unread at most; or, for a frame with a clause role, to _intended_plainly)
    # (words of proposals' Titles may be left unread for _by_title_words: "the clock fix")
    titled = _title_words_said(toks, vocab)
    fills = [(spec, fill(fr, toks, at, open_world, vocab,
                         None if fr.has_clause else (1 + (titled if "proposal" in fr.role_types else 0)) if k else 0), k,
              " ".join(t.low for t in toks[at - k:at]))
             for spec, fr, at, k in cands]
    for spec, f, k, _ in fills:
        said = _intended_plainly(f, vocab) if f.frame.has_clause else None
        if said is not None:
            return said(text, spec, f)
    fills = [x for x in fills if x[1].complete or _clauses_read(x[1], vocab)]
    conditional = False
    complete = [(_score(f, k), spec, f) for spec, f, k, _ in fills if f.complete
                and (k or f.filled and _known(f, vocab))]
    if complete:
        best = max(c[0] for c in complete)
        top = [(spec, f) for sc, spec, f in complete if sc == best]
        if len(top) > 1 and len({spec.name for spec, _ in top}) == 1:
            # "I set the Threat Flag to orange": the frame whose values are all the action's own
            # (a Flag, a Color) over the one that takes the words as written, of the same action
            typed = [(spec, f) for spec, f in top if not any(
                r.type == "text" and any(inst.get(r.name) for inst in f.instances) for r in f.frame.roles)]
            top = typed or top
        distinct = {}
        for spec, f in top:
            # (the same roles said in another order are one reading: "everything else: AGAINST")
            distinct.setdefault((spec.name, repr([sorted(a.items()) for a in f.args()])), (spec, f))
        if conditional:
            spec, f = top[0]
            return [Reading(text, suggestions=(spec.example,), error=_NO_CONDITIONS)]
        if len(distinct) > 1:
            described = tuple(s.describe(a) for s, f in distinct.values() for a in f.args())
            return [Reading(text, alternatives=described)]
        spec, f = top[0]
        if f.choices:                   # "Bob's proposal" when Bob wrote two: say both, do neither
            role, options = f.choices[0]
            base = f.args()[0]
            return [Reading(text, alternatives=tuple(spec.describe({**base, role: str(o)})
                                                     for o in options))]
        shortened = _shortened(text, f, spec, vocab)
        if shortened is not None:
            return [shortened]
        hints = did_you_mean(f.unknown, vocab)
        return [Reading(text, spec, a, f.times_for(k), read_as=spec.describe(a), hints=hints)
                for k, a in enumerate(f.args())]
    if not first_person and not any(k for _, _, k, _ in fills):
        return None
    # (an attempt named by its own word: only "I <verb> ...", said as done now, nothing else)
    said = said_words(toks) if verb_at == 1 and toks[0].low == "i" and not any(
        t.senses for t in toks if t.low not in ("i", "me", "my", "myself")) else set()
    partial = [(f.filled, -len(f.unaccounted), spec, f) for spec, f, k, verb in fills
               if k and not f.idiom and not conditional
               and (len(f.unaccounted) <= 1 or titled and "proposal" in f.frame.role_types
                    and _all_title_words(f.unaccounted, vocab)
                    or _names_itself(f, said) and len(f.unaccounted) <= _NAMED_UNREAD)
               and (f.filled or not f.unaccounted or _names_itself(f, said))
               and (f.filled or verb not in _WEAK_VERBS or any(t.low in f.frame.also for t in toks))
               # a word taken as a name, and a word left over, is talk ("I make Wooble happy")
               and not (f.unaccounted and f.loose >= f.filled and not (f.loose == 0 and _names_itself(f, said)))
               # a near-miss needs a role filled with something known or marked: "I remove
               # my hat" is no attempt to remove a Player called "hat" from a Ministry
               and (f.filled > f.guessed or not f.unaccounted and not f.guessed
                    or _names_itself(f, said) and not f.guessed)]
    if not partial:
        kept = _UNREAD.get()
        if first_person and kept is not None:
            kept.append((text, toks, cands, open_world, vocab))
        return None
    partial.sort(key=lambda p: (p[0], p[1]), reverse=True)
    _, _, spec, f = partial[0]
    return [_attempt(text, spec, f, vocab)]


_NAMED_UNREAD = 2
_NO_ATTEMPT_WITH = frozenset(words()["reader"]["no_attempt_with"])


def _names_itself(f, said: set[str]) -> bool:
    """An attempt that says its action's verb and the action's own word ("I pay part of my
    fine", "I submit a Consultation asking the obvious question"): an attempt at it, though no
    role is filled, told as such (Rule 4E7), never passed over. (`said` is empty where the
    clause holds any word the game knows, a number, an amount, a name: a fill that left those
    unread would tell the wrong role missing.)"""
    return bool(f.frame.needs) and has_needs(f.frame, said) and not any(
        w.lower() in _UNSURE_WORDS or w.lower() in _NO_ATTEMPT_WITH for w in f.unaccounted)


def _attempt(text: str, spec: ActionSpec, f, vocab: Vocabulary | None) -> Reading:
    """A frame filled in part, as a near-miss: the roles missing (or else the words not
    understood), the reading as far as it goes, and names that may be misspelt."""
    missing = tuple(f.missing(f.instances[0])) or ("(the words " + ", ".join(
        repr(w) for w in f.unaccounted) + ")",)
    args = f.args()[0]
    said = spec.describe(args) if args else spec.name.replace("_", " ")
    hints = did_you_mean(f.unknown + [w for w in f.unaccounted if w[:1].isupper()], vocab)
    return Reading(text, spec, args, f.times, missing=missing, read_as=said,
                   suggestions=(spec.example,), unread=tuple(f.unaccounted), hints=hints)


def _unread_attempt(text: str, toks, cands, open_world: bool, vocab: Vocabulary | None) -> "Reading | None":
    """A clause with an action's verb, said by "I" or as a command, and a role filled with
    what the game knows (a number, an amount, a Player, a Ministry: never a word merely
    taken as written), with a few words left over (words.toml `loose_attempt_unread`):
    "I give Ais523 the m10 I owe her". Too loose to report beside what a post does, it is
    told only when no clause of the post reads to anything (_said_unread): not understood
    (Rule 4E7), never passed over in silence. Not when the clause says a condition or a
    denial, when the words left over hold a second "I" (another clause), when the word
    after the verb is one left over (the verb has another object), or when what fills the
    role owns the next word ("the Chairman's ruling")."""
    if any(t.low in _UNSURE_WORDS for t in toks):
        return None
    best = None
    for spec, fr, at, k in cands:
        verb = " ".join(t.low for t in toks[at - k:at])
        said_by = [t.low for t in toks[:at - k] if t.low not in (",", ":", "-")]
        if not k or verb in _WEAK_VERBS or said_by and "i" not in said_by:
            continue
        charge(len(fr.roles) * 8 * len(toks))
        f = fill(fr, toks, at, open_world, vocab)
        known = _known_roles(f)
        # (the verb's first word after it left unread: the verb has another object, "I
        # resign myself to ...", "I remove my objection to ...")
        first = next((t for t in toks[at:] if t.low not in FILLERS), None)
        if (f.idiom or not f.unaccounted or len(f.unaccounted) > _LOOSE_UNREAD or known <= f.loose
                or first is None or first.text in f.unaccounted
                or any(w.lower() in _SECOND_SUBJECTS for w in f.unaccounted)
                or any(_owner(t) and i + 1 < len(toks) and toks[i + 1].text in f.unaccounted
                       for i, t in enumerate(toks))):
            continue
        if best is None or (known, -len(f.unaccounted)) > best[0]:
            best = (known, -len(f.unaccounted)), spec, f
    if best is None:
        return None
    _, spec, f = best
    return _attempt(text, spec, f, vocab)


# Rule 4E15: "The Vote must be one of the words FOR, AGAINST, ABSTAIN, or SHELVE; other words
# are ignored". A post that reads to nothing, with a sentence that holds one such word, in
# capitals, beside the proposals it is on ("Let it be recorded that Proposal 11 is hereby
# voted AGAINST by me"), casts that Vote; never where the sentence says it otherwise than
# as done (a condition, a denial, a hedge, a plan, another voter, a question), words.toml
# [votes] `not_cast_with`.
_VOTE_WORD = re.compile(r"(?<![\w'’-])(?:FOR|AGAINST|ABSTAIN|SHELVE)(?![\w'’-])")
_NOT_CAST_WITH = frozenset(words()["votes"]["not_cast_with"])
_PAST_BY_HEREBY = frozenset({"voted", "was", "were"})
_REF_JOINS = frozenset({",", "and", "&", "through", "thru", "to", "-", "–", "proposal", "proposals", "on",
                        "props", "prop", "p"})


def _vote_word_refs(toks, vocab: Vocabulary | None) -> str | None:
    """The span of the sentence naming the proposals of its Vote ("Proposal 11", "10 through
    13", "12, 14"): one run of references, or "" if it names none, or None if it names them
    in two places or names a number no proposal has."""
    known = vocab.proposals if vocab is not None else {}
    at = [i for i, t in enumerate(toks)
          if t.has("ref") and t.sense("ref")[0] in ("proposal", None)
          or t.has("num") and not t.has("ref") and t.text.isdigit()]
    if not at:
        return ""
    if any(t.has("money") for t in toks):
        return None
    for i in at:
        n = toks[i].sense("ref")[1] if toks[i].has("ref") else toks[i].sense("num")
        if known and n not in known:
            return None
    if any(toks[j].low not in _REF_JOINS and j not in at for j in range(at[0], at[-1] + 1)):
        return None
    return " ".join(toks[j].text for j in range(at[0], at[-1] + 1))


def _vote_words_alone(readings: list, post: str, vocab: Vocabulary | None, quoted: str) -> None:
    if readings or "FOR" not in post and "AGAINST" not in post and "ABSTAIN" not in post and "SHELVE" not in post:
        return
    kept = _UNREAD.get()
    mark = len(kept) if kept is not None else 0
    got: list[Reading] = []
    for paragraph in _OWN_PARAGRAPHS.split(post):
        # (an indented line is shown, not said: an example, a display)
        said_ = " ".join(line.strip() for line in paragraph.splitlines() if line[:1] not in (" ", "\t", ">"))
        for sentence in sentences(said_) if _VOTE_WORD.search(said_) else ():
            got.extend(_vote_said_alone(sentence, vocab, quoted))
    if kept is not None:
        del kept[mark:]             # (what was tried here is no part of the post's own reading)
    if got:
        _vote_on_the_quoted(got, vocab, quoted)
        readings.extend(r for r in got if r.kind == "action")


_OWN_PARAGRAPHS = re.compile(r"\n[ \t]*+\n")


def _vote_said_alone(sentence: str, vocab: Vocabulary | None, quoted: str, part: bool = False) -> list[Reading]:
    """One sentence's Vote word, alone (_vote_words_alone): the Vote, read as "I vote W on
    its proposals" would be, or none. (`part`: a part of a sentence of several Vote words.)"""
    found = list(_VOTE_WORD.finditer(sentence))
    if not found or sentence.isupper() and not part:
        return []
    low = [w.lower() for w in _UNREAD_WORD.findall(sentence)]
    if any((w in _NOT_CAST_WITH and not ("hereby" in low and w in _PAST_BY_HEREBY))
           or w.endswith(("n't", "n’t")) for w in low):
        return []           # ("Proposal 11 is hereby voted AGAINST by me": done by saying so)
    if len({m.group() for m in found}) > 1:
        # "Ich stimme FOR 10 und AGAINST 16": each Vote word with what follows it, up to the
        # next (the words before the first go with it); every part must be one Vote
        cuts = [0] + [m.start() for m in found[1:]] + [len(sentence)]
        parts = [_vote_said_alone(sentence[a:b], vocab, quoted, part=True) for a, b in zip(cuts, cuts[1:])]
        if all(len(p) == 1 and p[0].kind == "action" for p in parts):
            return [r for p in parts for r in p]
        return []
    before = [w.lower() for m in found for w in _UNREAD_WORD.findall(sentence[max(0, m.start() - 20):m.start()])[-1:]]
    if any(w in _VOTE_WORD_OWNED for w in before):
        return []           # "I vote FOR" is the frames' to read; "a SHELVE", "your FOR" a Vote spoken of
    toks = lex(sentence, vocab)
    if vocab is not None and any(t.has("player") and t.sense("player") != vocab.actor
                                 and t.low not in ("me", "my", "i", "myself") for t in toks):
        return []           # another Player's Vote, or one said to them
    refs = _vote_word_refs(toks, vocab)
    if refs is None or not refs and (vocab is None or len({n for n in map(int, _QUOTED_NUMBER.findall(quoted))
                                                            if n in vocab.proposals}) > 1):
        return []
    said = read_clause(f"I vote {found[0].group()}" + (f" on {refs}" if refs else ""), vocab) or []
    for r in said:
        r.text = sentence
    return [r for r in said if r.kind in ("action", "incomplete") and r.spec is not None and r.spec.name == "vote"]


_QUOTED_NUMBER = re.compile(r"(?<![\w.])\d{1,4}+(?![\w.])")
_VOTE_WORD_OWNED = frozenset(words()["votes"]["not_cast_after"])


_UNREAD_WORD = re.compile(r"[\w’']++")
_UNREAD_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n[ \t]*+\n")


def _sentence_around(post: str, clause: str) -> str | None:
    """The sentence of the post that holds the clause (None if the post does not hold
    it as written)."""
    at = post.find(clause)
    if at < 0:
        return None
    ends = [m.end() for m in _UNREAD_SENTENCE_END.finditer(post, 0, at)]
    after = _UNREAD_SENTENCE_END.search(post, at + len(clause))
    return post[ends[-1] if ends else 0:after.start() if after else len(post)]


def _owner(t) -> bool:
    return t.low.endswith(("'s", "’s")) or t.low in ("'s", "’s")


# words that leave an attempt unsaid: a condition (Rule 4E7 knows none) or a denial
_UNSURE_WORDS = _CONDITION_WORDS | frozenset(words()["reader"]["negations"])
_SECOND_SUBJECTS = frozenset({"i", "we"})
_LOOSE_UNREAD = words()["reader"]["loose_attempt_unread"]


def _known_roles(f) -> int:
    """How many of a fill's roles hold a thing of the game's (not a Choice, not text)."""
    return sum(1 for r in f.frame.roles if r.type not in ("choice", "vote", "text", "clause")
               and f.instances[0].get(r.name))


def _said_unread(readings: list, kept: list, post: str) -> None:
    """A post in which no clause read to anything: its loose attempts (_unread_attempt),
    each clause once and a clause inside another's text dropped, as near-misses; never
    one in a sentence of the post that says a condition or a denial ("So if only Bob and
    I vote on 15 it gets Discarded", "I intend to usurp ... if Bob still hasn't ...")."""
    if readings or not kept or None in kept:
        return
    seen: dict = {}
    for text, toks, cands, open_world, vocab in kept:
        if text not in seen:
            sentence = _sentence_around(post, text)
            seen[text] = None if sentence is None or any(
                w.lower() in _UNSURE_WORDS for w in _UNREAD_WORD.findall(sentence)) else \
                _unread_attempt(text, toks, cands, open_world, vocab)
    texts = [t for t, r in seen.items() if r is not None]
    readings.extend(seen[t] for t in texts if not any(t != o and t in o for o in texts))


def _paired_in_order(args: list[dict]) -> list[dict] | None:
    """Two lists of one length, one for each of two roles, said in order: "I take the Judge
    and the Rulekeeper at m40 and m60 (respectively)" fills the first role k times, then
    the second k times beside the first's last value: read in pairs, the Judge at m40 and
    the Rulekeeper at m60 (Rule 4E7: each target with its own parameter). None if the
    readings are not so."""
    n = len(args)
    if n < 3 or n % 2 == 0:
        return None
    k = (n + 1) // 2
    first, rest = args[:k - 1], args[k - 1:]
    added = set(rest[0]) - set(first[0])
    if len(added) != 1 or any(set(a) != set(first[0]) for a in first) or any(set(a) != set(rest[0]) for a in rest):
        return None
    (b,) = added
    listed = [r for r in first[0] if len({str(x[r]) for x in first + rest[:1]}) == k
              and len({str(x[r]) for x in rest}) == 1]
    if len(listed) != 1 or len({str(x[b]) for x in rest}) != k or any(
            str(x[r]) != str(args[0][r]) for x in args for r in first[0] if r != listed[0]):
        return None
    return [{**x, b: y[b]} for x, y in zip(first + rest[:1], rest)]


def _paired_lists(readings: list[Reading]) -> None:
    """The actions of one clause with two lists said in order (_paired_in_order), in pairs."""
    i = 0
    while i < len(readings):
        r = readings[i]
        j = i
        while (j + 1 < len(readings) and readings[j + 1].text == r.text and readings[j + 1].spec is r.spec
               and readings[j + 1].kind == "action" == r.kind and readings[j + 1].times == r.times):
            j += 1
        paired = _paired_in_order([x.args for x in readings[i:j + 1]]) if j > i and r.spec is not None else None
        if paired is not None:
            readings[i:j + 1] = [replace(r, args=a, read_as=r.spec.describe(a)) for a in paired]
            j = i + len(paired) - 1
        i = j + 1


def _shortened(text: str, f, spec: ActionSpec, vocab: Vocabulary | None) -> "Reading | None":
    """"I give m10 to B.": a name no Player has that begins two Players' names (a word of
    each: "B" is Bob and the Beast) is ambiguous (Rule 4E7), and the receipt names both."""
    if vocab is None or not vocab.players or not f.unknown:
        return None
    for name in f.unknown:
        said = name.lower().strip(".")
        if not said.isalpha():
            continue
        could = [p for p in vocab.players if any(w.startswith(said) for w in p.lower().split())]
        if len(could) < 2:
            continue
        base = f.args()[0]
        role = next((r for r, v in base.items() if str(v) == name), None)
        if role is None:
            continue
        return Reading(text, alternatives=tuple(spec.describe({**base, role: p}) for p in could))
    return None


def _intended_plainly(f, vocab: Vocabulary | None):
    """Rules 4E21, 4E22 ask a player to announce the intention to perform an action; the
    action's own rule says how it is done. An intent that does not say "without objection"
    ("I intend to cause the Beast to give m30 to me") is announced with its rule's way
    (4E71: without objection). Returns how to read the clause, or None to read it as usual:
    - an action that needs an intent: the intent, with its rule's way said;
    - one that needs none ("I intend to give the Beast m10"): a plan or an action? asked;
    - one said only in part ("to retitle Rule 4E84"): the intent, missing what the action misses."""
    if not f.frame.has_clause:
        return None
    cl = next((r for r in f.frame.roles if r.type == "clause"), None)
    if cl is None or len(f.instances) != 1 or not f.instances[0].get(cl.name):
        return None
    said = str(f.instances[0][cl.name][0])
    unsaid = [u for u in f.unaccounted if u.endswith("not said)")]
    m = INTENT_METHOD.match(said)
    inner = read_clause("I " + (m.group("action") if m else said), vocab)
    if not inner or len(inner) != 1 or inner[0].spec is None:
        return None
    got = inner[0]
    if got.kind == "incomplete" and not (unsaid and not got.spec.needs_intent):
        missing = tuple(got.missing)

        def incomplete(text, spec, f):
            args = f.args()[0]
            return [Reading(text, spec, args, missing=missing, read_as=spec.describe(args),
                            suggestions=(got.spec.example,), unread=got.unread, hints=got.hints)]
        return incomplete
    if not f.frame.needs or not unsaid or got.kind != "action" or len(f.unaccounted) != len(unsaid):
        return None
    if got.spec.needs_intent:
        f.instances[0][cl.name] = [f"{said} {got.spec.method}"]
        f.unaccounted = []
        return None

    def plan(text, spec, f):
        return [Reading(text, alternatives=(f"{got.read_as} now", "nothing: a plan, not an action"))]
    return plan


def _known(f, vocab: Vocabulary | None) -> bool:
    """Roles standing alone, with no verb ("12 FOR"), are an action only when the proposals
    they name are in the game: "12: 3 FOR, 1 AGAINST" is a count of votes, not votes."""
    if vocab is None:
        return True
    for inst in f.instances:
        for r in f.frame.roles:
            # ("3 > 2 > 1" is a Ballot only where those Refresh Proposals are: Rule 4E0)
            known = vocab.proposals if r.type == "proposal" else vocab.refresh if r.type == "refresh" else None
            if known is None or r.type == "proposal" and not known:
                continue
            if any(isinstance(v, int) and v not in known for v in inst.get(r.name, ())):
                return False
    return True


def did_you_mean(names: list[str], vocab: Vocabulary | None) -> tuple[str, ...]:
    """'did you mean Wooble?' for names not in the game: rapidfuzz finds the nearest
    Player's name, as a suggestion only (a name is never resolved this way)."""
    if not names or vocab is None or not vocab.players:
        return ()
    from rapidfuzz import fuzz, process
    out = []
    for name in names:
        got = process.extractOne(name, vocab.players, scorer=fuzz.WRatio, score_cutoff=75)
        if got and got[0] != name:
            out.append(f"{name} → {got[0]}")
    return tuple(out)


_NOW = frozenset({"today", "now", "so", "and", ",", "right", "here", "anyway"})
_TIME_WORDS = frozenset("""tomorrow tonight today start beginning
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december noon midnight morning evening afternoon week weekend
    month year nday nweek rday o'clock am pm utc days hours minutes weeks""".split())


# a number that says a time or a day by itself ("18:00", "3rd"; "25" only beside "November"),
# not a count ("+1, I support")
_CLOCKISH = re.compile(r"\d:\d\d|\d(?:st|nd|rd|th|am|pm)\b")


def _unknown_time(toks) -> bool:
    """Words of time before "I" that split_when did not take ("Tomorrow, I give ...",
    "On September 3rd at noon UTC, I ..."): the action is for a time bnomic cannot keep."""
    at = next((i for i, t in enumerate(toks[:12]) if t.low == "i"), None)
    if not at:
        return False
    lead = toks[:at]
    if len(lead) == 2 and lead[0].low in ("on", "for") and lead[1].has("num"):
        return False            # "On 11 I vote FOR": a proposal, not a day
    if all(t.low in _NOW for t in lead):
        return False            # "Today I give him m10": now, as said in the present
    return (not any(s[0] != "num" for t in lead for s in t.senses)
            and (any(t.low in _TIME_WORDS or t.low.endswith("day") and len(t.low) > len("day") for t in lead)
                 or _CLOCKISH.search("".join(t.low for t in lead)))
            and lead[0].low not in _CONDITION_WORDS)


_WHY = frozenset(w for w in words()["reader"]["reasons"] if " " not in w)


def _without_condition(toks) -> list | None:
    """A clause with a condition ("I give m5 to A if he asks", "If A objects, I forfeit"):
    the tokens of what would be done (perhaps none); None when there is no condition."""
    at = next((i for i, t in enumerate(toks) if t.low in _CONDITION_WORDS
               and (t.low != "once" or 0 < i < len(toks) - 1 and toks[i + 1].low in ("i", "we", "the", "he",
                                                                                    "she", "they", "everyone"))
               or t.low == "as" and _phrase_at(toks, i, ("as", "soon", "as"))),      # "..., as soon as"
              None)
    if at is None:
        return None
    if any(toks[i].low == "," and toks[i + 1].low in _WHY and not toks[i + 1].text.isupper()
           for i in range(1, at - 1)):
        return None             # "..., for reasons I'll explain when I'm not on my phone": why, not if
    if at == 0:
        cut = next((i for i, t in enumerate(toks) if t.low in (",", "then")), None)
        if cut is None:         # "When the Clock turns On I give m5 to Dana"
            cut = next((i - 1 for i, t in enumerate(toks) if t.low == "i" and i > 1), None)
        return toks[cut + 1:] if cut is not None else []
    return toks[:at]


def _span_text(text: str, toks) -> str:
    return text[toks[0].start:toks[-1].end] if toks else ""


_CITE = frozenset({"per", "under", "pursuant", "according", "see", "by", "following", "as", "in",
                   "accordance", "with", "to", "of", "rule"})


def _without_citations(toks):
    """"Per Rule 4E46, I assign ...", "(Rule 4E46)": a citation of the rule acted under
    is not a part of the action (a rule the action is about has no citing word)."""
    out = list(toks)
    for i in range(len(out) - 1, -1, -1):
        if i >= len(out):
            continue
        t = out[i]
        if not (t.has("ref") and (t.sense("ref")[0] == "rule")):
            continue
        j = i
        while j > 0 and out[j - 1].low in _CITE and out[j - 1].low != "rule":
            j -= 1
        bracketed = j > 0 and out[j - 1].low in ("(", "[") and i + 1 < len(out) and out[i + 1].low in (")", "]")
        if bracketed:
            del out[j - 1:i + 2]
        elif j < i and out[j].low in ("per", "under", "pursuant", "according", "see", "following"):
            del out[j:i + 1]
            if j < len(out) and out[j].low == ",":
                del out[j]
    # "... and I give m2 to the Beast under it" / "under the Contract": the Contract acted
    # under (Rule 4E70), said after a complete action, is no part of it
    k = len(out)
    if k >= 3 and out[k - 2].low in ("under", "per") and out[k - 1].low == "it":
        del out[k - 2:]
    elif (k >= 4 and out[k - 3].low in ("under", "per") and out[k - 2].low in _CONTRACT_DETERMINERS
          and out[k - 1].low in ("contract", "agreement", "pact", "terms")):
        del out[k - 3:]
    return out


_CONTRACT_DETERMINERS = frozenset({"the", "this", "that", "our", "my", "its", "their"})


_VOTE_WORDS_LOW = frozenset(w.lower() for w in words()["votes"]["words"])
# a circumstance said first, with its own "I", closed by a comma before the action's "I"
_OPENING_CIRCUMSTANCE = frozenset({"while", "whilst", "since", "now", "seeing", "as", "although", "though"})
_LONG_CIRCUMSTANCE = frozenset({"having", "following", "seeing", "given", "since"})


_BEHALF = (("on", "behalf", "of"), ("for", "and", "on", "behalf", "of"))
# words after which "I <verb>" is a clause of the sentence's, not an action said
_SUBORDINATE = frozenset({"until", "till", "before", "after", "because", "unless", "although", "though",
                          "whenever"})
# of those, the ones that say no condition: a clause of them said first is a circumstance
_SAID_FIRST = frozenset({"before", "because", "since", "although", "though", "while", "whilst"})


_NUMBERS_JOINED = frozenset({",", "and", "&"})
# what a Player acts as, of a thing: "As Priest of Consultation 5", "As Juror on Indictment 2"
_CAPACITIES = frozenset(words()["reader"]["capacities"])
_OR_RIGHT_WORDS = len("to the Ministry of Change".split())
# a public display named with the time it was published: "the Registrar's report of nweek 7"
_DISPLAY_DATED = re.compile(r"\b(?P<what>report|display)\s++(?:of|for|from|on|published\s++on)\s++"
                            r"(?:nweek|nday)\s++\d{1,4}+\b", re.I)
_HEDGES = frozenset(words()["reader"]["hedges"])
_RELATIVE_SPAN = len("which I wrote myself last nweek with Bob's help , I".split()) + 2


def _fronted(toks):
    """A role written before "I <verb>" ("To Wooble, I give m5"): moved after the verb,
    so the frame reads it as any other role."""
    if (len(toks) > 3 and toks[0].has("player") and toks[1].low == ","
            and any(t.low == "i" for t in toks[2:14])):
        # "Chuck, as Priest of Consultation 5 I request ...": the one addressed, who is "you" after
        addressed = toks[0].sense("player")
        toks = [replace(t, senses=[("player", addressed)]) if t.low == "you" and not t.senses else t
                for t in toks[2:]]
    if not toks or toks[0].low == "i" or toks[0].low in _LEADS:
        return toks
    if toks[0].low in _OPENING_CIRCUMSTANCE:     # "While I'm here, I support Intent 4": after its comma
        k = next((j for j in range(2, min(len(toks), 24)) if toks[j].low == "i" and toks[j - 1].low == ","), None)
        if k is not None:
            return toks[k:]
    at = next((i for i, t in enumerate(toks[:10]) if t.low == "i"), None)
    if (at is not None and toks[0].low in _verbs().heads and not any(t.low == "," for t in toks[:at])
            and toks[0].low not in _VOTE_WORDS_LOW):
        return toks             # "Add bob@example.org as an address I post from": an imperative
    if at is None and toks[0].low in _LONG_CIRCUMSTANCE:
        # "Having announced it without objection three ndays ago and heard none, I ...":
        # a long circumstance, closed by a comma before "I"
        at = next((i for i in range(10, min(len(toks), 32)) if toks[i].low == "i"
                   and toks[i - 1].low == ","), None)
        return toks[at:] if at is not None else toks
    if at is None:
        # "Long story short, after reading all of that thread twice, I vote ...": asides
        # before the comma that closes them, longer than the first ten words
        at = next((i for i in range(10, min(len(toks), 32)) if toks[i].low == "i" and toks[i - 1].low == ","
                   and not any(t.low in _CONDITION_WORDS or t.low == "?" for t in toks[:i])), None)
    if at is None or at == 0:
        return toks
    if any(_phrase_at(toks, 0, p) for p in _BEHALF):
        return toks[at:]        # "On behalf of the Blue Corporation, I ...": whose action (4E79)
    if toks[at - 1].low == "," and any(t.low == "having" for t in toks[1:min(at, 4)]):
        return toks[at:]        # "Wooble having been found Guilty on Indictment 2, I ...": a circumstance
    if toks[at - 1].low in _SAID_FIRST and (
            all(t.low in _LEADS or t.low in _NUMBERS_JOINED for t in toks[:at - 1])
            or at > 2 and toks[at - 2].low in (",", "and") and not any(t.low in _CONDITION_WORDS for t in toks[:at])):
        # "Oh, and before I forget, I vote FOR 11", "..., and since I owe him for that, I give
        # Chuck m12": a clause of its own said first, closed by a comma before the action's "I"
        k = next((j for j in range(at + 2, min(len(toks), at + 24)) if toks[j].low == "i"
                  and toks[j - 1].low == ","), None)
        if k is not None:
            return toks[k:]
    if toks[at - 1].low in _SUBORDINATE:
        return toks             # "Voting hasn't opened until I publish the Ballot": no action of mine
    rel = next((k for k in range(1, min(at + 1, len(toks))) if toks[k].low in RELATIVES and toks[k - 1].low == ","), None)
    if rel is not None:
        # "On Proposal 13 (Beast Diet), which I wrote, I vote FOR": a relative clause between
        # the role and its "I", closed by a comma: left out
        later = next((k for k in range(rel + 1, min(len(toks), rel + _RELATIVE_SPAN)) if toks[k].low == "i"
                      and toks[k - 1].low == ","), None)
        if later is not None:
            toks = toks[:rel - 1] + toks[later - 1:]
            at = rel
    if toks[at - 1].low in RELATIVES or toks[at - 1].low == "where":
        return toks             # "ABSTAIN on all except 11, which I vote FOR": the "I" of a relative clause
    resumed = _resumed(toks, at)
    if resumed is not None:
        return resumed          # "On Proposal 12, I vote AGAINST it"
    if not any(s[0] != "num" for t in toks[:at] for s in t.senses) and not (
            toks[0].low in ("on", "for") and any(t.has("num") for t in toks[1:at])
            and all(t.has("num") or t.low in _NUMBERS_JOINED for t in toks[1:at])):   # "On 11 I vote FOR", "On 12 and 14, I ..."
        # "Having slept on it, I change my vote": a circumstance, not a part of the action
        # (a condition, "if ...", is read as one before this; a time bnomic does not know,
        # "Tomorrow, I ...", is no circumstance: see _untimed)
        return toks[at:] if toks[0].low not in _CONDITION_WORDS | _QUESTION_WORDS else toks
    v = _verbs()
    j = at + 1
    while j < len(toks):
        step = next((len(a) for a in _AUX.get(toks[j].low, ()) if _phrase_at(toks, j, a)), 0)
        if not step and adverb(toks[j]) and toks[j].low not in _HEDGES and toks[j].first not in v.by_first:
            step = 1            # "On Proposal 13, I obviously vote FOR" (not "I tally ...": a verb)
        if not step:
            break
        j += step
    verb = next((k for phrase, _, _ in v.by_first.get(toks[j].low.split()[0], ()) if j < len(toks)
                 for k in [_phrase_at(toks, j, phrase)] if k), 0) if j < len(toks) else 0
    if not verb and j > at + 1 and j < len(toks) and toks[j].has("vote") and toks[j - 1].low in ("am", "'m", "’m"):
        front = [t for t in toks[:at] if t.low != ","]
        if front[0].low in ("on", "for") and any(t.has("num") or t.has("ref") for t in front):
            # "For the 15 I am ABSTAIN", "On 15 I'm FOR": the Vote said as what I am (Rule 4E15)
            front[0] = replace(front[0], senses=[])
            return toks[at:j + 1] + front + toks[j + 1:]
    if not verb:
        return toks
    front = [t for t in toks[:at] if t.low != ","]
    if len(front) == 2 and front[0].low == "as" and front[1].has("ministry"):
        return toks[at:]        # "As MoM I turn the Clock On": the capacity acted in
    if (len(front) >= 4 and front[0].low == "as" and front[1].low in _CAPACITIES and front[2].low == "of"
            and all(t.senses for t in front[3:]) and not any(t.low in ("it", "this") for t in toks[at:])):
        # "As Priest of Consultation 5 I answer YES": the capacity, and the thing it is of, which
        # the action is on (unless "it" names it after the verb: "... I request that you ZOT it")
        return toks[at:] + [replace(front[2], text="on", low="on", senses=[])] + front[3:]
    markers = {w for phrase, _, fr in v.by_first.get(toks[j].low.split()[0], ())
               if _phrase_at(toks, j, phrase) for w in fr.marker_words}
    if front and not front[0].senses and front[0].low not in markers and toks[0].low not in _CONDITION_WORDS:
        return toks[at:]        # "Following Bob's message, I give m15 to Bob": a circumstance
    if (front and front[0].low == "for" and not front[0].text.isupper()
            and len(front) > 1 and not any(t.senses for t in front[1:])):
        return toks[at:]        # "For the avoidance of doubt, I ZOT ...": why, with no role in it
    if (len(front) > 1 and front[0].low == "to" and front[1].low.isalpha() and not front[1].senses
            and not any(t.senses for t in front if t.low not in ("you", "him", "her", "them", "everyone"))):
        return toks[at:]        # "To discourage you I revise ...": a purpose, no role
    if front and front[0].low == "for" and not front[0].text.isupper():
        # "For proposal 16 I vote AGAINST": a fronted "for" is the preposition, not the vote
        front[0] = replace(front[0], senses=[])
    return toks[at:j + verb] + front + toks[j + verb:]


# words before a thing named first ("As for Proposal 12, ...", "Regarding Intent 4, ...")
_ABOUT = frozenset({"for", "on", "as", "re", "re:", "regarding", "about", "concerning", "with"})
_ASIDE_MARKS = frozenset({",", ";", "(", "-", "–", "—", "since", "because", "as", "though", "although"})


def _resumed(toks, at: int):
    """"On Proposal 12, I am AGAINST it": a thing named first (a comma after it or not), and then
    "it" in the clause of "I": the thing is what "it" stands for (Rule 4E7: an unambiguous
    target, in any order). The clause with the thing in place of "it", or None."""
    comma = at >= 2 and toks[at - 1].low == ","
    if at < 1:
        return None
    k = 0
    while k < at - 1 and toks[k].low in _ABOUT:
        k += 1
    # ("proposal 16 I am AGAINST it": the comma left out)
    if k != at - 1 - comma or not toks[k].has("ref") and not toks[k].has("num"):
        return None
    # ("it" in the clause of "I" itself, not in a remark after it: "On 12 I vote ABSTAIN,
    # since I wrote half of it")
    end = next((j for j in range(at + 1, len(toks)) if toks[j].low in _ASIDE_MARKS), len(toks))
    it = next((j for j in range(at + 1, end) if toks[j].low == "it"), None)
    if it is None:
        return None
    return toks[at:it] + [toks[k]] + toks[it + 1:]


def _may_act(raw) -> bool:
    """A quick look before the lexer: a clause can be an action only if it has "I",
    an opener ("my vote"), or a word a bare frame starts with (a vote word)."""
    v = _verbs()
    for t in raw[:12]:
        if t.low == "i" or t.low in v.openers or t.low in ("please", "kindly"):
            return True
    first = next((t.low for t in raw[:6] if t.low not in _LEADS and t.low not in (",", ":", "-")), "")
    if first in v.by_first:             # an imperative: "Transfer 25 mackerel to Dana"
        return True
    return any(t.low in v.bare_words for t in raw)


def _clauses_read(f, vocab) -> bool:
    """A `clause` role holds an action ("I intend to give m5 to Wooble without
    objection"). A frame filled only in part is an attempt worth reporting only when
    the clause's words, a trailing "with ..."/"without ..." cut, read as an attempt at
    one: "I plan to be away next week" holds none, it is talk."""
    for r in f.frame.roles:
        if r.type != "clause":
            continue
        for inst in f.instances:
            for v in inst.get(r.name) or ():
                m = _INTENDED.match(str(v))
                said = m.group("action") if m else str(v)
                if not read_clause(normalise("I " + said), vocab):
                    return False
    return True


_KIND_WORDS = frozenset(w for key, kind in words()["references"].items() if key != "ordinals"
                        for phrase in kind for w in phrase.split())


def _meant(toks) -> tuple[str, ...]:
    """The actions whose own required words (`needs`) a clause says, beside a name or
    number the action takes: what an unknown verb was probably meant to do."""
    words = {w for t in toks for w in t.low.split()}
    out = [example for example, needs in _verbs().needing
           if all(any(alt in words for alt in alts) for alts in needs)]
    return tuple(dict.fromkeys(out))[:2]


def _near_verbs(word: str, gaps: bool = False) -> tuple[str, ...]:
    """'giev' for 'give': a verb of some action, two letters swapped or one changed; with
    `gaps`, also one left out or one added ('objet' for 'object', 'suport' for 'support',
    'giv' for 'give': of three letters, only one left out)."""
    if len(word) < 4:
        return tuple(sorted(_heads_shortened().get(word, ())))[:3] if gaps and len(word) == 3 and word.isalpha() else ()
    out = []
    heads = _verbs().heads_by_length
    for head in heads.get(len(word), ()):
        if head != word:
            diff = [i for i, (a, b) in enumerate(zip(word, head)) if a != b]
            if len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and word[diff[0]] == head[diff[1]]
                                  and word[diff[1]] == head[diff[0]]):
                out.append(head)
    if not gaps:
        return tuple(sorted(set(out)))[:3]
    shortened = _heads_shortened()
    out += shortened.get(word, ())                  # a letter left out
    for i in range(len(word)):                      # a letter added (not a past: "reinforced")
        head = word[:i] + word[i + 1:]
        if len(head) >= 4 and head in shortened[""] and word != head + "d":
            out.append(head)
    return tuple(sorted(set(out)))[:3]


_SHORTENED: dict = {}


def _heads_shortened() -> dict:
    """Every verb's first word with one letter left out -> those words; under "" the set
    of the words themselves. Made again when the actions registered change."""
    v = _verbs()
    if _SHORTENED.get(None) != v.size:
        _SHORTENED.clear()
        heads = {h for hs in v.heads_by_length.values() for h in hs}
        table: dict = {"": heads}
        for h in heads:
            for i in range(len(h)):
                table.setdefault(h[:i] + h[i + 1:], set()).add(h)
        _SHORTENED.update(table)
        _SHORTENED[None] = v.size
    return _SHORTENED


def _misspelt_verb(text: str, word: str, near: tuple[str, ...], vocab: Vocabulary | None) -> "Reading | None":
    """"I objet to Intent 3": with one of the verbs it is near, the clause reads as a
    whole action ("I'll spend it wisely" is no "send" missing its amount). Never done on a guess (Rule 4E7: only the words said
    count); told, with the sentence as it would read: "did you mean ...?"."""
    if _MENDING.get():
        return None             # (a mended clause is read once: never a mending of a mending)
    meant = []
    token = _MENDING.set(True)
    try:
        for head in near:
            fixed = re.sub(r"\b" + re.escape(word) + r"\b", head, text, count=1, flags=re.I)
            got = read_clause(fixed, vocab) if fixed != text else None
            if got and all(r.kind == "action" for r in got):
                meant.append((head, fixed))
    finally:
        _MENDING.reset(token)
    if len(meant) != 1:
        return None
    head, fixed = meant[0]
    return Reading(text, suggestions=(fixed,),
                   error=f"not understood: “{word}” is no verb bnomic knows; did you mean “{head}”? (Rule 4E7)")


def closest(sentence: str, n: int = 2) -> tuple[str, ...]:
    """Examples of the actions whose verb the sentence uses (feedback by frame)."""
    toks = lex(sentence)
    cands, _, _ = _candidates(toks)
    return tuple(dict.fromkeys(spec.example for spec, _, _, k in cands if k))[:n]


# reading a Transaction's steps (Rule 4E12) where they hold documents: read() over them
_STEPS: contextvars.ContextVar[bool] = contextvars.ContextVar("steps", default=False)
_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("grammar_memo", default=None)
_VOCAB: contextvars.ContextVar[Vocabulary | None] = contextvars.ContextVar("grammar_vocab", default=None)
# the lines the mail being read quotes (read's `quoted`): what "it" in "I give it back" was
_QUOTED: contextvars.ContextVar[str] = contextvars.ContextVar("grammar_quoted", default="")
# attempts too loosely said to report unless the whole post reads to nothing (_said_unread)
_UNREAD: contextvars.ContextVar[list | None] = contextvars.ContextVar("grammar_unread", default=None)
# while a clause with a misspelt verb is read again with the verb meant (_misspelt_verb)
_MENDING: contextvars.ContextVar[bool] = contextvars.ContextVar("grammar_mending", default=False)


@contextlib.contextmanager
def reading_with(vocab: Vocabulary | None):
    """Read with this vocabulary meanwhile, also where no vocabulary is passed: an intent's
    action read while its post is applied sees the words of the game the post was read with."""
    token = _VOCAB.set(vocab)
    try:
        yield
    finally:
        _VOCAB.reset(token)


def _copies(got: list["Reading"] | None) -> list["Reading"] | None:
    """Readings as a memo keeps them, for a caller that may change them: each a shallow
    copy with its own args (what dataclasses.replace(r, args=dict(r.args)) gives, faster)."""
    if got is None:
        return None
    out = []
    for r in got:
        c = object.__new__(r.__class__)
        c.__dict__.update(r.__dict__)
        c.args = dict(r.args)
        out.append(c)
    return out


def _read_clause_memo(text: str) -> list["Reading"] | None:
    memo = _MEMO.get()
    if memo is not None and text in memo:
        return _copies(memo[text])
    got = read_clause(text, _VOCAB.get())
    if memo is not None:
        memo[text] = got
    return _copies(got)


def match_action(sentence: str, vocab: Vocabulary | None = None) -> tuple[ActionSpec, dict] | None:
    """One clause read as one whole action: (spec, args), or None."""
    got = (read_clause(normalise(sentence), vocab) if vocab is not None
           else _read_clause_memo(normalise(sentence)))
    if got and len(got) == 1 and got[0].kind == "action":
        return got[0].spec, dict(got[0].args)
    return None


def match_sentence(sentence: str, in_transaction: bool = False) -> Reading | None:
    """What one normalised sentence is (its first reading), or None for conversation."""
    got = read_sentence(sentence, in_transaction)
    return got[0] if got else None


def _looks_like_action(sentence: str) -> bool:
    got = _read_clause_memo(sentence)
    return bool(got)


# a clause said by "I", perhaps after a circumstance ("Following Bob's message, I give ...")
_BY_I = re.compile(r"i\s|[^,]{1,80}+,\s*+i\s", re.I)


# "I vote FOR 15 and FOR 11 I give m5 to Bob" (no stop, from a phone): a Vote's proposal, then
# "I" and a verb, is where the next clause begins
_RUN_ON = re.compile(r"\b(?P<vote>(?:FOR|AGAINST|ABSTAIN|SHELVE)\s++(?:on\s++)?+#?+\d{1,6}+)\s++(?=I\s++[a-z])")


# a text in double quotes, which the clauses are never cut inside: 'to "Vote early, vote often"'
_QUOTED_SPAN = re.compile(r'"[^"\n]{1,400}+"|“[^”\n]{1,400}+”')
_MASK = re.compile("\ue000(\\d++)\ue001")


def split_clauses(sentence: str) -> list[str]:
    """'I give m5 to A and I forfeit' -> ['I give m5 to A', 'I forfeit']; a condition
    ("If A objects then I forfeit") keeps its sentence whole; a quoted text is never cut."""
    if '"' not in sentence and "“" not in sentence:
        return _split_clauses(sentence)
    quoted: list[str] = []

    def mask(m: re.Match) -> str:
        quoted.append(m.group(0))
        return f"\ue000{len(quoted) - 1}\ue001"
    masked = _QUOTED_SPAN.sub(mask, sentence)
    if not quoted or not any(c in q for q in quoted for c in ",;") and " and " not in " ".join(quoted):
        return _split_clauses(sentence)
    return [_MASK.sub(lambda m: quoted[int(m.group(1))], p) for p in _split_clauses(masked)]


def _split_clauses(sentence: str) -> list[str]:
    if _CONDITIONAL.match(sentence):
        return [sentence]
    if " I " in sentence:
        sentence = _RUN_ON.sub(r"\g<vote>, and ", sentence)
    parts: list[str] = []
    for p in _CLAUSE.split(sentence):
        # ", I ..." begins a clause only after one that began with "I" ("Tomorrow, I give"
        # and "Please register me as Zeno, I was invited" are one)
        # (or after a bare Vote: "SHELVE on 16, I want another nweek")
        first = p.split(" ", 1)[0]
        parts.extend(_COMMA_I.split(p) if "," in p and (p[:2].lower() == "i " or first in _VOTE_WORDS
                                                          # ("Proposal 15: ABSTAIN, I found the typos")
                                                          or _LABELLED_VOTE.match(p)
                                                          # ("For Indictment 2, I find ...": a fronted role)
                                                          or first.upper() in _VOTE_WORDS and first.lower() != "for"
                                                          or first.lower() in _verbs().heads)   # "Withdraw 11, I'll ..."
                     else [p])
    parts = [normalise(p) for p in parts]
    if ":" in sentence and len(parts) > 1:
        # "Intent #4: I support": a heading that names one thing stays with the action after it
        # (_heading_before_colon gives it the thing)
        k = 0
        while k + 1 < len(parts):
            if (parts[k] + ":" in sentence and parts[k + 1][:2].lower() == "i " and len(parts[k].split()) <= 4
                    and _lacks(parts[k + 1], _names_one_thing(parts[k]))):
                parts[k:k + 2] = [parts[k] + ": " + parts[k + 1]]
            k += 1
    out: list[str] = []
    for part in parts:
        # "I give m10 to Bob, then exchange 1 point for m5": a second verb, the same "I"
        pieces = _next_verb().split(part) if _BY_I.match(part) else [part]
        out.extend([pieces[0]] + ["I " + p for p in pieces[1:] if p])
    out = [p for p in out if p]
    if len(out) > 1 and _HIM.search(sentence):
        out = _him_named(out)
    return out or [sentence]


# a Vote on a labelled line, "Proposal 15 "Tidy Up": ABSTAIN", "14 - against": after it, ", I ..."
# is a sentence of the voter's own, not a part of the vote (Rule 4E15)
_LABELLED_VOTE = re.compile(r"(?:proposal\s*+|prop\.?+\s*+|p|#)?+\d++\b[^,]{0,80}?\b(?:for|against|abstain|shelve)\b"
                            r"(?=\s*+,)", re.I)


_NEXT_VERB: list = [None, -1]
# verbs that are as often something else after "and" ("I give m5 to Bob and number ...")
_HIM = re.compile(r"\b(?:him|her|em)\b", re.I)


def _him_named(parts: list[str]) -> list[str]:
    """"I remove the Active property from Chuck and give him m5": "him" in a later clause of
    the sentence is the one Player the clause before it names (none or two: left as said)."""
    vocab = _VOCAB.get()
    if vocab is None or not vocab.players:
        return parts
    out = [parts[0]]
    for part in parts[1:]:
        if _HIM.search(part):
            named = {s[1] for t in lex(out[-1], vocab) for s in t.senses if s[0] == "player"}
            if len(named) == 1:
                part = _HIM.sub(next(iter(named)), part, count=1)
        out.append(part)
    return out


_NOT_NEXT = frozenset({"for", "to", "number", "color", "colour", "count", "answer", "claim",
                       "my", "the", "a", "an", "i", "find", "name", "make", "take", "get", "have",
                       "keep", "hand", "turn", "set", "change", "enter", "post", "register", "send",
                       "cash", "leave", "am", "become", "feel", "declare", "say", "report", "cause",
                       "propose", "proposing", "setting", "also"})


# of those, words never a verb of a second action
_NEVER_NEXT = frozenset({"for", "to", "my", "the", "a", "an", "i", "am", "feel", "say", "report", "also"})


def _weak_heads(v: "_Verbs") -> list[str]:
    """The first words of verbs that are as often something else after "and" ("number",
    "set", "make"), longest first."""
    return sorted({w for w in (p.split()[0] for p in v.all_verbs)
                   if w.isalpha() and len(w) > 2 and w in _NOT_NEXT} - _NEVER_NEXT, key=len, reverse=True)


def _next_verb() -> re.Pattern:
    """", then <verb>", " and <verb>": where a second action of one sentence begins."""
    v = _verbs()
    if _NEXT_VERB[1] != v.size:
        heads = sorted({w for w in (p.split()[0] for p in v.all_verbs)
                        if w.isalpha() and len(w) > 2 and w not in _NOT_NEXT}, key=len, reverse=True)
        # (", and I vote ...": the "I" after "and" goes with the separator)
        # verbs that are as often something else after "and" alone are verbs after ", and",
        # ", then" or "then" ("..., then turn the Clock Off", "..., and change Mackerel Poker")
        weak = _weak_heads(v)
        # (each begins with a space or a comma: a test first that passes over other positions)
        _NEXT_VERB[0] = re.compile(r"(?=[\s,])(?:(?<!\s)(?:\s*+,\s*+(?:and\s++(?:then\s++)?(?:I\s++)?+|then\s++)?"
                                   r"|\s++and\s++(?:then\s++)?(?:I\s++)?+"
                                   r"|\s++then\s++)(?=(?-i:" + "|".join(heads) + r")\b)"
                                   r"|(?<!\s)(?:\s*+,\s*+(?:and\s++)?+then|\s*+,\s*+and|\s++then)\s++"
                                   r"(?:(?:immediately|also|now)\s++)?+(?=(?-i:" + "|".join(weak) + r")\b)"
                                   r"|(?<!\s)\s++and\s++(?:immediately|also|then)\s++(?=(?:" + "|".join(heads + weak)
                                   + r")\b)"
                                   # "I withdraw my RP and become Calm": a state said as written (4E29, 4E86)
                                   r"|(?<!\s)\s++and\s++(?=(?-i:become|am\s++now)\s++(?-i:[A-Z])))", re.I)
        _NEXT_VERB[1] = v.size
    return _NEXT_VERB[0]


_WEAK_NEXT: list = [None, -1]


def _weak_verb_split(clause: str, in_transaction: bool) -> list[Reading]:
    """"I assign this Consultation to Dana and number it 7": where the clause reads to
    nothing, a verb that is as often something else after "and" ("number", "set", "make")
    begins a second action after all, if both parts then read as actions."""
    if " and " not in clause or not _BY_I.match(clause):
        return []
    v = _verbs()
    if _WEAK_NEXT[1] != v.size:
        weak = _weak_heads(v)
        _WEAK_NEXT[0] = re.compile(r"(?<!\s)\s++and\s++(?=(?:" + "|".join(weak) + r")\b)", re.I)
        _WEAK_NEXT[1] = v.size
    pieces = _WEAK_NEXT[0].split(clause)
    if len(pieces) != 2:
        return []
    first, second = _clause_readings(pieces[0], in_transaction), _clause_readings("I " + pieces[1], in_transaction)
    # (the second may lack only what "it" names, which the reply gives: "... and number it 7")
    if (first and all(r.kind == "action" for r in first) and second
            and all(r.kind == "action" or r.kind == "incomplete" and len(r.missing) == 1
                    and set(w.lower() for w in r.unread) <= {"it", "this", "that"} for r in second)):
        return first + second
    return []


# "I give Alice m10 and Bob ...": the verb said once, after "I"
_I_VERB = re.compile(r"i\s++(?P<verb>[a-z]++)\s", re.I)


def _verb_carried(clause: str, in_transaction: bool) -> list[Reading]:
    """"I give Alice m10 and Bob a Blue Sock": where the clause reads to nothing whole, one
    verb over the objects of two actions (Rule 4E33's mackerel, Rule 4E68's Sock): each part
    read with the verb, if both then read as actions."""
    m = _I_VERB.match(clause)
    pieces = clause.split(" and ")
    if m is None or len(pieces) != 2 or _I_VERB.match(pieces[1].lstrip()):
        return []
    kept = _UNREAD.get()
    had = len(kept) if kept is not None else 0
    first = _clause_readings(pieces[0], in_transaction)
    second = _clause_readings(f"I {m.group('verb')} {pieces[1].lstrip()}", in_transaction) if first else []
    if first and second and all(r.kind == "action" for r in first + second):
        return first + second
    if kept is not None:
        del kept[had:]          # (a trial that failed read nothing of the post's)
    return []


def _clause_readings(clause: str, in_transaction: bool) -> list[Reading]:
    """A clause's readings (read once per message: a memo as _read_clause_memo's)."""
    memo = _MEMO.get()
    if memo is None:
        return _clause_readings_read(clause, in_transaction)
    key = ("clause readings", clause, in_transaction)
    if key in memo:
        return _copies(memo[key])
    got = _clause_readings_read(clause, in_transaction)
    memo[key] = _copies(got)            # its own copies: the caller may change what it gets
    return got


# Rule 4E15's Vote ABSTAIN said as a verb: "I abstain on 15", "on 15 and 16 I ABSTAIN"
_VOTE_VERB_HEAD = r"i(?:['’]ll)?+\s++(?:(?:also|now|hereby|will|shall|just)\s++)?+"      # "I'll abstain on 16"
_ABSTAIN_FIRST = re.compile(r"^(?P<head>(?:" + _VOTE_VERB_HEAD + r")?+)abstain\s++"
                            r"(?P<rest>(?:on|from|for|in|regarding)\s++\S.*)$", re.I | re.S)
_ABSTAIN_LAST = re.compile(r"^(?P<rest>(?:on|(?-i:for|For)|regarding)\s++[^;:]{1,120}?)(?:\s*+,)?+\s++i\s++"
                           r"(?:(?:also|will|shall)\s++)?+abstain(?P<why>\s*+,\s*+(?:because|since|as|for)\b.*+"
                           r"|\s++(?:because|since)\b.*+)?$",
                           re.I)


# "I SHELVE 16" (Rule 4E15's Vote used as a verb), on numbered Proposals only
# (or "it", the one the mail answers: "I'll shelve it rather than kill it")
_SHELVE_FIRST = re.compile(r"^(?P<head>" + _VOTE_VERB_HEAD + r")shelve\s++(?:on\s++)?+"
                           r"(?P<rest>(?:(?:proposals?+\s++|prop\.?+\s*+|p|#)?+\d|it\b).*)$", re.I | re.S)


def _abstained(clause: str) -> str:
    if "helve" in clause or "HELVE" in clause:
        m = _SHELVE_FIRST.match(clause)
        if m is not None:
            return "I vote SHELVE on " + m.group("rest")
    if "bstain" not in clause and "BSTAIN" not in clause:
        return clause
    m = _ABSTAIN_FIRST.match(clause) or _ABSTAIN_LAST.match(clause)
    if m is None:
        return clause
    rest = m.group("rest")
    why = m.groupdict().get("why") or ""
    return "I vote ABSTAIN " + ("on " + rest.split(None, 1)[1] if rest.lower().startswith("from ") else rest) + why


# words that soften the second of two choices: "to Bob or possibly to Alice"
_OR_SOFTENERS = frozenset(words()["reader"]["or_softeners"])


def _either_or(clause: str) -> Reading | None:
    """"I vote FOR 12 or 14", "I give m10 to Bob or possibly to Alice": two values said for
    one role, the sender's choice between them not made. Ambiguous: nothing is done and both
    readings are named (Rule 4E7: only unambiguous targets and parameters are valid)."""
    if clause.count(" or ") != 1 or _CONDITIONAL.match(clause):
        return None
    left, right = clause.split(" or ", 1)
    words_ = right.split()
    while words_ and words_[0].lower().strip(",") in _OR_SOFTENERS:
        words_ = words_[1:]
    if not words_ or len(words_) > _OR_RIGHT_WORDS:
        return None
    first = _read_clause_memo(left.rstrip(" ,"))
    if not first or len(first) != 1 or first[0].kind != "action":
        return None
    said = left.rstrip(" ,").split()
    for k in range(1, min(len(said) - 1, _OR_RIGHT_WORDS) + 1):
        other = read_clause(" ".join(said[:-k] + words_), _VOCAB.get())
        if (other and len(other) == 1 and other[0].kind == "action" and other[0].spec is first[0].spec
                and other[0].read_as != first[0].read_as):
            return Reading(clause, alternatives=(first[0].read_as, other[0].read_as))
    return None


# "No objection.", "No objections from me": the stance not taken (Rules 4E21, 4E22)
_NO_STANCE = re.compile(r"^\W*+(?:no|zero|nil)\s++(?:objections?+|support)\b", re.I)


def _clause_readings_read(clause: str, in_transaction: bool) -> list[Reading]:
    if _NO_STANCE.match(clause):
        return []
    clause = _abstained(clause)
    body, times = split_repeat(clause)
    if times != 1 and body != clause:
        got = _read_clause_memo(body)
        if times == 0 and got:
            return [Reading(clause, suggestions=tuple(r.spec.example for r in got if r.spec)[:1],
                            error="not done: Rule 4E7 repeats an action a specific positive "
                                  "number of times, and 0 is none")]
        if got and all(r.kind == "action" for r in got):
            own = any(r.times != 1 for r in got)        # "to Bob 2 times and m2 to Chuck 3 times"
            for r in got:
                r.times = times if not own or r.times == 1 else r.times
                r.text = clause
            return got
    got = _read_clause_memo(clause)
    if " or " in clause and not in_transaction and not any(r.kind == "action" for r in got or ()):
        either = _either_or(clause)
        if either is not None:
            return [either]
    if not in_transaction and not any(r.kind == "action" for r in got or ()):
        got = (_not_a_vote(clause) or _hereby_done(clause) or _comma_verbs(clause) or _detail_after_colon(clause)
               or _heading_before_colon(clause) or got or _vote_word_alone(clause) or _vote_word_then_remark(clause))
    if got and not (in_transaction and not all(r.kind == "action" for r in got)):
        for r in got:
            r.text = clause
        return got
    if in_transaction:
        asserted = _ASSERTING.match(clause)
        said = _STILL.sub("", asserted.group("said") if asserted else clause)   # "I still have"
        for spec in ASSERTIONS:
            args = spec.match(said)
            if args is not None:
                return [Reading(clause, assertion=spec, args=args)]
        if asserted:
            return [Reading(clause, assertion=UNCHECKED, args={"text": said})]
        if got:
            for r in got:
                r.text = clause
            return got
        return [Reading(clause, suggestions=closest(clause))]
    return []


# a stance taken "to" two things: "I object to Wooble's intent and to Alice's intent" (4E21, 4E22)
_STANCE_TO = re.compile(r"i\s++(?:also\s++)?+(?:object|withdraw\s++my\s++(?:objection|support))\s++to\s", re.I)
_AND_TO = re.compile(r"(?<!\s)(?P<sep>,?+\s++and)\s++to\s++(?!(?:have|cause|make|retitle|activate|teach|set|give)\b)",
                     re.I)
# an intent named by its author and a word for what it would do: "Bob's motnw intent",
# "Wooble's Beast thing" (words.toml `intent_nouns`), said as the intent to do that
_INTENT_NOUNS = {k.lower(): v for k, v in words()["reader"]["intent_nouns"].items()}
_NOUN_INTENT = re.compile(r"\b(?P<who>[A-Z][\w-]{0,30}+)['’]s\s++(?P<noun>" + "|".join(
    sorted(map(re.escape, _INTENT_NOUNS), key=len, reverse=True)) + r")(?:-[a-z]{1,20}+)?+\s++(?:intent(?:ion)?+|thing|plan|scheme)\b",
    re.I)     # (and "Wooble's beast-money intent": the first word of a compound says which)


def _intent_by_noun(m: re.Match) -> str:
    return f"{m.group('who')}'s intent to {_INTENT_NOUNS[m.group('noun').lower()]}"


# "I withdraw my support for Ais523's Trick", "I object to the Sock Sorting trick": a Trick is
# taught only under an intent (Rule 4E71), so a stance on one is on the intent to teach it
_STANCE_WORDS = re.compile(r"\b(?:support|object|objection)", re.I)
_TRICK_INTENT = re.compile(r"(?<![Tt]each the [Bb]east )\b(?:(?P<who>[A-Z][\w-]{0,30}+)['’]s\s++(?:[A-Z][\w-]{0,30}+\s++){0,3}?"
                           r"|the\s++(?:[A-Z][\w-]{0,30}+\s++){1,3}?)"      # "the Sock Sorting trick", never "the Trick"
                           r"(?i:trick)\b(?!\s++(?i:intent|intention|thing|plan|performed|the\s++beast))")


def _trick_intent(m: re.Match) -> str:
    whose = f"{m.group('who')}'s" if m.group("who") else "the"
    return f"{whose} intent to {_INTENT_NOUNS['trick']}"


# "On 15 my vote is FOR", "For proposal 16, my vote is AGAINST": the proposal said first
_ON_N_MY_VOTE = re.compile(r"^(?P<on>(?:on|for|re:?+|regarding)\s++(?:(?:proposals?+|indictment)\s*+|prop\.?+\s*+|p|#)?+\d++"
                           r"(?:\s*+(?:,|and|&|,\s*+and)\s*+#?+\d++)*+)"        # "on 12, 14 and 16"
                           r"(?:\s*+,)?+\s++(?:my\s++(?P<noun>vote|answer|verdict)\s++"
                           # "...; on 12, 14 and 16 it is ABSTAIN": "it" the Vote said before
                           r"|it\s++(?=(?:is|will\s++be)\s++(?:for|against|abstain|shelve)\b))"
                           r"(?P<rest>(?:is|will\s++be)\b.*)$", re.I | re.S)
# "everything Bob wrote (on this ballot)": Bob's proposals (Rule 4E15: each by its author)
_WRITTEN_BY = re.compile(r"\b(?:everything|all|every\s++proposal|all\s++(?:of\s++)?(?:the\s++)?proposals)\s++"
                         r"(?:that\s++)?(?P<who>[A-Z][\w'’-]{0,30}+)\s++(?:wrote|proposed|submitted|authored"
                         r"|has\s++(?:written|proposed|submitted))\b(?:\s++on\s++(?:this|the)\s++ballot)?+"
                         # "all the proposals of Bob", "every proposal by Bob"
                         r"|\b(?:all\s++(?:of\s++)?(?:the\s++)?proposals|every\s++proposal|the\s++proposals)\s++"
                         r"(?:of|by|from)\s++(?P<by>[A-Z][\w'’-]{0,30}+)\b")


def _vote_word_alone(clause: str) -> list[Reading] | None:
    """"FOR." said alone: a Vote (Rule 4E15: "one of the words FOR, AGAINST, ABSTAIN, or
    SHELVE") that names no proposal; an attempt missing it (a reply may name it: _vote_on_the_quoted)."""
    said = clause.strip(" \t.!").upper().replace(",", " ").split()
    if not said or any(w not in _VOTE_WORDS for w in said):
        return None             # ("FOR FOR AGAINST FOR": Votes in a row, on no proposal said)
    word = said[0]
    made = _made("vote", clause, {"vote": word})
    if made is None:
        return None
    made.missing = ("which",)
    made.suggestions = (f"I vote {word} on proposal 12",)
    return [made]


# "AGAINST, the era stuff is a mess": a Vote word alone, then a sentence of the voter's own
_VOTE_THEN_REMARK = re.compile(r"(?P<vote>FOR|AGAINST|ABSTAIN|SHELVE)\s*+[,;:—–-]\s*+(?P<rest>\S.*+)")


def _vote_word_then_remark(clause: str) -> list[Reading] | None:
    """A Vote word (Rule 4E15), then after a comma a remark with a verb of its own ("the era
    stuff is a mess", "it's too long"): the Vote alone, on what the mail names (as "AGAINST."
    is); the remark is no part of it."""
    m = _VOTE_THEN_REMARK.fullmatch(clause.strip())
    if m is None:
        return None
    said = [w.lower().strip(".,!") for w in m.group("rest").split()[:6]]
    if not (said and (said[0] in ASIDES or any(w in FINITE_VERBS for w in said))):
        return None
    got = _vote_word_alone(m.group("vote"))
    for r in got or ():
        r.text = clause
    return got



def _verb_head(text: str, v: "_Verbs") -> bool:
    """Whether `text` begins with a word some verb of some frame begins with."""
    word = text.split(" ", 1)[0].lower()
    return word in v.heads_by_length.get(len(word), ())


def _comma_verbs(clause: str) -> list[Reading] | None:
    """"I vote FOR 12 AGAINST 14, become Paranoid": a clause that does not read whole, which
    a comma and a verb cut into actions of the same "I" that each read whole (a verb that is
    as often something else, "become", "set", "take", begins one only so)."""
    if clause.count(",") == 0 or clause.count(",") > 6:
        return None
    v = _verbs()
    if not _BY_I.match(clause) and not _verb_head(clause, v) and clause.split(None, 1)[0] not in _VOTE_WORDS:
        return None             # ("Object to the first, support the second": imperatives, one each;
                                # "FOR 15, give m10 to Wooble": a bare Vote, then the same sender's verbs)
    parts = clause.split(",")
    for k in range(1, len(parts)):
        tail = ",".join(parts[k:]).strip()
        if tail[:7].lower() == "please " and _IT.search(tail):
            # "I also post from x@example.org, please add it to my entry": the same action, asked again
            first = _read_clause_memo(",".join(parts[:k]).strip())
            again = _read_clause_memo("I " + tail[7:])
            if (first and all(r.kind == "action" for r in first) and _verb_head(tail[7:], v)
                    and {r.spec.name for r in again or () if r.spec} <= {r.spec.name for r in first}):
                return first
            continue
        tail = _AND_THEN.sub("", tail, count=1)     # "ZOT Consultation 6, and assign ..."
        if not _verb_head(tail, v):
            continue
        first = _read_clause_memo(",".join(parts[:k]).strip())
        second = _read_clause_memo("I " + tail)
        if "," in tail and first:
            # ("..., give m10 to Wooble, support intent 3": more verbs after the next comma)
            deeper = _comma_verbs("I " + tail)
            second = deeper if deeper and len(deeper) > len(second or ()) else second
        if first and second and all(r.kind == "action" for r in first + second):
            return first + second
    return None


_AND_THEN = re.compile(r"^(?:and\s++(?:then\s++|also\s++)?+|then\s++|also\s++)", re.I)
_COLON = re.compile(r":(?=\s)")       # a colon before a space: not the one of "18:00"


def _at_colon(clause: str) -> tuple[str, str, str]:
    m = _COLON.search(clause)
    return (clause[:m.start()], ":", clause[m.end():]) if m else (clause, "", "")


# ("As Oracle I tally ...", "Tallying the Claims on ...": an officer's heading over the details)
_HEAD_OF_DETAILS = re.compile(r"as\s++[a-z]++(?:\s++(?!i\s)[a-z]++)?+\s++i\s|[a-z]{2,20}?ing\s", re.I)


def _detail_after_colon(clause: str) -> list[Reading] | None:
    """"I tally the Claims on Consultation 5: one Consistent (Bob), one Inconsistent (Alice)":
    a complete action before a colon, and after it words that are no action: its details."""
    head, colon, tail = _at_colon(clause)
    if not colon or not tail.strip() or not (_BY_I.match(head) or _HEAD_OF_DETAILS.match(head)):
        return None
    first = _read_clause_memo(head.strip())
    if not first or not all(r.kind == "action" or _names_it(r) for r in first) or _read_clause_memo(tail.strip()):
        return None
    return first


def _names_it(r: Reading) -> bool:
    """An attempt that leaves out only the thing it acts on, which a step over the whole message
    may find ("As Priest of Consultation 5, I request that the Oracle ZOT it")."""
    return (r.kind == "incomplete" and len(r.missing) == 1 and r.spec is not None
            and any(x.name == r.missing[0] and x.type in REF_KINDS for x in r.spec.roles))


_STEP_WORDS = frozenset(words()["reader"]["labels"]) | {"stage", "phase", "todo", "to-do", "plan"}


def _heading_before_colon(clause: str) -> list[Reading] | None:
    """"vote changes: 12 now AGAINST, 14 now FOR": a few words that do no action, a colon,
    and actions after it: the words head what follows."""
    head, colon, tail = _at_colon(clause)
    if not colon or not tail.strip() or not head.split() or len(head.split()) > 4 or _BY_I.match(head):
        return None
    if head.split()[0].lower() in _STEP_WORDS:      # "Step one: submit the Tweak. Step two: profit." (a plan)
        return None
    said = _read_clause_memo(head.strip())
    if said and any(r.kind == "action" for r in said):
        return None
    after = _read_clause_memo(tail.strip())
    if after and len(after) == 1 and after[0].kind == "incomplete" and len(after[0].missing) == 1 \
            and _names_one_thing(head.strip()) is not None:
        # "Intent #4: I support.", "Ministry of Fauna: I assign it to myself at m40": the
        # heading names what the action after it acts on
        t, h = tail.strip().rstrip("."), head.strip()
        for said in ((_IT_WORD.sub(h, t, count=1),) if _IT_WORD.search(t) else (f"{t} {h}", f"{t} to {h}")):
            got = _read_clause_memo(said)
            if got and all(r.kind == "action" for r in got):
                return got
    return after if after and all(r.kind == "action" for r in after) else None


_IT_WORD = re.compile(r"\bit\b")


def _lacks(clause: str, kind: str | None) -> bool:
    """One reading, which leaves a role of that kind unsaid ("I support", "I assign it to
    myself at m40"); not "I vote FOR 13", which names its own proposal."""
    if kind is None:
        return False
    got = _read_clause_memo(clause)
    if not got or len(got) != 1 or got[0].spec is None or got[0].kind not in ("action", "incomplete"):
        return False
    r = got[0]
    of_kind = [x for x in r.spec.roles if x.type == kind]
    return bool(of_kind) and not any(r.args.get(x.name) for x in of_kind)


def _names_one_thing(head: str) -> str | None:
    """The kind of the one thing a heading names ("Intent #4": intent, "Ministry of Fauna":
    ministry, "Proposal 12": proposal), if it names one thing and nothing else."""
    toks = [t for t in lex(head, _VOCAB.get()) if t.low not in ("re", "on", "for", "the")]
    if len(toks) != 1:
        return None
    for sense in toks[0].senses:
        if sense[0] == "ref" and sense[1][0]:
            return sense[1][0]
        if sense[0] == "ministry":
            return "ministry"
    return None


def _stand_ins() -> tuple[re.Pattern, re.Pattern, dict]:
    if not _STAND_INS:
        w = words()["votes"]
        said = {x: "FOR" for x in w["stand_in_for"]} | {x: "AGAINST" for x in w["stand_in_against"]}
        alts = "|".join(r"\s++".join(map(re.escape, x.split())) for x in sorted(said, key=len, reverse=True))
        caps = {k: v.upper() for k, v in w["stand_in_capitals"].items()}
        _STAND_INS.extend([re.compile(rf"(?<![\w+-])(?:{alts})(?![\w+-])", re.I),
                           re.compile(r"(?<![\w+\"'“”‘’-])[" + "".join(caps) + r"](?![\w+\"'“”‘’-])"),
                           {" ".join(k.split()): v for k, v in said.items()} | caps])
    return tuple(_STAND_INS)


_STAND_INS: list = []
_LONG_WORD = re.compile(r"\b(?:[A-Za-z]{5,}+|FRO|OFR)\b")   # a word that may be a Vote misspelt (as long as one)
# FOR with two letters swapped, in capitals only ("to and fro" is no Vote)
_SHORT_MISSPELT = frozenset({"FRO", "OFR"})
_VOTE_WORDS = ("FOR", "AGAINST", "ABSTAIN", "SHELVE")


def _misspelt_vote(word: str) -> str | None:
    """'AGAINTS' for AGAINST: a Vote's word with one letter changed, or two swapped."""
    if word in _SHORT_MISSPELT:
        return "FOR"
    up = word.upper()
    if len(up) < 5 or not up.isalpha() or up in _VOTE_WORDS:
        return None
    for v in _VOTE_WORDS:
        if len(v) == len(up):
            diff = [i for i, (a, b) in enumerate(zip(up, v)) if a != b]
            if len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and up[diff[0]] == v[diff[1]] and up[diff[1]] == v[diff[0]]):
                return v
    return None


# "Consultation 6 is hereby ZOTTED", "The Clock is hereby turned On": an officer's
# performative passive, said with "hereby" (without it, a description: "6 is ZOTTED")
_HEREBY = re.compile(r"^(?P<what>[^.!?;:]{1,200}?)\s++(?:is|are)\s++(?:hereby\s++(?P<done>[a-z]{3,20}+)\b"
                     # "The Ballot for nweek 7 is published below": a document shown as it is done
                     r"|(?P<shown>published|posted|submitted|given|attached)\s++(?:below|above|here|herewith"
                     r"|as\s++follows)\b)(?P<rest>.*)$", re.I | re.S)


def _hereby_done(clause: str) -> list[Reading] | None:
    """Rule 4E7: "X is hereby <done>" says the sender does it: read as "I <do> X ..."."""
    m = _HEREBY.match(clause.strip())
    if m is None:
        return None
    done, v = (m.group("done") or m.group("shown")).lower(), _verbs()
    bases = [done[:-2], done[:-1], done[:-3], done[:-2] + "e"] if done.endswith("ed") else (
        [done[:-1], done[:-2]] if done.endswith("n") else [])           # ZOTTED, turned, withdrawn, given
    verb = next((b for b in bases if len(b) > 1 and b in v.by_first), None)
    if verb is None:
        return None
    got = _read_clause_memo(f"I {verb} {m.group('what').strip()}{m.group('rest')}")
    if not got or not all(r.kind == "action" for r in got):
        return None
    for r in got:
        r.text = clause
    return got


_RUNS = re.compile(r"[\w+-]++")        # what the stand-ins' patterns look around: words, "+1"


def _no_stand_in(clause: str) -> bool:
    """For ASCII text: whether none of the words _not_a_vote's patterns look for is in it,
    tested on its words rather than by the patterns (which scan every position): a stand-in
    ("yes", "+1", "in favour of") is a run of word characters, "+" and "-" with none of
    them either side; a capital ("F") is found as the pattern finds it; a misspelt Vote is
    a run of 6 or 7 letters between non-word characters."""
    words_re, caps_re, said = _stand_ins()
    runs = set(_RUNS.findall(clause.lower()))
    singles, phrases = _stand_in_words()
    if not runs.isdisjoint(singles) or any(runs.issuperset(phrase) for phrase in phrases):
        return False
    if ("F" in clause or "A" in clause) and caps_re.search(clause):
        return False
    if any(w in clause for w in _SHORT_MISSPELT):
        return False
    return not any(len(w) in (6, 7) and w.isalpha() and _misspelt_vote(w)
                   for run in runs if len(run) > 5
                   for w in (run.replace("+", "-").split("-") if "+" in run or "-" in run else (run,)))


def _stand_in_words() -> tuple[frozenset, tuple[tuple[str, ...], ...]]:
    """The words that stand in for a Vote: those of one word ("yes", "+1"), and the others
    ("in favour of") as their lower-case words."""
    if not _STAND_IN_WORDS:
        w = words()["votes"]
        said = [tuple(x.lower().split()) for x in (*w["stand_in_for"], *w["stand_in_against"])]
        _STAND_IN_WORDS.extend([frozenset(x[0] for x in said if len(x) == 1),
                                tuple(x for x in said if len(x) > 1)])
    return _STAND_IN_WORDS[0], _STAND_IN_WORDS[1]


_STAND_IN_WORDS: list = []


def _not_a_vote(clause: str) -> list[Reading] | None:
    """Rule 4E15: a Vote is one of the words FOR, AGAINST, ABSTAIN or SHELVE. A clause that
    reads as a vote once its "yes", "+1" or "AGAINTS" is taken for the Vote it stands in for
    is an attempt to vote: reported as one missing its Vote, naming the word; never cast."""
    words_re, caps_re, said = _stand_ins()
    if (_no_stand_in(clause) if clause.isascii() else not (
            words_re.search(clause) or caps_re.search(clause)
            or any((len(w) in (6, 7) or w in _SHORT_MISSPELT) and _misspelt_vote(w) for w in _LONG_WORD.findall(clause)))):
        return None                             # (no word stands in for a Vote: what follows finds none)
    # each word stood in for is read as a Vote the clause does not say itself, so that
    # what it stood in for is known after the reading ("in favour of 10 and FOR 11")
    free = [v for v in _VOTE_WORDS if not re.search(rf"\b{v}\b", clause, re.I)]
    stood: dict[str, str] = {}                  # the Vote read -> the word written

    def stand(written: str, meant: str) -> str:
        word = next((v for v in [meant] + free if v in free and v not in stood), None) or meant
        stood.setdefault(word, written)
        return word

    def swap(m: re.Match) -> str:
        w = m.group(0)
        return stand(w, said.get(" ".join(w.lower().split()), said.get(w, w)))

    def misspelt(m: re.Match) -> str:
        meant = _misspelt_vote(m.group(0))
        return stand(m.group(0), meant) if meant else m.group(0)

    text = _LONG_WORD.sub(misspelt, caps_re.sub(swap, words_re.sub(swap, clause)))
    if not stood:
        return None
    got = _read_clause_memo(text)
    if not got and ":" in text:
        got = _heading_before_colon(text)       # "Proposal 14: I vote in favour." (the heading names it)
    if not got or not all(r.kind == "action" and r.spec.name == "vote" and r.args.get("which")
                          not in (None, "all", "rest", "this") for r in got):
        return None
    for r in got:
        written = stood.get(str(r.args.get("vote", "")).upper())
        if written is None:
            continue                        # "I vote AGAINTS 14 and FOR 15": FOR 15 stands
        r.args.pop("vote", None)
        r.read_as = r.spec.describe(r.args)
        r.missing = ("vote",)
        r.unread = (written,)
        r.text = clause
        r.error = (f"not a Vote: {written!r}; Rule 4E15 counts only "
                   "FOR, AGAINST, ABSTAIN or SHELVE")
    return got


_STILL = re.compile(r"\b(?:still|now|currently|already|indeed|really|then)\s++", re.I)
# A step of a Transaction that says it asserts: "I assert that ...", "Assert: ...", "ASSERT ..."
_ASSERTING = re.compile(r"^(?:i\s++(?:hereby\s++|also\s++)?)?(?:assert|affirm|verify|check)(?:s|ion)?+\b"
                        r"[\s:,-]*+(?:that\s++)?(?P<said>\S.*)$", re.I | re.S)


# "I object to (Bob) activating Tweak 3": a stance on the intent to do it
_DOING = re.compile(r"^(?P<head>(?i:i\s++(?:also\s++|hereby\s++)?+(?:object|support)\s++to\s++))"
                    r"(?:(?P<who>[A-Z][\w'’-]*+)\s++)?+(?P<verb>(?i:[a-z]++))\b")


# "I object to the activation of Wooble's Tweak": a noun for the action (words.toml
# `action_nouns`), said as the intent to do it
_NOUN_OF = re.compile(r"^(?P<head>(?i:i\s++(?:also\s++|hereby\s++)?+(?:object\s++to|support)\s++))"
                      r"(?i:the\s++)(?P<noun>(?i:[a-z]++))\s++of\s++(?=\S)")
_ACTION_NOUNS = {k.lower(): v for k, v in words()["reader"]["action_nouns"].items()}


def _noun_as_intent(m: re.Match) -> str:
    verb = _ACTION_NOUNS.get(m.group("noun").lower())
    if verb is None:
        return m.group(0)                   # "I object to the tone of this thread": talk
    return f"{m.group('head')}the intent to {verb} "


def _sub_noun_of(body: str) -> str:
    m = _NOUN_OF.match(body)
    return _noun_as_intent(m) + body[m.end():] if m else body


def _doing_as_intent(m: re.Match) -> str:
    if not m.group("verb").lower().endswith("ing"):
        return m.group(0)
    base = _unprogressive(m.group("verb").lower())
    if base is None:
        return m.group(0)
    if match_action(f"I {base}{m.string[m.end():]}") is None:
        return m.group(0)                   # "I object to being told what to do": talk
    who = m.group("who")
    return f"{m.group('head')}{who + chr(39) + 's' if who else 'the'} intent to {base}"


# the officer or Player addressed, before a request or an action: "Registrar: please add ...",
# "Dear Oracle, I submit ..." (whom the words are said to; the action is the sender's)
_VOCATIVE = re.compile(r"^(?:dear\s++)?+(?:the\s++)?+[A-Z][\w'’]{1,30}+(?:\s++[A-Z][\w'’]{1,30}+)?+\s*+[,:]\s++"
                       r"(?=(?:please|pls|kindly|i)\b)")


def _sub_at_start(pattern: re.Pattern, template, s: str) -> str:
    """pattern.sub(template, s) for a pattern anchored with "^" (one match at most), without
    re's template machinery when nothing matches (`template`: a string, or a function of
    the match)."""
    m = pattern.match(s)
    if not m:
        return s
    return (template(m) if callable(template) else m.expand(template)) + s[m.end():]


# Rule 4E0: "designate a means for PEPs to communicate as the Emergency Forum": the means as
# written, whatever it is ("#b-panic on irc.example.net", "the IRC channel irc://..."), up to "as"
_FORUM_NAMED = re.compile(r"\b(?P<verb>designate|name|nominate|declare|choose)\s++(?P<what>[^\"\s][^\"]{0,160}?)"
                          r"(?=\s++as\s++(?:the\s++|our\s++)?emergency\s++forum\b)", re.I)
_FORUM_START = re.compile(r"(?:^|\s)(?P<at>(?:#|[a-z]++://)\S)", re.I)


def _forum_quoted(m: re.Match) -> str:
    what = m.group("what")
    start = _FORUM_START.search(what)          # "the B Nomic IRC channel #b-emergency": the channel
    if start is None:
        return m.group(0)                      # (an address or words: read as they are)
    return f'{m.group("verb")} "{what[start.start("at"):]}"'


# "I vote FOR, AGAINST, FOR on 13, 14, 15 respectively": each Vote with its proposal, in order
# (a range, "10 to 13", names each proposal in it)
_RESPECTIVE_ITEM = r"#?\d++(?:\s*+(?:-|–|to|through|thru)\s*+#?\d++)?+"
_RESPECTIVELY = re.compile(r"^(?P<head>(?:i\s++vote\s++)?)(?P<votes>(?:for|against|abstain|shelve)"
                           r"(?:\s*+(?:,|and|&)\s*+(?:for|against|abstain|shelve)){1,20}+)\s++(?:on|for)\s++"
                           r"(?:proposals?\s++)?(?P<props>" + _RESPECTIVE_ITEM + r"(?:\s*+(?:,|and|&)\s*+"
                           + _RESPECTIVE_ITEM + r"){0,20}+)\s*+,?\s*+respectively$", re.I)


# "On 10, 11 and 12 I vote FOR, AGAINST and SHELVE respectively": the proposals said first
_RESPECTIVELY_FRONTED = re.compile(r"^(?:on|for)\s++(?:proposals?\s++)?(?P<props>" + _RESPECTIVE_ITEM
                                   + r"(?:\s*+(?:,|and|&)\s*+" + _RESPECTIVE_ITEM + r"){0,20}+)"
                                   r"\s*+,?\s*+(?:i\s++vote\s++)?(?P<votes>(?:for|against|abstain|shelve)"
                                   r"(?:\s*+(?:,|and|&)\s*+(?:for|against|abstain|shelve)){1,20}+)\s*+,?\s*+respectively$",
                                   re.I)


def _respectively(body: str) -> str:
    m = _RESPECTIVELY.match(body.strip().rstrip(".")) or _RESPECTIVELY_FRONTED.match(body.strip().rstrip("."))
    if m is None:
        return body
    votes = re.findall(r"for|against|abstain|shelve", m.group("votes"), re.I)
    props = []
    for low, high in re.findall(r"(\d++)(?:\s*+(?:-|–|to|through|thru)\s*+#?(\d++))?+", m.group("props")):
        if high and not int(low) < int(high) <= int(low) + len(votes):
            return body             # (a range longer than the Votes, or backwards: not in order)
        props += [str(n) for n in range(int(low), int(high or low) + 1)]
    if len(votes) != len(props):
        return body                 # (counts that differ say nothing in order: read as written)
    return "I vote " + ", ".join(f"{v.upper()} {p}" for v, p in zip(votes, props))


# Rule 4E15: the Chairman's numbering said as a list under its heading: "Numbering: Chuck's
# "Mulberry Jam" becomes Proposal 18, and ...", "Proposal Numbers: "Fewer Fish" gets 18, ..."
_NUMBERING = re.compile(r"^(?:proposal\s++)?+number(?:ing|s)(?:\s*+,\s*+as\s++(?:the\s++)?+chairman)?+\s*+:\s*+(?=\S)",
                        re.I)
_NUMBER_GIVEN = re.compile(r"\b(?:becomes|gets|get|is|=)\s++(?:proposal\s++)?+(?:number\s++)?+#?+(?P<n>\d{1,6}+)\b", re.I)
# ... and in a reply to the mail that submitted it: "Numbered 18.", "Number 19 for this one."
# (a bare "number 7" is no numbering: the end of a line wrapped from "... give it the")
_NUMBERED_REPLY = re.compile(r"^numbered\s++(?:as\s++)?+(?:proposal\s++)?+(?:number\s++)?+#?+(?P<n>\d{1,6}+)"
                             r"(?:\s++for\s++(?:this|it)(?:\s++one|\s++proposal)?+)?+$"
                             r"|^number\s++#?+(?P<n2>\d{1,6}+)\s++for\s++(?:this|it)(?:\s++one|\s++proposal)?+$", re.I)


# ... and said as a fact by the Chairman, whose saying so is the numbering: "Mackerel Amnesty
# is Proposal 18", "Chairman: Ais523's "Beast Diet Lite" gets Proposal Number 19", "Proposal
# Number 20 it is." (from anyone else such a sentence is talk about the numbers)
_CHAIRMAN_SAYS_NUMBER = re.compile(
    r"^(?:[^.;:]{1,60}+:\s*+)?+"               # (a label first: "Chairman:", "Wearing my Chairman's hat:")
    r"(?:(?P<what>[^.;:]{1,100}?)\s++(?:becomes|gets|is(?:\s++now|\s++hereby)?+)\s++(?:the\s++)?+"
    r"proposal\s++(?:number\s++|no\.?+\s*+)?+#?+(?P<n>\d{1,6}+)"
    r"|(?:the\s++)?+proposal\s++(?:number\s++|no\.?+\s*+)?+#?+(?P<n2>\d{1,6}+)\s++it\s++is)$", re.I)
_THIS_ONE = re.compile(r"^(?:this|that|it)(?:\s++one|\s++proposal)?+$", re.I)
# (what is numbered is named, never said with a speaker's hedge: "I think the Sock one is Proposal 12")
_NOT_NAMED = re.compile(r"\b(?:i|i['’]m|you|we|think|guess|believe|suppose|maybe|perhaps|if|whether|because|"
                        r"which|what|who|so|unless|still|already)\b", re.I)


def _numbering(body: str) -> str:
    """The Chairman's numbering said as a heading and its list, or as a reply, made the action
    Rule 4E15 gives: the Chairman assigns the Proposal Numbers (bnomic numbers every new
    proposal in the order submitted; the first number said is the one said)."""
    head = _NUMBERING.match(body)
    if head is not None:
        given = _NUMBER_GIVEN.search(body, head.end())
        return f"I assign Proposal Number {given.group('n')} to the new proposals" if given else body
    vocab = _VOCAB.get()
    m = _NUMBERED_REPLY.match(body.strip().rstrip("."))
    if m is not None and vocab is not None and vocab.replying:
        return f"I assign Proposal Number {m.group('n') or m.group('n2')} to this proposal"
    if vocab is None or vocab.actor is None or vocab.holders.get("Change") != vocab.actor:
        return body
    m = _CHAIRMAN_SAYS_NUMBER.match(body.strip().rstrip("."))
    if m is None:
        return body
    what = (m.group("what") or "").strip()
    if what and _NOT_NAMED.search(what):
        return body
    if not what or _THIS_ONE.match(what):
        return f"I assign Proposal Number {m.group('n') or m.group('n2')} to this proposal"
    return f"I assign Proposal Number {m.group('n')} to {what}"


# Rule 4E18: "Consultations are given a Consultation Number by the Oracle when assigned to a
# Priest": the number said after the assignment (", and it is Consultation 7", ", and it's number
# 8", ", Consultation number 7") is the number it is given, as "... with the number 7" says
_ASSIGNED_AS_NUMBER = re.compile(r"(?<!\s)\s*+[,;]\s*+(?:and\s++)?+(?:(?:it\s++is|it['’]s|this\s++is)\s++)?+"
                                 r"(?:(?:consultation|con)\s++)?+(?:number|no\.?+|#)\s*+(?P<n>\d{1,6}+)\s*+$"
                                 r"|(?<!\s)\s*+[,;]\s*+(?:and\s++)?+(?:it\s++is|it['’]s|this\s++is)\s++"
                                 r"(?:consultation|con)\s++#?+(?P<n2>\d{1,6}+)\s*+$", re.I)


# Rule 4E0's Ballot said in words: "RP1 first, then RP2", each named as a Refresh Proposal
_RP = r"(?:rp\s*+|refresh\s++proposal\s++)#?+\d{1,3}+"
_FIRST_THEN = re.compile(r"^(?P<a>" + _RP + r")\s++first\s*+,?\s*+(?:and\s++)?+then\s++(?P<b>" + _RP + r")"
                         r"(?:\s*+,?\s*+(?:and\s++)?+then\s++(?P<c>" + _RP + r"))?+\s*+$", re.I)


# Rule 4E71: "a Player may Punish [or Reinforce] the last Trick that has been performed": a
# Trick named by what the players call it ("I punish Fish Rain", 'Reinforce "Sock Sorting"') is
# the last Trick all the same, the only one these actions can take
_TRICK_NAMED = re.compile(r"^(?P<head>(?:i\s++)?+(?:hereby\s++)?+(?:punish|reinforce|punishing|reinforcing))\s++(?:the\s++)?+(?:trick\s++)?+"
                          r"(?P<name>\"[^\"\n]{1,40}+\"|“[^”\n]{1,40}+”|(?-i:[A-Z])[\w'’-]{1,20}+(?:\s++(?-i:[A-Z])[\w'’-]{1,20}+){0,3}+)"
                          r"(?:\s++(?:trick|again))?+(?P<after>,?+\s++and\s++i\s++\S.*+)?+\s*+$", re.I)


_TRICK_VERBS = {"punishing": "punish", "reinforcing": "reinforce"}


def _trick_named(body: str) -> str:
    m = _TRICK_NAMED.match(body)
    vocab = _VOCAB.get()
    if m is None or vocab is None:
        return body
    name = m.group("name").strip('"“”')
    if any(name.lower() == str(p).lower() for p in vocab.players) or name.lower() in ("it", "that", "this"):
        return body             # "I punish Wooble": a Player, no Trick
    verb = m.group("head").split()[-1].lower()
    return f"I {_TRICK_VERBS.get(verb, verb)} the last Trick{m.group('after') or ''}"   # ("... and I support intent 4")


# Rule 4E18: the Oracle's tally said as a heading over the Claims: "Tally of Claims on
# Consultation 5: Alice Inconsistent, Bob Consistent." (any sender: the handler says who may),
# "Claims on Consultation 5: ..." (the Oracle's own report of them: only from the Oracle)
_CLAIMS_HEADING = re.compile(r"^(?P<tally>(?:the\s++)?+(?:tally|count)\s++of\s++(?:the\s++)?+)?+claims?+\s++(?:on|for|about|re)\s++"
                             r"(?:the\s++answer\s++to\s++)?+(?P<c>(?:consultation|con)\s*+#?+\d{1,6}+)(?:\s++tallied)?+\s*+:\s*+\S",
                             re.I)       # (and "Claims on Consultation 5 tallied: ...")


def _claims_tallied(body: str) -> str:
    m = _CLAIMS_HEADING.match(body)
    if m is None:
        return body
    vocab = _VOCAB.get()
    oracle = vocab is not None and vocab.actor is not None and vocab.holders.get("Questions") == vocab.actor
    return f"I tally the Claims on {m.group('c')}" if m.group("tally") or oracle else body


# Rule 4E33: "I give it (straight) back" in reply to a gift to the sender: that amount, to the
# one who gave it (the mail replied to, quoted: "> I give m10 to Ais523.")
_GIVE_BACK = re.compile(r"^i\s++(?:hereby\s++)?+(?:give|send|pay|return)\s++(?:(?P<part>m\s*+\d{1,9}+)\s++of\s++)?+"
                        r"(?:it|that|them|the\s++money)\s++(?:straight\s++|right\s++)?+back"
                        r"(?:\s++to\s++(?:you|him|her|them|e|em|(?P<who>[A-Z][\w'’-]{0,30}+)))?+"
                        # (a remark after it: "..., actually, I didn't need it", "..., keeping m10 as a fee")
                        r"(?:\s*+[,;(—–-].*+)?$", re.I | re.S)
_GIFT_QUOTED = re.compile(r"\bi\s++(?:hereby\s++)?+(?:give|send|pay|transfer)\s++(?P<amount>m\s*+\d{1,9}+)\s++to\s++"
                          r"(?P<who>[\w'’-]{1,40}+)", re.I)


# Rule 4E33: "I give m5 of it to the Beast" in reply to a gift, "m5 of my mackerel": m5, of what
# the sender holds
_PART_OF_IT = re.compile(r"\b(?P<amount>m\s*+\d{1,9}+)\s++of\s++(?:it|that|this|them|the\s++money|those"
                         r"|my\s++(?:mackerel|money|cash|savings|winnings|reward|salary))\b", re.I)


def _given_back(body: str) -> str:
    back = _GIVE_BACK.match(body)
    if back is not None and back.group("part") and back.group("who"):
        return f"I give {back.group('part').replace(' ', '')} to {back.group('who')}"   # "m40 of it back to Wooble"
    vocab = _VOCAB.get()
    if vocab is None or not vocab.addressee or not vocab.actor:
        return body
    gifts = [m for m in _GIFT_QUOTED.finditer(_QUOTED.get() or "") if m.group("who").lower() == vocab.actor.lower()]
    if len(gifts) != 1:
        return body             # no gift to the sender quoted, or two: which is not said
    named = back.group("who") if back is not None else None
    if named and named.lower() != vocab.addressee.lower():
        return body             # "... back to Chuck": not the giver; read as said
    amount = (back.group("part") if back is not None and back.group("part") else gifts[0].group("amount"))
    return f"I give {amount.replace(' ', '')} to {vocab.addressee}"     # "I give m10 of it back"


# Rule 4E15: the Chairman's results under their heading on one line ("Results, nweek 7: 10, 12
# and 15 pass; 11 fails"): the heading publishes them; what follows its colon is what they are
_RESULTS_LINE = re.compile(r"^(?P<head>(?:the\s++)?+(?:voting\s++)?+results(?:\s++of\s++(?:the\s++)?+voting)?+\s*+,?\s*+"
                           r"(?:for\s++|of\s++)?+nweek\s++\d{1,4}+)\s*+:\s*+\S", re.I)


# the capacity an intent is announced in, said before it: no part of what is intended
# "Under Rule 4E71, I ...", "Pursuant to Rule 4E77, I ...", "As Registrar, and pursuant to Rule
# 4E39, I ...", "as MetaMin and under Rule 4E40, I ...": the rule (and capacity) the action is
# done by, said first (Rule 4E7: no part of the action's words)
_CITED_FIRST = re.compile(r"^(?:(?:then|and|so|also)\s*+,?+\s++)?+(?:as\s++(?:the\s++)?(?-i:[A-Z])[\w'’-]{1,30}+"
                          r"(?:\s++(?:of\s++)?(?-i:[A-Z])[\w'’-]{1,30}+){0,2}+\s*+(?:,\s*+(?:and\s++)?+|and\s++))?+"
                          r"(?:under|pursuant\s++to|per|in\s++accordance\s++with|according\s++to|as\s++per"
                          r"|as\s++(?:allowed|permitted|required)\s++by)\s++(?:step\s++\d{1,2}+\s++of\s++)?+"
                          r"(?:rule\s++)?+4E\d{1,3}+\s*+,\s*+(?=i\s)", re.I)
_CAPACITY_BEFORE_INTENT = re.compile(r"^as\s++(?:the\s++)?[A-Z][\w'’-]{1,30}+(?:\s++(?:of\s++)?[A-Z][\w'’-]{1,30}+){0,2}"
                                     r"(?:\s*+\([^()]{0,60}+\))?+\s*+,?\s*+(?=i\s++intend\b)", re.I)


# "..., and I intend, with 2 supporters, to ...", "I withdraw that intent, and instead I intend
# ...": a second intent in one sentence is a sentence of its own (its conditions are its own)
_SECOND_INTENT = re.compile(r"(?<!\s)(?:\s*+,)?+\s++and\s++(?:(?:then|also|instead|separately)\s++)*+(?=i\s++(?:also\s++)?intend\b)",
                            re.I)
# "i vote in favour of 11 and against 12": the Vote word after "and" is 12's alone (what "in
# favour of" 11 is, Rule 4E15's words or not, is said before it)
_FAVOUR_THEN_VOTE = re.compile(r"\bin\s++favou?r\s++of\s[^.;]{1,120}?(?<!\s)(?=(?:\s*+,)?+\s++and\s++"
                               r"(?:for|against|abstain|shelve)\b)", re.I)


# the way an announced action was allowed, said before it (Rules 4E21, 4E22): "With Dana's
# support, I ...", "Having received no objections, I ..."; never before an intent itself
_METHOD_FRONTED = re.compile(r"(?:with|given|having\s++(?:received|had|got|gotten|heard))\s++[^,;:]{1,80}?"
                             r"\b(?:support|supporters|objections?)\b[^,;:]{0,40}?[,;:]\s*+"
                             r"(?=i\s++(?!intend|plan\b|announce|hereby\s++intend))", re.I)
# a thing named by its kind and number, in words said before the action ("... to my intent to
# activate Tweak 3, I Activate it"): what "it" in the action stands for
_NAMED_THING = re.compile(r"\b(?:tweak|proposal|consultation|indictment|contract|intent)\s++#?+\d{1,6}+\b", re.I)
_IT_WORD = re.compile(r"\bit\b")


def _method_dropped(body: str) -> str:
    """The way the action was allowed, said first, dropped; "it" in the action is the one
    thing it named ("Having heard no objection to my intent to activate Tweak 3, I Activate it")."""
    m = _METHOD_FRONTED.match(body)
    if m is None:
        return body
    rest = body[m.end():]
    named = _NAMED_THING.findall(m.group(0))
    if len(named) == 1 and _IT_WORD.search(rest):
        rest = _IT_WORD.sub(named[0], rest, count=1)
    return rest


@cache
def _counted_all() -> re.Pattern:
    """"all seven Open Proposals", "each of the 4 proposals", "all four open ones": a count of
    the Open proposals (words.toml's numbers, or digits), which is all of them (Rule 4E15)."""
    counts = sorted((w for w, v in words()["numbers"].items() if v > 1 and not w.endswith("ice")),
                    key=len, reverse=True)
    return re.compile(r"\b(?:all(?:\s++of)?+(?:\s++the)?+|each\s++of\s++the|every\s++one\s++of\s++the|the)\s++"
                      r"(?:" + "|".join(counts) + r"|\d{1,3}+)\s++(?:(?:open|current|currently\s++open)\s++)?+"
                      r"(?:proposals|(?<!the\s)ones)\b", re.I)


_WITHDRAWN = re.compile(r"withdrawn\s*+[.!]*+", re.I)
_ASKED_TO_ZOT = re.compile(r"(?:dear\s++)?+(?P<who>[\w'’-]{1,30}+(?:\s++[\w'’-]{1,30}+)?+)\s*+,\s*+"
                           r"(?:(?:please|kindly|(?:could|would|can)\s++you(?:\s++please)?+"
                           # "Chuck, I'd like you to ZOT Consultation 5"
                           r"|i['’]d\s++like\s++you\s++to|i\s++would\s++like\s++you\s++to|i\s++ask\s++you\s++to)\s++)?+"
                           r"zot\s++(?P<rest>\S.*+)$", re.I)


def _asked_to_zot(body: str) -> str:
    """Rule 4E18: the Priest "requests" the Oracle to ZOT: "Chuck, please ZOT Consultation 5"
    said to the Oracle (by name, or as "Oracle") is "I request a ZOT of Consultation 5"."""
    m = _ASKED_TO_ZOT.match(body)
    vocab = _VOCAB.get()
    if m is None or vocab is None:
        return body
    who = m.group("who").lower()
    office = vocab.ministries.get("oracle")
    holder = vocab.holders.get(office) if office else None
    if not (office and (vocab.ministries.get(who) == office or holder and who == holder.lower())):
        return body
    # ("Chuck, could you please ZOT Consultation 5?": a request put as a question is the request)
    return "I request a ZOT of " + m.group("rest").rstrip("?")


_NUMBERED_AS = re.compile(r"(?:(?P<what>[^.;:]{1,100}?)\s++(?:is|has\s++been|was\s++just)\s++(?:assigned|given)\s++"
                         r"|(?P<what2>[^.;:]{1,100}?)\s++gets\s++|(?:i\s++)?+assigned\s++"
                         r"|i\s++(?:hereby\s++)?+number\s++(?P<what3>[^.;:]{1,100}?)\s++as\s++(?=proposal))"     # (not "as number 7")
                         r"(?:the\s++)?+(?:proposal\s++number|proposal\s++no\.?+|proposal|number)\s*+#?+(?P<n>\d{1,6}+)$",
                         re.I)


# Rule 4E18: "I number this Consultation 7": the Consultation named by the words before, and
# the number it is given after them (never "Consultation 7")
_CONSULTATION_NUMBERED = re.compile(r"^(?P<head>(?i:i\s++(?:hereby\s++|also\s++)?+(?:re)?+number\s++)"
                                    r"(?:(?i:this|that|the|the\s++above|the\s++quoted|his|her|their|my)"
                                    r"|[A-Z][\w’'-]{1,30}+['’]s)\s++(?i:consultation))\s++#?+(?P<n>\d{1,6}+)\b")


# Rule 4E7: a sender who corrects emself within the sentence takes the action as corrected:
# "FOR 14 -- no wait, AGAINST 14", "I give m30 -- sorry, m3 -- to Bob", "I support Intent 3
# -- no, sorry, I mean I object to it"
_CORRECTION = re.compile(r"(?<!\s)\s*+(?:--|[—–,;])\s*+"
                         r"(?:no\s*+,?+\s*+wait|wait\s*+,?+\s*+no|no\s*+,?+\s*+sorry|sorry|oops|correction"
                         r"|or\s++rather|make\s++that|i\s++mean)\b\s*+[,:]?+"
                         r"(?:\s*+i\s++mean\b\s*+,?+)?+\s*+"
                         # "I vote ABSTAIN on 12 I mean 14": "I mean" with no stop before it
                         r"|(?<=\w)\s++i\s++mean\s++", re.I)
# "Object: it still says 17 is Blank.": an action said in a word or two, then why, after a colon
_LABEL_THEN_WHY = re.compile(r"^(?P<head>[A-Za-z][\w'’]*+(?:\s++[\w'’]++){0,2}+)\s*+:\s++(?P<why>\S.*)$")
# "I, the Chairman, ...", "I, Bob, ...", "I, for one, ...": the writer said again, then the action
# a long lead-in that ends by saying what the thing is: the action after it
_WHICH_IS_THAT = re.compile(r"^[^.;:]{1,200}?,\s++which\s++is\s++that\s++(?=i\s)", re.I)
# the sender naming emself as the one who acts, in the third person (as on Agora's lists):
# "Chuck, as Juror on Indictment 2, finds Wooble GUILTY", "Wooble votes FOR 11" from Wooble
_SELF_NAMED = re.compile(r"^(?P<name>[A-Z][\w'’-]{0,30}+)(?P<aside>\s*+,[^,]{1,80}+,)?+\s++(?:hereby\s++)?+"
                         r"(?P<verb>[a-z]{2,20}+)(?P<rest>\s.*)$", re.S)


_OUTCOME_VERBS = frozenset(words()["reader"]["outcome_verbs"])


def _self_named(body: str) -> str:
    vocab = _VOCAB.get()
    if vocab is None or not vocab.actor or body[:len(vocab.actor)].lower() != vocab.actor.lower():
        return body
    m = _SELF_NAMED.match(body)
    if m is None or m.group("name").lower() != vocab.actor.lower() or not m.group("verb").endswith("s"):
        return body
    said = m.group("verb")
    if said.lower() in _OUTCOME_VERBS:
        return body         # "2. Bob becomes the Minister of Ministry": what a text makes so, not done
    heads = _verbs().heads
    base = next((b for b in (said[:-1], said[:-2] if said.endswith("es") else "") if b and b in heads), None)
    if base is None:
        return body
    return f"I{m.group('aside') or ''} {base}{m.group('rest')}"


_SELF_DESCRIBED = re.compile(r"^i\s*+,\s*+(?:(?:the|a|an|as|for)\s++[^,]{1,40}+|[A-Z][\w'’-]{1,30}+)\s*+,\s*+(?=[a-z])", re.I)
_OWN_COUNT = re.compile(r"\b(?P<own>(?:my|his|her|their|eir)\s++own)\s++(?:two|three|four|five|six|[2-9])\b"
                        r"(?!\s*+(?:points?|mackerel|macks?|socks?|m\d))", re.I)
_AS_PER = re.compile(r"\bas\s++per\b", re.I)
_CLOSING_DASH = re.compile(r"(?<!\s)\s*+(?:--|[—–])\s*+")
_IT_CORRECTED = re.compile(r"\b(?:it|that\s++one)\b", re.I)
_CORRECTABLE = frozenset({"ref", "ministry", "num"})     # the things "it" may stand for there
_LIST_GAP = re.compile(r"(?<!\s)\s*+,(?:\s*+,)++|(?<!\s)\s++,")     # ", ," and " ," left where one was taken out


def _corrected(body: str, in_transaction: bool) -> list[Reading] | None:
    """The readings of a sentence its sender corrects part-way, or None when it is not
    one: what follows the correction, read alone, when it is a whole action ("it" there
    being what the corrected part named); else what follows put in place of the words of
    the same kind it corrects ("m3" for "m30")."""
    m = _CORRECTION.search(body)
    if m is None or m.start() == 0:
        return None
    before, after = body[:m.start()], body[m.end():]
    close = _CLOSING_DASH.search(after)
    rest = ""
    if close is not None:
        after, rest = after[:close.start()], after[close.end():]
    if not after.strip():
        return None
    vocab = _VOCAB.get()
    said = lex(before, vocab)
    named = [t for t in said if any(k in _CORRECTABLE for k, _ in t.senses)]
    whole = f"{after} {rest}".strip()
    if named and _IT_CORRECTED.search(whole):
        whole = _IT_CORRECTED.sub(lambda _: named[-1].text, whole, count=1)
    got = read_sentence(whole, in_transaction)
    if got and all(r.kind == "action" for r in got):
        kept = _kept_before_the_last(before, after, in_transaction)
        if any(k.spec is g.spec and _what_it_acts_on(k) & _what_it_acts_on(g) for k in kept for g in got):
            kept = []       # ("FOR 10 and AGAINST 11 -- sorry, other way round: AGAINST 10 and FOR 11")
        return kept + got
    fix = [t for t in lex(after, vocab) if t.low not in (",", ".")]
    if len(fix) == 2 and fix[0].low == "not" and fix[1].senses:
        # "I vote FOR 10, 11, and -- wait, no, not 11 -- 12": that one taken out, the rest read on
        gone = [t for t in said if t.low == fix[1].low]
        if not gone:
            return None
        t = gone[-1]
        cut = _LIST_GAP.sub(" ", f"{before[:t.start]} {before[t.end:]}")
        got = read_sentence(f"{cut.strip()} {rest}".strip(), in_transaction)
        return got if got and all(r.kind == "action" for r in got) else None
    if not fix or len(fix) > 3 or not fix[0].senses:
        return None
    kind = fix[0].senses[0][0]
    same = [t for t in said if t.has(kind)]
    if not same:
        return None
    t = same[-1]
    got = read_sentence(f"{before[:t.start]}{after.strip()}{before[t.end:]} {rest}".strip(), in_transaction)
    return got if got and all(r.kind == "action" for r in got) else None


_WORD = re.compile(r"[a-z0-9]++")


def _kept_before_the_last(before: str, after: str, in_transaction: bool) -> list[Reading]:
    """"I transfer m10 to Bob, m10 to Chuck, and 3 points -- sorry, I mean I exchange 3 points
    for mackerel": the correction, a whole action, says again the words of the last item
    of a list before it, and corrects that item only; the items before it stand."""
    said_before = before.rstrip()
    comma, joined = said_before.rfind(","), said_before.lower().rfind(" and ")
    at = max(comma, joined)             # (where the last item begins: after ", " or " and ")
    if at < 0 or len(said_before) - at > 66:
        return []
    last = said_before[at + 1:] if at == comma else said_before[at + 5:]
    item, said = _WORD.findall(last.lower()), set(_WORD.findall(after.lower()))
    item = item[1:] if item[:1] == ["and"] else item
    if not item or not all(w in said for w in item):
        return []
    kept = read_sentence(said_before[:at].strip(), in_transaction)
    return kept if kept and all(r.kind == "action" for r in kept) else []


def _what_it_acts_on(r: Reading) -> set[str]:
    """The things a reading acts on (its proposals, Players, Ministries ...), each as said."""
    kinds = REF_KINDS + ("player", "ministry")
    return {p.strip() for role in r.spec.roles if role.type in kinds
            for p in str(r.args.get(role.name) or "").split(",") if p.strip()} if r.spec else set()


# Rule 4E15, the Chairman's words in a reply: "Received; I assign it Proposal Number 18" is the
# number given to the proposal replied to ("it" before the number, not after "to")
_IT_NUMBERED = re.compile(r"^(?P<head>(?i:i\s++(?:hereby\s++)?+(?:assign|give|allocate)))\s++(?i:it)\s++(?i:the\s++)?+"
                          r"(?P<n>(?i:(?:proposal\s++)?+number)\s++#?+\d{1,6}+)\b")


# Rules 4E21, 4E22: a Player's open intents, named by whose they are
_INTENDED_BY = re.compile(r"\b(?:everything|all)\s++(?:that\s++)?(?P<who>[A-Z][\w'’-]{0,30}+)\s++"
                          r"(?:intends|has\s++(?:intended|announced))\b"
                          r"|\b(?:every|each)\s++(?:intent|intention)\s++(?:of|by|from)\s++(?P<by>[A-Z][\w-]{0,30}+)(?:['’]s)?+\b")


# "resubmit next nweek and I'll vote for it": what the sender will do once another has done
# something (Rule 4E7 knows no conditional actions): a promise, no action
_DO_AND_I_WILL = re.compile(r"(?:^|(?<=[;:,–—-]))\s*+(?P<imp>(?:please\s++)?+(?P<verb>[A-Za-z]++)\b[^.;:!?\n]{0,80}?)"
                            r"\s++and\s++i(?:['’]ll|\s++will|\s++shall)\s++\S[^.;!?\n]*+", re.I)
_NOT_IMPERATIVE = frozenset(words()["reader"]["subjects"]) | frozenset(words()["reader"]["finite_verbs"]) | frozenset(
    {"and", "but", "so", "then", "also", "now", "ok", "okay", "yes", "no", "well", "oh", "first", "today",
     "tomorrow", "later", "soon", "maybe", "perhaps", "in", "on", "at", "for", "after", "before", "as",
     "with", "by", "to", "from", "of", "my", "the", "a", "an", "all", "both", "each", "every", "meanwhile"})


def _promised_if_done(sentence: str) -> str:
    """The sentence without a promise made on a condition: "<do something> and I'll <act>",
    the first said to someone else (an imperative, with no "I" in it)."""
    for m in _DO_AND_I_WILL.finditer(sentence):
        if (m.group("verb").lower() in _NOT_IMPERATIVE or m.group("verb").upper() in _VOTE_WORDS
                or re.search(r"\b(?:i|my|i['’]m|i['’]ve)\b", m.group("imp"), re.I)):     # ("give me m10": said to another)
            continue
        return sentence[:m.start()] + sentence[m.end():]
    return sentence


# "I schedule the following action: give m5 to Chuck on nday 3" (Rule 4E7: an action may be
# done later, at a time said)
_SCHEDULE_SAID = re.compile(r"\s*+i\s++(?:hereby\s++|now\s++)?+schedule\s++(?:(?:the\s++)?following\s++"
                            r"(?:game\s++)?actions?|(?:that\s++)?i\b)?+\s*+[:,–—-]?+\s*+(?P<act>\S.*+)", re.I | re.S)


# "I schedule a vote FOR 11", "... my votes": the action named by its noun
_SCHEDULED_VOTE = re.compile(r"^(?:a|my|the)\s++votes?+\b(?=\s)", re.I)


# "Schedule: on Thirnight I vote FOR 10": a label, and the action with its time after it
_SCHEDULE_LABEL = re.compile(r"^\s*+(?:(?:to\s++)?+schedule(?:d\s++actions?+)?+|scheduling\s++my\s++[^:.;!?]{1,50}+)"
                             r"\s*+:\s*+(?=\S)", re.I)
# a lead that says when what follows its colon is to be done (Rule 4E7): "I will perform the
# following at 12:00 UTC tomorrow:", "Scheduled for Zarpint:", "On Zarpint I will do this:"
_LEAD_TIME = r"(?:[^:]|(?<=\d):(?=\d)){2,60}"          # (a time's own colon, "12:00", is no end of the lead)
_I_WILL = r"(?:i\s++will|i['’]ll|i\s++shall)"
_TIMED_LEAD = re.compile(r"^\s*+(?:" + _I_WILL + r"\s++(?:perform|do|take|carry\s++out)\s++the\s++following"
                         r"(?:\s++(?:game\s++)?+actions?+)?+\s++(?P<t1>" + _LEAD_TIME + r")"
                         r"|scheduled\s++(?:for\s++)?+(?P<t2>" + _LEAD_TIME + r")"
                         r"|i\s++(?:hereby\s++)?+schedule\s++the\s++following(?:\s++(?:game\s++)?+actions?+)?+\s++"
                         r"(?:for\s++)?+(?P<t4>" + _LEAD_TIME + r")"
                         r"|(?P<t3>" + _LEAD_TIME + r")\s++" + _I_WILL + r"\s++(?:do|perform)\s++(?:this|the\s++following))"
                         r"\s*+:\s*+(?P<rest>\S.*+)$", re.I)


def _timed_lead(sentence: str) -> str:
    """The action after the lead, said at the lead's time ("at 12:00 UTC tomorrow, I submit
    ..."), where the lead's words are a time; the sentence as written otherwise."""
    m = _TIMED_LEAD.match(sentence)
    time = (m.group("t1") or m.group("t2") or m.group("t3") or m.group("t4")).strip(" ,")
    if m.group("t4") and not re.match(r"(?:on|at|by|from)\b", time, re.I):
        time = ("at " if time[:1].isdigit() else "on ") + time     # "... for nday 9:": on nday 9
    rest = m.group("rest")
    said = f"{time}, {rest if rest[:2].lower() == 'i ' else _imperative_said(rest)}"
    when, _ = split_when(said)
    return said if when is not None and when.kind != "invalid" else sentence


def _imperative_said(rest: str) -> str:
    """A command as the sender's own sentence: "give m5 to Bob" -> "I give m5 to Bob", "FOR 11"
    -> "I vote FOR 11"."""
    first = rest.split(None, 1)[0]
    return ("I vote " if first in _VOTE_WORDS else "I ") + rest


_TALLY_ROUND = re.compile(r"^\s*+round\s++\d{1,2}+\s*+:", re.I)
# "#3  Wooble: cause the Beast to give m20 to Wooble": an entry of a list, about another's thing
_LISTED = re.compile(r"^\s*+(?:#|no\.?+\s*+)?+\d{1,4}+[.)]?+\s++(?P<who>[A-Za-z][\w'’-]{1,30}+)\s*+:\s++(?P<rest>\S++)")


def _listed_entry(sentence: str) -> bool:
    """A list's entry: a number, a Player's name and a colon, then what is said of theirs
    ("#4  Alice: retitle Rule 4E9 ..."), never an action of the sender's (Rule 4E7); a Vote
    after it ("13 Wooble: FOR") is a ballot's line, read."""
    m = _LISTED.match(sentence)
    vocab = _VOCAB.get()
    return (m is not None and vocab is not None and m.group("who") in vocab.players
            and m.group("rest").upper().strip(".,!") not in _VOTE_WORDS)


# "I'd like to give m1 to Bob ..., but I'm about m265 short": a wish, then why it waits
_WISH = re.compile(r"\s*+i(?:\s++would|['’]d|\s++really)?+\s++(?:like|love|want|wish|hope)\s++to\s", re.I)
_BUT_I = re.compile(r"\bbut\s++(?:i|i['’]m|it['’]s|there['’]s|that['’]s|he|she|they)\b(?P<rest>[^.!?]{0,200}+)", re.I)
_WITHHELD = frozenset(words()["reader"]["withheld"]) | frozenset(words()["reader"]["negations"])


def _wish_withheld(sentence: str) -> bool:
    """A wish said with why it is not done now, after "but I ...": no action (Rule 4E7: what
    the sender says is done, and this says it is not)."""
    m = _WISH.match(sentence)
    but = _BUT_I.search(sentence, m.end()) if m is not None else None
    return but is not None and any(w in _WITHHELD for w in re.findall(r"[a-z'’]++", but.group("rest").lower()))


def _scheduled_said(sentence: str, in_transaction: bool) -> list[Reading] | None:
    """The action said after "I schedule (the following action):", at the time said with it;
    with no time, an attempt told that the time is missing, never done now."""
    m = _SCHEDULE_SAID.fullmatch(sentence.strip())
    if m is None:
        return None
    act = m.group("act").strip()
    act = _SCHEDULED_VOTE.sub("vote", act, count=1)      # "I schedule a vote FOR 11": the Vote to cast
    act = act if act[:2].lower() == "i " else "I " + act[:1].lower() + act[1:]
    got = read_sentence(act, in_transaction)
    if not got and _SCHEDULED_VOTE.match(m.group("act").strip() + " "):
        # "I schedule my vote.": neither the Vote nor the time said
        return [Reading(sentence, suggestions=("On nday 3, I vote FOR 12",),
                        error="not done: say the Vote and when; Rule 4E7 lets an action be done later "
                              "\"on nday N\" or \"at the start of the next nweek\", and Rule 4E15 needs "
                              "FOR, AGAINST, ABSTAIN or SHELVE and the proposal")]
    if not got or any(r.kind != "action" for r in got):
        return None
    if split_when(act)[0] is not None:
        return got
    return [Reading(sentence, suggestions=(f"On nday 3, {act}",),
                    error="not done: say when; Rule 4E7 lets an action be done later \"on nday N\", "
                          "\"at the start of the next nweek\", \"on YYYY-MM-DD at HH:MM UTC\" or "
                          "\"at HH:MM UTC [today|tomorrow]\"")]


_STATUS_SAID = re.compile(r"\((?:done|pending|not\s++yet|none\s++yet|to\s*+do|tbd|in\s++progress|ongoing"
                          r"|completed?+|finished|already\s++done)\)", re.I)


def read_sentence(sentence: str, in_transaction: bool = False) -> list[Reading]:
    """A normalised sentence: one reading, or one for each clause or object it joins
    (a time or an intent said before them applies to each). Read once per message:
    a line is tried as a document's head, and joined to the next, before it is read
    (a memo as _read_clause_memo's)."""
    in_transaction = in_transaction or _STEPS.get()
    memo = _MEMO.get()
    if memo is None:
        return _read_sentence(sentence, in_transaction)
    key = (sentence, in_transaction, _MENDING.get(), id(_VOCAB.get()))
    if key not in memo:
        memo[key] = _read_sentence(sentence, in_transaction)
    return _copies(memo[key])


def _read_sentence(sentence: str, in_transaction: bool) -> list[Reading]:
    if not sentence.strip():
        return []       # (nothing said: a line that was only a colon, "':' / '--'")
    if "(" in sentence and _STATUS_SAID.search(sentence):
        return []       # "publish the ballot (done), turn the Clock on (done)": a list of what is done, a report
    if "ntent" in sentence or "ntends" in sentence or "ntended" in sentence:
        # "I object to everything Alice intends", "... every intent of Bob's": all of theirs
        sentence = _INTENDED_BY.sub(lambda m: f"all of {m.group('who') or m.group('by')}'s intents", sentence)
    if "ntend" in sentence:
        parts = _SECOND_INTENT.split(sentence)
        if len(parts) > 1:
            return [r for p in parts if p.strip() for r in read_sentence(p, in_transaction)]
    if "favo" in sentence:
        m = _FAVOUR_THEN_VOTE.search(sentence)
        if m is not None:
            rest = re.sub(r"^\s*+,?+\s*+and\s++", "", sentence[m.end():])
            return read_sentence(sentence[:m.end()], in_transaction) + read_sentence("I vote " + rest, in_transaction)
    charge(16 * len(sentence) + 1500)     # the intent, time, clause and repeat patterns
    if " and i" in sentence.lower():
        sentence = _promised_if_done(sentence)
        if not sentence.strip():
            return []
    if " but " in sentence and _wish_withheld(sentence):
        return []
    if ":" in sentence[:40]:
        if _TALLY_ROUND.match(sentence):
            return []           # "Round 2: RP 1 3, RP 2 3 -> no majority": a tally's round (4E0, step 8)
        if _SCHEDULE_LABEL.match(sentence):
            sentence = _SCHEDULE_LABEL.sub("", sentence, count=1)    # "Schedule: on Thirnight I vote ..."
        elif _listed_entry(sentence):
            return []
    if ":" in sentence[:100] and _TIMED_LEAD.match(sentence):
        sentence = _timed_lead(sentence)          # "I will perform the following at 12:00 UTC tomorrow: I ..."
    if "chedul" in sentence[:30]:
        scheduled = _scheduled_said(sentence, in_transaction)
        if scheduled is not None:
            return scheduled
    if in_transaction:
        sentence = _ASSERT_LABEL.sub("I assert that ", _LABEL.sub("", sentence), count=1)
    body = _UNDER_INTENT.sub("", sentence)
    if "hich is that" in body:
        body = _WHICH_IS_THAT.sub("", body, count=1)   # "... one thing done before I forget, which is that I resign ..."
    if "that I" in body or "that i" in body:
        m = _RESULT_THAT.search(body)
        if m is not None and not _NOT_SO_BEFORE.search(body, 0, m.start()):
            body = body[m.end():]   # "the debate has got heated enough that I'm hoisting ...": the cause, then the action
    body = _self_named(body)
    if body[:2] in ("I,", "i,") and _SELF_DESCRIBED.match(body):
        body = _SELF_DESCRIBED.sub("I ", body, count=1)     # "I, the Chairman, revise ... and then resign it"
    if ":" in body[:24] and (body.split(None, 1)[0].rstrip(":").lower() in _verbs().by_first
                             or body.split(None, 1)[0].rstrip(":").lower() in _verbs().openers):
        labelled = _LABEL_THEN_WHY.match(body)
        if labelled is not None and not any(  # "Object: it still says 17 is Blank." (not "Support: Alice", a list)
                t.senses for t in lex(labelled.group("why"), _VOCAB.get())[:1]):
            head = read_sentence(labelled.group("head"), in_transaction)
            if head and all(r.kind == "action" for r in head) and not read_sentence(labelled.group("why"), in_transaction):
                return head
    if " own " in body:
        body = _OWN_COUNT.sub(r"\g<own>", body)      # "everything but my own two": how many, not a proposal
    if ("eport" in body or "isplay" in body) and "n" in body:
        body = _DISPLAY_DATED.sub(r"\g<what>", body)  # "the Registrar's report of nweek 7": which one, said (4E50)
    if " per " in body or " Per " in body:
        body = _AS_PER.sub("per", body)         # "... as per Intent 4": "per Intent 4", never a role "as"
    if ("-" in body or "," in body or ";" in body or "—" in body or "–" in body or " mean " in body) and _CORRECTION.search(body):
        corrected = _corrected(body, in_transaction)
        if corrected is not None:
            return corrected
    if "zot" in body or "ZOT" in body:
        body = _asked_to_zot(body)          # "Chuck, please ZOT Consultation 5" to the Oracle
    if body[:9].lower() == "withdrawn" and _WITHDRAWN.fullmatch(body):
        replied = _VOCAB.get()              # "Withdrawn." under one's own intent or proposal (4E21, 4E15)
        if replied is not None and (replied.replied_intents or replied.replied_proposals):
            body = "I withdraw it"
    body = _sub_at_start(_VOCATIVE, "", body) if "," in body[:40] or ":" in body[:40] else body
    if (body[:1] and body[:1] in "FAS" and body.split(None, 1)[0].rstrip(",:") in _VOTE_WORDS and (" on " in body or " at " in body)
            and split_when(body)[0] is None and split_when("I vote " + body.split(",")[0])[0] is not None):
        body = "I vote " + body         # "FOR 15 on Zarpint": a bare Vote, and when (Rule 4E7)
    if (" and " in body or ", " in body) and (" on " in body or " at " in body):
        each = _times_each(body, in_transaction)
        if each is not None:
            return each             # "I vote AGAINST 16 on Zarpint and FOR 16 on Thirnight"
    if body[:1].isalpha() and body[:2].lower() != "i " and not _no_time_said(body):
        body = _imperative_at_a_time(body)      # "on zarpint: vote FOR 11" (Rule 4E7)
    said, (when, body) = body, split_when(body)
    if when is not None and _time_of_another(said, when):
        when, body = None, said         # "..., but she gave Wooble m10 on Joel": when she did it
    if when is not None and when.kind == "invalid":
        return [Reading(sentence, suggestions=closest(body), when=when,
                        error=f"there is no such time: {when.text}")]
    body = _sub_at_start(_CITED_FIRST, "", body)        # "Under Rule 4E71, I intend, ...": the rule it is done by
    body = _sub_at_start(_CAPACITY_BEFORE_INTENT, "", body)      # "As Registrar, I intend, with support, ..."
    if "orum" in body:
        body = _FORUM_NAMED.sub(_forum_quoted, body, count=1)
    if "espectively" in body:
        body = _respectively(body)
    if "back" in body and _GIVE_BACK.match(body):
        body = _given_back(body)                    # "I give it straight back" (Rule 4E33)
    if " of " in body and ("it" in body or "th" in body or "my" in body):
        body = _PART_OF_IT.sub(r"\g<amount>", body)  # "I give m5 of it to the Beast": the amount said
    if "esults" in body[:20] and _RESULTS_LINE.match(body):
        body = _RESULTS_LINE.match(body).group("head")      # "Results, nweek 7: 10 passes; ..." (4E15)
    if "laims" in body[:30]:
        body = _claims_tallied(body)                # "Tally of Claims on Consultation 5: ..."
    if "unish" in body[:14] or "einforc" in body[:14]:
        body = _trick_named(body)                   # "I punish Fish Rain": the last Trick (Rule 4E71)
    if "first" in body and _FIRST_THEN.match(body):      # "RP1 first, then RP2": a Ballot (Rule 4E0)
        body = _FIRST_THEN.sub(lambda m: "I rank " + ", ".join(x for x in m.group("a", "b", "c") if x), body)
    if "umber" in body[:40] or "roposal" in body[-30:]:
        body = _numbering(body)                 # "Numbering: X becomes Proposal 18", "Numbered 18."
    if "assign" in body[:12].lower() and _ASSIGNED_AS_NUMBER.search(body):
        body = _ASSIGNED_AS_NUMBER.sub(lambda m: f" with the number {m.group('n') or m.group('n2')}", body)
    body = _sub_at_start(_INTEND_FRONTED, r"\g<head> \g<rest> \g<cond>", body)
    body = _sub_at_start(_INTEND_FIRST, _intend_first, body)
    body = _sub_at_start(_INTEND_PLAIN, r"\g<head> \g<rest> \g<cond>", body)
    if ", with" in body:
        body = _sub_at_start(_INTEND_MIDDLE, r"\g<head> \g<rest> \g<cond>", body)
    body = _sub_at_start(_INTENT_LABEL, lambda m: f"I intend to {m.group('rest')} {m.group('cond')}" if m.group("rest")
                         else f"I intend to {m.group('rest2')}", body)
    body = _DOING.sub(_doing_as_intent, body)
    if " of " in body:
        body = _sub_noun_of(body)
    if " and to " in body and _STANCE_TO.match(body):
        body = _AND_TO.sub(r"\g<sep> ", body)      # "I object to Wooble's intent and to Alice's intent"
    if "s " in body and ("ntent" in body or "thing" in body or "plan" in body or "cheme" in body):
        body = _NOUN_INTENT.sub(_intent_by_noun, body)     # "Bob's motnw intent", "Wooble's Beast thing"
    if ("rick" in body or "RICK" in body) and _STANCE_WORDS.search(body):
        body = _TRICK_INTENT.sub(_trick_intent, body)       # "I support Ais523's Trick"
    if "upport" in body or "bjection" in body:
        body = _method_dropped(body)                        # "With Dana's support, I set the motnw to ..."
    if "umber" in body and _NUMBERED_AS.match(body):
        # Rule 4E15, the Chairman's words: "Dana's "Sock Drawer" is assigned Proposal Number 18",
        # "I number Dana's "No More Armageddon" as Proposal 19": the Chairman numbering it
        m = _NUMBERED_AS.match(body)
        what = (m.group("what") or m.group("what2") or m.group("what3") or "").strip()
        body = f"I assign Proposal Number {m.group('n')}" + (f" to {what}" if what else "")
    if "umber" in body[:20]:
        body = _sub_at_start(_CONSULTATION_NUMBERED, r"\g<head> as \g<n>", body)
    if " it " in body[:30] and "umber" in body:
        body = _sub_at_start(_IT_NUMBERED, r"\g<head> \g<n> to it", body)    # "I assign it Proposal Number 18"
    if (" one" in body or "roposal" in body) and _VOTE_SAID.search(body):
        body = _titled_ones(body)
        if "roposal th" in body or "roposal wh" in body:
            body = _described(body)                  # "the proposal that puts the Beast on a diet"
    if ("roposals" in body or " ones" in body) and _counted_all().search(body):
        body = _counted_all().sub("all open proposals", body)   # "all seven Open Proposals", never Proposal 7
    if "ote" in body or "nswer" in body or "erdict" in body or " it " in body:   # "On 15 my vote is FOR"
        m = _ON_N_MY_VOTE.match(body)
        if m is not None:
            body = f"my {m.group('noun') or 'vote'} {m.group('on')} {m.group('rest')}"
        body = _WRITTEN_BY.sub(lambda m: f"{m.group('who') or m.group('by')}'s proposals", body)   # "everything Bob wrote"
    if ("very" in body or "ach" in body) and _RECURRING.search(body):
        got = [r for c in split_clauses(_RECURRING.sub(" ", body)) for r in _clause_readings(c, in_transaction)]
        if any(r.kind == "action" for r in got):
            # "Every Breakday I will give the Beast m1": Rule 4E7 times an action once
            return [Reading(sentence, suggestions=tuple(r.spec.example for r in got if r.spec)[:1],
                            error="not done: Rule 4E7 lets an action be done at a time said once "
                                  "(\"on nday N\"), not again and again; say each time, or "
                                  "schedule it again when it is done")]
    out: list[Reading] = []
    body = _without_doings_in_brackets(body)
    clauses = _text_after_colon(split_clauses(body), in_transaction)
    bare, asides = _asides(body)
    taken_back = next((a for a in asides if _TAKEN_BACK_ASIDE.search(a)), None) if asides else None
    if taken_back is not None and not _LAST_BIT.search(taken_back):
        return []       # "I turn the Clock Off (never mind, scratch this line)": taken back as said
    if asides and any(_CONDITION_ASIDE.match(a) for a in asides):
        meant = [r for c in split_clauses(bare) for r in _clause_readings(c, in_transaction) if r.kind == "action"]
        if meant:           # (a condition in brackets: Rule 4E7, as "I give m5 to Bob if ..." is)
            return [Reading(sentence, suggestions=(meant[0].spec.example,), error=_NO_CONDITIONS)]
    if asides and all(_GLOSS.fullmatch(a) or _WHOSE_GLOSS.fullmatch(a.strip()) for a in asides):
        # "except my own (16), which I vote FOR": a number in brackets that says again what the
        # words before it named, no more of the action; "On Proposal 12 (mine) I vote FOR":
        # whose it is, said of it
        glossed = read_sentence(bare, in_transaction)
        named = {str(v) for r in glossed for v in r.args.values()}
        named |= {p.strip() for v in list(named) for p in v.split(",")}
        said = [_GLOSS.fullmatch(a.strip()) for a in asides]
        mine = [(r, k) for r in glossed for k, v in r.args.items() if str(v) in ("mine", "this", "it")]
        if len(asides) == 1 and said[0] is not None and len(mine) == 1 and said[0].group("n") not in named:
            r, k = mine[0]              # "I withdraw my Refresh Proposal (RP 2)": the one meant, by number
            r.args[k] = said[0].group("n")
            r.read_as = r.spec.describe(r.args)
            named.add(said[0].group("n"))
            asides = [said[0].group("n")]
        if glossed and all(r.kind == "action" for r in glossed) and all(
                _WHOSE_GLOSS.fullmatch(a.strip()) or a.strip("#").strip() in named
                or _GLOSS.fullmatch(a.strip()) and _GLOSS.fullmatch(a.strip()).group("n") in named for a in asides):
            return glossed
    whole = [_clause_readings(c, in_transaction) for c in clauses] if asides else []
    said_aside: set = set()
    if asides and not all(got and all(r.kind == "action" for r in got) for got in whole):
        clauses = split_clauses(bare) + asides      # "I vote SHELVE on 10 (I want to rewrite it) and FOR 13"
        said_aside = set(asides)
    topic = None
    headings: list[tuple[int, int]] = []        # where a heading's readings are in `out`
    for k, clause in enumerate(clauses):
        own = None
        if k and "ntend" in clause:                 # "I submit the following Tweak and intend, without
            clause = _sub_at_start(_CITED_FIRST, "", clause)              # objection, to Activate it"
            clause = _sub_at_start(_CAPACITY_BEFORE_INTENT, "", clause)
            clause = _sub_at_start(_INTEND_FIRST, _intend_first, clause)   # ("..., and as Rulekeeper I intend")
        if k:                                       # "..., and on nday 1 of nweek 8 I turn the Clock On"
            own, said = split_when(clause)
            if own is not None and _time_of_another(clause, own):
                own = None                          # ("..., for the reasons I gave on Winday": when I gave them)
            if own is not None and own.kind != "invalid":
                clause = said
            else:
                own = None
        heading = _TOPIC.match(clause)
        if heading:
            topic = heading.group("number")         # "Proposal 15 (Tidy Up):" names what follows
        start = len(out)
        got = _clause_readings(clause, in_transaction)
        if not got and topic and not heading and not in_transaction:
            got = _not_a_vote(f"{clause} on {topic}") or []   # "Proposal 14: I vote in favour." (4E15)
        if not got or all(r.kind == "incomplete" and r.unread for r in got):
            got = _weak_verb_split(clause, in_transaction) or got     # "... to Dana and number it 6"
        if (not got or all(r.kind == "incomplete" for r in got)) and " and " in clause:
            got = _verb_carried(clause, in_transaction) or got       # "I give Alice m10 and Bob a Blue Sock"
        if k and (not got or all(r.kind == "incomplete" for r in got)) and _IT_ALONE.search(clause):
            got = _it_named_before(clause, clauses[:k], in_transaction) or got
        for r in got:
            if clause in said_aside and r.kind != "action":
                continue                            # said in passing: an action, or nothing
            if topic and not heading:
                _on_topic(r, topic)
            r.when = (own or when) if r.spec is not None else r.when
            if len(clauses) == 1:
                r.text = sentence
            out.append(r)
        if k + 1 < len(clauses) and clause + ":" in body:
            headings.append((start, len(out)))
    if taken_back is not None and out:
        out.pop()       # "... and support intent #4 (... so scratch that last bit)": the last one only
    for at, end in reversed(headings):
        if end == at + 1 and end < len(out) and _fills_each_other(out[at], out[end]):
            # "Changing my vote on 10: I now vote FOR it": the heading says what the action after
            # it lacks, and the action what the heading lacks: one action
            head, then = out[at], out[end]
            args = {**head.args, **then.args}
            out[at:end + 1] = [replace(then, args=args, missing=(), unread=(), text=sentence,
                                       read_as=then.spec.describe(args))]
            continue
        # "I cast my votes thus: FOR on 10, ...": a heading the actions after it fill is no
        # attempt of its own
        if (end > at and all(r.kind == "incomplete" for r in out[at:end])
                and any(r.kind == "action" for r in out[end:])):
            del out[at:end]
        elif end > at and all(r.kind == "action" and any(_said_again(r, o) for o in out[end:]) for r in out[at:end]):
            del out[at:end]     # "I'll take the Judge job: I assign the Ministry of Judging to myself, reward m90"
    _vote_replaced(out, sentence)
    return out


def _fills_each_other(head: Reading, then: Reading) -> bool:
    """Two attempts at one action, each lacking only roles the other says (and saying nothing
    the other says too, nor words left unread)."""
    return (head.kind == "incomplete" and then.kind == "incomplete" and head.spec is then.spec
            and not head.unread and not then.unread and head.when is None and then.when is None
            and set(head.args).isdisjoint(then.args)
            and set(head.missing) <= set(then.args) and set(then.missing) <= set(head.args))


def _said_again(head: Reading, then: Reading) -> bool:
    """The action after a heading's colon is the heading's own, said again in full: the same
    action, with every role the heading gave it the same."""
    return (then.kind == "action" and then.spec is head.spec
            and all(str(then.args.get(k)) == str(v) for k, v in head.args.items() if v not in (None, "")))


_IT_ALONE = re.compile(r"\bit\b", re.I)
_IT_KINDS = frozenset({"ref", "ministry"})


def _it_named_before(clause: str, before: list[str], in_transaction: bool) -> list[Reading]:
    """"I revise the Reward of the Ministry of Change to m40 and then resign it": a clause
    that reads as no whole action with its "it" reads as one with the one thing the clauses
    before it in the sentence name (one only: of two, neither is chosen)."""
    named = {t.text for c in before for t in lex(c, _VOCAB.get()) if any(k in _IT_KINDS for k, _ in t.senses)}
    if len(named) != 1:
        return []
    got = _clause_readings(_IT_ALONE.sub(named.pop(), clause, count=1), in_transaction)
    return got if got and all(r.kind == "action" for r in got) else []


_EACH_HEAD = re.compile(r"i\s++(?:(?:will|shall)\s++)?+(?P<verb>[a-z]++)\s", re.I)


def _times_each(body: str, in_transaction: bool) -> list[Reading] | None:
    """"I vote AGAINST 16 on Zarpint and FOR 16 on Thirnight": one verb over two actions, each
    with its own time (Rule 4E7): each part read with the verb and its time; None when the
    sentence is not so."""
    head = _EACH_HEAD.match(body)
    if head is None:
        return None
    parts = [p.strip() for p in _EACH_APART.split(body)]
    if not 2 <= len(parts) <= 6 or not all(parts):
        return None
    parts = parts[:1] + [p if p.lower().startswith("i ") else f"{body[:head.end()].strip()} {p}" for p in parts[1:]]
    if any(split_when(p)[0] is None for p in parts):
        return None
    got = [r for p in parts for r in read_sentence(p, in_transaction)]
    return got if got and all(r.kind == "action" and r.when is not None for r in got) else None


# between the parts, each with its time: " and ", ", ", ", and "
_EACH_APART = re.compile(r"(?<!\s)\s*+,\s*+(?:and\s++)?+|(?<!\s)\s++and\s++")


def _text_after_colon(clauses: list[str], in_transaction: bool) -> list[str]:
    """"CoE on the Registrar's report: I have m120, not m100": after a colon, the text an
    action lacking only that text is waiting for (the errors of a challenge, Rule 4E50),
    even when it begins with "I"; read alone, it would be another action."""
    k = 0
    while k < len(clauses) - 1:
        got = _clause_readings(clauses[k], in_transaction)
        if _waits_for_text(got):
            joined = clauses[k] + ": " + clauses[k + 1]
            again = _clause_readings(joined, in_transaction)
            if len(again) == 1 and again[0].kind == "action":
                clauses = clauses[:k] + [joined] + clauses[k + 2:]
                continue
        k += 1
    return clauses


# "Proposal 15 (Tidy Up, by Dana): I vote FOR": a heading that names the proposal the
# clauses after it are about (its title in brackets, or not)
_TOPIC = re.compile(r"^(?:re:?\s++|on\s++|for\s++)?+(?:proposal|prop\.?+|p)\s*+#?+(?P<number>\d++)"
                    r"(?:\s*+\([^()]*+\))?+\s*+$", re.I)


def _on_topic(r: Reading, number: str) -> None:
    """An attempt that leaves out only its proposal, under a heading that names one: the
    heading's proposal is the one meant (Rule 4E7: a target need only be unambiguous)."""
    if r.kind != "incomplete" or len(r.missing) != 1:
        return
    role = next((x for x in r.spec.roles
                 if x.name == r.missing[0] and x.type == "proposal"), None)
    if role is None:
        return
    r.args[role.name] = number
    r.missing = ()
    r.read_as = r.spec.describe(r.args)


# "(16)", "(#16)": a number in brackets, perhaps a gloss of what the words before it named
_GLOSS = re.compile(r"(?:#|rp|p|proposal|intent|refresh\s++proposal)?+\s*+#?+\s*+(?P<n>\d{1,6}+)", re.I)
_WHOSE_GLOSS = re.compile(r"(?:mine|my\s++own|yours|his|hers|theirs|ours|[A-Za-z][\w-]{0,30}+['’]s)", re.I)
# "(I want to rewrite it)" inside a sentence: a sentence of its own, said in passing
_PAREN_ASIDE = re.compile(r"(?<!\s)\s*+\((?P<said>[^()]*+)\)")     # (a run of spaces scanned once)


_TAKEN_BACK_ASIDE = re.compile(r"\b(?:scratch|ignore|disregard|strike)\s++(?:that|this)\b|\bnever\s++mind\b"
                               r"|\b(?:just\s++)?(?:kidding|joking)\b", re.I)


_LAST_BIT = re.compile(r"\b(?:last|final|second)\s++(?:bit|part|one|action|clause|half)\b", re.I)


def _asides(body: str) -> tuple[str, list[str]]:
    """A sentence without the sentences in brackets inside it, and those (each read as a
    clause of its own: "(and I give m5 to Bob)" is still an action)."""
    if "(" not in body:
        return body, []
    # (brackets inside quotation marks are part of what is quoted: 'to "Calvinball (Ignore This)"')
    quoted = [m.span() for m in _QUOTED_SPAN.finditer(body)] if '"' in body or "“" in body else []

    def aside(m: re.Match) -> bool:
        return not any(a <= m.start() < b for a, b in quoted)
    said = [normalise(m.group("said")) for m in _PAREN_ASIDE.finditer(body) if aside(m)]
    if not said:
        return body, []
    return normalise(_PAREN_ASIDE.sub(lambda m: "" if aside(m) else m.group(0), body)), [s for s in said if s]


# "my Intent #4 (retitling 4E9 to ...) is still open": a doing in brackets just after the
# intent (or proposal ...) it is of describes it, and takes no action
_DOING_FIRST = re.compile(r"\s*+[a-z]{3,20}+(?<=ing)\b", re.I)


def _without_doings_in_brackets(body: str) -> str:
    if "(" not in body or "ing" not in body:
        return body
    return _PAREN_ASIDE.sub(lambda m: "" if _DOING_FIRST.match(m.group("said"))
                            and _NAMED_BEFORE.search(body, max(0, m.start() - 40), m.start()) else m.group(0), body)


_NAMED_BEFORE = re.compile(r"\b(?:intent|intention|proposal|tweak|oracularity|consultation|indictment)s?+\s*+#?+\d{0,6}+$",
                           re.I)


# "Step 2:", "Assert:", "1." before a step of a Transaction (Rule 4E12)
_LABEL = re.compile(r"^(?:(?:step|item|action)\s*+#?\d*+\s*+[:.)-]\s*+|\(?\d++[.):]\s*+)", re.I)
# "Assert: Chuck holds at least m120" (Rule 4E12): the label says what the step is
_ASSERT_LABEL = re.compile(r"^assert(?:ion)?\s*+[:.-]\s*+", re.I)


def document_kind(reading: Reading) -> str | None:
    """The kind of document the action reads after its sentence, if any
    (also when it is announced as an intent: "I intend to submit the
    following Tidiness List without objection:")."""
    spec = reading.spec
    if spec is None:
        return None
    if spec.document:
        return spec.document
    if spec.name == "intend":
        m = _INTENDED.match(reading.args.get("rest", ""))
        found = match_action("I " + m.group("action")) if m else None
        return found[0].document if found else None
    return None


_FIELD_LABELS = frozenset({"question", "text", "body", "title", "the question", "the text"})


# "I revise Quiet Nweek. New title: "Quieter Nweek". New body:" over the text: the Title said as
# a field, then the label the text comes under (Rule 4E15: a proposal has a Title and a body)
_TITLE_THEN_BODY = re.compile(r"[.!]\s++(?:new\s++|revised\s++)?+title\s*+:\s*+(?P<t>[^\n:]{1,120}?)\.?+\s++"
                              r"(?:new\s++|revised\s++)?+(?:body|text)\s*+:\s*+$", re.I)


def _document_head(line: str) -> tuple[list[Reading], str] | None:
    """A line that submits a document: its readings, and the rest of the line
    after the colon, which begins the document."""
    if "itle" in line:
        line = _TITLE_THEN_BODY.sub(lambda m: ', with the title "%s", as follows:' % m.group("t").strip(' "“”'), line)
    head, colon, rest = line.partition(":")
    said = list(sentences(head)) if colon else []
    if len(said) > 1 and said[-1].strip().lower() in _FIELD_LABELS:
        # "I submit a Consultation. Question: Is the Beast a Player?": the label begins it
        head, rest = " ".join(said[:-1]), said[-1].strip() + ":" + rest
    for candidate, after in ((head, rest), (line, "")) if colon else ((line, ""),):
        readings = _once_each([r for s in sentences(candidate) for r in read_sentence(s)])
        # an attempt read only in part is no head: "I answer Consultation 1: Affirmative"
        # is one sentence, not "I answer Consultation 1" and a document
        if readings and readings[-1].kind == "action" and document_kind(readings[-1]):
            return readings, after.strip()
        # "I submit the following proposal, "Fish Friday", and set its colour to Baby Blue:":
        # the one action of the sentence that takes a document, the other after it done too
        takers = [r for r in readings if r.kind == "action" and document_kind(r)]
        if (colon and candidate is head and len(takers) == 1 and _FOLLOWING.search(takers[0].text)
                # (the other said of it: "set its colour", which names the new one once read)
                and all(r.kind == "action" or r.kind == "incomplete" and _ITS.search(r.text)
                        for r in readings if r is not takers[0])):
            return readings, after.strip()
    return None


def _once_each(readings: list[Reading]) -> list[Reading]:
    """A document's head that names what it submits twice ("my Refresh Proposal (RP 2)"): one
    submission of the one document."""
    out: list[Reading] = []
    for r in readings:
        if not any(r.spec is not None and o.spec is r.spec and o.kind == r.kind and o.args == r.args
                   and document_kind(r) for o in out):
            out.append(r)
    return out


# "the following proposal", "as follows", "below": a document said to come after the sentence
_FOLLOWING = re.compile(r"\b(?:following|follows|below|hereunder)\b", re.I)


# "(I'll still answer Consultation 5, don't worry.)": a remark to the reader, no Answer
_REMARK_NOT_ANSWER = re.compile(r"\s*+(?:don['’]?t|do\s++not|never\s++mind|no\s++worries)\b", re.I)


def _answer_not_a_remark(readings: list[Reading]) -> None:
    """An Answer taken as written (Rule 4E18: YES, NO or PARADOX, or words the handler
    judges) that is a remark said to the reader ("don't worry") answers nothing: the
    Answer is missing, and the attempt said so."""
    for r in readings:
        if (r.kind == "action" and r.spec is not None and r.spec.name == "answer_consultation"
                and _REMARK_NOT_ANSWER.match(str(r.args.get("word") or ""))):
            r.args.pop("word")
            r.missing = ("word",)
            r.read_as = r.spec.describe(r.args)


def _taking_document(head: list[Reading]) -> Reading:
    """The reading of a document's head that takes the document: the last one that does."""
    return next((r for r in reversed(head) if r.kind == "action" and document_kind(r)), head[-1])


def too_long(line: str, max_line: int) -> Reading:
    """A line longer than the configured limit: not read for actions (its reading says so)."""
    shown = line.strip()
    shown = shown[:60] + "…" if len(shown) > 60 else shown
    return Reading(shown, error=f"not read: this line is {len(line)} characters long, and bnomic "
                                f"reads lines of at most {max_line} characters for actions "
                                f"(limits.max_line = {max_line})")


MAX_SUGGESTED = 5


# a mail that opens by greeting one Player, on a line of its own: "Hi Dana,"
_GREETING = re.compile(r"^\s*+(?i:hi|hello|hey|dear)\s++(?P<name>[A-Z][\w'’-]{0,30}+)\s*+[,!:]?+[ \t]*+\n")


def _greeted(text: str, vocab: Vocabulary | None) -> Vocabulary | None:
    """"Hi Dana," over "I give you m2 for the trouble.": the Player greeted is "you" in the
    mail, as the one replied to is (Rule 4E7: a careful reader takes whom it is written to)."""
    if vocab is None or vocab.addressee or not vocab.players or text[:1] not in "HhDd \t":
        return vocab
    m = _GREETING.match(text)
    if m is None:
        return vocab
    name = next((p for p in vocab.players if p.lower() == m.group("name").lower()), None)
    return replace(vocab, addressee=name) if name and name != vocab.actor else vocab


# A form of labelled lines (words.toml [labelled]): "Action: <what is done>" (or "Gift: m5 to
# Wooble") and, on the lines after it, its roles by name ("Ministry: Society", "Reward: m45")
_LABELLED_HEAD = re.compile(r"^[ \t]*+(?:[-*•][ \t]*+)?+(?i:action|gift|request|intent|intention|notice\s++of\s++intent)[ \t]*+:", re.M)
_LABELLED_ALONE = re.compile(r"[ \t]*+(?P<key>[A-Za-z][A-Za-z ]{0,24}+)[ \t]*+:[ \t]*+")
_LABELLED_LINE = re.compile(r"[ \t]*+(?:[-*•][ \t]*+)?+(?P<key>[A-Za-z][A-Za-z ]{0,24}+)[ \t]*+:[ \t]*+(?P<value>\S.{0,300}+)")
_LABELLED_GLOSS = re.compile(r"(?<!\s)\s*+\([^()]{0,60}+\)")
_LABELLED = words()["labelled"]


def _role_line(line: str) -> str | None:
    """A labelled line of a form, as said in its sentence: a role ("Reward: m45" -> "reward
    m45"; one said as a sentence after it begins ". "), "" for a line that says why, None for
    any other line."""
    role = _LABELLED_LINE.fullmatch(line.rstrip())
    key = role.group("key").strip().lower() if role else ""
    if key in _LABELLED["skipped"]:
        return ""
    fmt = _LABELLED["roles"].get(key)
    return None if fmt is None else fmt.format(_LABELLED_GLOSS.sub("", role.group("value")).strip(" ."))


def _labelled_said(text: str) -> str:
    """Each form of labelled lines in the text said as the sentence it stands for ("Action:
    Usurp", "Ministry: Questions (Oracle)", "Proposed Reward: m45" -> "I usurp Questions reward
    m45"), where that sentence reads as actions (Rule 4E7: the words, in any form); any other
    line as it was."""
    lines = text.split("\n")
    out: list[str] = []
    k = 0
    while k < len(lines):
        head = _LABELLED_LINE.fullmatch(lines[k].rstrip())
        verb = _LABELLED["verbs"].get(head.group("key").strip().lower()) if head else None
        alone = _LABELLED_ALONE.fullmatch(lines[k].rstrip()) if verb is None else None
        if alone is not None:           # "Intent:" over "- what: ..." / "- how: ..."
            verb = _LABELLED["heads"].get(alone.group("key").strip().lower())
        if verb is None:
            out.append(lines[k])
            k += 1
            continue
        said = [verb] if alone is not None else [verb, head.group("value").strip()] if verb else [head.group("value").strip()]
        after: list[str] = []
        first = k                       # (its roles' lines may come before it: "When: ..." / "Action: ...")
        while first > 0 and (_role_line(lines[first - 1]) or ". ")[:2] != ". " and len(out) >= k - first + 1:
            first -= 1
        said[-1] = said[-1][:1].lower() + said[-1][1:] if not verb else said[-1]
        if alone is not None:
            first = k                   # (a heading alone: its roles are the lines under it)
        j = k + 1
        while j < len(lines) and (value := _role_line(lines[j])) is not None:
            if value:
                (after if value[:2] == ". " else said).append(value.lstrip(". "))   # (". ...": a sentence after it)
            j += 1
        said += [_role_line(line) for line in lines[first:k]]
        sentence = "I " + " ".join(said).rstrip(" .") + "."
        got = read_sentence(normalise(sentence))
        if got and all(r.kind == "action" for r in got):
            out[len(out) - (k - first):] = ["" for _ in range(k - first)]
            out.append(" ".join([sentence] + [a.rstrip(" .") + "." for a in after]))
            out.extend("" for _ in range(k + 1, j))     # (the roles' lines, said in the sentence)
            k = j
        else:
            out.append(lines[k])
            k += 1
    return "\n".join(out)


def read(text: str, vocab: Vocabulary | None = None, max_line: int | None = None,
         quoted: str = "") -> list[Reading]:
    """Every action, Transaction and near-miss in the text, in the order written;
    an action that takes a document gets it as `document` (the lines after it, or
    what {{ }} or BEGIN X ... END X hold). A line longer than `max_line` characters
    (outside a document) is not read: its Reading carries the reason in `error`.
    `quoted`: the lines the mail quotes, read only to answer "Same." under them."""
    if _NO_ACTION_HERE.search(text):
        return []       # "Disclaimer: nothing in this message is a game action." (Rule 4E7: the sender says so)
    vocab = _greeted(text, vocab)
    if (quoted or vocab is not None and vocab.replied_intents) and _agreeing(text, vocab):
        return _agreement(text, quoted, vocab, max_line)
    if quoted and _AGREED_FIRST.match(text.lstrip()):
        excepted = _agreed_except(text, vocab)
        if excepted is not None:            # "Same, except AGAINST 13", "Ditto on 10, but FOR 11"
            return _agreement_except(excepted, text, quoted, vocab, max_line)
    held = _transaction_with_documents(text)
    if held is not None:            # Rule 4E12 over documents (Rule 4E15): read in its parts
        above, inside, below = held
        token = _STEPS.set(True)            # (its sentences read as steps: "Assert that ...")
        try:
            steps = read(inside, vocab, max_line)
        finally:
            _STEPS.reset(token)
        return (read(above, vocab, max_line, quoted) if above.strip() else []) + [
            Reading("BEGIN TRANSACTION ... END TRANSACTION", steps=steps)] + (
            read(below, vocab, max_line) if below.strip() else [])
    token, vtoken, qtoken = _MEMO.set({}), _VOCAB.set(vocab), _QUOTED.set(quoted)
    kept = _UNREAD.get()
    utoken = _UNREAD.set([]) if kept is None else None
    try:
        readings: list[Reading] = []
        before = ""
        if "onsultation" in text and _ASKING_WHETHER.search(text):
            text = _asked_whether(text)
        if ("ction:" in text or "ift:" in text or "equest:" in text or "CTION:" in text or "IFT:" in text or "ntent" in text or "ntention" in text) and _LABELLED_HEAD.search(text):
            text = _labelled_said(text)        # "Action: Usurp" / "Ministry: Questions" / "Proposed Reward: m45"
        if "{{{" in text:                   # "{{{ ... }}}": a document's delimiters written thrice
            text = _THREE_CLOSE.sub("}}", _THREE_OPEN.sub("{{", text))
        if "\n{" in text or text.startswith("{"):
            text = _single_braces(text)
        parts = braces(text, _bodies(text) if "{{" in text else ())
        untaken = None                      # the document just before, if no action before it took it
        for k, (kind, part) in enumerate(parts):
            if kind == "doc":
                untaken = "" if _attach(readings, part, _attributes_above(before)) else part
            else:                               # ("Title: Sock Drawer" then {{ ... }})
                if k and parts[k - 1][0] == "doc":      # "{{ ... }} and intend, without objection, to Activate it."
                    part = _AND_AFTER_DOC.sub("I ", part, count=1)
                doc_next = k + 1 < len(parts) and parts[k + 1][0] == "doc"
                got = _read(the_beast_meant(the_address_meant(without_tags(part))), max_line, doc_next)
                if untaken is not None:
                    _submitted_above(got, untaken)
                    _said_of_the_document_above(got, readings)
                    untaken = None
                readings.extend(got)
                before = part
        _votes_each_said(readings)
        _disclaimed(readings, text)
        _several_said_each(readings)
        _paired_lists(readings)
        _both_at(readings)
        _exclaimed_then_said(readings)
        name_the_newcomer(readings, text)
        _the_rest(readings, vocab)
        _named_in_the_sentence(readings, vocab)     # (what the sentence names before what it replies to)
        _it_said_before(readings, vocab, text)
        _contract_said_first(readings, vocab, text)
        _the_quoted_intent(readings, vocab, quoted)
        _replied_to(readings, vocab)
        _whose_ministry(readings, vocab)
        _display_in_errors(readings, vocab, text)
        _challenge_answered(readings, vocab, text)
        _cancel_that(readings, vocab, text)
        _claimed_in_reply(readings, vocab, text)
        _intent_by_action(readings, vocab)
        _reason_after_method(readings)
        _each_intended(readings, vocab)
        _every_player(readings, vocab)
        _every_intent(readings, vocab)
        _by_title_words(readings, vocab)
        _title_quoted(readings)
        _its(readings)
        _named_in_the_sentence(readings, vocab)
        _the_new_one(readings)
        _numbered_documents(readings)
        _document_taken_back(readings)
        _without_document(readings)
        _said_once(readings)
        _answer_not_a_remark(readings)
        _timing_said(readings, text)
        _acted_on_and_done(readings, vocab)
        _done_with_no_intent(readings, vocab)
        _answer_to_come(readings)
        _vote_on_the_quoted(readings, vocab, quoted)
        _it_quoted(readings, vocab, quoted)
        _voted_as_quoted(readings, vocab, quoted, max_line, text)
        _him_said_before(readings, text, vocab)
        _default_currency(readings)
        _the_one_named(readings, text)
        _fine_as_punishment(readings)
        _verdict_under_heading(readings, text)
        _said_once(readings)        # (again, now that "the Claims as above" names Consultation 5)
        readings[:] = [r for r in readings if not _state_kept(r)]
        if utoken is not None:
            _vote_words_alone(readings, text, vocab, quoted)
            _said_unread(readings, _UNREAD.get(), text)
        return readings
    finally:
        _MEMO.reset(token)
        _VOCAB.reset(vtoken)
        _QUOTED.reset(qtoken)
        if utoken is not None:
            _UNREAD.reset(utoken)


# words around a Title's words that are not its words ("the proposal about the Beast")
_TITLE_FILLERS = frozenset({"the", "a", "an", "about", "on", "of", "for", "one", "thing"})


_ONE = re.compile(r"\bone\b(?!\s*+\d)", re.I)


_QUOTED_TITLE = re.compile(r"[\"\u201c](?P<t>[^\"\u201c\u201d]{1,200}+)[\"\u201d]")


def _title_quoted(readings: list[Reading]) -> None:
    """'with a new title, "Quieter Nweek", and the following text': a Title said with words
    around it is the words in quotation marks (Rule 4E15: a Title is the proposal's, never
    the sentence's)."""
    for r in readings:
        title = r.args.get("title") if r.spec is not None else None
        if not isinstance(title, str) or title.strip()[:1] in "\"\u201c" and title.strip()[-1:] in "\"\u201d":
            continue
        m = _QUOTED_TITLE.search(title)
        if m is not None:
            r.args["title"] = m.group("t").strip()
            r.read_as = r.spec.describe(r.args)


def _stem(word: str) -> str:
    """"socks" is "sock": a Title's word and the word said for it, without a plural s."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _title_words(vocab: Vocabulary | None) -> frozenset:
    if vocab is None or not vocab.proposals:
        return frozenset()
    return _words_of_titles(tuple(title for title, _ in vocab.proposals.values()))


@lru_cache(maxsize=64)
def _words_of_titles(titles: tuple) -> frozenset:
    return frozenset(_stem(w.lower()) for title in titles for w in re.findall(r"[A-Za-z]+", title or "")
                     if len(w) > 2)


def _title_words_said(toks, vocab: Vocabulary | None) -> int:
    """How many plain words of the clause are words of a proposal's Title."""
    words = _title_words(vocab)
    return sum(1 for t in toks if not t.senses and _stem(t.low) in words) if words else 0


def _all_title_words(unread: list[str], vocab: Vocabulary | None) -> bool:
    words = _title_words(vocab)
    said = [w for u in unread for w in u.lower().split()]
    return bool(said) and all(_stem(w) in words or w in _TITLE_FILLERS for w in said)


def _titled(words: set, vocab: Vocabulary, open_only: bool = False) -> list[int]:
    """The proposals whose Title has each word said: the word itself (without a plural s) or,
    of four letters or more, the start of one ("fish" of "Fishy")."""
    def has(title_words, w):
        return w in title_words or len(w) >= 4 and any(t.startswith(w) for t in title_words)
    pool = [n for n, (title, _) in sorted(vocab.proposals.items())
            if all(has({_stem(x.lower()) for x in re.findall(r"[A-Za-z]+", title or "")}, w) for w in words)]
    return [n for n in pool if n in vocab.open_proposals] if open_only else pool


_VOTE_SAID = re.compile(r"\b(?:vote|voting|(?-i:FOR|AGAINST|ABSTAIN|SHELVE))\b", re.I)
# "I vote FOR the fishy one and AGAINST the sock one": a proposal named by its Title's words and
# "one" (or "proposal"), in a sentence of Votes: that proposal, where one Open proposal's Title has them
_TITLE_ONE = re.compile(r"\b(?:the|(?P<who>[A-Z][A-Za-z0-9]{1,30}+)['’]s)\s++(?P<words>(?:[A-Za-z]{3,20}+\s++){1,3}?)(?:one|proposal)\b(?!\s*+\d)", re.I)


# "the proposal that puts the Beast on a diet": a proposal described, whose Title's words are
# all in what is said of it ("Beast Diet")
_PROPOSAL_THAT = re.compile(r"\bthe\s++proposal\s++(?:that|which)\s++(?P<desc>[^,.;:()]{3,120}+)", re.I)


def _described(body: str) -> str:
    vocab = _VOCAB.get()
    m = _PROPOSAL_THAT.search(body)
    if vocab is None or m is None or not vocab.open_proposals:
        return body
    said = {_stem(w.lower()) for w in re.findall(r"[A-Za-z]+", m.group("desc"))}
    fits = []
    for n in vocab.open_proposals:
        title = {_stem(w.lower()) for w in re.findall(r"[A-Za-z]+", vocab.proposals.get(n, ("", ""))[0] or "")}
        title -= _TITLE_FILLERS
        if title and all(len(w) > 2 for w in title) and title <= said:
            fits.append(n)
    return body[:m.start()] + f"proposal {fits[0]}" + body[m.end():] if len(fits) == 1 else body


def _titled_ones(body: str) -> str:
    vocab = _VOCAB.get()
    if vocab is None or not vocab.open_proposals:
        return body

    def one(m: re.Match) -> str:
        words = {_stem(w.lower()) for w in m.group("words").split() if w.lower() not in _TITLE_FILLERS}
        pool = _titled(words, vocab, open_only=True) if words and all(len(w) > 2 for w in words) else []
        if m.group("who"):              # "Bob's clock proposal": of Bob's, the one so titled
            whose = [n for n in vocab.open_proposals if (vocab.proposals.get(n, ("", ""))[1] or "").lower()
                     == m.group("who").lower()]
            pool = [n for n in pool if n in whose]
            if len(pool) > 1 and sorted(pool) == sorted(whose):
                return f"{m.group('who')}'s proposal"      # each of his is so titled: which is asked
        return f"Proposal {pool[0]}" if len(pool) == 1 else m.group(0)
    return _TITLE_ONE.sub(one, body)


def _by_title_words(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I vote FOR the clock proposal": a proposal named by words of its Title. The one
    (Open, for a Vote) whose Title has every word left unread is meant; two or more are
    ambiguous, each named (Rule 4E7), and nothing is done."""
    if vocab is None or not vocab.proposals:
        return
    for k, r in enumerate(readings):
        if r.kind != "incomplete" or r.spec is None or len(r.missing) != 1 or not r.unread:
            continue
        role = next((x for x in r.spec.roles if x.name == r.missing[0] and x.type == "proposal"), None)
        if role is None and r.missing[0].startswith("(the words"):
            # "the proposal about socks", "the Eras one": the words left are the Title's
            role = next((x for x in r.spec.roles if x.type == "proposal" and (
                r.args.get(x.name) == "this" or r.args.get(x.name) == "1" and _ONE.search(r.text))), None)
        said = [w for u in r.unread for w in u.lower().split()]
        if role is None or not said or not all(w.isalpha() for w in said):
            continue
        words = {_stem(w) for w in said if w not in _TITLE_FILLERS}
        if not words or not all(len(w) > 2 for w in words):
            continue
        pool = _titled(words, vocab, open_only=r.spec.name == "vote")
        if len(pool) == 1:
            r.args[role.name] = str(pool[0])
            r.missing, r.unread = (), ()
            r.read_as = r.spec.describe(r.args)
        elif pool:
            readings[k] = Reading(r.text, alternatives=tuple(
                r.spec.describe({**r.args, role.name: str(n)}) for n in pool))


_VOTE_ON = re.compile(r"\b(?:withdraw|retract|change|cancel|take\s++back|replace)\s++my\s++vote\s++(?:on|for|of)\s++"
                      r"(?:proposal\s++|p\s*+|#)?+(?P<n>\d++)\b", re.I)


def _vote_replaced(readings: list[Reading], sentence: str) -> None:
    """"I withdraw my vote on 10 and vote ABSTAIN instead": the Vote said after is on the
    proposal whose Vote the sentence takes back (Rule 4E15: the latest Vote counts)."""
    if "vote" not in sentence.lower():
        return
    for r in readings:
        if r.kind == "incomplete" and r.spec is not None and r.spec.name == "vote" and r.missing == ("which",):
            m = _VOTE_ON.search(sentence)
            if m:
                r.args["which"], r.missing = m.group("n"), ()
                r.read_as = r.spec.describe(r.args)


def _every_intent(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I object to all current intents": one reading per intent the game has open (Rule
    4E21: each objection is to one intent); with no game to ask, the role is missing."""
    for r in list(readings):
        said = r.args.get("target") if r.spec is not None else None
        if said not in ("all", "both"):
            continue
        k = readings.index(r)
        open_ = sorted(vocab.intents) if vocab is not None else []
        if said == "both":          # "I object to both": the two the mail answers, or the only two open
            replied = list(vocab.replied_intents) if vocab is not None else []
            open_ = replied if len(replied) == 2 else open_ if len(open_) == 2 and not replied else []
        if not open_:
            r.args.pop("target")
            r.missing = ("target",)
            continue
        # ("both outstanding intents, #3 and #4": the ones named again in the sentence, once)
        named = {str(x.args.get("target")) for x in readings
                 if x is not r and x.spec is r.spec and x.text == r.text}
        each = [replace(r, args={**r.args, "target": str(n)}) for n in open_ if str(n) not in named]
        for e in each:
            e.read_as = e.spec.describe(e.args)
        readings[k:k + 1] = each


_ITS = re.compile(r"\b(?:its|it)\b", re.I)


def _its(readings: list[Reading]) -> None:
    """"I revise Proposal 17 ... and I set its Proposal Color to Beige": an action missing
    only a thing it names as "its" or "it" takes the one of that kind the action just
    before it named, when that one named exactly one (Rule 4E7: what a careful reader takes)."""
    for k, r in enumerate(readings):
        if r.spec is None or not _ITS.search(r.text or ""):
            continue
        if r.kind == "incomplete" and len(r.missing) == 1:
            role = next((x for x in r.spec.roles if x.name == r.missing[0] and x.type in REF_KINDS), None)
        elif r.kind == "action":        # "..., then revise its Reward to m60": the Ministry just taken
            role = next((x for x in r.spec.roles if x.type == "ministry" and not r.args.get(x.name)), None)
        else:
            continue
        before = readings[k - 1] if k else None
        if role is None or before is None or before.spec is None or before.kind != "action":
            continue
        values = list(dict.fromkeys(str(v) for x in before.spec.roles if x.type == role.type
                                    for v in [before.args.get(x.name)] if v not in (None, "") and "," not in str(v)))
        if not values and role.type == "proposal" and before.spec.name == "submit_proposal":
            values = ["new"]            # "I submit this proposal and make it Chartreuse": the one just made
        # ("I assign Dana as Priest for this Consultation and give it the number 7": the one the
        # action before named as "this", the mail replied to, which the handler finds alike)
        if len(values) == 1 and (values[0].isdigit() or values[0] in ("new", "this") or role.type == "ministry"):
            r.args[role.name] = values[0]
            r.missing = ()
            r.read_as = r.spec.describe(r.args)


def _named_in_the_sentence(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"As Priest of Consultation 5 I request that the Oracle ZOT it", "As a member of the Jury
    for Indictment 2, I find Wooble guilty": an attempt missing only the thing it acts on
    takes the one thing of that kind its sentence names (in the capacity said before "I",
    or as "it" names); two named are not chosen between."""
    for r in readings:
        if r.kind != "incomplete" or r.spec is None or len(r.missing) != 1:
            continue
        role = next((x for x in r.spec.roles if x.name == r.missing[0] and x.type in REF_KINDS), None)
        if role is None:
            continue
        named = {str(t.sense("ref")[1]) for t in lex(r.text[:400], vocab)
                 if t.has("ref") and t.sense("ref")[0] == role.type and str(t.sense("ref")[1]).isdigit()}
        named -= {str(v) for v in r.args.values()}      # ("I number Consultation 3": 3 is which, not its number)
        if len(named) == 1:
            r.args[role.name] = named.pop()
            r.missing = ()
            r.read_as = r.spec.describe(r.args)


def _contract_said_first(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """"As provided in clause 4 of the Fishmongers' Guild (Contract 1), to which Bob and I are
    both parties, I delegate ...": an attempt missing only its Contract (Rule 4E45: "as
    specified by a Contract") takes the one Contract its own sentence names before it; two
    named are not chosen between."""
    for r in readings:
        if r.kind != "incomplete" or r.spec is None or len(r.missing) != 1:
            continue
        role = next((x for x in r.spec.roles if x.name == r.missing[0] and x.type == "contract"), None)
        at = text.find(r.text) if role is not None else -1
        if at <= 0:
            continue
        before = text[max(0, at - 400):at]
        before = re.split(r"[.!?\n]\s", before)[-1]            # (its own sentence only)
        named = {str(t.sense("ref")[1]) for t in lex(before, vocab)
                 if t.has("ref") and t.sense("ref")[0] == "contract" and str(t.sense("ref")[1]).isdigit()}
        if len(named) == 1:
            r.args[role.name] = named.pop()
            r.missing = ()
            r.read_as = r.spec.describe(r.args)


def _it_said_before(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """"Tweak 3 has been out for 3 ndays without objection. I activate it.": an attempt
    missing only the thing it calls "it", in a mail that answers none, acts on the one thing
    of that kind the sentences just before it name (Rule 4E7: a target need only be
    unambiguous); two named are not chosen between."""
    if vocab is not None and vocab.replying:
        return                  # ("it" in a reply is what it answers: _replied_to)
    for r in readings:
        if r.spec is None or not _IT_ALONE.search(r.text):
            continue
        if r.kind == "action":          # "I object to it": the intent left unnamed (_replied_to's, else)
            missing = tuple(x.name for x in r.spec.roles if x.type == "intent" and not r.args.get(x.name))
            if r.args.get("what") or r.args.get("about"):
                continue                # ("my intent to ...": named by what it does)
        else:
            missing = r.missing if r.kind == "incomplete" else ()
        if len(missing) != 1:
            continue
        role = next((x for x in r.spec.roles if x.name == missing[0] and x.type in REF_KINDS), None)
        at = text.find(r.text)
        if role is None or at <= 0:
            continue
        toks = lex(text[max(0, at - 400):at], vocab)
        named = {str(t.sense("ref")[1]) for t in toks
                 if t.has("ref") and t.sense("ref")[0] == role.type and str(t.sense("ref")[1]).isdigit()}
        numbers = {str(t.sense("num")) for t in toks if t.has("num") and not t.has("ref")}
        if len(named) == 1 and numbers <= named:    # ("Proposals 12 and 13 ...": 13 too, so neither)
            r.args[role.name] = named.pop()
            r.missing = ()
            r.read_as = r.spec.describe(r.args)


# the documents a Player may, having submitted one, go on to act on as "it" (Rule 4E77:
# "a Player can Activate a Tweak he submitted")
_NEW_KINDS = frozenset({"tweak"})
_IT = re.compile(r"\b(?:it|this\s++one|this)\b", re.I)


# a sender who says the message takes no action: then it takes none
_NO_ACTION_HERE = re.compile(r"\b(?:notes?\s++to\s++(?:self|myself)\b|nothing\s++in\s++this\s++(?:message|mail|e-?mail|post)\s++is\s++(?:a\s++)?game\s++"
                             r"actions?|this\s++(?:message|mail|e-?mail|post)\s++(?:contains|has|takes)\s++no\s++game\s++"
                             r"actions?|no\s++game\s++actions?\s++(?:in\s++this\s++(?:message|mail|post)|here)"
                             # "Corrections welcome; this is not a Game Action."
                             r"|(?:this|these|that|it)\s++(?:(?:message|mail|e-?mail|post|report|list)\s++)?+"
                             r"(?:is\s++not|are\s++not|isn['’]t|aren['’]t)\s++(?:an?\s++)?+game\s++actions?"
                             # "None of the following is a vote, I'm checking the line wrapping."
                             r"|none\s++of\s++(?:the\s++following|what\s++follows|the\s++below|this)\s++(?:is|are)\s++"
                             r"(?:an?\s++)?(?:game\s++)?(?:actions?|votes?))\b", re.I)
# HTML left in a plain-text part ("<ul><li>FOR 13</li>"): the tags are no words of the sender's
_BLOCK_TAG = re.compile(r"</?(?:li|ul|ol|p|br|div|tr|td|table|blockquote|h[1-6])\b[^<>\n]{0,200}+>", re.I)


def without_tags(text: str) -> str:
    """(Block tags only: an inline one, "Bo<b>ld</b>x", may be a part of a name as written.)"""
    if "<" not in text or ">" not in text:
        return text
    return _BLOCK_TAG.sub("\n", text)


_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++")
_STOP_BETWEEN = re.compile(r"[.;!?](?:\s|$)")
_ADDRESS_IT = re.compile(r"\b(?:add|remove|take|drop|delete|include|register|use)\s++(?P<it>it)\b", re.I)


_BEAST_IT = re.compile(r"\b(?:cause|teach|train|have)\s++(?P<it>it)\s++(?=to\b|the\b|a\b)", re.I)
_BEAST_SAID = re.compile(r"\b(?:beast|ocb)\b", re.I)


def the_beast_meant(text: str) -> str:
    """"I intend to cause the Beast to vote AGAINST 16. I also intend to cause it to give me
    m5": after the Beast is named, "cause it to" and "teach it" name the Beast (Rule 4E71:
    only the Beast is caused to act and taught Tricks)."""
    if "it" not in text or not _BEAST_SAID.search(text):
        return text
    first = _BEAST_SAID.search(text).start()
    return _BEAST_IT.sub(lambda m: m.group(0).replace(m.group("it"), "the Beast", 1)
                         if m.start() > first else m.group(0), text)


def the_address_meant(text: str) -> str:
    """"I'll be posting from chuck@work.example. Add it to my record." (Rule 4E4): "it"
    after an address's verb is the address said last before it."""
    if "@" not in text:
        return text
    addresses = [(a.end(), a.group(0)) for a in _ADDRESS.finditer(text)]
    ends = [end for end, _ in addresses]
    out, at = [], 0
    for m in _ADDRESS_IT.finditer(text):
        k = bisect.bisect_right(ends, m.start())
        if k and _STOP_BETWEEN.search(text, ends[k - 1], m.start()):     # (said in a sentence before)
            out.append(text[at:m.start("it")] + addresses[k - 1][1])
            at = m.end("it")
    return "".join(out) + text[at:]


_AGREEMENT = frozenset(" ".join(p.split()) for p in words()["reader"]["agreement"])
_SUPPORTING = frozenset(" ".join(p.split()) for p in words()["reader"]["agreement_support"])
_AGREEMENT_WORDS = re.compile(r"[a-z0-9+'’]+")
_ON_ALL = re.compile(r"(?<!\s)(?:\s++(?:on|for|to))?+\s++(?:all(?:\s++(?:three|four|five|six|seven|of\s++them|of\s++it))?+"
                     r"|both(?:\s++of\s++them)?+|everything)$")


_THREE_OPEN = re.compile(r"(?<!\{)\{\{\{(?!\{)")
_THREE_CLOSE = re.compile(r"(?<!\})\}\}\}(?!\})")
# after a document written inline, the same sentence goes on with the sender's next verb
_AND_AFTER_DOC = re.compile(r"^[ \t]*+,?+[ \t]*+(?i:and|then|and[ \t]++then)[ \t]++(?![Ii]\b)(?=[a-z])")


def _single_braces(text: str) -> str:
    """'Proposal "Tidy Up 2":' / "{" / its text / "}": a brace alone on its line, closed by one
    alone on a line below, delimits a document as "{{" and "}}" do."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "{":
            close = next((j for j in range(i + 1, min(len(lines), i + 400)) if lines[j].strip() in ("{", "}")), None)
            if close is not None and lines[close].strip() == "}":
                out.extend(["{{", *lines[i + 1:close], "}}"])
                i = close + 1
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def _agreeing(text: str, vocab: Vocabulary | None) -> str:
    """The phrase of agreement a mail consists of ("Same.", "Me too!", "+1", "Same as Alice."
    (a Player); a short sign-off after it may stand), or ""."""
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    if not lines or len(lines) > 2 or len(lines[0]) > 40 or len(lines) == 2 and len(lines[1].split()) > 2:
        return ""
    said = " ".join(_AGREEMENT_WORDS.findall(lines[0].lower().replace("’", "'")))
    said = _ON_ALL.sub("", said)                    # "Ditto, all three."
    if said.startswith("same as ") and vocab is not None and said[8:] in {p.lower() for p in vocab.players}:
        return "same"
    return said if said in _AGREEMENT or said in _SUPPORTING else ""


_STANCES = frozenset({"object", "support"})


# "Same, except AGAINST 13", "Same as Bob, except make 16 a SHELVE", "Ditto on 10, but FOR 11",
# "Agreed, AGAINST from me too": agreement with the quoted actions, then the sender's own words
_AGREED_FIRST = re.compile(r"(?i:same|ditto|agreed|likewise|me\s++too)\b")
_AGREED_SAID = "|".join(sorted((re.escape(p).replace("\\ ", r"\s++") for p in
                                _AGREEMENT | {"agreed"}), key=len, reverse=True))
_AGREED_HEAD = re.compile(r"(?P<said>" + _AGREED_SAID + r"|same\s++as\s++(?P<who>[\w'’-]{1,30}+))"
                          r"(?:\s++(?:on|for)\s++(?P<on>(?:(?:proposals?+|props?+|p|#|and|through|thru|to|&|-)\s*+"
                          r"|\d{1,4}+\s*+|,\s*+(?=\d))++))?+"
                          r"\s*+(?:[,.;:!-]++\s*+|(?<=\s)(?=(?:except|but|apart|other|save)\b))"
                          r"(?:(?:except|but|apart\s++from|other\s++than|save)\b[\s:,]*+)?+(?P<rest>\S.*+)?+$",
                          re.I | re.S)
_AGREED_ON_NUMBER = re.compile(r"\d{1,4}+")
_AGREED_RANGE = re.compile(r"(?P<a>\d{1,4}+)\s*+(?:through|thru|to|-)\s*+(?P<b>\d{1,4}+)", re.I)


@dataclass
class _Excepted:
    """An agreement said before the sender's own words (_agreed_except)."""
    on: frozenset          # the proposals it is limited to ("Ditto on 10"): empty, all
    rest: str               # what follows it: the sender's own actions, read as such


def _agreed_except(text: str, vocab: Vocabulary | None) -> "_Excepted | None":
    """The agreement a mail begins with, and the words after it, or None (no agreement phrase
    of words.toml `agreement`, "agreed", or "same as <a Player>"; nothing after it)."""
    m = _AGREED_HEAD.match(text.strip()[:2000])
    if m is None or not (m.group("rest") or m.group("on") or m.group("who")):
        return None
    if m.group("who") and (vocab is None or m.group("who").lower() not in {p.lower() for p in vocab.players}):
        return None             # "Same as 12, I think": no Player's actions agreed with
    on = m.group("on") or ""
    numbers = {int(n) for n in _AGREED_ON_NUMBER.findall(on)}
    for r in _AGREED_RANGE.finditer(on):
        a, b = int(r.group("a")), int(r.group("b"))
        if 0 <= b - a <= 50:
            numbers |= set(range(a, b + 1))
    return _Excepted(frozenset(numbers), m.group("rest") or "")


def _agreement_except(excepted: "_Excepted", text: str, quoted: str, vocab: Vocabulary | None,
                      max_line: int | None) -> list[Reading]:
    """The sender's own words after the agreement are read as ever; the agreement itself names
    no action of the sender's (Rule 4E15: a Vote is its word), so the receipt asks about the
    quoted actions it would take again, less those the sender's own words do otherwise (Rule
    4E7: nothing is guessed); with none such quoted, it asks for the actions to be said."""
    own = read(excepted.rest, vocab, max_line, quoted) if excepted.rest else []
    voted = {str(r.args.get("which")) for r in own if r.kind in ("action", "incomplete")
             and r.spec is not None and r.spec.name == "vote"}
    voted = {n.strip() for v in voted for n in v.split(",")}
    done = [each for r in read(quoted, vocab, max_line) if r.kind == "action" and r.read_as
            and r.spec is not None and r.spec.name not in _STANCES for each in _one_vote_each(r)]
    if excepted.on:
        done = [r for r in done if r.spec.name != "vote" or str(r.args.get("which")).isdigit()
                and int(r.args["which"]) in excepted.on]
    done = [r for r in done if r.spec.name != "vote" or str(r.args.get("which")) not in voted]
    head = text.strip().split("\n", 1)[0][:200]
    if not done and own:
        return own
    if done:
        asked = Reading(head, alternatives=tuple(f"{r.read_as} (as the quoted message)" for r in done)
                        + ("nothing: agreement is no Game Action",),
                        suggestions=tuple(f"I {r.read_as}" for r in done[:1]))
    else:
        asked = _no_own_action(head)
    return [asked] + own


def _one_vote_each(r: Reading) -> list[Reading]:
    """A Vote on several proposals as one Vote on each ("FOR on 10, 11 and 12"); another
    reading as it is."""
    which = str(r.args.get("which") or "")
    if r.spec.name != "vote" or "," not in which:
        return [r]
    out = []
    for n in which.split(","):
        args = {**r.args, "which": n.strip()}
        out.append(replace(r, args=args, read_as=r.spec.describe(args)))
    return out


def _no_own_action(text: str) -> Reading:
    return Reading(text, error="not done: agreement names no Game Action of your own (Rule 4E15: a Vote "
                               "is one of the words FOR, AGAINST, ABSTAIN or SHELVE); say each action")


def _agreement(text: str, quoted: str, vocab: Vocabulary | None, max_line: int | None) -> list[Reading]:
    """"Same." (or "Me too", "+1") under quoted lines that take actions: the sender names no
    action of his own. A Vote is its word (Rule 4E15: "one of the words FOR, AGAINST,
    ABSTAIN, or SHELVE"), an action is announced (Rule 4E7), so nothing is done and the
    receipt asks: the quoted actions, done by the sender, or nothing. "+1" under an intent
    may be support of it (Rule 4E22): that, or nothing."""
    said = _agreeing(text, vocab)
    if said in _SUPPORTING and vocab is not None and (vocab.replied_intents or vocab.quoted_intents):
        intents = vocab.replied_intents or vocab.quoted_intents
        return [Reading(text.strip(), alternatives=tuple(f"support intent {n}" for n in intents)
                        + ("nothing: agreement is no Game Action",),
                        suggestions=(f"I support intent {intents[0]}",))]
    if said not in _AGREEMENT:
        return []
    done = [r for r in read(quoted, vocab, max_line) if r.kind == "action" and r.read_as]
    if not done:
        # (quoted Votes bnomic cannot read as such, "> Re Proposal 12" / "> Vote: FOR": asked all the same)
        return [_no_own_action(text.strip())] if _VOTE_WORD.search(quoted) else []
    if all(r.spec is not None and r.spec.name in _STANCES for r in done):
        # "Me too." under "> I object to intent 4.": an Objection (or Support) needs no word of
        # its own (Rules 4E21, 4E22: "Objecting is a Game Action"); the one quoted, taken again
        return [replace(r, text=text.strip()) for r in done]
    return [Reading(text.strip(), alternatives=tuple(f"{r.read_as} (as the quoted message)" for r in done)
                    + ("nothing: agreement is no Game Action",),
                    suggestions=tuple(f"I {r.read_as}" for r in done[:1]))]


_QUOTE_MARKS = re.compile(r"(?m)^[ \t]*+(?:>[ \t]*+)++")


def _the_quoted_intent(readings: list[Reading], vocab: Vocabulary | None, quoted: str) -> None:
    """"I object." under a quoted announcement ("> I also intend, without objection, to
    retitle Rule 4E76 ..."): of the open intents (those the mail replied to, if it replies to
    any), the one that announced the quoted action is meant (Rules 4E21, 4E22), when exactly
    one did. An intent named in the sentence is left as said."""
    if vocab is None or not quoted or not vocab.intent_actions:
        return
    lacking = [r for r in readings if r.kind in ("action", "incomplete") and r.spec is not None
               and not any(v for n, v in r.args.items()
                           if not any(x.name == n and x.type == "intent" for x in r.spec.roles))
               for role in [next((x for x in r.spec.roles if x.type == "intent"), None)]
               if role is not None and r.args.get(role.name) in (None, "", "this")
               and (r.kind == "action" or r.missing == (role.name,))]
    if not lacking:
        return
    unquoted = _QUOTE_MARKS.sub("", quoted)            # (">> I intend ...", quoted in a quote)
    said = {r.args.get("rest") for r in read(unquoted, vocab) if r.kind == "action" and r.spec is not None
            and r.spec.name == "intend"}
    actions = set()
    for rest in said:
        m = INTENT_METHOD.match(str(rest or ""))
        found = match_action("I " + (m.group("action") if m else str(rest or "")), vocab)
        if found:
            actions.add(found[0].name)
    if len(actions) != 1:
        return
    pool = vocab.replied_intents or tuple(vocab.intents)
    meant = [n for n in pool if actions & set(vocab.intent_actions.get(n, ()))]
    if len(meant) != 1:
        return
    for r in lacking:
        role = next(x for x in r.spec.roles if x.type == "intent")
        r.args[role.name] = str(meant[0])
        r.missing = ()
        r.read_as = r.spec.describe(r.args)


# the officers' objects a message may name once and then act on ("The Jury has Decided Wooble
# Guilty on Indictment 2. I fine him m10."): the role type, and how the message names one
_NAMED_ONCE = {"indictment": re.compile(r"\bindictment\s*+(?:number\s++|no\.?\s*+)?#?\s*+(\d++)", re.I),
               "consultation": re.compile(r"\bconsultation\s*+(?:number\s++|no\.?\s*+)?#?\s*+(\d++)", re.I)}


_HIS = re.compile(r"\b(?:his|hers?|eir|their)\b(?=\s++[a-z])", re.I)


def _him_said_before(readings: list[Reading], text: str, vocab: Vocabulary | None) -> None:
    """"Chuck has not done a thing this nweek. I remove his Active property.": "him", "his"
    in an attempt that lacks its Player, where the message names exactly one Player (not the
    sender) before it, is that Player (Rule 4E7: the target is unambiguous)."""
    if vocab is None or not vocab.players:
        return
    for k, r in enumerate(readings):
        if r.kind != "incomplete" or r.spec is None or not (_HIM.search(r.text) or _HIS.search(r.text)):
            continue
        if not (set(r.unread) & {"him", "her", "em", "them"} or any(
                x.name in r.missing and x.type == "player" for x in r.spec.roles)):
            continue
        flat = " ".join(text.split())           # (as read: lines a mailer wrapped joined)
        at = flat.find(" ".join(r.text.split()))
        before = flat[:at] if at > 0 else ""
        named = {sense[1] for t in lex(before[-2000:], vocab) for sense in t.senses
                 if sense[0] == "player" and sense[1] != vocab.actor and t.low not in ("me", "myself", "you")}
        if len(named) != 1:
            continue
        who = next(iter(named))
        said = _HIS.sub(who + "'s", _HIM.sub(who, r.text))
        got = read_sentence(normalise(said))
        if len(got) == 1 and (got[0].kind == "action" or got[0].kind == "incomplete"
                              and len(got[0].missing) < len(r.missing) + len(r.unread)):
            got[0].text = r.text
            readings[k] = got[0]


_BARE_NUMBER = re.compile(r"(?<![\w#.$£€])(\d{1,9}+)(?![\w.:%$£€])")


def _default_currency(readings: list[Reading]) -> None:
    """"I give 5 to Chuck": an amount given with no currency is in "the default currency of this
    game", mackerel (Rule 4E34; Rule 4E33 has a gift specify a currency, and this one is the
    default): read as m5, when the sentence holds that one bare number."""
    for k, r in enumerate(readings):
        if r.kind != "incomplete" or r.spec is None or r.spec.name != "give" or r.missing != ("amount",):
            continue
        numbers = _BARE_NUMBER.findall(r.text)
        if len(numbers) != 1 or not set(r.unread) <= set(numbers):
            continue
        got = read_sentence(normalise(_BARE_NUMBER.sub(lambda m: "m" + m.group(1), r.text, count=1)))
        if len(got) == 1 and got[0].kind == "action" and got[0].spec is r.spec:
            got[0].text = r.text
            readings[k] = got[0]


def _the_one_named(readings: list[Reading], text: str) -> None:
    """An officer's action that leaves out only its Indictment (or Consultation), in a message
    that names exactly one ("Wooble having been found Guilty on Indictment 2, I assign a
    Punishment of a fine of m15"): that one (Rule 4E7: the target is unambiguous)."""
    for r in readings:
        if r.kind != "incomplete" or r.spec is None or len(r.missing) != 1 or r.unread:
            continue
        role = next((x for x in r.spec.roles if x.name == r.missing[0] and x.type in _NAMED_ONCE), None)
        if role is None or any(x.type == role.type and r.args.get(x.name) for x in r.spec.roles):
            continue            # ("I number Consultation 3": its one Consultation is said already)
        named = set(_NAMED_ONCE[role.type].findall(text))
        if len(named) == 1:
            r.args[role.name] = named.pop()
            r.missing = ()
            r.read_as = r.spec.describe(r.args)


# Rule 4E73: "a Punishment of a fine in macks": a Punishment written as one ("a fine of m15")
_A_FINE = re.compile(r"^\W*+(?:a\s++)?+fine\s++of\s++(?P<amount>m\s*+\d++|\d++\s*+(?:m|macks?|mackerels?))\W*+$", re.I)


# "Indictment 2: Wooble sent four messages ... GUILTY.": a heading naming the Indictment,
# a reason, then the answer said alone, in capitals as Rule 4E72 writes it
_INDICTMENT_HEADING = re.compile(r"\A\s*+indictment\s*+#?+(?P<n>\d++)\s*+:", re.I)
_ANSWER_ALONE = re.compile(r"(?:^|(?<=[.!?])\s)(?P<a>NOT GUILTY|GUILTY)[.!]?+\s*+$", re.M)


def _verdict_under_heading(readings: list[Reading], text: str) -> None:
    """Rule 4E72: a Juror's answer under a heading that names the Indictment, said after
    the juror's reasons ("Indictment 2: Wooble sent four messages in ten minutes. GUILTY.")."""
    if readings or "GUILTY" not in text:
        return
    head = _INDICTMENT_HEADING.match(text)
    answers = {m.group("a") for m in _ANSWER_ALONE.finditer(text)} if head else set()
    if len(answers) == 1:
        got = read_sentence(f"Indictment {head.group('n')}: {answers.pop()}.")
        if len(got) == 1 and got[0].kind == "action":
            readings.extend(got)


def _fine_as_punishment(readings: list[Reading]) -> None:
    for k, r in enumerate(readings):
        if r.kind == "action" and r.spec is not None and r.spec.name == "assign_punishment":
            m = _A_FINE.match(str(r.args.get("document") or ""))
            if m is None:
                continue
            amount = "m" + re.sub(r"\D", "", m.group("amount"))
            args = {"number": r.args.get("number"), "amount": amount,
                    **({"player": r.args["player"]} if r.args.get("player") else {})}
            made = _made("assign_fine", r.text, args)
            if made is not None:
                readings[k] = made


def _quoted_proposals(quoted: str, vocab: Vocabulary) -> list[int]:
    """The proposals the quoted lines name ("> Please, everyone, vote FOR 16."): by a
    reference ("Proposal 16", "P16"), or by a number after a vote word, in the game."""
    found: list[int] = []
    for line in quoted.splitlines()[:200]:
        toks = lex(line[:500], vocab)
        # (a line about voting names its proposals by number too: "Please vote on 12 and 14.")
        voting = any(t.low in _VOTE_WORDS_LOW or t.low in ("vote", "votes", "voting", "proposals") for t in toks)
        for k, t in enumerate(toks):
            ref = t.sense("ref")
            n = ref[1] if ref and ref[0] == "proposal" else (
                t.sense("num") if voting or k and toks[k - 1].low in _VOTE_WORDS_LOW else None)
            if isinstance(n, int) and n in vocab.proposals and n not in found:
                found.append(n)
    return found


def _vote_on_the_quoted(readings: list[Reading], vocab: Vocabulary | None, quoted: str) -> None:
    """"Persuaded. FOR." under "> Please, everyone, vote FOR 16.": a Vote that names no
    proposal, in a reply that quotes (or answers mail about) exactly one, is on that one
    (Rule 4E15; Rule 4E7: the target is unambiguous). Two or none: left missing."""
    both = [r for r in readings if r.kind == "action" and r.spec is not None and r.spec.name == "vote"
            and r.args.get("which") == "both"]
    lacking = [r for r in readings if r.kind == "incomplete" and r.spec is not None and r.spec.name == "vote"
               and r.missing == ("which",) and r.args.get("vote") and not r.unread]
    # "Not me: I vote AGAINST it." under "> Quick poll: who's voting FOR 16?"
    lacking += [r for r in readings if r.kind == "action" and r.spec is not None and r.spec.name == "vote"
                and r.args.get("which") == "this" and vocab is not None and not vocab.replied_proposals]
    if not lacking and not both:
        return
    named = []
    if vocab is not None and vocab.replying:
        named = _quoted_proposals(quoted, vocab) if quoted else []
        if not named and vocab.replied_proposals:
            named = list(vocab.replied_proposals)
    for r in both:          # "FOR on both." under "> Please vote on 12 and 14."
        if len(named) == 2:
            r.args["which"] = ", ".join(map(str, named))
        else:
            r.args.pop("which")
            r.missing = ("which",)
        r.read_as = r.spec.describe(r.args)
    if len(named) != 1:
        return
    for r in lacking:
        r.args["which"] = str(named[0])
        r.missing = ()
        r.read_as = r.spec.describe(r.args)


def _it_quoted(readings: list[Reading], vocab: Vocabulary | None, quoted: str) -> None:
    """"Then I usurp it again, at m30." under "> I revise the Chairman's Reward to m35.": an
    attempt missing only the Ministry it calls "it", in a reply, acts on the one Ministry the
    quoted lines name (Rule 4E7: the target is unambiguous); two, or none, are left missing.
    (A proposal or an intent so named: _vote_on_the_quoted, _replied_to.)"""
    if vocab is None or not vocab.replying or not quoted.strip():
        return
    lacking = [r for r in readings if r.kind == "incomplete" and r.spec is not None and len(r.missing) == 1
               and all(w.lower() == "it" for w in r.unread) and _IT_ALONE.search(r.text)
               and any(x.name == r.missing[0] and x.type == "ministry" for x in r.spec.roles)]
    if not lacking:
        return
    named = {t.sense("ministry") for line in quoted.splitlines()[:200] for t in lex(line[:500], vocab)
             if t.has("ministry")}
    if len(named) != 1:
        return
    for r in lacking:
        r.args[r.missing[0]] = next(iter(named))
        r.missing, r.unread = (), ()
        r.read_as = r.spec.describe(r.args)


# "I vote as above." under quoted Votes: those Votes, cast by the sender
_AS_ABOVE = re.compile(r"\s*+(?:i\s++)?+(?:(?:hereby|also)\s++)?+(?:vote|cast\s++my\s++votes?+)\s++(?:exactly\s++)?+as\s++"
                       r"(?:above|quoted|shown\s++above|written\s++above|in\s++the\s++quoted\s++(?:message|mail|text|lines))"
                       r"\s*+[.!]?+\s*+", re.I)


def _voted_as_quoted(readings: list[Reading], vocab: Vocabulary | None, quoted: str,
                     max_line: int | None, text: str = "") -> None:
    """"I vote as above." under "> FOR 13" / "> AGAINST 16": the Votes quoted, cast by the
    sender (Rule 4E15: the Vote words are there; Rule 4E7: "I vote as above" names them
    unambiguously). Under quoted lines with no Vote it stays unread. "I vote the same way
    on both" under them says the same of them."""
    at = [k for k, r in enumerate(readings) if _AS_ABOVE.fullmatch(r.text or "")]
    if not at and quoted.strip() and "same" in text and any(_SAME_VOTE.fullmatch(x) for x in sentences(text)):
        readings.append(Reading("I vote as above"))
        at = [len(readings) - 1]
    if not at:
        return
    votes = [r for r in read(quoted, vocab, max_line) if r.kind == "action" and r.spec is not None
             and r.spec.name == "vote"] if quoted.strip() else []
    if not votes:
        for k in at:            # (never a ranking of "this": no Ballot is quoted, Rule 4E0)
            made = _made("vote", readings[k].text, {})
            if made is not None:
                made.missing, made.read_as, made.suggestions = ("vote", "which"), "vote", (made.spec.example,)
                readings[k] = made
        return
    for k in reversed(at):
        readings[k:k + 1] = [Reading(r.text, r.spec, dict(r.args), r.times, read_as=r.read_as) for r in votes]


# "I vote the same way on both.", "Same here: I vote the same way on both." under quoted Votes
_SAME_VOTE = re.compile(r"(?:same\s++here\s*+[:,]\s*+)?+i\s++(?:also\s++)?+vote\s++(?:exactly\s++)?+the\s++same"
                        r"(?:\s++way)?+(?:\s++(?:on|for)\s++(?:both|all|them|each|all\s++of\s++them|both\s++of\s++them))?+"
                        r"\s*+[.!]?+", re.I)


_TO_COME = frozenset({"will", "would", "should", "shall", "could", "may", "might", "must", "won't", "wont",
                      "be", "comes", "coming", "soon", "later", "tomorrow"})


def _answer_to_come(readings: list[Reading]) -> None:
    """"The answer to Consultation 5 will be in by Thirnight": what an Answer will be, said
    before it is given, gives none (Rule 4E18: the Priest answers "as a Game Action")."""
    readings[:] = [r for r in readings if not (
        r.spec is not None and r.spec.name == "answer_consultation" and isinstance(r.args.get("word"), str)
        and r.args["word"].split(" ", 1)[0].lower() in _TO_COME)]


def _done_with_no_intent(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I'll just do it now instead. I give m10 to Dana.": "do it" names no intent where the
    sender has announced none (Rule 4E21) and the mail answers none: it is said of the
    action after it, and is no act of its own."""
    if vocab is None or not vocab.players:
        return
    mine = [n for n, who in vocab.intents.items() if who == vocab.actor]
    if mine or vocab.replied_intents or vocab.quoted_intents:
        return
    readings[:] = [r for r in readings if not (
        r.spec is not None and r.spec.name == "act_on_intent" and r.args.get("target") in (None, "", "this"))]


def _acted_on_and_done(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I act on Intent 3: I cause the Beast to give m20 to Wooble.": the action the intent
    announced, said as well as the acting on it, is the one performance (Rules 4E21, 4E22:
    the intent's author performs its action once); the acting on it is not read again."""
    acting = [r for r in readings if r.kind == "action" and r.spec is not None and r.spec.name == "act_on_intent"]
    if not acting:
        return
    done = {r.spec.name for r in readings if r.kind == "action" and r.spec is not None}
    for r in acting:
        target = str(r.args.get("target") or "")
        if target.isdigit() and vocab is not None:
            said = set(vocab.intent_actions.get(int(target), ()))
        elif vocab is not None and len(vocab.replied_intents) == 1:
            said = set(vocab.intent_actions.get(vocab.replied_intents[0], ()))
        else:
            said = set()
        if said & done:
            readings.remove(r)


def _the_new_one(readings: list[Reading]) -> None:
    """"I submit the following Tweak: {{ ... }} and I intend, without objection, to Activate
    it": the intent after a submission names the document just submitted, the sender's own
    newest of that kind ("my Tweak", which the handler finds)."""
    for k, r in enumerate(readings):
        if not k or r.spec is None or r.spec.name != "intend" or r.kind != "action":
            continue
        before = readings[k - 1]
        kind = document_kind(before) if before.kind == "action" else None
        rest = str(r.args.get("rest") or "")
        if kind not in _NEW_KINDS or before.spec.name == "intend" or not _IT.search(rest):
            continue
        said = _IT.sub(f"my {kind}", rest, count=1)
        m = _INTENDED.match(said)
        if m and match_action("I " + m.group("action"), _VOCAB.get()):
            r.args["rest"] = said
            r.read_as = r.spec.describe(r.args)


# Rule 4E71: a Trick's Timing, said in the message beside its document ("Timing: Anytime."
# under the {{ }}, "Its Timing is Voting.")
_TIMING_SAID = re.compile(r"(?:^|[\n.;!])[ \t]*+(?:its[ \t]++|the[ \t]++trick's[ \t]++)?timing[ \t]*+(?:is|:|=)[ \t]*+"
                          r"(?P<t>any[ \t]?+time|voting)\b", re.I)
_TIMING_IN = re.compile(r"^[ \t]*+timing[ \t]*+[:=]", re.I | re.M)


def _timing_said(readings: list[Reading], text: str) -> None:
    if "iming" not in text:
        return
    for r in readings:
        doc = r.args.get("document") if r.spec is not None else None
        if not isinstance(doc, str) or document_kind(r) != "trick" or _TIMING_IN.search(doc):
            continue
        m = _TIMING_SAID.search(text)
        if m:
            r.args["document"] = doc.rstrip() + "\nTiming: " + ("Voting" if m.group("t").lower() == "voting" else "Anytime")


# "For the record, I'm still Paranoid": a Mental State said as kept changes nothing (Rule 4E0:
# a PEP may change eir Mental State)
_STATE_KEPT = re.compile(r"\bi(?:['’]m|\s++am)\s++(?:still|already|currently|staying|remaining)\b", re.I)


def _state_kept(r: Reading) -> bool:
    return r.spec is not None and r.spec.name == "mental_state" and bool(_STATE_KEPT.search(r.text or ""))


_SAID_ONCE = frozenset(words()["reader"]["said_once"])


_SAID_AGAIN_WITH_LESS = frozenset({"assign_ministry"})


def _said_once(readings: list[Reading]) -> None:
    """"I no longer post from X; please take it off the list": an action that, done twice
    over, is done once (words.toml `said_once`) and is said again in the same message, is
    the same action said twice, not two (the second would only fail). Only the same as the
    last of its kind: "FOR 12 ... AGAINST 12 ... FOR 12" keeps all three, the last standing."""
    last: dict[str, tuple] = {}
    numbering = [r for r in readings if r.kind == "action" and r.spec is not None and r.spec.name == "number_proposals"]
    for r in numbering[1:]:         # Rule 4E15: the Chairman's numbering numbers every new proposal at once
        readings.remove(r)
    taken: dict[str, dict] = {}     # "I take the Ministry of Time at m100. I become the Doctor!"
    for r in list(readings):
        if r.kind == "action" and r.spec is not None and r.spec.name in _SAID_AGAIN_WITH_LESS and r.when is None:
            before = taken.get(str(r.args.get("ministry")))
            if before is not None and all(before.get(k) == v for k, v in r.args.items() if v not in (None, "")):
                readings.remove(r)      # the same Ministry taken again, said with less: one taking
                continue
            taken[str(r.args.get("ministry"))] = dict(r.args)
    for r in list(readings):
        if r.spec is None or r.spec.name not in _SAID_ONCE:
            continue
        key = (r.kind, repr(sorted(r.args.items())), repr(r.when), r.times)
        if r.kind == "action" and last.get(r.spec.name) == key:
            readings.remove(r)
        last[r.spec.name] = key


# an item of a numbered list of proposals: '1. "Beast Tax": The Beast destroys m10 ...'
_NUMBERED_ITEM = re.compile(r"^\s*+(?P<n>\d{1,2}+)[.)]\s++(?:(?P<title>\"[^\"\n]{1,80}+\"|“[^”\n]{1,80}+”)\s*+[:—–-]\s*+)?+",
                            re.M)


def _numbered_documents(readings: list[Reading]) -> None:
    """"I submit the following proposals:" over "1. "Beast Tax": ..." and "2. "Beast Refund":
    ...": one submission each (Rule 4E15: each proposal is submitted with its own text), its
    Title the quoted words before the colon."""
    for k in range(len(readings) - 1, -1, -1):
        r = readings[k]
        doc = str(r.args.get("document") or "") if r.spec is not None else ""
        if r.kind != "action" or not doc or document_kind(r) != "proposal" or not _SEVERAL_DOCUMENTS.search(r.text or ""):
            continue
        items = list(_NUMBERED_ITEM.finditer(doc))
        if len(items) < 2 or [int(m.group("n")) for m in items] != list(range(1, len(items) + 1)) or items[0].start():
            continue
        made = []
        for m, nxt in zip(items, items[1:] + [None]):
            body = doc[m.end():nxt.start() if nxt is not None else len(doc)].strip()
            args = {a: v for a, v in r.args.items() if a not in ("document", "title")}
            if m.group("title"):
                args["title"] = m.group("title").strip('"“”')
            made.append(replace(r, args={**args, "document": body}))
        readings[k:k + 1] = made


def _document_taken_back(readings: list[Reading]) -> None:
    """A submission whose document runs to the message's end and ends with a paragraph that
    takes it back ("...just kidding. I'm not submitting that.") was never made (Rule 4E7):
    the paragraph is the sender's own words, not the document's."""
    for r in list(readings):
        doc = str(r.args.get("document") or "") if r.spec is not None and r.kind == "action" else ""
        paragraphs = [p for p in re.split(r"\n[ \t]*+\n", doc.strip()) if p.strip()] if doc else []
        if len(paragraphs) < 2:
            continue
        last = paragraphs[-1]
        said = next(iter(sentences(last)), "")
        if said and (_takes_back(said) or _denied(last, [r])):
            readings.remove(r)


def _without_document(readings: list[Reading]) -> None:
    """"I submit a proposal." with no text after it or in {{ }}: Rule 4E8 wants "a full
    description of the Document in the ... message where they take the Action of
    Submitting", so the attempt is incomplete, missing its document."""
    for r in readings:
        if r.kind == "action" and r.spec.document_needed and not str(r.args.get("document") or "").strip():
            r.missing = ("document",)


_EXCEPT = re.compile(r"\b(?:except|but|excluding|apart\s++from|other\s++than|save\s++for)\b", re.I)
_EVERYONE = frozenset(" ".join(p) for p in EVERYONE)


# ("each of the other Players": "each" and "of the" are fillers before what the role took)
_EACH_PLAYER = re.compile(r"\b(?:each|every|all)(?:\s++of)?+(?:\s++the)?+\s++(?:other\s++)?+players?\b", re.I)


# "..., without objection, because apparently that's how we do things now": why, after the way
_WHY_AFTER = re.compile(r"(?<![\s,;])[\s,;]++(?:because|since|as|cos|cause|so\s++that|given\s++that)\b", re.I)


def _reason_after_method(readings: list[Reading]) -> None:
    """"I intend to resign as Oracle, without objection, because ...": the reason said after
    the way the intent is to be done (Rule 4E21) is no part of the intended action."""
    for r in readings:
        rest = r.args.get("rest") if r.kind == "action" and r.spec is not None and r.spec.name == "intend" else None
        if not isinstance(rest, str) or INTENT_METHOD.match(rest.strip()):
            continue
        for m in _WHY_AFTER.finditer(rest):
            if INTENT_METHOD.match(rest[:m.start()].strip()):
                r.args["rest"] = rest[:m.start()].strip()
                r.read_as = r.spec.describe(r.args)
                break


def _each_intended(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I intend, without objection, to cause the Beast to give m10 to each of Bob and
    Chuck": an intent is to perform one action (Rules 4E21, 4E71: "a single Game Action"),
    so one announced over several is one intent for each, each said as its own action."""
    for r in list(readings):
        if (r.kind != "action" or r.spec is None or r.spec.name != "intend"
                or not isinstance(r.args.get("rest"), str)):
            continue
        m = INTENT_METHOD.match(r.args["rest"].strip())
        if not m:
            continue
        action, cond = m.group("action"), m.group("cond")
        outer = read_clause("I " + action, vocab) or []
        head, inner, doer = "", outer, vocab
        if len(outer) == 1 and outer[0].kind == "action" and outer[0].spec.name == "beast_acts":
            rest = str(outer[0].args.get("rest") or "")
            if not rest or not action.endswith(rest):
                continue
            head, inner = action[:len(action) - len(rest)], read_clause("I " + rest, vocab) or []
            doer = replace(vocab, actor=vocab.beast) if vocab is not None else None    # "each player" but the Beast
        inner = list(inner)
        _every_player(inner, doer)
        if len(inner) < 2 or not all(x.kind == "action" and x.spec is inner[0].spec and x.read_as for x in inner):
            continue
        each = []
        for x in inner:
            args = {**r.args, "rest": f"{head}{x.read_as}{cond}"}
            each.append(replace(r, args=args, read_as=r.spec.describe(args)))
        at = readings.index(r)
        readings[at:at + 1] = each


def _every_player(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I give m5 to every Player": Rule 4E7 lets a player list several actions; one
    for each Player the vocabulary knows but the sender, in the order of the game."""
    if vocab is None or not vocab.players:
        return
    for r in list(readings):
        if r.kind != "action":
            continue
        role = next((x.name for x in r.spec.roles if x.type == "player"
                     and (" ".join(str(r.args.get(x.name) or "").lower().split()).split(" except ")[0] in _EVERYONE
                          or str(r.args.get(x.name) or "").lower() in ("player", "players", "other player",
                                                                         "other players")
                          and _EACH_PLAYER.search(r.text))), None)       # "each" is a filler
        if role is None:
            continue
        at = readings.index(r)
        _, said_but, left_out = str(r.args[role]).partition(" except ")
        if not said_but and _EXCEPT.search(r.text):     # "everyone but whoever voted": never guessed (Rule 4E7)
            same = [o for o in readings if o.text == r.text and o.spec is r.spec]
            first = readings.index(same[0])
            readings[:] = [o for o in readings if o not in same]
            readings.insert(first, replace(r, args={k: v for k, v in r.args.items() if k != role},
                                           missing=(role,), error="name each Player: bnomic does not "
                                           "read \"everyone except ...\" (Rule 4E7)"))
            continue
        left_out = set(left_out.split(", ")) if said_but else set()     # (lexer: "everyone except the Beast")
        each = [replace(r, args={**r.args, role: p}) for p in vocab.players
                if p != vocab.actor and p not in left_out]
        for e in each:
            e.read_as = e.spec.describe(e.args)
        readings[at:at + 1] = each


def _intent_by_action(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I support Alice's intent to retitle Rule 4E9": an intent named by the action it
    announced is the open one (of that author, if named) that announced that action, when
    just one did; two or more are refused as ambiguous, naming each (Rule 4E7)."""
    if vocab is None or not vocab.intent_actions:
        return
    for k, r in enumerate(readings):
        what = r.args.get("what") if r.kind == "action" else None
        role = next((x.name for x in r.spec.roles if x.type == "intent"),
                    None) if what else None
        if role is None:
            continue
        target = str(r.args.get(role) or "")
        if not what or target.startswith("@") or target == "this":
            continue                        # "this intent to ...": the one replied to
        what = _WHY_AFTER.split(str(what), 1)[0]    # "..., on the grounds that ...": why, not what
        found = match_action("I " + str(what), vocab)
        if found is None:                   # "to retitle Rule 4E9" (its new title unsaid): which action
            said = read_clause(normalise("I " + str(what)), vocab) or []
            found = (said[0].spec, dict(said[0].args)) if len(said) == 1 and said[0].spec is not None else None
        if found is None:
            continue
        if target.lstrip("#").isdigit():    # "Alice's intent (#4) to retitle Rule 4E9": said twice
            number = int(target.lstrip("#"))
            if found[0].name in vocab.intent_actions.get(number, ()):
                r.args = {a: v for a, v in r.args.items() if a != "what"}
                r.read_as = r.spec.describe(r.args)
            elif (number in vocab.intent_actions and number in vocab.intents
                  and not re.search(rf"(?<!\d){number}(?!\d)", r.text or "")):
                # "Alice's intent to Approve ..." where Alice's one intent known is to retitle: her
                # intent to do that, found by what it does when acted on (intents.find_intent)
                r.args = {**r.args, role: f"of {vocab.intents[number]}"}
                r.read_as = r.spec.describe(r.args)
            continue
        who = target[3:] if target.startswith("of ") else None
        if who is None and target:
            m = re.match(r"^(.+?)['’]s?\b", target)
            who = m.group(1) if m and m.group(1) in vocab.intents.values() else None
        if target == "mine":
            who = vocab.actor
        same = [n for n, acts in sorted(vocab.intent_actions.items())
                if found[0].name in acts and (who is None or vocab.intents.get(n) == who)]
        if len(same) == 1:
            r.args = {**{a: v for a, v in r.args.items() if a != "what"}, role: str(same[0])}
            r.read_as = r.spec.describe(r.args)
        elif same:
            readings[k] = Reading(r.text, alternatives=tuple(
                r.spec.describe({role: str(n)}) for n in same))


_WHY_AFTER = re.compile(r"(?<!\s)\s*+,\s*+(?:on\s++the\s++grounds?|because|since|as\s++(?!well)|given\s++that|for\s++the\s++reason)\b",
                        re.I)


# actions only a Minister takes on the Ministry it holds (Rules 4E47, 4E48)
_OWN_MINISTRY_ACTIONS = frozenset({"resign_ministry", "revise_reward"})


def _whose_ministry(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"my Ministry", "his office", or a Ministry left unsaid where its Minister is named:
    the one that Minister holds, when the vocabulary knows just one ("I revise my Reward to
    m50"; "I remove Bob from office"); "the Registrar" removed is whoever holds it. What the
    vocabulary cannot say is left to the handler."""
    if vocab is None or not vocab.holders:
        return
    for k in range(len(readings) - 1, -1, -1):     # "all my Ministries": one reading for each held
        r = readings[k]
        if r.kind == "action" and r.spec is not None and r.args.get("ministry") == "all mine":
            held = [m for m, h in vocab.holders.items() if h == vocab.actor]
            each = [Reading(r.text, spec=r.spec, args={**r.args, "ministry": m}, times=r.times, when=r.when,
                            read_as=r.spec.describe({**r.args, "ministry": m})) for m in held]
            if each:
                readings[k:k + 1] = each
    for k, r in enumerate(readings):
        if r.kind not in ("action", "incomplete") or r.spec is None:
            continue
        roles = {x.name for x in r.spec.roles}
        if "ministry" not in roles:
            continue
        said = r.args.get("ministry")
        optional = any(x.name == "ministry" and not x.required for x in r.spec.roles
                       if x.type == "ministry")
        # ("I resign." by the holder of one Ministry: that one, Rule 4E47)
        lacking = (said is None and r.kind == "incomplete" and r.missing == ("ministry",) and not r.unread
                   and r.spec.name in _OWN_MINISTRY_ACTIONS)
        before = readings[k - 1] if k else None
        if (said is None and before is not None and before.kind == "action" and before.spec is not None
                and before.args.get("ministry") and _ITS.search(r.text or "")):
            continue            # "I become Doctor at m100 and lower its Reward": the one just taken (_its)
        if said in ("mine", "theirs") or said is None and (optional or lacking):
            who = r.args.get("player") if "player" in roles else vocab.actor
            held = [m for m, h in vocab.holders.items() if h == who]
            if who and len(held) == 1:
                r.args["ministry"] = held[0]
                r.missing = tuple(m for m in r.missing if m != "ministry")
            elif who and len(held) > 1 and (said == "mine" or lacking):
                # "I resign my ministry." by the holder of two: which is not said (Rule 4E7)
                readings[k] = Reading(r.text, alternatives=tuple(
                    r.spec.describe({**r.args, "ministry": m}) for m in held))
                continue
        elif said and "player" in roles and not r.args.get("player") and vocab.holders.get(said):
            r.args["player"] = vocab.holders[said]
            if r.kind == "incomplete" and {w.lower() for w in r.unread} <= {"him", "her", "them", "em"}:
                # "I remove him from the Ministry of Society": "him" is who holds it
                r.unread = ()
                r.missing = tuple(m for m in r.missing if m != "player" and not m.startswith("(the words"))
        else:
            continue
        r.read_as = r.spec.describe(r.args)


# what a Ministry's public display is called when a challenge names it (Rule 4E50)
_DISPLAY_WORDS = frozenset({"display", "displays", "list", "report", "records", "ballot", "page", "table"})


# what a display shows, said first in a challenge's errors (words.toml display_subjects; the
# results of the voting are the Chairman's, Rule 4E15)
_SHOWN_BY = {**{k: v for k, v in DISPLAY_SUBJECTS.items() if " " not in k}, "results": "Change"}


def _display_in_errors(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """"CoE: the Registrar's player list shows Dana as Inactive" (Rule 4E50): a challenge whose
    errors begin by naming the display challenged (a Ministry, then a word for its display)
    challenges that display; "... says I have 14 points; I have 15. CoE." lists its errors in
    the rest of the message. Two Ministries named so are not chosen between."""
    for r in readings:
        if r.spec is None or r.spec.name != "challenge_display" or "ministry" not in r.missing:
            continue
        errors = r.args.get("errors") or " ".join(text.replace(r.text, " ").split()).rstrip(" .")
        toks = lex(errors[:300], vocab)
        found = {t.sense("ministry") for i, t in enumerate(toks[:12]) if t.has("ministry")
                 and any(u.low in _DISPLAY_WORDS for u in toks[i + 1:i + 4])}
        if not found:
            # "CoE: the Ballot lists Proposal 14 as by Chuck": the display named by what it shows
            first = next((t for t in toks[:4] if t.low not in ("the", "this", "your", "today's", "latest")), None)
            shown = _SHOWN_BY.get(first.low) if first is not None else None
            found = {shown} if shown and (not vocab or shown in vocab.ministries.values()) else set()
        if len(found) != 1:
            continue
        r.args["ministry"] = found.pop()
        r.args.setdefault("errors", errors)
        r.missing = tuple(m for m in r.missing if m not in ("ministry", "errors"))
        r.read_as = r.spec.describe(r.args)


def _made(name: str, text: str, args: dict) -> Reading | None:
    """A reading a message-level step makes (a reply's "Cancel that.", a label's
    Consultation): the registered action `name` with `args`; None if it is not registered."""
    spec = next((a for a in ACTIONS if a.name == name), None)
    return Reading(text, spec=spec, args=args, read_as=spec.describe(args)) if spec is not None else None


_ANSWERS: list = [None]


def _answers() -> re.Pattern:
    if _ANSWERS[0] is None:
        said = sorted(words()["reader"]["answers_to_a_challenge"], key=len, reverse=True)
        _ANSWERS[0] = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s++") for w in said)
                                 + r")\b", re.I)
    return _ANSWERS[0]


def _challenge_answered(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """Rule 4E50: the Minister whose display was challenged, replying to the challenge
    ("Accepted on Dana, fixed"; "The display is correct as it stands"), addresses its
    errors "by either correcting them or indicating why he believes them to be already
    correct": the open obligation the challenge made is answered. A question, or a reply
    that neither corrects nor explains ("I'll look tomorrow"), answers nothing."""
    if vocab is None or not vocab.replied_challenges or vocab.actor is None:
        return
    mine = [n for n, ministry in vocab.replied_challenges if vocab.holders.get(ministry) == vocab.actor]
    if len(mine) != 1 or any(r.spec is not None and r.spec.name == "answer_challenge" for r in readings):
        return
    said = " ".join(text.split())
    if not _answers().search(said[:2000]) or said.rstrip().endswith("?"):
        return
    made = _made("answer_challenge", said[:200], {"number": str(mine[0]), "how": said[:500]})
    if made is not None:
        readings.insert(0, made)


# "Cancel that.", "actually cancel that, ...", "Never mind; I cancel that."
_CANCEL_THAT = re.compile(r"(?:^|[.;:!]\s++|\b(?:actually|so|ok|okay|mind|nvm|then|please)[,;]?\s++)(?:i\s++)?+"
                          r"(?:cancel|call\s++off|scrap|withdraw|drop)\s++(?:that|this|it)\b(?!\s++\w+ing\b)", re.I)


def _cancel_that(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """Rule 4E7: "Cancel that." in reply to one's own mail that scheduled an action cancels
    it (the handler checks whose it is); in reply to other mail it cancels nothing. And "I
    cancel the vote I scheduled for Thirnight": the time is the scheduled action's, said to
    name it; the cancelling is done now."""
    for r in readings:
        if (r.when is not None and r.spec is not None and r.spec.name == "cancel_scheduled"
                and re.search(r"\bschedul", r.text, re.I)):
            r.when = None
    if vocab is None or not vocab.replied_scheduled:
        return
    if any(r.spec is not None and r.spec.name == "cancel_scheduled" for r in readings):
        return
    said = " ".join(text.split())
    m = _CANCEL_THAT.search(said[:2000])
    made = _made("cancel_scheduled", m.group().strip(" .;:!"), {"number": "this"}) if m else None
    if made is None:
        return
    verb = made.text.lower().split()[-2]        # (an attempt read from the same words is this one)
    readings[:] = [r for r in readings if not (r.kind == "incomplete" and r.text.lower().startswith(verb))]
    readings.insert(0, made)


_CLAIMED = re.compile(r"^\W{0,3}+(?P<word>inconsistent|consistent)\b(?![^.!?\n]{0,40}+\?)", re.I)


def _claimed_in_reply(readings: list[Reading], vocab: Vocabulary | None, text: str) -> None:
    """Rule 4E18: "Consistent." (or "Inconsistent. The wiki was ...") said first in a reply
    to the mail that Answered a Consultation is a Claim about that Answer."""
    if vocab is None or len(vocab.replied_answers) != 1 or any(
            r.spec is not None and r.spec.name == "claim_consultation" for r in readings):
        return
    m = _CLAIMED.match(text.lstrip())
    made = _made("claim_consultation", m.group().strip(), {"which": str(vocab.replied_answers[0]),
                                                          "claim": m.group("word").capitalize()}) if m else None
    if made is not None:
        readings.insert(0, made)


def _the_rest(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"everything else: AGAINST": a list of proposals given as "rest" is the Open proposals
    the message's other readings of the same action do not name (nothing, without them)."""
    for r in list(readings):
        said = str(r.args.get("which", ""))
        if r.spec is not None and r.spec.name == "vote" and said.startswith("all, "):
            r.args["which"] = said[5:]          # "all of Bob's proposals": those, not all
            r.read_as = r.spec.describe(r.args)
        if r.kind == "action" and r.args.get("but") and vocab is not None:
            # "FOR everything except 14": the Open proposals named, less those excepted
            said = str(r.args.get("which", ""))
            pool = ((vocab.open_proposals or tuple(sorted(vocab.proposals))) if said in ("all", "rest")
                    else [n.strip() for n in said.split(",")])
            but = {n.strip() for n in str(r.args["but"]).split(",")}
            kept = [str(n) for n in pool if str(n) not in but]
            if kept and said != "rest":
                r.args["which"] = ", ".join(kept)
                excepted = r.args.pop("but")
                instead = r.args.pop("instead", None)
                r.read_as = r.spec.describe(r.args)
                if instead:             # "..., except 14, which is AGAINST": a reading of its own
                    roles = {x.name: x.type for x in r.spec.roles}
                    own = next(n for n, t in roles.items() if t == roles["instead"] and n in r.args)
                    args = {**r.args, "which": excepted, own: instead}
                    readings.insert(readings.index(r) + 1, replace(
                        r, args=args, read_as=r.spec.describe(args)))
        if r.kind != "action" or "rest" not in r.args.values():
            continue
        key = next(k for k, v in r.args.items() if v == "rest")
        named = {n.strip() for o in readings if o is not r and o.spec is r.spec
                 for n in str(o.args.get(key, "")).split(",")}
        pool = (vocab.open_proposals or tuple(sorted(vocab.proposals))) if vocab else ()
        # ("SHELVE everything else except 16": those excepted are not of the rest either)
        excepted = {n.strip() for n in str(r.args.get("but") or "").split(",") if n.strip()}
        rest = [str(n) for n in pool if str(n) not in named and str(n) not in excepted]
        if rest:
            r.args[key] = ", ".join(rest)
            if excepted and r.args.get("but"):
                said_but, instead = r.args.pop("but"), r.args.pop("instead", None)
                if instead:             # "..., except 16, which is AGAINST": a reading of its own
                    roles = {x.name: x.type for x in r.spec.roles}
                    own = next(n for n, t in roles.items() if t == roles["instead"] and n in r.args)
                    args = {**r.args, key: said_but, own: instead}
                    readings.insert(readings.index(r) + 1, replace(r, args=args, read_as=r.spec.describe(args)))
            r.args["rest"] = "unvoted"      # (a vote the sender cast before stands: the handler's)
            r.read_as = r.spec.describe(r.args)


# what, said in a reply to mail that announced no intent, names the intent further up the
# thread ("I withdraw my objection." under one's own objection; "Support." under another's)
_UP_THE_THREAD = frozenset({"withdraw_stance", "withdraw_intent", "support", "object"})


def _replied_to(readings: list[Reading], vocab: Vocabulary | None) -> None:
    """"I object." in a reply: an intent left unnamed is the one the mail replies to, or
    the one its quoted lines name; with none, the role is missing; with two, it is
    ambiguous (Rule 4E7). Only with a vocabulary (the state) to say so."""
    if vocab is None or not vocab.players:
        return
    for r in readings:
        # "Object to the first, support the second." under quoted intents, in no reply to them:
        # the first and second the quoted lines name (the mail replied to names none)
        if r.kind == "action" and r.spec is not None and not vocab.replied_intents and vocab.quoted_intents:
            for x in r.spec.roles:
                said = str(r.args.get(x.name) or "")
                m = re.fullmatch(r"the (\w+) replied to", said) if x.type == "intent" else None
                k = ORDINALS.get(m.group(1)) if m else None
                if k and k <= len(vocab.quoted_intents):
                    r.args[x.name] = str(vocab.quoted_intents[k - 1])
                    r.read_as = r.spec.describe(r.args)
    for k, r in enumerate(readings):
        if r.kind == "incomplete" and len(r.missing) == 1 and (vocab.replied_intents or vocab.quoted_intents):
            # "lol no. object": the bare word, its intent the one replied to
            role = next((x for x in r.spec.roles if x.type == "intent" and x.name == r.missing[0]), None)
            if role is not None and not any(v for n, v in r.args.items() if n != role.name):
                r.missing = ()
        elif (r.kind == "incomplete" and len(r.missing) == 1 and vocab.replying and r.spec is not None
              and r.spec.name in _UP_THE_THREAD and not any(r.args.values())
              and any(x.type == "intent" and x.name == r.missing[0] for x in r.spec.roles)):
            # "I object too." under an objection: the intent is further up the thread, where
            # the handler looks for it (its References); not a role left unsaid
            r.missing = ()
        if r.kind != "action":
            continue
        # "I object to that." under mail that announced two intents; "I object to the intent."
        # in no reply, with two open: which one is not said (Rule 4E7), so it is asked
        this = next((x for x in r.spec.roles if x.type == "intent" and r.args.get(x.name) == "this"), None)
        if this is not None and not any(v for n, v in r.args.items() if n != this.name):
            known = (vocab.replied_intents or vocab.quoted_intents) if vocab.replying else tuple(vocab.intents)
            if len(known) > 1:
                readings[k] = Reading(r.text, alternatives=tuple(
                    r.spec.describe({**r.args, this.name: str(n)}) for n in known))
            elif len(known) == 1:
                r.args[this.name] = str(known[0])
                r.read_as = r.spec.describe(r.args)
            continue
        role = next((x for x in r.spec.roles
                     if x.type == "intent" and (not x.required or not r.args.get(x.name))), None)
        if role is None or r.args.get(role.name) or any(
                v for n, v in r.args.items() if n != role.name):
            continue
        known = vocab.replied_intents or vocab.quoted_intents
        if len(known) == 1:
            r.args[role.name] = str(known[0])
            r.read_as = r.spec.describe(r.args)
        elif known:
            readings[k] = Reading(r.text, alternatives=tuple(
                r.spec.describe({**r.args, role.name: str(n)}) for n in known))
        elif not vocab.replying or r.spec.name not in _UP_THE_THREAD:
            r.missing = (role.name,)
    for k, r in enumerate(readings):
        # "Given Alice's objection, I withdraw it." in reply to an intent and to no proposal:
        # the intent (Rule 4E21), not a proposal
        if (r.kind == "action" and r.spec.name == "withdraw_proposal" and r.args.get("number") == "this"
                and vocab.replied_intents and not vocab.replied_proposals):
            made = _made("withdraw_intent", r.text, {"number": "this"})
            if made is not None:
                readings[k] = made
    for r in readings:
        # "I set its Proposal Color to Brick Red." in reply to the mail that submitted a
        # proposal: "its" is that one (Rule 4E69), as "this" is; the handler finds it there
        if (r.kind == "incomplete" and r.spec is not None and len(r.missing) == 1
                and vocab.replying and len(vocab.replied_proposals) < 2 and _ITS.search(r.text or "")
                and any(x.name == r.missing[0] and x.type == "proposal" for x in r.spec.roles)):
            r.args[r.missing[0]] = "this"
            r.missing = ()
            r.read_as = r.spec.describe(r.args)
    for r in readings:              # "ZOT." in reply to a Consultation's submission: that one (Rule 4E18)
        if (vocab.replying and r.kind == "incomplete" and r.spec is not None and len(r.missing) == 1
                and any(x.name == r.missing[0] and x.type == "consultation" for x in r.spec.roles)
                and r.missing[0] != "number"):        # (a new number is said, never "this")
            r.args[r.missing[0]] = "this"
            r.missing = ()
            r.read_as = r.spec.describe(r.args)
        # (a reply to mail that announced none: the handler looks up the thread, its
        # References, for the intent it answers: "I withdraw my objection." under one's objection)


def braces(text: str, inside: tuple | list = ()) -> list[tuple[str, str]]:
    """The text cut at documents written inline between {{ and }} (nesting counted):
    [("text", ...), ("doc", ...), ("text", ...)]. An unclosed {{ is text, and so is a
    {{ within one of the `inside` spans (a document's own text: _bodies)."""
    if "{{" not in text:
        return [("text", text)] if text.strip() else []
    out: list[tuple[str, str]] = []
    depth, start, i, last = 0, 0, 0, 0
    n = len(text)
    spans = iter(inside)
    span = next(spans, None)
    while i < n - 1:
        while span is not None and span[1] <= i:
            span = next(spans, None)
        if depth == 0 and span is not None and span[0] <= i:
            i = span[1]                 # a document's own text: its braces are its words
            continue
        pair = text[i:i + 2]
        if pair == "{{":
            if depth == 0:
                start = i
            depth += 1
            i += 2
            continue
        if pair == "}}" and depth:
            depth -= 1
            i += 2
            if depth == 0:
                out.append(("text", text[last:start]))
                out.append(("doc", text[start + 2:i - 2].strip("\n")))
                last = i
            continue
        i += 1
    out.append(("text", text[last:]))
    return [(k, p) for k, p in out if k == "doc" or p.strip()]


def _bodies(text: str) -> list[tuple[int, int]]:
    """Where documents written after the line that submits them ("... proposal:" then
    its lines, up to END PROPOSAL or the end) hold words before any {{: their {{ }} are
    their own text ("Amend Rule 4E30 to read: {{ ... }}"), not a document of their own.
    A body that begins with {{ is delimited by it."""
    spans: list[tuple[int, int]] = []
    lines = text.splitlines(keepends=True)
    pos, i = 0, 0
    while i < len(lines):
        line, start = lines[i], pos
        pos += len(line)
        i += 1
        if "{{" not in text[start:]:
            break
        if not document_word(line) or _BEGIN_DOC.match(line):
            continue
        found = None
        if ":" not in line and i < len(lines) and _head_wrapped([line.rstrip("\r\n"), lines[i].rstrip("\r\n")], 0):
            found = _document_head(line.rstrip() + " " + lines[i].strip())    # a head wrapped over two lines
            if found is not None and not found[1]:
                pos += len(lines[i])
                i += 1
            else:
                found = None
        found = found or _document_head(line.rstrip("\r\n"))
        if found is None or _SEVERAL_DOCUMENTS.search(line):
            continue                # ("the following two proposals:": each in its own {{ }})
        _, first = found
        body = start + line.index(first) if first else pos
        end = pos if first else body
        while i < len(lines) and not DOCUMENT_END.match(lines[i]) and not _own_paragraph(lines, i, text[body:end]):
            end = pos = pos + len(lines[i])
            i += 1
        said = text[body:end]
        if said.strip() and not said.lstrip().startswith("{{") and not _only_attributes(said.split("{{", 1)[0]):
            spans.append((body, end))
    return spans


# a line that sets a proposal's other Attributes (Rule 4E15), written above its Body
_ATTRIBUTE_LINE = re.compile(r"^\s*+(?:title|proposal\s++title|conflicts?+(?:\s++with)?+|dependencies|dependency"
                             r"|depends(?:\s++on)?+|body(?=\s*+:\s*+$))\s*+:", re.I)     # (a bare "Body:" above its {{ }})


def _only_attributes(text: str) -> bool:
    """Whether the words before a document's {{ are only its Attribute lines ("Title: X"):
    then the braces hold its Body, and what follows them is read again."""
    return "{{" not in text and all(not line.strip() or _ATTRIBUTE_LINE.match(line) for line in text.splitlines())


def _attributes_above(text: str) -> str:
    """The Attribute lines that end a text part, right above a document's {{."""
    lines = text.rstrip().splitlines()
    k = len(lines)
    while k and _ATTRIBUTE_LINE.match(lines[k - 1]):
        k -= 1
    return "\n".join(lines[k:])


def _attach(readings: list[Reading], document: str, above: str = "") -> bool:
    """A document goes to the last action before it that takes one and has none yet (or
    has only its Attribute lines so far: "Title: X" above the {{ }} of its Body). Whether
    one took it."""
    for r in reversed(readings):
        if r.spec is not None and document_kind(r):
            have = r.args.get("document")
            if not have:
                r.args["document"] = f"{above}\n\n{document.strip()}" if above else document.strip()
            elif _only_attributes(have):
                r.args["document"] = f"{have.rstrip()}\n\n{document.strip()}"
            elif _SEVERAL_DOCUMENTS.search(r.text or ""):
                # "I submit the following two proposals:" then {{ ... }} {{ ... }}: one each
                args = {k: v for k, v in r.args.items() if k != "title"}
                said = f"{above}\n\n{document.strip()}" if above else document.strip()
                readings.append(replace(r, args={**args, "document": said}))
            else:
                return False
            return True
    return False


_SEVERAL_DOCUMENTS = re.compile(r"\b(?:proposals|tweaks|consultations)\b", re.I)


# "{{ ... }}" and then "I submit that." / "I submit the above as a proposal.": the document
# written before the sentence that submits it (Rule 4E15)
_SUBMIT_ABOVE = re.compile(r"\s*+(?:(?:so|and|ok|okay|right)\W++)?+i\s++(?:(?:hereby|formally|now|also)\s++)?+"
                           r"(?:submit|propose)\s++(?:that|this|it|the\s++above|what\s++is\s++above)\b", re.I)


def _transaction_with_documents(text: str) -> tuple[str, str, str] | None:
    """A Transaction (BEGIN TRANSACTION ... END TRANSACTION, Rule 4E12) whose steps hold a
    document ({{ }}, or a "Title:"/"Body:" form): the text above it, its steps' text and the
    text below it, so that its steps are read as any message is, documents and all; None
    when there is no such Transaction."""
    if "ransaction" not in text and "RANSACTION" not in text:
        return None
    lines = text.splitlines()
    begin = next((k for k, x in enumerate(lines) if BEGIN.match(x)), None)
    if begin is None:
        return None
    end = next((k for k in range(begin + 1, len(lines)) if END.match(lines[k])), None)
    if end is None:
        return None
    inside = lines[begin + 1:end]
    # (or a step that submits a document after a colon: "I submit a Consultation: Does ...?",
    # whose text ends at END TRANSACTION, not at the end of the mail)
    if not any("{{" in x or _ATTRIBUTE_LINE.match(x) or _BODY_LINE.match(x)
               or ":" in x and document_word(x) and _document_head(x) is not None for x in inside):
        return None
    return "\n".join(lines[:begin]), "\n".join(inside), "\n".join(lines[end + 1:])


_BODY_LINE = re.compile(r"\s*+(?:body|text)\s*+:", re.I)


def _exclaimed_then_said(readings: list[Reading]) -> None:
    """"Punish! Punish the Fish Rain trick!": the verb exclaimed alone, then the action said in
    full right after it, is that one action (Rule 4E7), not two."""
    for k in range(len(readings) - 1, 0, -1):
        a, b = readings[k - 1], readings[k]
        if (a.kind == "action" and b.kind == "action" and a.spec is not None and a.spec is b.spec
                and a.args == b.args and len((a.text or "").split()) == 1):
            del readings[k - 1]


# "I take Laundry and Business, both at m100": what is said after "both" or "each" is said of all
_BOTH_AT = re.compile(r"(?<!\s),?+\s++(?:both|each|all(?:\s++(?:of\s++them|three|two|four|five))?+)\s++(?:at|for|with|on)\s++\S", re.I)


def _both_at(readings: list[Reading]) -> None:
    """Actions read from one clause, the last with a value the others lack, said after
    "both" or "each" ("I take Laundry and Business, both at m100"): each takes that value."""
    for k in range(len(readings) - 1, 0, -1):
        last = readings[k]
        if last.spec is None or last.kind != "action" or not _BOTH_AT.search(last.text or ""):
            continue
        same = [r for r in readings[:k] if r.text == last.text and r.spec is last.spec and r.kind == "action"]
        for r in same:
            for role, value in last.args.items():
                if value not in (None, "") and r.args.get(role) in (None, ""):
                    r.args[role] = value
                    r.read_as = r.spec.describe(r.args)


_ANY_DIGIT = re.compile(r"\d")
_IT_SAID = re.compile(r"\b(?:it|that|this|them|those|these)\b(?!['’])", re.I)
_SEGMENT_TAIL_WORDS = frozenset({"and", "also", "then", "plus", "but", "&"})


def _segment_tail_off(part: str) -> str:
    """A part of a clause without what joins it to the next: ", and", "; also", " (" ..."""
    while True:
        part = part.rstrip().rstrip(",;:(—–-").rstrip()
        head, _, last = part.rpartition(" ")
        if not head or last.lower() not in _SEGMENT_TAIL_WORDS:
            return part
        part = head


def _votes_each_said(readings: list[Reading]) -> None:
    """"I vote FOR 11 obviously since it's mine and AGAINST 13 because ...": a clause with two
    Vote words or more that does not read whole is read a Vote word at a time (Rule 4E15: each
    Vote is its word, on the proposals after it); the Votes so read are cast, and a part that
    does not read is told, as the clause was."""
    k = 0
    while k < len(readings):
        r = readings[k]
        found = list(_VOTE_WORD.finditer(r.text)) if r.kind == "incomplete" and r.spec is not None \
            and r.spec.name == "vote" else []
        if len(found) < 2 or _ANY_DIGIT.search(r.text, 0, found[0].start()):
            k += 1          # (a ballot's "10 FOR, 11 FOR": the proposal before its Vote, read so)
            continue
        each: list[Reading] = []
        told: list[Reading] = []            # (each part that does not read, told as itself)
        for i, m in enumerate(found):
            part = r.text[m.start():found[i + 1].start() if i + 1 < len(found) else len(r.text)]
            part = _segment_tail_off(part)
            got = _read_clause_memo("I vote " + part) or []
            if got and all(g.kind == "action" and g.spec is r.spec and _proposals_known(g) for g in got):
                for g in got:
                    g.text = r.text
                each.extend(got)
            elif _IT_SAID.search(part):
                each = []           # "FOR 13 and AGAINST it": the Votes contradict, nothing is split
                break
            else:
                told.append(next((replace(g, text=part) for g in got if g.kind == "incomplete" and g.spec is r.spec),
                                 Reading(part, r.spec, {"vote": m.group()}, missing=("which",),
                                         read_as=r.spec.describe({"vote": m.group()}),
                                         suggestions=r.suggestions)))
        if not each:
            k += 1
            continue
        readings[k:k + 1] = each + told
        k += len(each) + len(told)


def _proposals_known(r: Reading) -> bool:
    """Whether every proposal a Vote names by number is one the game has (where it knows any)."""
    vocab = _VOCAB.get()
    if vocab is None or not vocab.proposals:
        return True
    return all(int(n) in vocab.proposals for n in _QUOTED_NUMBER.findall(str(r.args.get("which") or "")))


# "(I'm showing the newbies the options, not doing any of them.)", "This is a joke about the
# Trick reward loop, not an action.", "(Not a scheduled action, just a promise)", "No, wait, I
# don't.": the sender says the actions just written are not done (Rule 4E7: an action is
# performed by announcing it, and these announce none)
_DISCLAIMER = re.compile(
    r"(?:\b(?:this|that|it|these|those)\s++(?:is|are|was|were)\s++|\b(?:this|that|it)['’]s\s++|[,(]\s*+)"
    r"not\s++(?:an?\s++)?+(?:real\s++|actual\s++|game\s++|scheduled\s++|official\s++)?+(?:actions?\b|(?:votes?|ballots?)\b(?!\s++(?:on|for|about|regarding|of)\b))"
    r"|\bnot\s++(?:actually\s++)?+(?:doing|casting|taking|performing|sending|submitting)\s++(?:any|either|all|it|them|this|that|those|these)\b"
    r"|\bnot\s++(?:cast|sent|submitted|official|binding|final)\s++yet\b"
    r"|\bjust\s++(?:a\s++)?+(?:promise|plan|joke|example|draft|demonstration|illustration)\b"
    r"|\bnot\s++(?:be\s++)?+(?:doing|casting|voting|taking|sending)\b(?=[^.:]{0,80}+:\s*+$)"     # "things I am NOT doing today:"
    r"|^\W*+no\b[\s,.!-]++(?:wait\b[\s,.!-]++)?+i\s*+(?:don['’]t|do\s++not|am\s++not|['’]m\s++not|won['’]t|will\s++not)\s*+(?:[.!]|$)",
    re.I)


_PERMISSION_ASKED = re.compile(r"\b(?:is\s++(?:that|this|it)|would\s++(?:that|this|it)\s++be|does\s++(?:anyone|anybody)\s++mind"
                               r"|any\s++objections?|(?:that|this)\s++ok(?:ay)?+)\b[^?\n]{0,60}+\?", re.I)
_TAKEN_BACK_AFTER = re.compile(r"^\W*+no\b", re.I)


def _disclaimed(readings: list[Reading], text: str) -> None:
    """The actions (and attempts) a disclaimer (_DISCLAIMER) is said of are not done nor told:
    those before it in its paragraph when it is said last there, or in brackets closing the
    paragraph; those of the paragraph before, when it is a paragraph in brackets of its own;
    the one just before a taking back ("No, wait, I don't."); what a heading that is one heads
    ("Tentative votes (not cast yet, just telling people):"); and a wish its paragraph asks
    leave for ("I'd like to give m15 to Dana. Is that all right with everyone?")."""
    low = text.lower()
    if not readings or "not" not in low and "just" not in low and "no" not in low and "?" not in low:
        return
    raw = _OWN_PARAGRAPHS.split(text)
    paragraphs = [list(sentences(p)) for p in raw]
    scopes: list[list[str]] = []
    for k, said in enumerate(paragraphs):
        closing = _closing_bracket(raw[k])
        if closing is not None and _DISCLAIMER.search(raw[k][closing:]):
            scopes.append(list(sentences(raw[k][:closing])) if raw[k][:closing].strip()
                          else paragraphs[k - 1] if k else [])
            continue
        for i, sentence in enumerate(said):
            if not _DISCLAIMER.search(sentence):
                continue
            if sentence.rstrip().endswith(":"):
                scopes.append(said[i + 1:])                 # a heading: what it heads
            elif _TAKEN_BACK_AFTER.match(sentence):         # "I forfeit." / "No, wait, I don't."
                scopes.append(said[i - 1:i] if i else paragraphs[k - 1][-1:] if k else [])
            elif i == len(said) - 1:
                scopes.append(said[:i])                     # said last: of all said before it
        if _PERMISSION_ASKED.search(raw[k]):
            # "I'd like to give m15 to Dana. Is that all right with everyone?": a wish, asked
            scopes.append([x for x in said if _WISH.match(x)])
    undone = {n for scope in scopes for n, r in enumerate(readings) if any(_said_in(r, s) for s in scope)}
    if undone:
        readings[:] = [r for n, r in enumerate(readings) if n not in undone]


def _closing_bracket(paragraph: str) -> int | None:
    """Where the bracketed remark that closes a paragraph opens, or None."""
    p = paragraph.rstrip()
    if not p.endswith(")"):
        return None
    depth = 0
    for at in range(len(p) - 1, max(-1, len(p) - 2000), -1):
        depth += {")": 1, "(": -1}.get(p[at], 0)
        if depth == 0:
            return at
    return None


def _said_in(r: Reading, sentence: str) -> bool:
    said, where = " ".join(r.text.lower().split()), " ".join(sentence.lower().split())
    return bool(said) and (said in where or where in said)


def _several_said_each(readings: list[Reading]) -> None:
    """"I submit these two proposals:" over 'Proposal A, "Tea Time":' {{ ... }} and the next:
    each labelled one is submitted; the heading over them, left with no document, is none."""
    for k, r in enumerate(readings):
        if (r.spec is not None and document_kind(r) and not r.args.get("document")
                and _SEVERAL_DOCUMENTS.search(r.text or "")
                and any(o.spec is r.spec and o.args.get("document") for o in readings[k + 1:])):
            del readings[k]
            return


_THE_ABOVE = re.compile(r"\b(?:the\s++above|this|that|it|the\s++same)\b", re.I)


def _said_of_the_document_above(got: list[Reading], before: list[Reading]) -> None:
    """"Ballot for nweek 7." over {{ ... }}, then "I publish the above as the Ballot": the same
    action after a document that names it ("the above"), with nothing the heading above it did
    not say, is the heading's action said again, not a second (Rule 4E7: one action, said twice)."""
    r = got[0] if got else None
    if (r is not None and r.kind == "action" and r.spec is not None and not r.args.get("document")
            and _THE_ABOVE.search(r.text or "")
            and any(o.kind == "action" and o.spec is r.spec
                    and all(str(o.args.get(k)) == str(v) for k, v in r.args.items() if v not in (None, ""))
                    for o in before)):
        del got[0]


def _submitted_above(readings: list[Reading], document: str) -> None:
    """The first of `readings` (those of the text after a document) submits that document,
    if it says so ("I submit that.") and no action before took it ("": one did)."""
    if not readings or not _SUBMIT_ABOVE.match(readings[0].text or ""):
        return
    r = readings[0]
    if not document:        # taken already ("Proposal / Title: ... / Body: {{ }}", then "I submit this."):
        if r.kind == "incomplete" and r.spec is not None and (r.spec.name == "verdict" or document_kind(r)):
            del readings[0]     # the same submission, said again
        return
    if r.spec is not None and document_kind(r) == "proposal" and not r.args.get("document"):
        r.args["document"], r.missing = document.strip(), tuple(m for m in r.missing if m != "document")
        return
    if r.spec is not None and r.spec.name != "verdict":
        return
    made = _made("submit_proposal", r.text, {"document": document.strip()})
    if made is not None:
        readings[0] = made


_BEGIN_DOC = re.compile(r"^\W*+begin\s++(?!transaction\b)(?P<kind>[a-z]++(?:\s++[a-z]++)?)\W*+$", re.I)


# a paragraph that opens with the sender's "I" and a verb ("And I set its Proposal Color to
# Beige.", "- Also, I vote FOR it.")
_OWN_OPENING = re.compile(r"\s*+(?:[-*\u2022]\s*+)?+(?:(?:and|also|then|plus|finally|additionally|separately)"
                          r"\b,?+\s*+){0,3}+i\s++[a-z]", re.I)


def _own_paragraph(lines: list, i: int, body) -> bool:
    """Whether the line `lines[i]`, after a blank line below some of a document written
    without delimiters, begins a paragraph of the sender's own: one that opens with "I" and
    reads as an action. A document's text speaks of Players, never as "I" doing something
    now; an officer reading "...the Fourth Era.\n\nAnd I set its color to Beige." stops
    the document at the blank line (Rule 4E7: the action is read wherever it is written)."""
    if i == 0 or not (_OWN_OPENING.match(lines[i]) or _OWN_VOTE_OPENING.match(lines[i])):
        return False
    if lines[i - 1].strip() and not _BODY_SAID.match(lines[i - 1]):
        return False        # (or after a form's one-line "Body: ..." in a Transaction's steps)
    if not (body.strip() if isinstance(body, str) else any(x.strip() for x in body)):
        return False
    first = split_sentences(normalise(lines[i].strip()))[:1]
    # (an action, or one lacking only what "its" names: the document just written, _its)
    return bool(first) and any(r.kind == "action" or r.kind == "incomplete" and r.spec is not None
                               and not r.unread and _ITS_SAID.search(first[0]) for r in read_sentence(first[0]))


def _indented(line: str) -> bool:
    return line[:1] in (" ", "\t")


# ... or one that opens with a Vote of the sender's ("Also: FOR 15, since ...", Rule 4E15)
_OWN_VOTE_OPENING = re.compile(r"\s*+(?:also|and|plus|p\.?s\.?)\s*+[:,-]?\s*+(?-i:FOR|AGAINST|ABSTAIN|SHELVE)\s", re.I)
_ITS_SAID = re.compile(r"\b(?:its|it|this)\b", re.I)
_BODY_SAID = re.compile(r"\s*+(?:body|text)\s*+:\s*+\S", re.I)


# where a sentence of the sender's own may begin inside a document written on the line that
# submits it: after a full stop, "And I ...", "Also, I ...", "I ..."
_OWN_SENTENCE = re.compile(r"(?<=[.!?])\s++(?=(?:(?:and|also|then|plus|now)\b,?+\s*+)?+i\s)", re.I)


def _own_sentence_after(body: list[str]) -> tuple[list[str], list[str]]:
    """A document begun on the line that submits it, with no end said: cut before the first
    sentence of its first paragraph that is the sender's own action (as `_own_paragraph`
    reads one); (the document's lines, the lines to read after it), or (body, [])."""
    end = next((k for k, x in enumerate(body) if not x.strip()), len(body))
    text = " ".join(x.strip() for x in body[:end])
    for m in _OWN_SENTENCE.finditer(text):
        first = split_sentences(normalise(text[m.end():]))[:1]
        if first and any(r.kind == "action" or r.kind == "incomplete" and r.spec is not None and not r.unread
                         and _ITS_SAID.search(first[0]) for r in read_sentence(first[0])):
            return [text[:m.start()]], [text[m.end():]] + body[end:]
    return body, []


# Rule 4E73's Punishment written under a label by the Judge: "Punishment for Indictment 2: ...",
# "For Indictment 2, the punishment is: ...", "For Indictment 2 the punishment is that ...",
# "For Indictment 2, Wooble's punishment: ..."
_PUNISHMENT_LABEL = re.compile(
    r"^\W{0,3}+(?:(?:the\s++)?punishment\s++(?:for|on|in)\s++indictment\s*+#?\s*+(?P<n>\d++)\s*+:"
    r"|(?:for\s++)?+indictment\s*+#?\s*+(?P<n2>\d++)\s*+[,:]?\s*+(?:[a-z][\w-]{0,30}+['’]s\s++|the\s++)?+punishment"
    r"(?:\s++is)?+(?:\s*+:|\s++that))\s*+(?P<text>\S.*)$", re.I)     # "Indictment 2: the punishment is that ..."


def _items_as_text(lines: list[str]) -> list[str]:
    """"CoE on the Registrar's display:" over items ("- it lists me with m90", ...): an
    attempt that lacks only a text its colon introduces (the errors of a challenge, Rule
    4E50) takes the items below it as that text, joined on one line."""
    i = 0
    while i < len(lines) - 1:
        line = lines[i].rstrip()
        # (one sentence only: "I challenge ... of Players. Errors:" over items is read as it was)
        if line.endswith(":") and not _LEAD.match(line.strip()) and not _INNER_STOP.search(line):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            items = []
            while j < len(lines) and lines[j].strip() and _LEAD.match(lines[j].strip()):
                items.append(_LEAD.sub("", lines[j].strip()).strip().rstrip(".;").replace(";", ","))
                j += 1
            if items and _waits_for_text(read_sentence(line[:-1])):
                lines = lines[:i] + [line + ' "' + " / ".join(items) + '".'] + lines[j:]
        i += 1
    return lines


_INNER_STOP = re.compile(r"[.!?;]\s")


def _waits_for_text(got: list[Reading]) -> bool:
    """One attempt that lacks only a text its colon introduces (the errors of a challenge,
    Rule 4E50): what follows the colon, on its line or below it, is that text."""
    r = got[0] if len(got) == 1 else None
    if r is None or r.kind != "incomplete" or r.spec is None or len(r.missing) != 1:
        return False
    role = next((x for x in r.spec.roles if x.name == r.missing[0]), None)
    return role is not None and role.type == "text" and (":",) in role.markers


def _read(text: str, max_line: int | None, doc_next: bool = False) -> list[Reading]:
    readings: list[Reading] = []
    if "nd" in text and _END_THEN_MORE.search(text):
        text = _END_THEN_MORE.sub(r"\g<end>\n\g<rest>", text)
    lines = text.splitlines()
    if ":\n" in text:
        lines = _items_as_text(lines)
    i, chunk = 0, []
    while i < len(lines):
        if max_line is not None and len(lines[i]) > max_line:
            readings.extend(_read_lines(chunk))
            chunk = []
            readings.append(too_long(lines[i], max_line))
            i += 1
            continue
        if _BEGIN_DOC.match(lines[i]):          # BEGIN PROPOSAL ... END PROPOSAL
            readings.extend(_read_lines(chunk))
            chunk, body = [], []
            i += 1
            while i < len(lines) and not DOCUMENT_END.match(lines[i]):
                body.append(lines[i])
                i += 1
            i += 1
            _attach(readings, "\n".join(body))
            continue
        mid = _LABEL_MID.search(lines[i]) if "onsultation" in lines[i] else None
        if mid is not None and mid.start() > 0 and _consultation_asked([lines[i][mid.end():]] + lines[i + 1:], 0):
            # "I'm not a player, but anyone may do this. Consultation: is ...?": the label begins a
            # line of its own, the sentences before it the line before
            lines[i:i + 1] = [lines[i][:mid.start()], lines[i][mid.end():]]
            continue
        asked = _consultation_asked(lines, i)
        if asked is not None:                   # "CONSULTATION: Can the Beast vote on ...?"
            readings.extend(_read_lines(chunk))
            chunk = []
            reading, i = asked
            readings.append(reading)
            continue
        if "ndictment" in lines[i][:16] and _INDICTMENT_HEAD.match(lines[i]):
            # "Indictment!" over its fields, or "Indictment. Accusation: Felony. Offender: Bob. ...":
            # the label "Indictment:", each field on its line (Rule 4E72)
            head = _INDICTMENT_HEAD.match(lines[i])
            fields = _FIELD_IN_LINE.sub(lambda m: "\n" + m.group("f"), lines[i][head.end():]).split("\n")
            lines[i:i + 1] = ["Indictment:"] + [f.strip() for f in fields if f.strip()]
        form = _form(lines, i)
        if form is not None:                    # "Indictment" over "Accusation: ..." lines
            readings.extend(_read_lines(chunk))
            chunk = []
            reading, i = form
            readings.append(reading)
            continue
        if "ubmit" in lines[i] and lines[i].rstrip().endswith(":"):
            # "I submit the following:", "... and submit in its place:" over "Title:" / "Body:"
            # lines: a proposal's fields (Rule 4E15), so a proposal
            m = _SUBMIT_NO_KIND.search(lines[i])
            below = next((x for x in lines[i + 1:i + 3] if x.strip()), "") if m else ""
            if m is not None and not document_word(m.group()) and _TITLE_OR_BODY_LINE.match(below):
                lines[i] = lines[i][:m.start()] + "submit the following proposal:"
        if "ropose" in lines[i][:30]:
            m = _PROPOSED_THAT.match(lines[i])
            if m is not None and _CHANGE_WORDS.search(m.group("body")):
                # Rule 4E15: "To submit a proposal, a player need only specify its Body": "I propose
                # that Rule 4E30 be amended by ..." submits that Body (not "I propose that we vote ...")
                lines[i] = f"I submit the following proposal: {m.group('body')}"
        if "unishment" in lines[i]:
            m = _PUNISHMENT_LABEL.match(lines[i])
            if m is not None:       # "Punishment for Indictment 2: Wooble shall post a limerick ..."
                lines[i] = (f"I assign the following Punishment for Indictment {m.group('n') or m.group('n2')}: "
                            f"{m.group('text')}")
        if lines[i].lstrip()[:1] == "[" and _BRACKET_LABEL.match(lines[i]):
            lines[i] = _BRACKET_LABEL.sub("Proposal: ", lines[i], count=1)     # "[PROPOSAL] Sock Inflation"
        labelled = _PROPOSAL_LABEL.match(lines[i])
        found = _document_head(_as_submission(labelled, _title_follows(lines, i, doc_next))) if labelled else None
        if found is None and ("weak" in lines[i][:12] or "efresh" in lines[i][:16] or "idiness" in lines[i][:16]):
            found = _labelled_document(lines, i)    # "Tweak: Rule 4E31, change ...", "Refresh Proposal:" over its text
        wrapped = found is None and ":" not in lines[i] and _head_wrapped(lines, i)
        if wrapped:         # "... to teach the Beast the" / "following Trick:"; "..., which depends on 15 and" / "conflicts with 12:"
            found = _document_head(lines[i].rstrip() + " " + lines[i + 1].strip())
            i += found is not None
        if found is None:
            found = _document_head(lines[i]) if document_word(lines[i]) else None
        if found is None:
            chunk.append(lines[i])
            i += 1
            continue
        readings.extend(_read_lines(chunk))
        chunk = []
        head, first = found
        body = [first] if first else []
        i += 1
        if not first and _document_later(lines, i):
            chunk = [lines[i - 1]]      # "Body to follow once I've checked ...": no document here (Rule 4E8),
            continue                    # the head read with the lines after it
        if not first and i < len(lines) and BEGIN.match(lines[i]) and not _BEGIN_DOC.match(lines[i]):
            chunk = [lines[i - 1]]      # "... his own" / "Proposal:" / "BEGIN TRANSACTION": the Transaction
            continue                    # after it is no document's text (Rule 4E12)
        if not first and (i < len(lines) and _BEGIN_DOC.match(lines[i])
                          or doc_next and _SEVERAL_DOCUMENTS.search(lines[i - 1])):
            readings.extend(head)       # (the documents below each have their own {{ }})
            continue
        fenced = _fenced(lines, i) if not first else None
        if fenced is not None:                  # "=====" above and below: the document between
            body, i = lines[fenced[0] + 1:fenced[1]], fenced[1] + 1
        else:
            start, said_first = i, len(body)
            own = False
            indented = None         # whether every line of the document so far is indented (None: no line yet)
            for x in body:
                if x.strip():
                    indented = indented is not False and _indented(x)
            while i < len(lines) and not DOCUMENT_END.match(lines[i]):
                # (a document written indented ends at the first line at the margin: "2. I set
                # the Proposal Color of the above Proposal to Brick Red." after its text)
                own = (_own_paragraph(lines, i, body)
                       or bool(indented) and bool(lines[i].strip()) and not _indented(lines[i]))
                if own:         # "And I set its Proposal Color to Beige.": the sender's own words again
                    break
                if lines[i].strip():
                    indented = indented is not False and _indented(lines[i])
                body.append(lines[i])
                i += 1
            delimited = i < len(lines)
            asked = _question_asked(_taking_document(head), body)
            if asked is not None:           # the Question's paragraph; what follows is read
                body, i = body[:asked], start + asked - said_first
            elif not own:
                i += 1          # the END line
            if first and asked is None and (own or not delimited):
                kept, rest = _own_sentence_after(body)
                if rest:        # "I submit a Refresh Proposal: ... become Calm. And I set my own Mental State ..."
                    body, chunk = kept, rest
        said = "\n".join(body).strip("\n")
        _taking_document(head).args["document"] = said if said.strip() else ""    # "...:" then {{ on its own line
        readings.extend(head)
    readings.extend(_read_lines(chunk))
    return readings


# "Body to follow once I've checked ...", "Details to follow", "New text when I've had coffee": the
# document is promised, not given; the lines after the head are the sender's own words
_DOCUMENT_LATER = re.compile(r"\b(?:body|text|details?+|wording|draft|the\s++rest|it)\s++(?:to\s++follow|will\s++follow"
                             r"|(?:is\s++)?+coming\s++(?:later|soon|tomorrow)|follows?\s++(?:later|soon|tomorrow|tonight))\b"
                             r"|\b(?:new|full|the|actual)\s++text\s++(?:when|once|after|later|tomorrow|tonight|to\s++come)\b", re.I)


def _document_later(lines: list[str], i: int) -> bool:
    """The head line (lines[i - 1]) and the paragraph after it say the document comes later."""
    j = i
    while j < len(lines) and lines[j].strip() and j - i < 8:
        j += 1
    return bool(_DOCUMENT_LATER.search(" ".join(lines[i - 1:j])))


_FORMS = {kind: (spec, frozenset(fields)) for kind, (spec, *fields) in words()["reader"]["forms"].items()}
_FORM_HEAD = re.compile(r"^\W{0,3}+(?:(?:here\s++is|here['’]s|this\s++is|below\s++is)\s++)?+"
                        r"(?:(?:my|a|the|our|new|following)\s++){0,2}+(?P<kind>[a-z]++)(?:\s++submission)?+"
                        r"(?:\s*+\([^()\n]{0,60}+\))?+\s*+[:.!]?+\s*+$", re.I)     # "Here's a proposal (submitting it):"
_FIELD = re.compile(r"^\s*+(?P<label>[a-z]++(?:\s++[a-z]++)?+)\s*+:", re.I)


def _form(lines: list[str], i: int) -> tuple[Reading, int] | None:
    """A document written as a form (words.toml `forms`): its kind alone on a line
    ("Indictment", "Indictment:"), then its fields ("Accusation: Felony", "Offender:
    Wooble", ...): the document submitted (Rule 4E72's Indictment is "a Game Document"
    made of these parts), up to the first blank line after which no field follows."""
    m = _FORM_HEAD.match(lines[i])
    form = _FORMS.get(m.group("kind").lower()) if m else None
    if form is None:
        return None
    spec, fields = form
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    first = _FIELD.match(lines[j]) if j < len(lines) else None
    if first is None or first.group("label").lower() not in fields:
        return None
    end, k = j, j
    while k < len(lines):
        if lines[k].strip():
            end = k + 1
            k += 1
            continue
        nxt = k
        while nxt < len(lines) and not lines[nxt].strip():
            nxt += 1
        field = _FIELD.match(lines[nxt]) if nxt < len(lines) else None
        if field is None or field.group("label").lower() not in fields:
            break
        k = nxt
    made = _made(spec, " ".join(lines[i].split()), {"document": "\n".join(lines[j:end])})
    return (made, end) if made is not None else None


def _question_asked(head: Reading, body: list[str]) -> int | None:
    """Rule 4E18: a Consultation's document is its Question, a yes-or-no question: it ends
    with the paragraph that asks it ("I submit a Consultation: is the Beast a Player?" then
    a blank line and "Also I become Ordained", which is read). Where the paragraph asks
    nothing, the document runs on as any other. Returns where the Question's paragraph ends."""
    if head.spec is None or head.spec.name != "submit_consultation":
        return None
    seen = False
    for k, line in enumerate(body):
        if line.strip():
            seen = True
        elif seen:
            return k if any("?" in x for x in body[:k]) and any(x.strip() for x in body[k:]) else None
    return None


# a line that fences a document off, above and below it ("=====", "-----", "***", ">>>" ... "<<<")
_FENCE = re.compile(r"^\s*+(?:={3,}+|-{3,}+|\*{3,}+|~{3,}+|_{3,}+|#{3,}+|`{3,}+|>{3,}+|<{3,}+)\s*+$")
_CLOSES = {">": "<"}


# "Consultation:", "Question for Consultation (formal):", "Question for the Oracle, formally:" (a
# question put to the Oracle only in passing, "Question for the Oracle: ...?", asks nothing formal)
_CONSULTATION_LABEL = re.compile(r"^\W{0,3}+(?:consultation(?:\s++question|\s++for\s++(?:the|a|any)\s++priest(?:\s++[\w'’]++){0,4}+)?+"
                                 r"|question\s++for\s++(?:a\s++)?consultation"
                                 r"(?:\s*+,?\s*+\(?formal(?:ly)?+\)?)?+|question\s++for\s++(?:the\s++)?oracle"
                                 r"\s*+,?\s*+\(?formal(?:ly)?+\)?)\s*+(?::\s*+|$)", re.I)
# the label after a sentence of the line: "... may do this. Consultation: is ...?"
_LABEL_MID = re.compile(r"(?<=[.!?])\s++(?=consultation\s*+:)", re.I)
# "...? Unbeliever: Chuck." (Rule 4E18: a Consultation may name an Unbeliever)
_UNBELIEVER_AFTER = re.compile(r"(?<=\?)\s*+unbeliever\s*+:\s*+(?P<who>[^.\n]{1,40}+)\.?\s*+$", re.I)
# ... or in the words after the question: "Unbeliever: Wooble.", "I name Bob as Unbeliever."
_UNBELIEVER_SAID = re.compile(r"\bunbeliever\s*+:\s*+(?P<who>[^.\n]{1,40}+)"
                              r"|\bi\s++name\s++(?P<who2>[\w'’-]{1,40}+)\s++as\s++(?:the\s++|my\s++)?+unbeliever\b", re.I)
# the Question and its reasoning, labelled ("Q: ...", "R: ...", "(Reasoning: ...)") or not
_QUESTION_LABEL = re.compile(r"^\s*+(?:q|question)\s*+[:.]\s*+", re.I)
_REASONING_LABEL = re.compile(r"(?:^|\s)\(?(?:r|reasoning|reasons?|argument|arguments)\s*+:\s*+", re.I)


def _consultation_asked(lines: list[str], i: int) -> tuple[Reading, int] | None:
    """Rule 4E18: a paragraph headed "Consultation:" that asks a yes-or-no question
    submits a Consultation with that Question ("CONSULTATION: Can the Beast vote?", as
    "CFJ: ..." calls for judgement on other lists). A label over a statement asks nothing."""
    m = _CONSULTATION_LABEL.match(lines[i])
    if m is None:
        return None
    start, j = i, i + 1
    if not lines[i][m.end():].strip():          # the label alone: the question is the next paragraph
        k = i + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        if k == i + 1 or k >= len(lines):
            return None
        start, j = k, k + 1
    while j < len(lines) and lines[j].strip() and j - start < 12:
        j += 1
    said = " ".join(lines[start:j]) if start != i else " ".join(lines[i:j])[m.end():]
    question = _QUESTION_LABEL.sub("", " ".join(said.split()), count=1)
    unbeliever = _UNBELIEVER_AFTER.search(question)
    if unbeliever is not None:
        question = question[:unbeliever.start()].strip()
    named, reasoning = None, ""
    asked = question.find("?")
    if 0 < asked < len(question) - 1 and question.count("?") == 1 and unbeliever is None:
        # "does the Beast count ...? Unbeliever: Wooble. Reasoning: ...": what follows the
        # question names its Unbeliever and gives its reasoning
        after, question = question[asked + 1:], question[:asked + 1]
        said_who = _UNBELIEVER_SAID.search(after)
        named = (said_who.group("who") or said_who.group("who2")).strip() if said_who is not None else None
        why = _REASONING_LABEL.search(after)
        reasoning = after[why.end():].strip().rstrip(")").strip() if why is not None else ""
        if said_who is None and why is None:
            return None         # a question, then words that are no part of it
    why = _REASONING_LABEL.search(question) if not reasoning else None
    if why is not None and why.start() > 0:     # "Is the Beast a Player? (Reasoning: 4E4 and ...)"
        question, reasoning = question[:why.start()].strip(), question[why.end():].strip().rstrip(")").strip()
    elif not reasoning:
        k = j                                   # "Reasoning: ..." or "R: ..." the paragraph after
        while k < len(lines) and not lines[k].strip():
            k += 1
        if k < len(lines) and k > j and _REASONING_LABEL.match(lines[k]):
            end = k
            while end < len(lines) and lines[end].strip() and end - k < 12:
                end += 1
            reasoning = _REASONING_LABEL.sub("", " ".join(" ".join(lines[k:end]).split()), count=1)
            j = end
    if not question.endswith("?") or question.count("?") > 2:
        return None
    made = _made("submit_consultation", " ".join(lines[i].split()),
                 {"document": "Question: " + question + (f"\nReasoning: {reasoning}" if reasoning else "")
                  + (f"\nUnbeliever: {unbeliever.group('who').strip()}" if unbeliever else "")
                  + (f"\nUnbeliever: {named}" if named else "")})
    return (made, j) if made is not None else None


# "Proposal "Tidy Up 2":", "Proposal: "Less Mackerel"", "Proposal: amend Rule 4E31 so that ...",
# "Proposal" alone over its Title: and Body: lines: a proposal submitted under a label (Rule
# 4E15), as the ruleset's own "Proposal" heads one; not "Proposal 12: FOR" (a number: a Vote)
_PROPOSAL_LABEL = re.compile(r"^\s*+(?:new\s++)?proposal(?:\s++submission)?+(?:\s++[a-z](?=\s*+,))?+\s*+"   # 'Proposal A, "X":'
                             r"(?:,\s*+(?:(?:titled|title|called|named)\s++)?+(?=\"))?+"      # 'Proposal submission, title "X"'
                             r"(?:(?P<q1>\"[^\"\n]{1,80}+\")\s*+)?(?:\([^()\n]{0,80}+\)\s*+)?"
                             r"(?:,[^:\n\"]{1,80}+)?+"       # ', conflicting with 10': said in the document's Attributes
                             r"(?:(?P<colon>:)\s*+(?P<q2>\"[^\"\n]{1,80}+\"\s*+$)?+(?P<rest>.*+))?$", re.I)


_ATTRIBUTES_BELOW = len("text, more text, Conflicts:".split(", ")) + 1
_TITLE_OR_BODY_LINE = re.compile(r"\s*+(?:title|body|text)\s*+:", re.I)
_SUBMIT_NO_KIND = re.compile(r"\b(?:re)?submit\b[^:\n]{0,40}+:\s*+$", re.I)
_PROPOSED_THAT = re.compile(r"^\s*+i\s++(?:hereby\s++|formally\s++)?+propose\s++that\s++"
                            r"(?!(?:we|you|everyone|everybody|someone|somebody|anyone|all\s++of\s++us|people)\b)"
                            r"(?P<body>\S.*+)$", re.I | re.S)
_CHANGE_WORDS = re.compile(r"\b(?:rule|amend\w*+|repeal\w*+|enact\w*+|create[sd]?+|replac\w++|retitl\w++"
                           r"|ruleset|insert\w*+|append\w*+)\b", re.I)


def _title_follows(lines: list[str], i: int, doc_next: bool) -> bool:
    """Whether "Proposal: Clock Fix III" heads a proposal, so that its words are its Title:
    Attribute lines follow ("Conflicts: 12, 14"), or a paragraph that changes the rules
    ("Amend Rule 4E0 by ..."), or, after blank lines only, the {{ }} of its text."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines):
        return doc_next
    if _ATTRIBUTE_LINE.match(lines[j]) or _CHANGE_FIRST.match(lines[j]):
        return True
    # "Proposal: Beast Bedtime" over "The Beast shall perform no Trick ...": a Title, then what
    # the rules are to say, in the words rules say it with
    said = _PROPOSAL_LABEL.match(lines[i])
    title = (said.group("rest") or "").strip() if said is not None else ""
    if not title or not _TITLE_LIKE.fullmatch(_SAID_AFTER_TITLE.sub("", title)):
        return False
    # ... or, after a blank line, its text set in ("Proposal: Oracle Pay Rise" / "" / "  Set the ...")
    if any(_ATTRIBUTE_LINE.match(x) for x in lines[j + 1:j + _ATTRIBUTES_BELOW]):
        return True             # "Proposal: Fish Tax" / its text / "Conflicts: 10"
    return (j == i + 1 and bool(_RULE_WORDS.search(lines[j])) and not lines[j].lstrip().lower().startswith("i ")
            or j <= i + 2 and lines[j][:1] in " \t" and not _QUOTE_MARKS.match(lines[j]))


# Rule 4E72: "Indictment!" or "Indictment." as the label over an Indictment's fields, or before
# them on its line
_INDICTMENT_HEAD = re.compile(r"^\s*+(?:new\s++)?+indictment\s*+[!.]\s*+(?=$|(?:accusation|crime|offender|offense|offence)\s*+:)",
                              re.I)
_FIELD_IN_LINE = re.compile(r"(?<=[.;])\s++(?P<f>(?:accusation|crime|offender|offense|offence|example|tidbit|reasoning)\s*+:)",
                            re.I)
# a list's tag for a proposal, "[PROPOSAL] Sock Inflation": the label "Proposal:"
_BRACKET_LABEL = re.compile(r"^\s*+\[\s*+proposal\s*+\]\s*+:?\s*+(?=\S)", re.I)
# ("Quiet Nweek III (conflicts with 17)": what is said of it in brackets after its Title)
_SAID_AFTER_TITLE = re.compile(r"(?<!\s)\s*+\([^()\n]{0,80}+\)\s*+$")
# a Title as written on a label line: a few words, the first capitalised, no sentence's stops
_TITLE_LIKE = re.compile(r"[A-Z0-9][\w'’-]*+(?:\s++[\w'’-]++){0,7}+\s*+")
_RULE_WORDS = re.compile(r"\b(?:shall|must|may|is\s++hereby|are\s++hereby|each|every|all\s++players)\b", re.I)
# Rule 4E18: a Consultation submitted "asking whether ..." in the sentence, its Question after it
_ASKING_WHETHER = re.compile(r"(?P<head>\bI\s++(?:hereby\s++|also\s++|now\s++)?+(?:submit|pose|file|raise|lodge)\s++"
                            r"(?:a|the\s++following|this)\s++"
                            r"consultation)\s++(?:asking|on|about|as\s++to)\s++(?P<q>(?:whether|if)\s)", re.I)
_QUESTION_END = re.compile(r"[.?!](?=\s|$)|\n[ \t]*+\n")


def _asked_whether(text: str) -> str:
    """"I submit a Consultation asking whether the Oracle may ZOT a Consultation of which e is
    the Supplicant. No reasoning; ...": the Consultation, its Question the words from
    "whether" to the end of their sentence (Rule 4E18: a yes-or-no question), and what
    follows the sender's own words again."""
    m = _ASKING_WHETHER.search(text)
    end = _QUESTION_END.search(text, m.end("q"))
    stop = end.start() if end is not None else len(text)
    question = " ".join(text[m.start("q"):stop].split())
    after = text[end.end():] if end is not None else ""
    return (f"{text[:m.start()]}{m.group('head')}:\nQuestion: {question[:1].upper()}{question[1:]}?\n"
            f"END CONSULTATION\n{after.lstrip()}")


# A document submitted under a label of its kind: "Tweak:" over the changes it describes, or
# before them on its line (Rule 4E77); "Refresh Proposal:" alone on its line, over the text
# on the lines below it (Rule 4E0)
_DOCUMENT_LABEL = re.compile(r"^\s*+(?:(?:my|new|a)\s++)?+(?P<kind>tweak|refresh\s++proposal|tidiness\s++list)"
                             r"(?:\s*+\(\s*+(?:rule\s++)?+4e\d{1,3}+\s*+\))?+\s*+:\s*+(?P<rest>.*+)$", re.I)


def _labelled_document(lines: list[str], i: int):
    """The submission a label line heads, or None. A Tweak "describ[es] changes to be made to
    the rules and/or game state": words of change on its line, or (after "Tweak:" alone) on
    the lines below, or nothing is submitted. A Refresh Proposal's label (or a Tidiness
    List's, "Tidiness List (4E32):") stands alone over its text."""
    m = _DOCUMENT_LABEL.match(lines[i])
    if m is None:
        return None
    rest = m.group("rest").strip()
    if m.group("kind").lower().startswith("tweak"):
        below = next((x for x in lines[i + 1:i + 3] if x.strip()), "")
        if rest and not _CHANGE_WORDS.search(rest) or not rest and not _CHANGE_WORDS.search(below):
            return None
        return _document_head("I submit the following Tweak:" + (" " + rest if rest else ""))
    below = i + 1
    if below + 1 < len(lines) and not lines[below].strip() and (lines[below + 1][:1] in (" ", "\t")
                                                                or _ITEM.match(lines[below + 1])):
        below += 1          # "Refresh Proposal:", a blank line, then its text indented or listed
    if rest or below >= len(lines) or not lines[below].strip():
        return None
    kind = "Tidiness List" if m.group("kind").lower().startswith("tidiness") else "Refresh Proposal"
    return _document_head(f"I submit the following {kind}:")


_CHANGE_FIRST = re.compile(r"^\s*+(?:amend|repeal|enact|create|replace|insert|append|retitle|in\s++rule)\b", re.I)


def _as_submission(m: re.Match, attributes_follow: bool = False) -> str:
    """The label line said as the ruleset's action: 'I submit the following proposal, titled
    "X": <the rest of the line, the Body's beginning>'. Over Attribute lines ("Conflicts:
    12, 14"), the rest of "Proposal: Clock Fix III" is the Title."""
    title = (m.group("q1") or m.group("q2") or "").strip()
    rest = "" if m.group("q2") else (m.group("rest") or "").strip()
    said = ""
    if attributes_follow and rest and not title and m.group("colon") and len(rest) <= 80 and '"' not in rest:
        related = _RELATED_AFTER_TITLE.match(rest)      # "Quiet Nweek III (conflicts with 17)"
        if related is not None:
            rest, said = related.group("title").strip(), f", which {related.group('how')} {related.group('what')}"
        title, rest = f'"{_SAID_AFTER_TITLE.sub("", rest)}"', ""
    if not (m.group("colon") or title) or rest and not _CHANGE_WORDS.search(rest):
        return ""                       # "Proposal: let's all meet on IRC": a Body says what changes
    head = "I submit the following proposal" + (f", titled {title}" if title else "") + said
    return head + ":" + (" " + rest if rest else "")


# Rule 4E15's Attributes said in brackets after a Title: "(conflicts with 17)", "(depends on 15)"
_RELATED_AFTER_TITLE = re.compile(r"^(?P<title>[^()\n]{1,80}+)\s*+\((?:it\s++)?+(?P<how>conflicts\s++with|depends\s++on)\s++"
                                  r"(?P<what>[^()\n]{1,40}+)\)\s*+$", re.I)


def _head_wrapped(lines: list[str], i: int) -> bool:
    """Whether a line and the next, hard-wrapped, may be one head of a document: the
    next ends with a colon, and the line has no end of sentence."""
    return (i + 1 < len(lines) and lines[i].strip() != "" and lines[i + 1].rstrip().endswith(":")
            and lines[i].rstrip()[-1:] not in ".!?:" and document_word(lines[i] + " " + lines[i + 1]))


def _fenced(lines: list[str], i: int) -> tuple[int, int] | None:
    """Where a document written under its head is fenced: the first line after blank
    ones is a fence, and a fence of the same mark closes it (">>>" by "<<<")."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not _FENCE.match(lines[i]):
        return None
    mark = lines[i].strip()[0]
    close = _CLOSES.get(mark, mark)
    for j in range(i + 1, len(lines)):
        if _FENCE.match(lines[j]) and lines[j].strip()[0] == close:
            return i, j
    return None


_DOCUMENT_WORDS = re.compile(r"\b(?:propos\w*|tweak|tidiness|oracularity|indict\w*|consult\w*"
                             r"|punishment|answer|trick|subgame"
                             r"|contract\w*|articles|incorporat\w*|breach)\b", re.I)   # issue 15 (4E70, 4E79)


# (and a line ending in a colon that revises one named by its Title: "I revise Quiet Nweek as follows:")
_REVISING = re.compile(r"\b(?:revis\w*|resubmit\w*)\b", re.I)


def document_word(line: str) -> bool:
    return bool(_DOCUMENT_WORDS.search(line) or line.rstrip()[-1:] == ":" and _REVISING.search(line))


_ITEM = re.compile(r"^\s*+(?:[-*•–—+]++|\(?\d++[.):]|\(?[a-z]\))\s++\S")


def _list_block(lines: list[str], i: int) -> tuple[list[Reading], int] | None:
    """A header ending in ":" and the item lines under it ("I vote as follows:",
    "My ranking:"), read as one: the items alone, or the header with its items."""
    head = lines[i].strip()
    if not head.endswith(":") or i + 1 >= len(lines):
        return None
    j = i + 1
    verb = _header_verb(head)
    if verb and not lines[j].strip() and j + 1 < len(lines) and _ITEM.match(lines[j + 1]):
        j += 1                  # a blank line between a header with a verb and its numbered items
    items = []
    while (j < len(lines) and lines[j].strip() and not BEGIN.match(lines[j]) and not END.match(lines[j])
           and (_ITEM.match(lines[j]) or len(lines[j].split()) <= 4)
           and not (j > i + 1 and lines[j].rstrip().endswith(":") and not _ITEM.match(lines[j]))):   # "Chatter:"
        items.append(normalise(lines[j]))
        j += 1
    items = [x for x in items if x]
    if not items:
        return None
    if not lines[i + 1].strip():        # (only the header's verb over each item reads these)
        return _each_with_the_verb(verb, items, j)
    alone = [read_sentence(x) for x in items]
    if all(rs and all(r.kind == "action" for r in rs) for rs in alone):
        return _said_before_the_header(head) + _at_the_headers_time(head, [r for rs in alone for r in rs]), j
    if any(x.lower().startswith("i ") and any(r.kind == "action" for r in rs) for x, rs in zip(items, alone)):
        return None             # "* I support Intent 4." / "* buy milk": sentences of their own, read as lines
    joined = read_sentence(normalise(head[:-1]) + " " + ", ".join(items))
    if joined and all(r.kind == "action" for r in joined):
        return joined, j
    return _each_with_the_verb(verb, items, j)


def _without_as_follows(head: str) -> str:
    """A header without its closing colon and "as follows"."""
    said = head.rstrip().rstrip(":").rstrip()
    if said.lower().endswith("as follows"):
        said = said[:-len("as follows")].rstrip().rstrip(",").rstrip()
    return said


def _at_the_headers_time(head: str, readings: list[Reading]) -> list[Reading]:
    """"I will vote on Zarpint as follows:" over "- FOR 10": the items are done at the time the
    header says (Rule 4E7: an action announced for a later time is scheduled), not now."""
    said = _without_as_follows(split_sentences(head)[-1])
    when, _ = split_when(said)
    if when is None or when.kind == "invalid" or _time_of_another(said, when):
        return readings
    for r in readings:
        if r.kind == "action" and r.when is None:
            r.when = when
    return readings


def _said_before_the_header(head: str) -> list[Reading]:
    """"I cancel my scheduled vote on 16. I'll vote now:" over "AGAINST 16": a header line's
    sentences before its last, the header itself, are read as ever when its items read alone."""
    pieces = split_sentences(head)
    if len(pieces) < 2:
        return []
    return [r for said in sentences(" ".join(pieces[:-1])) for r in read_sentence(said)]


def _each_with_the_verb(verb: str | None, items: list[str], j: int) -> tuple[list[Reading], int] | None:
    """"Taking a couple of vacant jobs:" over "1) Ministry of Judging, reward m80": the
    header's verb said over each item, when each then reads as an action (items that are
    sentences of their own, "I object to ...", are not objects of it)."""
    if not verb or any(x.lower().startswith("i ") or BEGIN.match(x) or END.match(x) for x in items):
        return None
    each = [read_sentence(f"I {verb} {x}") for x in items]
    if all(rs and all(r.kind == "action" for r in rs) for rs in each):
        return [r for rs in each for r in rs], j
    return None


# what follows a header's verb when its items are the verb's objects ("Taking a couple of
# vacant jobs:", "Supporting the following:", "Objecting to:")
_HEADER_OBJECT_WORDS = frozenset({"a", "an", "the", "these", "those", "following", "some", "two", "three",
                                  "four", "several", "both", "all", "my", "to", "on", "up", "over", "each",
                                  "every", "any", "few", "couple"})
# (a list of votes has readings of its own: a ballot, "I vote as follows:")
_VOTE_VERBS = frozenset({"vote", "cast", "place", "enter", "submit"})
_HEADER_SUBJECT = frozenset({"i", "i'm", "im", "i’m", "am", "will", "i'll", "i’ll", "now", "also", "hereby"})


def _header_verb(head: str) -> str | None:
    """The verb a list's header says for each of its items ("Taking a couple of vacant
    jobs:" -> "take"; "I also support:" -> "support"), as written or from its "-ing" form."""
    if not head[:1].isupper():
        return None             # "end of the nweek):": the last line of a header, not its start
    words_ = [w for w in head.lower().rstrip(":").split() if w not in _HEADER_SUBJECT]
    if not words_:
        return None
    if len(words_) > 1 and words_[1].strip(",.;") not in _HEADER_OBJECT_WORDS:
        return None             # "Voting summary so far:": a noun, what the header is about
    w, heads = words_[0].strip(",.;"), _verbs().heads
    if w.endswith("ing") and w not in heads and len(w) > 5:
        w = _unprogressive(w) or ""
    return w if w in heads and w not in _VOTE_VERBS else None


# "Begin transaction. I give ...; I assert .... End transaction." on one line
_INLINE_TX = re.compile(r"\b(?:begin|start|end)\s++(?:of\s++(?:the\s++)?)?transaction\b", re.I)


# "Begin transaction: I give ...": the start, then the first step
_OPENED = re.compile(r"^(?P<begin>\W*+(?:begin|start)\s++(?:of\s++(?:the\s++)?)?transaction)\s*+[:,—–-]\s*+(?P<rest>\S.*)$",
                     re.I | re.S)


def _opened(part: str) -> list[str]:
    m = _OPENED.match(part)
    return [m.group("begin"), m.group("rest")] if m else [part]


# a line that introduces words shown, not said: "For example:", "Example of a well-formed
# message:", "Not an action, just a draft:",
# "you would write something like:" (its indented lines after it are the example)
_SHOWN = re.compile(r"\b(?:(?:for\s++)?+examples?+|e\.g\.|for\s++instance|(?:a|my|the)\s++draft|not\s++an\s++action"
                    r"|(?:the|this)\s++(?:format|syntax|wording)|like\s++so"
                    r"|something\s++like|like\s++this|such\s++as|template|would\s++(?:write|say|post)"
                    r"|should\s++(?:write|say|post)|could\s++(?:write|say|post))\b", re.I)


# (or a line that ends by saying an example follows: "For instance, something like" over the
# indented lines)
_SHOWN_AT_END = re.compile(r"(?:\b(?:something\s++like|like\s++(?:this|so)|for\s++(?:example|instance)|e\.g\."
                           r"|if\s++i\s++(?:wrote|write|posted|sent))|,[ \t]*+say(?=[ \t]*+,))"     # ("if I wrote, say,")
                           r"[ \t]*+[:,.]?+[ \t]*+$", re.I)


# a heading over lines that are not said as actions: "Wooble's predictions of how the Beast
# would vote, if it could:", "What I would do in Bob's place:", "Things still to do:"
_HYPOTHETICAL = re.compile(r"\b(?:would|predictions?|predict(?:ed|s)?|guess(?:es)?|imagine|hypothetical(?:ly)?"
                           r"|pretend|wish\s++list|to-?do|todo|(?:still|left|yet)\s++to\s++(?:do|be\s++done)"
                           r"|(?:have|already|'ve|’ve)\s++done|done\s++so\s++far)\b", re.I)
# ... and a short one that says what follows is not done: "Things I am NOT doing today:",
# "What I won't do:"
_SHORT_HEADING = len("Things I am NOT doing today or tomorrow:".split())
_NOT_DONE_HEADING = re.compile(r"\b(?:not|never|won['’]t|don['’]t)\b", re.I)


def _line_acts(line: str) -> bool:
    return any(r.kind == "action" for r in read_sentence(normalise(line.rstrip().rstrip(":"))))


_LABELLED_BY_NAME = re.compile(r"^\s*+(?P<name>[A-Z][\w'’-]{0,30}+(?:\s[A-Z][\w'’-]{0,30}+)?+)\s*+:\s++(?P<rest>\S.*)$")


def _someone_elses(line: str) -> bool:
    """A line labelled with another Player's name, then roles with no "I" ("  Bob:  10 FOR,
    11 AGAINST" in a Chairman's report): what that Player did, not the sender's action."""
    m = _LABELLED_BY_NAME.match(line)
    vocab = _VOCAB.get()
    if m is None or vocab is None or not vocab.players:
        return False
    name = m.group("name").lower()
    if name == (vocab.actor or "").lower() or name not in {p.lower() for p in vocab.players}:
        return False
    return not re.search(r"\bi\b|\bi['’]", m.group("rest"), re.I)


def _transaction_lines(lines: list[str]) -> list[str]:
    """A Transaction written on one line: its start, steps and end each a line of their own."""
    out: list[str] = []
    for line in lines:
        if (not _ascii_lacks(line, ("transaction",)) and _INLINE_TX.search(line)
                and not (BEGIN.match(line) or END.match(line))):
            parts = [q for p in _SENTENCE_END.split(line.strip()) if p.strip() for q in _opened(p)]
            if any(BEGIN.match(p) or END.match(p) for p in parts):
                out.extend(parts)
                continue
        out.append(line)
    return out


def _read_lines(lines: list[str]) -> list[Reading]:
    readings: list[Reading] = []
    block: list[str] | None = None
    block_start = ""
    # (lines a mail program wrapped are joined first, unless a Transaction begins on a line
    # of its own: its steps are lines, never joined; one written inline is cut after joining)
    lines = lines if any(BEGIN.match(x) for x in lines) else unwrap(lines)
    lines = (_transaction_lines(lines) if any(not _ascii_lacks(x, ("transaction",)) and _INLINE_TX.search(x)
                                              for x in lines) else lines)
    i = 0
    carried = None              # the last action read, which a later line may take back
    example = False             # under "For example:" / "just a draft:", indented lines are shown, not done
    hypothetical = False        # under "My predictions:", "How I would vote:", lines are not said
    while i < len(lines):
        line = lines[i]
        i += 1
        if example and (not line.strip() or line[:1] in " \t"):
            continue
        if hypothetical and line.strip():
            continue            # under "How the Beast would vote, if it could:": not said, to a blank line
        hypothetical = False
        example = bool(line.rstrip().endswith(":") and _SHOWN.search(line) or _SHOWN_AT_END.search(line))
        if example:
            continue
        if (line.rstrip().endswith(":") and (_HYPOTHETICAL.search(line) or len(line.split()) <= _SHORT_HEADING
                                             and _NOT_DONE_HEADING.search(line)) and not _line_acts(line)):
            hypothetical = True
            continue
        if block is None and BEGIN.match(line):
            block, block_start = [], line.strip()
            continue
        if block is not None:
            if END.match(line) or block and _BARE_END.match(line):
                readings.append(transaction(block))
                block = None
            elif not block and _BARE_BEGIN.match(line):
                continue                    # "Transaction (all or nothing):" / "BEGIN"
            else:
                block.append(line)
            continue
        if _someone_elses(line):
            continue            # "  Bob:    10 FOR, 11 AGAINST": a report of another Player's votes
        listed = _list_block(lines, i - 1)
        if listed is not None:
            readings.extend(listed[0])
            i = listed[1]
            continue
        carried = _line_sentences(line, readings, carried)
    if block is not None:
        t = transaction(block)
        t.error = f'"{block_start}" has no END TRANSACTION after it'
        readings.append(t)
    return readings


# a sentence that takes back the one before it ("Just kidding.", "Scratch that.")
_TAKEN_BACK_WORDS = frozenset(words()["reader"]["taken_back"]) | {"ignore", "disregard", "mind"}
_TAKING_BACK = _TAKEN_BACK_WORDS | {"just", "not", "really", "that", "this", "never", "only", "i", "m", "am",
                                    "the", "last", "line", "bit", "sorry", "of", "course", "one", "second",
                                    "first", "previous", "above", "part", "please", "it", "oops", "action"}
_WORDS_SAID = re.compile(r"[a-z/]+")
# "Sorry, that should be m2.", "Oops, that was meant to be Bob": the action before was a slip
_MEANT = r"^(?:(?:actually|sorry|oops|whoops|no|wait|oh|er+m?|um+)\b[\s,.:!-]*+)++i\s++mean(?:t|\b)"
_CORRECTED = re.compile(r"^(?:(?:sorry|oops|whoops|er+m?|um+|correction)\b[\s,.:!-]*+)?+(?:that|this|it)\s++"
                        r"(?:should\s++(?:have\s++)?(?:be|been|read|say|said)|was\s++meant\s++to\s++(?:be|say)"
                        r"|ought\s++to\s++(?:be|have\s++been))\b"
                        # "Actually no, wait, I meant 14.": what is meant is said again after it
                        r"|" + _MEANT, re.I)
# (and read: "FOR 14. Oh wait, I mean FOR 12, not 14.")
_MEANT_INSTEAD = re.compile(_MEANT + r"[\s,:]*+(?P<rest>\S.*+)$", re.I)
_NUMBER_NOT_A_TIME = re.compile(r"(?<!nweek )(?<!nday )(?<!nweek #)\b\d", re.I)     # "Votes for nweek 7:"
_REDONE = re.compile(r"^(?:(?:actually|oh|er+m?|um+)[\s,]++)?(?:no|nah)\b[\s,;:!-]++(?:wait[\s,;:!-]++)?"
                     r"(?:(?:just|only|instead)\s++)?(?P<rest>\S.*)$", re.I)
_AFTERTHOUGHT = re.compile(r"^(?:and\s++)?(?:also\s++|too\s++)?", re.I)
# "FOR 13. On 12 and 14" / "I'm going to SHELVE both": a line cut after "On" and the proposals,
# whose Vote comes on the next line, never adds them to the Vote before ("On 14 too." does)
_ON_FIRST = re.compile(r"^on\s", re.I)
# "I take the Judge job. Reward stays at m100.": the Reward said in a sentence after (Rule 4E46)
_REWARD_KEPT = re.compile(r"^(?:the\s++|my\s++|its\s++)?+reward\s++(?:(?:stays|remains|will\s++stay|can\s++stay)\s++"
                          r"(?:at\s++)?+(?P<a>m\d{1,6}+)|(?P<b>m\d{1,6}+)\s++is\s++fine)\b", re.I)


def _reward_said(m: re.Match) -> str:
    return f"reward {m.group('a') or m.group('b')}"


def _only_words_added(before: list[Reading], joined: list[Reading]) -> bool:
    """Whether reading the next sentence with the action before it only lengthened a role
    taken as written (a remark swallowed: 'retitle 4E9 and "The Eras of B" is much'), and
    not a role the sentence names a value for ("And also 13.", "Reward m50.")."""
    if len(before) != len(joined):
        return False
    for b, j in zip(before, joined):
        if b.spec is not j.spec:
            return False
        types = {x.name: x.type for x in j.spec.roles}
        changed = [k for k in set(b.args) | set(j.args) if b.args.get(k) != j.args.get(k)]
        if any(types.get(k) not in ("text", "clause", None) for k in changed):
            return False
    return True


def _kept(before: list[Reading], joined: list[Reading]) -> bool:
    """Whether the actions read before a sentence was added to them are still read, each
    role as it was ("I vote FOR 10, 11. And also 13." adds; "vote 11 against, 14 for. sent
    in a hurry" must not turn 14's FOR into AGAINST)."""
    def items(v) -> set:
        return {str(x).strip() for x in (v if isinstance(v, (list, tuple)) else str(v).split(","))}
    return all(b.spec is j.spec and all(j.args.get(k) == v or items(v) <= items(j.args.get(k, ""))
                                        for k, v in b.args.items() if v not in (None, ""))
               for b, j in zip(before, joined))


def _takes_back(sentence: str) -> bool:
    """A sentence that takes back the action before it: "Just kidding.", "Never mind,
    ignore this one.", "Scratch the second one.", "Sorry, that should be m2." (what the
    sender meant instead, if anything, they say again)."""
    said = set(_WORDS_SAID.findall(sentence.lower()))
    if _IN_EARNEST.search(sentence):
        return False                # "I am not kidding.": said in earnest
    return (bool(said and said <= _TAKING_BACK and said & _TAKEN_BACK_WORDS) or bool(_CORRECTED.match(sentence))
            or bool(_NOT_REALLY.match(sentence)) or bool(_TAKE_BACK_FIRST.match(sentence))
            or bool(_WAIT_CANNOT.match(sentence)))


# "... oh wait, I didn't submit one this nweek.", "Oh wait, I don't have m5.": the sender
# finds the action cannot be, and it is not done
_WAIT_CANNOT = re.compile(r"^\W*+(?:(?:oh|ah|hm+)\b[\s,.!-]*+)?+wait\b[\s,.!-]*+i\s*+(?:didn['’]t|don['’]t|can['’]t"
                          r"|cannot|haven['’]t|hadn['’]t|have\s++no|had\s++no|am\s++not|['’]m\s++not)\b", re.I)


# "Just kidding, I know I only get one.", "Ignore me, I'm tired.": the taking back said
# first, then why
_TAKE_BACK_FIRST = re.compile(r"^\W*+(?:(?:oh|ah|er+m?+|um+|sorry|oops|whoops|wait)\b[\s,.!-]*+){0,2}+"
                              r"(?:(?:just\s++)?+(?:kidding|joking)|j/?k|ignore\s++(?:me|that|this|the\s++above)"
                              r"|disregard\s++(?:me|that|this|the\s++above)|never\s*+mind|scratch\s++(?:that|this))"
                              r"\s*+(?:[,;:!.—–-]|$)", re.I)


_IN_EARNEST = re.compile(r"\b(?:not|no)\s++(?:kidding|joking|jest|joke)\b", re.I)
# "<- this is what Wooble told me I should write", "That's what you should all be writing":
# the action above was shown, not done
_SHOWN_ABOVE = re.compile(r"^\W*+(?:<-++|\^++)?+\s*+(?:that|this)(?:['’]s|\s++is|\s++was)\s++(?:what|how)\b"
                          r"[^.]{0,120}?\b(?:should|could|would|must|ought|told|tells?|said|says|suggested"
                          r"|wants?|wanted)\b", re.I)
# "I am not forfeiting.": the action just said, denied
_NOT_DOING = re.compile(r"^\W*+(?:(?:but|and|so)\s++)?+i(?:['’]m|\s++am)\s++not\s++(?:really\s++|actually\s++)?+"
                        r"(?P<doing>[a-z]++)\s*+(?:[.!,;)]|$|(?:really|actually|at\s++all|though|anyway)\b)", re.I)
_DENIAL_PARTS = re.compile(r"(?<=[.!?])\s++")
# "I can't support that.", "I won't object to it after all": the action just said, not done
_CANNOT_DO = re.compile(r"\bi\s++(?:can['’]t|cannot|can\s++not|won['’]t|shouldn['’]t|mustn['’]t)\s++"
                        r"(?:really\s++|actually\s++)?+(?P<verb>[a-z]++)\s++(?:to\s++)?+(?:that|it|this)\b", re.I)


def _denied(sentence: str, taken: list[Reading]) -> bool:
    """Whether the sentence denies the action before it ("I am not forfeiting.") or says it
    was shown, not done ("That's what you should all be writing")."""
    if _SHOWN_ABOVE.match(sentence):
        return True
    verbs = None
    for part in _DENIAL_PARTS.split(sentence)[:8]:      # ("(Just testing. I am not forfeiting.)")
        m = _NOT_DOING.match(part)
        if m is None:
            continue
        if verbs is None:
            verbs = {form for r in taken if r.spec is not None for fr in r.spec.frames
                     for verb in fr.verbs if verb for form in _progressive(verb[0])}
        if m.group("doing").lower() in verbs:
            return True
    m = _CANNOT_DO.search(sentence[:300]) if "'t" in sentence or "’t" in sentence or "not" in sentence else None
    if m is not None:
        # "... wait, it's my own intent, I can't support that.": the action just said, undone
        said = {verb[0] for r in taken if r.spec is not None for fr in r.spec.frames for verb in fr.verbs if verb}
        return m.group("verb").lower() in said
    return False


# "I forfeit. (No, not really.)": the sentence after an action denies it
_NOT_REALLY = re.compile(r"^\W*+(?:(?:no|nah|nope|ha|haha)\b[\s,.!-]*+)?+not\s++really\s*+(?:[.!)]|$)", re.I)


# "I resign the Ministry of Questions and go to bed": after the action, "and" and a verb of
# no action, with nothing a role takes: what else the sender does, no part of the action
_AND_THEN_ASIDE = re.compile(r"^(?P<head>i\s[^\n]{3,300}?)\s++and\s++(?:then\s++)?+(?P<tail>[a-z][a-z'’-]*+\b[^\n]{0,200}+)$", re.I)
_NOT_A_VERB = FILLERS | _NOT_IMPERATIVE | frozenset(
    {"his", "her", "its", "their", "our", "your", "this", "that", "these", "those", "some", "any", "no",
     "other", "another", "not", "never", "if", "unless", "when", "whoever", "whatever", "friends", "others",
     "everyone", "everybody", "anyone", "you", "him", "them", "it", "also", "too", "more", "less"})


def _then_said_aside(sentence: str) -> list[Reading]:
    """The action before "and <a verb of no action> ...", when the whole reads to nothing:
    the rest is what else the sender does ("... and go to bed", "... and hand the staff of ZOT
    to whoever wants it next"). Only where the rest names nothing any role takes, with no
    condition or denial in it, and the action before it reads whole."""
    m = _AND_THEN_ASIDE.match(sentence.strip().rstrip(".!"))
    if m is None:
        return []
    tail = m.group("tail")
    first = tail.split(None, 1)[0].lower()
    if first in _NOT_A_VERB or first.upper() in _VOTE_WORDS:
        return []
    words_of_tail = {w.lower() for w in re.findall(r"[A-Za-z'’]++", tail)}
    if words_of_tail & _UNSURE_WORDS or any(t.senses for t in lex(tail[:300], _VOCAB.get())):
        return []
    head = read_sentence(m.group("head"))
    return head if head and all(r.kind == "action" for r in head) else []


# "votes: 10 FRO, 11 FOR, 12 AGIANST": a ballot's items on one line, under a label or none
_ITEM_NUMBER, _ITEM_WORD = r"(?:proposal\s*+|prop\.?+\s*+|p|#)?+\d{1,4}+", r"[a-z]{2,12}+"
_BALLOT_ITEMS = re.compile(r"^(?:[a-z][a-z ]{0,20}+:\s*+)?+(?P<items>(?:" + _ITEM_NUMBER + r"\s*+[:=-]?+\s*+" + _ITEM_WORD
                           + r"\s*+(?:,\s*+|$)){2,40}+)$", re.I)


def _ballot_items(sentence: str) -> list[Reading]:
    """A ballot's items that read as nothing together, each read alone, where each is a
    Vote or an attempt at one whose Vote word is not one (Rule 4E15: "FOR, AGAINST, ABSTAIN,
    or SHELVE"): the Votes are cast and the misspelt ones told, none guessed."""
    m = _BALLOT_ITEMS.match(sentence.strip().rstrip(".!"))
    if m is None:
        return []
    items = [x.strip() for x in m.group("items").split(",") if x.strip()]
    got = [read_sentence(x) or _voted_as_item(x) for x in items]
    if not all(len(g) == 1 and g[0].spec is not None and g[0].spec.name == "vote"
               and (g[0].kind == "action" or g[0].kind == "incomplete" and tuple(g[0].missing) == ("vote",))
               for g in got) or not any(g[0].kind == "action" for g in got):
        return []
    return [g[0] for g in got]


_ITEM_PARTS = re.compile(r"^(?P<n>" + _ITEM_NUMBER + r")\s*+[:=-]?+\s*+(?P<word>" + _ITEM_WORD + r")\s*+$", re.I)


def _voted_as_item(item: str) -> list[Reading]:
    """"10 FRO": an item read as the Vote it attempts ("I vote FRO on 10"), its text as written."""
    m = _ITEM_PARTS.match(item)
    if m is None:
        return []
    got = read_sentence(f"I vote {m.group('word')} on {m.group('n')}")
    for r in got:
        r.text = item
    return got


def _line_sentences(line: str, out: list[Reading], carried: list[Reading] | None = None) -> list[Reading] | None:
    """Appends to `out` the readings of one line's sentences, each read alone, with
    three exceptions:
    - a sentence that only adds roles to the action before it ("I vote FOR 10, 11. And
      also 13.", "I become the Ranger. Reward m50.") is read with it;
    - roles said with no verb after talk ("voted FOR 10; AGAINST 12") are the same talk;
    - a sentence that takes back the last action (`_takes_back`), in this line or an
      earlier one (`carried`, the readings of that action), removes it: nothing was done.
    Returns the last action's readings, for the next line."""
    last: tuple[str, list[Reading]] | None = None
    taken = carried             # what a taking back takes back (past remarks: "No, wait, ... Scratch that.")
    talk = False
    for s in sentences(line):
        redone = _REDONE.match(s) if taken else None
        if redone and read_sentence(redone.group("rest")):
            # "I object too. Actually no, just support.": the last action taken back, and
            # what is said instead read in its place
            for r in taken:
                for k in range(len(out) - 1, -1, -1):
                    if out[k] is r:
                        del out[k]
                        break
            last = taken = None
            s = redone.group("rest")
        if taken and (_takes_back(s) or _denied(s, taken)):
            for r in taken:                         # "I forfeit. Just kidding.": nothing done
                for k in range(len(out) - 1, -1, -1):
                    if out[k] is r:
                        del out[k]
                        break
            last = taken = None
            meant = _MEANT_INSTEAD.match(s)
            if meant is None:
                continue
            if not read_sentence(meant.group("rest")):
                # "I vote FOR 14. Actually no, wait, I meant 12.": taken back, and told that what
                # is meant instead is no action alone
                out.append(Reading(s, error=f"taken back; what is meant instead (“{meant.group('rest').strip()}”) "
                                            "is no action alone: say the whole action again (Rule 4E7)"))
                continue
            s = meant.group("rest")             # "Oh wait, I mean FOR 12, not 14.": what is meant, read
        got = read_sentence(s) or _then_said_aside(s) or (_ballot_items(s) if "," in s else [])
        if (got and s.rstrip().endswith(":") and not s.lower().startswith("i ")
                and all(r.kind == "incomplete" and r.args and not _NUMBER_NOT_A_TIME.search(s) for r in got)):
            got = []                    # "Votes for this nweek:": a heading; what it heads follows
        words = s.split()
        verbless = not words or words[0].lower() != "i" and not any(
            r.spec is not None and r.spec.name != "vote" for r in got)
        if talk and verbless and "i" not in (w.lower() for w in words):
            got = []                    # "- voted FOR 10, 11; AGAINST 12, 14": a summary, not votes
        elif (not got and last is not None and last[1] and len(words) <= 6 and not _CORRECTION.search(last[0])
              and not (_ON_FIRST.match(s) and line.rstrip()[-1:].isalnum())
              and not (len(words) > 1 and words[1].lower() in FINITE_VERBS)     # ("Beige is for cowards")
              # (a word alone at the end of a line cut mid-sentence: "... Proposal 14. Two" / "fixes ...")
              and not (len(words) == 1 and words[0].isalpha() and line.rstrip().endswith(words[0]))):
            joined = read_sentence(f"{last[0]} and {_REWARD_KEPT.sub(_reward_said, _AFTERTHOUGHT.sub('', s))}")
            if (joined and all(r.kind == "action" for r in joined) and len(joined) >= len(last[1])
                    and [r.read_as for r in joined] != [r.read_as for r in last[1]]
                    and not _only_words_added(last[1], joined) and _kept(last[1], joined)):
                del out[len(out) - len(last[1]):]
                begin = line.find(last[0].split(" and ")[0])
                end = line.find(s, max(begin, 0))
                for r in joined:
                    if r.text not in line and 0 <= begin <= end:   # the words as written
                        r.text = line[begin:end + len(s)]
                out.extend(joined)
                last = (f"{last[0]} and {s}", joined)
                taken = joined
                continue
        talk = bool(words) and words[0].lower().strip("-*") in _TALK_WORDS and not got
        out.extend(got)
        last = (s, got) if got and all(r.kind == "action" for r in got) else None
        if got:
            taken = last[1] if last is not None else None
    return taken


# "I'd like to become a Player." ... "Teodora": the name the request is signed with
_SIGNED = re.compile(r"\n[ \t]*+(?:--[ \t]*+\n[ \t]*+)?(?P<name>[A-Z][\w'’-]{1,30}+(?:[ \t]++[A-Z][\w'’-]{1,30}+){0,2})"
                     r"[ \t]*+$")
_SIGN_OFFS = frozenset({"cheers", "thanks", "regards", "best", "yours", "love", "ta", "thx", "sincerely",
                        "greetings", "hi", "hello", "ps", "sent", "bye", "later", "kind", "warm", "many"})


def _signed(text: str) -> re.Match | None:
    m = _SIGNED.search(text.rstrip()[-200:])
    if m is None or m.group("name").split()[0].lower() in _SIGN_OFFS:
        return None
    return m


def name_the_newcomer(readings: list[Reading], text: str) -> None:
    """Rule 4E4 wants a message "containing a request to become a Player and a uniquely
    identifying name": "I'd like to join. My name is Wooble." names the newcomer too."""
    for r in readings:
        if r.spec is not None and r.spec.name == "join" and not r.args.get("name"):
            m = _NAME_GIVEN.search(text) or _NAME_INTRODUCED.search(text) or _signed(text)
            if m:
                r.args["name"] = m.group("name").strip()
                r.missing = tuple(x for x in r.missing if x != "name")
        if r.spec is not None and r.spec.name == "join" and not r.args.get("recruiters"):
            # Rule 4E4: "the Players e names as responsible for eir desire to join", said
            # anywhere in the message ("Recruited by Alice and Bob.", "Ais523 talked me into it.")
            named = _recruiters(text, _VOCAB.get())
            if named and "recruit" not in (r.args.get("name") or "").lower():
                r.args["recruiters"] = ", ".join(named)


_RECRUITING = ("recruit", "talked me into", "talked me in", "referred", "invited", "brought me",
               "got me into", "convinced me", "persuaded me", "blame them", "blame him", "blame her",
               "told me i should", "told me to join", "responsible for", "is responsible", "gets the credit",
               "get the credit", "credit goes to", "made me want", "recommended", "pointed me")


def _recruiters(text: str, vocab: Vocabulary | None) -> list[str]:
    """The Players a request to join names as its recruiters, by the words of Rule 4E4."""
    if vocab is None or not vocab.players:
        return []
    out: list[str] = []
    text = re.sub(r"(?<=\S)[ \t]*+\n(?=[ \t]*+\S)", " ", text)     # a sentence wrapped over lines is one
    for sentence in sentences(text):
        low = sentence.lower()
        if any(cue in low for cue in _RECRUITING):
            for t in lex(sentence, vocab):
                who = t.sense("player")
                if who and who not in out and who != vocab.actor and t.low not in ("me", "myself"):
                    out.append(who)
    return out


def transaction(lines: list[str]) -> Reading:
    steps = [r for line in lines for s in sentences(_LABEL.sub("", line.strip()))
             for r in read_sentence(s, in_transaction=True)]
    text = "BEGIN TRANSACTION ... END TRANSACTION"
    return Reading(text, steps=steps)
