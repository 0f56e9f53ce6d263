"""What a careful officer reads where a sender corrects emself in the middle of a sentence,
where asides come before the "I" of an action, where "it" in a later clause names what an
earlier one acted on, and where mail arrives as HTML fragments or a Transaction in braces.

Rule 4E7: "To perform a Game Action, an Outsider must post a message to a Public Forum
specifying that he is taking that action ... Unambiguous targets and parameters specified
in Game Actions are valid regardless of capitalization, punctuation, or exact wording."
Rule 4E12: "A clear statement marking the Start of the Transaction ... A clear statement
marking the End of the Transaction"."""
import pytest

from bnomic.mailer.parse import own_words, quoted_words
from reader_world import actions, read, vocab, votes


# ---------------------------------------------------------------- corrected in the same breath

@pytest.mark.parametrize("text, expected", [
    ("FOR 12 -- no wait, AGAINST 12.", [("AGAINST", "12")]),
    ("I vote FOR 12, or rather AGAINST 12.", [("AGAINST", "12")]),
    ("FOR 12 -- no wait, AGAINST 12. Sorry, long day.", [("AGAINST", "12")]),
    ("I vote FOR 12 -- oops, I mean SHELVE on 12.", [("SHELVE", "12")]),
])
def test_a_vote_corrected_in_the_same_sentence_is_the_corrected_vote(text, expected):
    assert votes(text) == expected


def test_an_amount_corrected_between_dashes_is_put_in_its_place():
    assert actions("I give m30 -- sorry, m3 -- to Bob.") == [("give", {"amount": "m3", "player": "Bob"})]


def test_a_player_corrected_after_a_dash_is_put_in_its_place():
    assert actions("I give m5 to Alice -- sorry, Wooble.") == [("give", {"amount": "m5", "player": "Wooble"})]


def test_a_stance_corrected_keeps_the_intent_the_first_named():
    v = vocab("Bob", intents={3: "Alice"})
    got = [(r.spec.name, str(r.args.get("target"))) for r in read(
        "I support Intent 3 -- no, sorry, I mean I object to it.", v) if r.kind == "action"]
    assert got == [("object", "3")]


@pytest.mark.parametrize("text", [
    "I give m5 to Wooble, I mean, he earned it.",
    "i give wooble m 10 sorry for the joke",
])
def test_a_remark_that_corrects_nothing_leaves_the_action_as_said(text):
    assert [(n, a["amount"], a["player"]) for n, a in actions(text)] in (
        [("give", "m5", "Wooble")], [("give", "m10", "Wooble")], [])
    assert not any(r.kind == "action" and r.spec.name != "give" for r in read(text))


def test_a_correction_with_nothing_after_it_is_no_correction():
    assert votes("I vote FOR 12 -- sorry,") == [("FOR", "12")]


# ---------------------------------------------------------------- asides before the "I"

@pytest.mark.parametrize("text, expected", [
    ("Long story short, after reading all of that thread twice, I vote AGAINST 13 and I'm going to bed.",
     [("AGAINST", "13")]),
    ("Alice hasn't published the Ballot yet, but for the record I vote FOR 12 and FOR 13.",
     [("FOR", "12"), ("FOR", "13")]),
    ("Nobody asked, and honestly I vote AGAINST 12.", [("AGAINST", "12")]),
])
def test_asides_before_the_i_of_a_vote_are_no_part_of_it(text, expected):
    assert votes(text) == expected


@pytest.mark.parametrize("text", [
    "If Bob asks me nicely enough on the list tomorrow or the day after that, I give m5 to Bob.",
    "Long story short, after reading all of that thread twice, would you say I vote AGAINST 13?",
])
def test_a_long_condition_or_question_before_the_i_is_still_no_action(text):
    assert not any(r.kind == "action" for r in read(text))


# ---------------------------------------------------------------- "it" after an earlier clause

def test_it_in_a_later_clause_is_the_ministry_the_first_acted_on():
    # Rule 4E46 (a Reward revised) and Rule 4E45 (a Ministry resigned), in one sentence
    got = actions("I, the Chairman, revise the Reward of the Ministry of Change to m40 and then resign it, "
                  "effective immediately.", vocab("Alice"))
    assert [(n, a.get("ministry")) for n, a in got] == [("revise_reward", "Change"), ("resign_ministry", "Change")]


