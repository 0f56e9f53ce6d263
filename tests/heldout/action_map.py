"""From bnomic's readings to the held-out set's notation (README.md, "Actions and
their roles"): one row per bnomic action, as data.

A row names the set's action, which of bnomic's arguments fills which of its roles,
roles that are fixed by the bnomic action itself (`clock_on` is `clock state=On`),
and the set's roles bnomic does not model (they are not compared: bnomic keeps a
Proposal's conflicts in its text, and numbers all new proposals at once).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Row:
    action: str                                   # the set's action name
    roles: dict = field(default_factory=dict)     # bnomic argument -> the set's role
    fixed: dict = field(default_factory=dict)     # the set's role -> value the bnomic action implies
    unmodelled: tuple = ()                        # the set's roles bnomic does not model (not compared)
    split: str | None = None                      # a list-valued role read as one line per item


_INTENT = {"target": "intent", "intent": "intent", "number": "intent", "what": "intent"}
_NESTED = {"rest": "action", "action": "action"}
_CONSULTATION = {"which": "consultation", "consultation": "consultation"}
_MINISTRY = {"ministry": "ministry", "reward": "reward"}

# bnomic action (registry.ACTIONS spec.name) -> the set's action
ROWS: dict[str, Row] = {
    # 4E4, 4E28 players
    "join": Row("join", {"name": "name", "recruiters": "recruiters"}),
    "forfeit": Row("forfeit"),
    "add_address": Row("add-address", {"name": "address", "address": "address"}),
    "remove_address": Row("remove-address", {"name": "address", "address": "address"}),
    "remove_active": Row("deactivate", {"player": "player"}),
    # 4E33 money
    "give": Row("give", {"amount": "amount", "player": "to", "to": "to"}),
    "exchange": Row("exchange", {"number": "points", "points": "points"}),
    # 4E21, 4E22 intents (withdraw_stance becomes withdraw-objection or withdraw-support: score.py)
    "intend": Row("intend", {**_NESTED, "objections": "objections", "supporters": "supporters"}),
    "object": Row("object", _INTENT),
    "support": Row("support", _INTENT),
    # 4E21, 4E22: "I act on intent #3", "I do so." in reply to it (its action is the intent's own)
    "act_on_intent": Row("act-on-intent", _INTENT, unmodelled=("action",)),
    "withdraw_stance": Row("withdraw-objection", _INTENT),
    "withdraw_intent": Row("withdraw-intent", _INTENT),
    # 4E71 the Beast
    "beast_acts": Row("beast", _NESTED),
    # 4E45-4E53 ministries, 4E14 clock, 4E39, 4E40, 4E50 displays
    "assign_ministry": Row("assign-ministry", _MINISTRY),
    "resign_ministry": Row("resign", {"ministry": "ministry"}),
    "revise_reward": Row("revise-reward", _MINISTRY),
    "usurp": Row("usurp", _MINISTRY),
    "remove_minister": Row("remove-minister", {"ministry": "ministry"}),
    "clock_on": Row("clock", fixed={"state": "On"}),
    "clock_off": Row("clock", fixed={"state": "Off"}),
    "challenge_display": Row("challenge", {"ministry": "display", "display": "display", "errors": "errors"}),
    # bnomic names the challenge by its obligation's number, the set by the challenging message
    "answer_challenge": Row("answer-challenge", unmodelled=("challenge",)),
    "approve_display": Row("approve-display", {"ministry": "display", "display": "display"}),
    "change_motnw": Row("set-motnw", {"message": "message"}),
    "hoist_flag": Row("threat-flag", {"flag": "value", "value": "value"}),
    # 4E15, 4E69 proposals and voting
    "submit_proposal": Row("submit-proposal", {"title": "title", "document": "body"},
                           unmodelled=("conflicts", "dependencies")),
    "revise_proposal": Row("revise-proposal", {"number": "proposal", "proposal": "proposal",
                                               "title": "title", "document": "body"}),
    "withdraw_proposal": Row("withdraw-proposal", {"number": "proposal", "proposal": "proposal"}),
    "number_proposals": Row("number-proposal", unmodelled=("proposal", "number")),
    "vote": Row("vote", {"vote": "choice", "choice": "choice", "which": "proposal", "proposal": "proposal"},
                split="proposal"),
    "publish_ballot": Row("publish-ballot", unmodelled=("ballot",)),
    "publish_results": Row("publish-results", unmodelled=("results",)),
    "color_proposal": Row("proposal-color", {"number": "proposal", "proposal": "proposal", "color": "color"}),
    # 4E7 scheduling
    "cancel_scheduled": Row("cancel-scheduled", unmodelled=("ref",)),
    # 4E77 tweaks, 4E32 tidiness, 4E36 titles
    "submit_tweak": Row("submit-tweak", {"document": "body"}),
    "activate_tweak": Row("activate-tweak", {"number": "tweak", "tweak": "tweak"}),
    "submit_tidiness_list": Row("submit-tidiness-list", {"document": "body"}),
    "retitle_rule": Row("retitle", {"number": "rule", "rule": "rule", "title": "title"}),
    # 4E18 consultations (a Question's Reasoning and Unbeliever are in its document)
    "submit_consultation": Row("submit-consultation", {"document": "question"},
                               unmodelled=("reasoning", "unbeliever")),
    "become_ordained": Row("ordain"),
    "leave_ordained": Row("unordain"),
    "assign_consultation": Row("assign-priest", {**_CONSULTATION, "player": "priest", "priest": "priest",
                                                 "number": "number"}),
    "zot_consultation": Row("zot", _CONSULTATION),
    "request_zot": Row("request-zot", _CONSULTATION),
    "answer_consultation": Row("answer-consultation", {**_CONSULTATION, "word": "answer", "answer": "answer"},
                               unmodelled=("reasoning", "oracularity")),
    "claim_consultation": Row("claim", {**_CONSULTATION, "claim": "verdict", "verdict": "verdict"}),
    "tally_claims": Row("tally-claims", _CONSULTATION),
    # 4E72, 4E73 justice (an Indictment's fields are in its document)
    "submit_indictment": Row("submit-indictment", {"player": "offender"},
                             unmodelled=("accusation", "example", "tidbit", "reasoning", "offender")),
    "draw_jury": Row("select-jury", {"number": "indictment", "indictment": "indictment"}),
    "name_jury": Row("select-jury", {"number": "indictment", "indictment": "indictment",
                                     "players": "jury", "jury": "jury"}),
    "verdict": Row("verdict", {"number": "indictment", "indictment": "indictment", "answer": "answer"}),
    "assign_fine": Row("assign-punishment", {"number": "indictment", "indictment": "indictment",
                                             "amount": "fine", "fine": "fine"}),
    "assign_punishment": Row("assign-punishment", {"number": "indictment", "indictment": "indictment",
                                                   "document": "punishment", "punishment": "punishment"}),
    "pay_fine": Row("pay-fine", {"amount": "amount"}),
    # 4E0 emergencies
    "mental_state": Row("mental-state", {"state": "state"}),
    "designate_forum": Row("designate-forum", {"forum": "forum"}),
    "initialise_pause": Row("initialize-pause"),
    "increment_pause": Row("intend", fixed={"objections": "1", "action": ("increment-pause", {})}),
    "object_increment": Row("object", fixed={"intent": ("increment-pause", {})}),
    # (one that names the sender's own, "I revise my Refresh Proposal (RP 2) to read:", is its
    # revision, Rule 4E0 step 5: revise-refresh, score.py)
    "submit_refresh_proposal": Row("submit-refresh", {"document": "body"}),
    "withdraw_refresh_proposal": Row("withdraw-refresh", unmodelled=("refresh",)),
    "rank_refresh_proposals": Row("rank-refresh", {"ranking": "ranking"}),
    "parallel_procedure": Row("start-procedure"),
    # issue 15: the Beast's Tricks (4E71), Socks (4E68), Contracts (4E70, 4E45), Subgames (4E82)
    "reinforce_trick": Row("reinforce-trick"),
    "punish_trick": Row("punish-trick"),
    "select_trick": Row("select-trick", unmodelled=("trick",)),
    "teach_trick": Row("teach-trick", {"document": "trick", "timing": "timing"}),
    "transfer_sock": Row("transfer-sock", {"color": "color", "player": "to"}),
    "create_contract": Row("create-contract", {"document": "body"}),
    "join_contract": Row("bind-contract", unmodelled=("contract",)),
    "delegate_by_contract": Row("delegate", {"ministry": "ministry", "delegate": "to"},
                                unmodelled=("powers", "contract")),
    "open_subgame": Row("open-subgame", {"number": "subgame"}),
}

# The set's actions the harness builds itself rather than from one bnomic action
STRUCTURAL = ("act-on-intent", "schedule", "begin-transaction", "assert", "end-transaction",
              "withdraw-support", "increment-pause", "revise-refresh")

# What kind of value each of the set's roles holds (how it is compared)
ROLE_KINDS = {
    "amount": "money", "reward": "money", "fine": "money",
    "to": "player", "player": "player", "offender": "player", "priest": "player", "unbeliever": "player",
    "recruiters": "players", "jury": "players",
    "proposal": "number", "tweak": "number", "consultation": "number", "indictment": "number",
    "refresh": "number", "subgame": "number", "number": "number", "points": "number", "trick": "number",
    "times": "number", "objections": "number", "supporters": "number",
    "rule": "rule",
    "ranking": "numbers", "conflicts": "numbers", "dependencies": "numbers",
    "ministry": "ministry", "display": "display",
    "intent": "intent", "action": "action", "at": "when",
    "choice": "word", "answer": "word", "verdict": "word", "state": "word",
    "text": "sentence",
}

# 4E18's synonyms for an Answer, and the set's display names -> the Ministry that keeps it
ANSWER_WORDS = {"TRUE": "YES", "AFFIRMATIVE": "YES", "CORRECT": "YES", "FALSE": "NO",
                "NEGATIVE": "NO", "INCORRECT": "NO", "MAYBE": "PARADOX", "UNDECIDABLE": "PARADOX",
                "CONSISTENCY": "CONSISTENT", "INCONSISTENCY": "INCONSISTENT"}
DISPLAYS = {"players": "Society", "fora": "Society", "proposals": "Change", "ballot": "Change",
            "consultations": "Questions", "rules": "Law", "ministries": "Ministry", "results": "Change"}

# The set's wildcards: a document or text matches any non-empty value; the others
# (a role a reading cannot fill, an object made earlier in the message) match anything
ANY_TEXT = ("<document>", "<text>")
ANY = ("<new>", "<missing>", "<unnamed>", "<unspecified>")