def test_it_after_two_ministries_is_not_chosen_between():
    got = actions("I resign the Ministry of Change and the Ministry of Law and then take it back.", vocab("Alice"))
    assert not any(n == "assign_ministry" for n, _ in got)


# ---------------------------------------------------------------- the way an intent is done, then why

def test_a_reason_after_the_way_of_an_intent_is_no_part_of_the_intended_action():
    got = [r for r in read("I intend to resign as Oracle, without objection, because apparently that's how "
                           "we do things now.", vocab("Chuck")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["intend"]
    assert got[0].args["rest"] == "resign as Oracle, without objection"


def test_as_per_an_intent_is_no_second_title():
    got = actions('I retitle Rule 4E9 to "The Eras of B" as per Intent 4.', vocab("Alice", intents={4: "Alice"}))
    assert [(n, a.get("title")) for n, a in got] == [("retitle_rule", "The Eras of B")]


# ---------------------------------------------------------------- Transactions in braces (Rule 4E12)

def test_a_transaction_in_braces_is_begun_and_ended_by_them():
    got = read("Transaction {\n  I give m5 to Bob;\n  I give m5 to Chuck;\n  Assert: I have at least m10.\n}")
    assert len(got) == 1 and got[0].steps is not None and not got[0].error
    assert [r.kind for r in got[0].steps] == ["action", "action", "assertion"]


def test_an_unclosed_brace_transaction_says_its_end_is_missing():
    got = read("Transaction {\n  I give m5 to Bob;\n  I give m5 to Chuck;")
    assert got and "END TRANSACTION" in got[-1].error


# ---------------------------------------------------------------- HTML left in a plain text part

def test_an_html_fragment_is_read_as_the_text_it_shows():
    text = "<div>I vote FOR 12&nbsp;and AGAINST 13.</div><br>\n<div>--&nbsp;</div><div>Alice</div>"
    assert votes(own_words(text)) == [("FOR", "12"), ("AGAINST", "13")]


def test_a_table_of_votes_keeps_its_cells_apart():
    text = "<table><tr><td>13</td><td>AGAINST</td></tr>\n<tr><td>15</td><td>FOR</td></tr></table>"
    assert votes(own_words(text)) == [("AGAINST", "13"), ("FOR", "15")]


def test_escaped_quote_marks_in_plain_text_are_quoted_lines():
    text = "&gt; I object to Intent 3.\n&gt;\n\nI support Intent 4 &amp; Intent 5."
    assert own_words(text).strip() == "I support Intent 4 & Intent 5."
    assert quoted_words(text).strip().startswith("I object to Intent 3.")


# ---------------------------------------------------------------- the rule's own words, and more

def test_hoisting_a_flag_no_flag_has_is_read_for_the_handler_to_refuse():
    # Rule 4E40: "A statement that says "hoisting the X flag" is equivalent to saying "setting
    # the Threat Flag value to X"" (and the Range is four values: the handler says so)
    assert actions("I hoist the Fluffy Kittens flag.", vocab("Bob")) == [
        ("hoist_flag", {"flag": "Fluffy Kittens flag"})]
    assert actions('I set the Threat Flag to "Marauding Marmots".', vocab("Bob")) == [
        ("hoist_flag", {"flag": "Marauding Marmots"})]
    assert actions("I hoist the Jolly Roger.", vocab("Bob")) == [("hoist_flag", {"flag": "Jolly Roger"})]


@pytest.mark.parametrize("text", [
    "I hoist the question of whether the Beast is a Player.",
    "I fly the flag of my country at half mast.",
    "I raise the question of the flag.",
])
def test_hoisting_anything_but_a_flag_is_no_flag(text):
    assert not any(r.kind == "action" for r in read(text, vocab("Bob")))


def test_let_me_in_is_a_request_to_become_a_player():
    # Rule 4E4: "a request to become a Player and a uniquely identifying name"
    v = vocab(None)
    got = [(r.spec.name, str(r.args.get("name"))) for r in read("Please let me in. Name: Ferret.", v)
           if r.kind == "action"]
    assert got == [("join", "Ferret")]
    assert not any(r.kind == "action" for r in read("Alice, let me in on the joke.", vocab("Bob")))


def test_a_reason_with_for_after_a_withdrawal_is_no_intent():
    # (the intent is the one up the thread, Rule 4E21: here none is named, so it is missing)
    got = read("Then I withdraw my objection, for neatness.", vocab("Wooble"))
    assert [(r.spec.name, r.missing) for r in got] == [("withdraw_stance", ("target",))]
    assert not got[0].args.get("target") and not got[0].unread


def test_it_before_the_number_is_the_proposal_replied_to():
    from dataclasses import replace
    v = replace(vocab("Alice"), replying=True, replied_proposals=(17,))
    got = [r for r in read("Received; I assign it Proposal Number 18.", v) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["number_proposals"]


def test_a_circumstance_after_its_color_is_no_part_of_the_color():
    from dataclasses import replace
    v = replace(vocab("Bob"), replying=True, replied_proposals=(17,))
    got = [r for r in read("I set its Proposal Color to Silver while it's Pending.", v)
           if r.spec is not None and r.spec.name == "color_proposal"]
    assert [str(r.args["color"]) for r in got] == ["Silver"]


@pytest.mark.parametrize("text, action", [
    ("Object: it still says 17 is Blank.", "object"),
    ("Objection: the display is wrong.", "object"),
    ("Support: seems fair.", "support"),
])
def test_a_stance_said_in_a_word_then_why_after_a_colon(text, action):
    from dataclasses import replace
    v = replace(vocab("Dana", intents={3: "Chuck"}), replying=True, replied_intents=(3,))
    assert [r.spec.name for r in read(text, v) if r.kind == "action"] == [action]


def test_a_label_over_a_list_of_names_is_a_report():
    # an officer's tally of stances ("Support: Alice (withdrawn).") takes none
    assert not any(r.kind == "action" for r in read("Objections to 3 so far: Chuck, Dana. Support: Alice (withdrawn).",
                                                    vocab("Wooble", intents={3: "Chuck"})))


# ---------------------------------------------------------------- documents under a label

def test_a_proposal_label_with_a_title_over_rule_text_submits_it():
    # Rule 4E15: a proposal, its Title on the label line and its text ("shall") below it
    got = [r for r in read("Proposal: Fewer Fish for the Beast\nThe Beast shall eat no more than one fish per nday.",
                           vocab("Chuck")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_proposal"]
    assert "shall eat no more" in got[0].args["document"]


def test_a_proposal_label_over_talk_submits_nothing():
    assert not any(r.kind == "action" for r in read("Proposal: let's all meet on IRC\nWe must talk about the Beast."))


@pytest.mark.parametrize("text", [
    'Tweak: Rule 4E31, change "Thirnight = 12" to "Thirnight = nday 12" for consistency.',
    'Tweak:\nIn Rule 4E31, change "Thirnight = 12" to "Thirnight = nday 12".',
])
def test_a_tweak_label_over_the_changes_it_describes_submits_it(text):
    # Rule 4E77: "A Tweak is a Game Document describing changes to be made to the rules"
    got = [r for r in read(text, vocab("Bob")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_tweak"] and "Thirnight" in got[0].args["document"]


def test_a_tweak_label_over_talk_submits_nothing():
    assert not any(r.kind == "action" for r in read("Tweak: I think we should talk about it first.", vocab("Bob")))


def test_an_intent_with_its_way_before_to_and_no_commas():
    # Rules 4E21, 4E22, 4E50: "with 4 Support and no Objections"
    got = [r for r in read("I intend with 2 Support and no Objections to cause the Beast to give m5 to me.",
                           vocab("Alice")) if r.kind == "action"]
    assert [r.spec.name for r in got] == ["intend"]
    assert got[0].args["rest"].startswith("cause the Beast to give m5 to me")
    assert "with 2 Support and no Objections" in got[0].args["rest"]


# ---------------------------------------------------------------- more corrections and glosses

def test_not_one_of_a_list_takes_it_out():
    assert votes("I vote FOR 10, 11, and -- wait, no, not 11 -- 12.") == [("FOR", "10, 12")]


def test_i_mean_with_no_stop_before_it_corrects():
    assert votes("I vote ABSTAIN on 12 I mean 13.") == [("ABSTAIN", "13")]


def test_a_number_in_brackets_that_names_again_is_no_more_of_the_vote():
    assert votes("I vote AGAINST every open proposal except my own (16), which I vote FOR.", vocab("Chuck")) == [
        ("AGAINST", "10, 11, 12, 13, 15"), ("FOR", "16")]


def test_a_number_in_brackets_that_is_the_only_one_said_is_the_proposal():
    assert votes("I vote FOR (12).") == [("FOR", "12")]


def test_html_after_a_first_line_of_text_is_read_as_the_text_it_shows():
    text = ("My votes:<br>\n<table><tr><td>10</td><td>FOR</td></tr>\n"
            "<tr><td>13</td><td>AGAINST</td></tr></table>")
    assert votes(own_words(text)) == [("FOR", "10"), ("AGAINST", "13")]


def test_one_tag_named_in_plain_text_is_no_html():
    assert own_words("I vote FOR 12; the <br> in the ballot is a typo.") == \
        "I vote FOR 12; the <br> in the ballot is a typo."


def test_a_vote_then_i_and_a_verb_with_no_stop_is_two_clauses():
    got = [(r.spec.name, {k: str(v) for k, v in r.args.items()}) for r in read(
        "I vote FOR 12 and FOR 13 I give m5 to Bob", vocab("Dana")) if r.kind == "action"]
    assert got == [("vote", {"vote": "FOR", "which": "12"}), ("vote", {"vote": "FOR", "which": "13"}),
                   ("give", {"amount": "m5", "player": "Bob"})]
    assert votes("On 12 I vote FOR.") == [("FOR", "12")]


def test_braces_alone_on_their_lines_delimit_a_document():
    # Rule 4E15: each proposal's text, between its braces; two in one message
    got = [r for r in read('Proposal "Tidy Up 2":\n{\nRule 4E72 is amended by replacing "A Indictment" with '
                           '"An Indictment" throughout.\n}\nProposal "Tidy Up 3":\n{\nRule 4E71 is amended by '
                           'replacing "perfoms" with "performs".\n}', vocab("Dana")) if r.kind == "action"]
    assert [(r.spec.name, "4E72" in r.args["document"], "4E71" in r.args["document"]) for r in got] == [
        ("submit_proposal", True, False), ("submit_proposal", False, True)]


@pytest.mark.parametrize("text", [
    "Consultation: Is the Beast a Player? (Reasoning: 4E4 and 4E71 both say so.)",
    "Consultation for the Priest who isn't me: Is the Beast a Player?\n\nReasoning: 4E4 and 4E71 both say so.",
    "CONSULTATION\n\nQ: Is the Beast a Player?\n\nR: 4E4 and 4E71 both say so.",
])
def test_a_consultation_under_its_label_keeps_its_reasoning_apart(text):
    # Rule 4E18: "a yes-or-no question ... and optionally reasoning"
    (r,) = [r for r in read(text, vocab("Wooble")) if r.kind == "action"]
    assert r.spec.name == "submit_consultation"
    assert r.args["document"] == "Question: Is the Beast a Player?\nReasoning: 4E4 and 4E71 both say so."


@pytest.mark.parametrize("text, claim", [("Inconsistent, on 5. That reasoning doesn't hold water.", "Inconsistent"),
                                         ("Consistent on 5.", "Consistent")])
def test_a_claim_said_first_then_the_consultation_it_is_on(text, claim):
    # Rule 4E18: "a Claim ... that the player believes the answer ... to be Consistent or Inconsistent"
    got = [(r.spec.name, r.args["claim"], str(r.args["which"])) for r in read(text, vocab("Wooble"))
           if r.kind == "action"]
    assert got == [("claim_consultation", claim, "5")]


def test_consistent_with_something_is_no_claim():
    assert not any(r.kind == "action" for r in read("That's consistent with 4E5, I think.", vocab("Wooble")))


def test_a_punishment_under_its_indictment_label():
    # Rule 4E72: the Judge assigns the Punishment for an Indictment found GUILTY
    got = [r for r in read("Indictment 2: the punishment is that Wooble must write every message this nweek "
                           "in haiku.", vocab("Bob", indictments=(2,))) if r.kind == "action"]
    assert [(r.spec.name, str(r.args.get("number"))) for r in got] == [("assign_punishment", "2")]


def test_a_refresh_proposal_label_alone_over_its_text():
    # Rule 4E0: a PEP may submit a Refresh Proposal
    got = [r for r in read("Refresh Proposal:\n1. All PEPs become Calm.\n2. Wooble receives m50.", vocab("Wooble"))
           if r.kind == "action"]
    assert [r.spec.name for r in got] == ["submit_refresh_proposal"] and "All PEPs become Calm" in got[0].args["document"]
    assert not any(r.kind == "action" for r in read("Refresh Proposals:\n1. RP1, by Bob.\n2. RP2, by Dana."))


@pytest.mark.parametrize("text", ["I object to everything Chuck intends.", "I object to every intent of Chuck's."])
def test_everything_a_player_intends_is_each_of_their_intents(text):
    # Rules 4E21: objecting to each of Chuck's open intents, as "all of Chuck's intents" does
    v = vocab("Wooble", intents={3: "Chuck", 4: "Alice", 5: "Chuck"})
    assert sorted(str(r.args.get("target")) for r in read(text, v) if r.kind == "action") == ["3", "5"]


def test_a_count_after_my_own_is_no_proposal():
    assert votes("abstain on everything but my own two", vocab("Bob")) == [("ABSTAIN", "10, 11, 13, 15, 16")]


def test_a_heading_said_again_in_full_after_its_colon_is_one_action():
    # Rule 4E46: one assignment, with the Reward the full sentence gives
    got = actions("I'll take the Judge job: I assign the Ministry of Judging to myself, reward m90.", vocab("Bob"))
    assert [(n, a.get("ministry"), a.get("reward")) for n, a in got] == [("assign_ministry", "Judging", "m90")]
    assert votes("I vote FOR 12: I vote FOR 13 too.") == [("FOR", "12"), ("FOR", "13")]


def test_both_my_socks_are_two():
    # Rule 4E68: each Sock transferred is one Game Action; "both" says two
    assert actions("I transfer both my Burgundy Socks to Bob.", vocab("Dana")) == [
        ("transfer_sock", {"count": "2", "color": "Burgundy", "player": "Bob"})]


def test_it_is_the_one_thing_the_sentence_before_named():
    # Rule 4E7: a target need only be unambiguous
    assert votes("Proposal 12 is great. I vote FOR it.", vocab("Wooble")) == [("FOR", "12")]
    assert votes("Proposals 12 and 13 are great. I vote FOR it.", vocab("Wooble")) == []


def test_asked_to_zot_in_other_words():
    # Rule 4E18: the Priest "requests" that the Oracle ZOT the Consultation
    v = vocab("Dana", holders={"Questions": "Chuck"}, consultations=(5,))
    for text in ("Chuck, I'd like you to ZOT Consultation 5; I can't answer it.",
                 "Chuck, could you please ZOT Consultation 5?"):
        assert [r.spec.name for r in read(text, v) if r.kind == "action"] == ["request_zot"], text
    for text in ("Chuck, should I ZOT Consultation 5?", "Bob, could you please ZOT Consultation 5?"):
        assert not any(r.kind == "action" for r in read(text, v)), text


def test_a_consultation_asking_whether_in_the_sentence():
    # Rule 4E18: a Consultation's Question is a yes-or-no question; what follows it is the sender's
    got = [(r.spec.name, r.args) for r in read(
        "So rather than let it fester: I submit a Consultation asking whether the Oracle may ZOT a\n"
        "Consultation of which e is the Supplicant. No reasoning; I'd rather\nthe Priest came to it fresh. "
        "Anyway. I vote FOR 12.", vocab("Chuck")) if r.kind == "action"]
    assert [n for n, _ in got] == ["submit_consultation", "vote"]
    assert got[0][1]["document"] == "Question: Whether the Oracle may ZOT a Consultation of which e is the Supplicant?"


@pytest.mark.parametrize("text, expected", [("I vote FOR 12 haha", [("FOR", "12")]),
                                            ("I vote FOR 12 lol. Just kidding.", [])])
def test_laughter_after_an_action_is_no_part_of_it(text, expected):
    assert votes(text) == expected


def test_a_consultation_the_sender_is_going_to_ask_is_not_asked():
    assert not any(r.kind == "action" for r in read(
        "I'm going to submit a Consultation asking whether the Beast can hold a\nSock, unless somebody here "
        "already knows the answer. Does anybody?", vocab("Alice")))
