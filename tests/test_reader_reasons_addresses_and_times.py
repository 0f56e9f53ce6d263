"""What a careful officer reads in words said around an action (why it is done, "back",
a participle before it), in a Transaction's labels, in address requests made of the
Registrar, and in a time the mail program wrapped to the next line (Rule 4E7:
"regardless of capitalization, punctuation, or exact wording").

Rule 4E4: a Player's addresses are kept by the Registrar. Rule 4E12: a Transaction's
steps may be assertions. Rule 4E15: a Player votes FOR, AGAINST, ABSTAIN or SHELVE on
a proposal. Rule 4E7: an action may be done later, at a time said in UTC."""
import pytest

import bnomic.handlers.engine  # noqa: F401  (registers every action)
from bnomic.handlers import grammar
from bnomic.handlers.vocabulary import Vocabulary, default

PLAYERS = ("Alice", "Bob", "Chuck", "Dana", "Wooble", "The Beast")
HOLDERS = {"Change": "Alice", "Society": "Bob", "Questions": "Chuck"}


def vocab(actor="Dana", **more):
    return Vocabulary(players=PLAYERS, actor=actor, beast="The Beast", ministries=default().ministries,
                      holders=HOLDERS, **more)


def read(text, v=None):
    return [(r.kind, r.spec and r.spec.name, {k: str(x) for k, x in r.args.items() if x not in (None, "")})
            for r in grammar.read(text, v or vocab())]


def actions(text, v=None):
    return [(name, args) for kind, name, args in read(text, v) if kind == "action"]


# ------------------------------------------------- why an action is done

@pytest.mark.parametrize("text, to, amount", [
    ("I give the Chairman m15 as a thank-you for getting the Ballot out on time.", "Alice", "m15"),
    ("I give m30 to Alice as a sweetener, in case the automatic half goes wrong.", "Alice", "m30"),
    ("I give Wooble m1 as a token of my gratitude.", "Wooble", "m1"),
    ("I give m10 to Bob as promised.", "Bob", "m10"),
])
def test_as_after_a_complete_action_says_why_it_is_done(text, to, amount):
    assert actions(text) == [("give", {"amount": amount, "player": to})]


def test_as_someone_suggests_is_why_not_a_role():
    assert actions("Voting FOR 10 as Chuck suggests.") == [("vote", {"vote": "FOR", "which": "10"})]


def test_as_is_still_the_marker_of_a_role_that_takes_it():
    assert actions("I join as Bobby.", Vocabulary(players=PLAYERS)) == [("join", {"name": "Bobby"})]


def test_back_after_what_is_given_is_said_of_it():
    assert actions("I give Wooble m1 back.") == [("give", {"amount": "m1", "player": "Wooble"})]


def test_paying_someone_back_with_nothing_named_is_no_attempt():
    assert read("I'll pay you back.") == []


def test_a_stop_where_the_name_would_be_names_no_one():
    """'to you, since ...' with no Player replied to: the recipient is missing, never ''."""
    (kind, name, args), = read("I give m10 back to you, since I owe you from last nweek.")
    assert (kind, name, args) == ("incomplete", "give", {"amount": "m10"})


def test_a_participle_before_the_action_is_a_circumstance_not_an_imperative():
    assert actions("Having slept on it I change my vote on 14 to AGAINST.") == [
        ("vote", {"vote": "AGAINST", "which": "14"})]


# ------------------------------------------------- votes as verbs (4E15)

@pytest.mark.parametrize("text, which", [
    ("I SHELVE 16.", "16"), ("I shelve proposals 16 and 17", "16, 17"), ("I also shelve #12.", "12")])
def test_shelve_said_as_a_verb_is_the_vote(text, which):
    assert actions(text) == [("vote", {"vote": "SHELVE", "which": which})]


def test_shelving_what_is_not_a_proposal_is_talk():
    assert read("I shelve the idea for now.") == []


def test_a_vote_said_twice_is_cast_twice():
    got = actions("I vote FOR 12. I vote FOR 12.")
    assert got == [("vote", {"vote": "FOR", "which": "12"})] * 2


# ------------------------------------------------- a Transaction's labels (4E12)

@pytest.mark.parametrize("label", ["Assert: ", "- assert: ", "assertion - "])
def test_an_assert_label_in_a_transaction_makes_the_step_an_assertion(label):
    (t,) = grammar.read(f"BEGIN TRANSACTION\n{label}Chuck holds at least m120\nI vote FOR 12\nEND TRANSACTION",
                        vocab())
    first, second = t.steps
    assert first.kind == "assertion" and first.assertion.name == "has_currency"
    assert first.args["amount"] == "m120" and first.args["op"] == "at least"
    assert (second.kind, second.spec.name) == ("action", "vote")


# ------------------------------------------------- addresses (4E4)

@pytest.mark.parametrize("text, address", [
    ("Please note I'll be posting from chuck@work.example some days.\nAdd it to my record, Registrar.",
     "chuck@work.example"),
    ("Registrar: please also accept mail from dana.w@post.example as coming\nfrom me; my work address is flaky.",
     "dana.w@post.example"),
    ("Registrar: please also treat mail from dana.w@altmail.example as mine, I'll\nbe posting from it for a while.",
     "dana.w@altmail.example"),
])
def test_an_address_the_registrar_is_asked_to_accept_is_added(text, address):
    assert actions(text) == [("add_address", {"name": address})]


@pytest.mark.parametrize("text, address", [
    ("I no longer use dana@oldmail.example and it bounces; please remove it\nfrom my entry.", "dana@oldmail.example"),
    ("I no longer post from wooble@oldisp.example; please take it off the\nRegistrar's list.",
     "wooble@oldisp.example"),
    ("Please take dana@oldmail.example off my entry.", "dana@oldmail.example"),
])
def test_an_address_given_up_is_removed_once(text, address):
    assert actions(text) == [("remove_address", {"name": address})]


def test_it_is_the_address_only_after_a_sentence_that_said_one():
    """'it' in a sentence that has no address before it, in a mail with none, is no address."""
    assert actions("Please remove it from my entry.") == []


def test_taking_something_off_that_is_no_address_is_not_removing_one():
    assert [n for n, _ in actions("I take the Ministry of Law off my hands, Reward m50.")] != ["remove_address"]


# ------------------------------------------------- a time wrapped to the next line (4E7)

def test_a_time_the_mail_program_wrapped_is_still_the_time_of_the_action():
    (r,) = grammar.read("I will assign myself the Ministry of Games, Reward m100, at\n2026-11-25 06:00 UTC.\n"
                        "(Can't do it now, on a train.)", vocab())
    assert r.kind == "action" and r.spec.name == "assign_ministry"
    assert r.when is not None and r.when.at.isoformat() == "2026-11-25T06:00:00+00:00"


def test_a_line_ending_in_on_joins_the_nday_on_the_next():
    (r,) = grammar.read("I vote FOR 12 on\nnday 8.", vocab())
    assert r.spec.name == "vote" and r.when.nday == 8


# ------------------------------------------------- a Consultation's Question ends its paragraph (4E18)

@pytest.mark.parametrize("text", [
    "I submit the following Consultation:\n\n  Question: Does a Proposal Color change count?\n\n"
    "and I become Ordained, and I vote FOR 15.",
    "I submit a Consultation: does a Proposal Color change count?\n\nAlso I become Ordained. I vote FOR 15.",
])
def test_what_follows_the_question_s_paragraph_is_read(text):
    got = read(text, vocab(open_proposals=(15,)))
    assert [name for _, name, _ in got] == ["submit_consultation", "become_ordained", "vote"]
    assert "Ordained" not in got[0][2]["document"] and "?" in got[0][2]["document"]


def test_a_question_labelled_after_the_submission_is_its_document():
    (kind, name, args), = read("I submit a Consultation. Question: Is the Threat Flag currently Pink\nPonies?")
    assert (kind, name) == ("action", "submit_consultation") and args["document"].endswith("Ponies?")


def test_a_proposal_still_runs_to_the_end_of_the_message():
    (kind, name, args), = read("I submit the following proposal:\nAmend Rule 4E1.\n\nAnd another paragraph?\n\nEnd.")
    assert name == "submit_proposal" and args["document"].endswith("End.")


# ------------------------------------------------- the Contract acted under (4E70)

@pytest.mark.parametrize("said", ["under it", "under the Contract", "per this contract"])
def test_the_contract_acted_under_is_no_part_of_the_action(said):
    assert actions(f"I give m2 to the Beast {said}.") == [("give", {"amount": "m2", "player": "The Beast"})]


# ------------------------------------------------- lists of votes (4E15)

def test_the_other_two_are_the_open_proposals_not_named():
    v = vocab(open_proposals=(10, 11, 12, 13, 14, 15, 16))
    got = actions("I vote FOR 10 and 11, AGAINST 12, 13 and 14, and SHELVE the other two.", v)
    assert got[-1] == ("vote", {"vote": "SHELVE", "which": "15, 16", "rest": "unvoted"})


def test_everything_on_the_ballot_is_every_open_proposal():
    v = vocab(open_proposals=(10, 11, 12))
    assert actions("I vote FOR everything on the ballot except 11, which gets an AGAINST.", v) == [
        ("vote", {"vote": "FOR", "which": "10, 12"}), ("vote", {"vote": "AGAINST", "which": "11"})]


def test_a_last_group_said_with_i_abstain_after_its_list():
    got = actions("FOR on 10 and 11, AGAINST on 12, and on 13, 14 and 15 I ABSTAIN.")
    assert got == [("vote", {"vote": "FOR", "which": "10, 11"}), ("vote", {"vote": "AGAINST", "which": "12"}),
                   ("vote", {"vote": "ABSTAIN", "which": "13, 14, 15"})]


def test_i_abstain_with_a_reason_after_it():
    assert actions("On 16 I vote FOR; and on 13 I ABSTAIN, because I haven't read it yet.") == [
        ("vote", {"vote": "FOR", "which": "16"}), ("vote", {"vote": "ABSTAIN", "which": "13"})]


def test_a_capital_for_before_the_list_is_the_vote_not_the_abstention():
    got = actions("FOR on 10, and on 13 I ABSTAIN.")
    assert got == [("vote", {"vote": "FOR", "which": "10"}), ("vote", {"vote": "ABSTAIN", "which": "13"})]


# ------------------------------------------------- a verb at a line's end; "its" Reward (4E46)

def test_a_line_that_ends_in_a_verb_is_joined_to_its_object():
    got = actions("I usurp the Ministry of Society, proposing a Reward of m30, and I revise\n"
                  "the Reward of the Ministry of Questions to m40.")
    assert got[-1] == ("revise_reward", {"ministry": "Questions", "reward": "m40"})


def test_its_reward_is_the_reward_of_the_ministry_just_taken():
    got = actions("I assign the Ministry of Laundry to myself, Reward m100, then revise\nits Reward to m60.")
    assert got == [("assign_ministry", {"ministry": "Laundry", "reward": "m100"}),
                   ("revise_reward", {"ministry": "Laundry", "reward": "m60"})]


def test_a_sentence_that_ends_in_a_verb_and_a_remark_on_the_next_line_are_not_joined():
    assert actions("I object\nThe Beast is not your piggy bank.", vocab(replied_intents=(3,))) == [
        ("object", {"target": "3"})]


# ------------------------------------------------- documents written as forms (4E72, 4E15)

def test_an_indictment_written_as_a_form_is_submitted_and_what_follows_is_read():
    got = read("Indictment\n\nAccusation: Misdemeanor\nOffender: Chuck\nExample: Chuck, as Oracle, failed to "
               "assign a Priest\nwithin a Jiffy of its submission (4E56).\nTidbit: CREAMPUFF\n\nI also vote FOR 12.")
    assert [(k, n) for k, n, _ in got] == [("action", "submit_indictment"), ("action", "vote")]
    document = got[0][2]["document"]
    assert document.startswith("Accusation: Misdemeanor") and document.endswith("Tidbit: CREAMPUFF")
    assert "within a Jiffy" in document


def test_a_kind_alone_on_a_line_over_no_fields_is_no_form():
    assert read("Indictment:\nI think Wooble should be charged, but I'm not sure with what.") == []


def test_a_proposal_label_over_attribute_lines_gives_its_title():
    (r,) = grammar.read("Proposal: Clock Fix III\nConflicts: 12, 14\nDependencies: none\n\n{{\nAmend Rule 4E14.\n}}",
                        vocab())
    assert r.spec.name == "submit_proposal" and r.args["title"] == "Clock Fix III"
    assert "Conflicts: 12, 14" in r.args["document"] and "Amend Rule 4E14." in r.args["document"]


@pytest.mark.parametrize("label", ['Proposal "Fair Shares", conflicting with 10:',
                                   'Proposal submission, title "Fair Shares", conflicting with 11:'])
def test_a_proposal_label_with_its_title_and_what_it_conflicts_with(label):
    (r,) = grammar.read(f"{label}\n\nAmend Rule 4E33 by inserting a sentence.", vocab())
    assert r.spec.name == "submit_proposal" and r.args["title"] == "Fair Shares"


def test_a_document_head_wrapped_over_two_lines_before_its_braces():
    (r,) = grammar.read("I submit the following Proposal, which depends on Proposal 15 and\n"
                        "conflicts with Proposals 12 and 14:\n\n{{\nTitle: Tidy Clocks\nRepeal Rule 4E14.\n}}", vocab())
    assert r.spec.name == "submit_proposal" and r.args["document"] == "Title: Tidy Clocks\nRepeal Rule 4E14."


# ------------------------------------------------- replies to an intent (4E21)

def test_a_bare_object_in_reply_to_an_intent_objects_to_it():
    v = vocab(actor="Wooble", replied_intents=(3,), replying=True)
    assert actions("lol no. object", v) == [("object", {"target": "3"})]


def test_no_with_a_stop_before_a_number_is_still_a_number():
    assert grammar.split_sentences("lol no. object") == ["lol no.", "object"]
    assert grammar.split_sentences("See No. 12 please.") == ["See No. 12 please."]


def test_withdrawing_it_in_reply_to_an_intent_withdraws_the_intent():
    v = vocab(actor="Bob", replied_intents=(3,), replying=True)
    assert actions("Given Alice's objection, I withdraw it.", v) == [("withdraw_intent", {"number": "this"})]


def test_withdrawing_it_in_reply_to_a_proposal_withdraws_the_proposal():
    v = vocab(actor="Bob", replied_proposals=(17,), replying=True)
    assert [n for n, _ in actions("On reflection I withdraw it.", v)] == ["withdraw_proposal"]


# ------------------------------------------------- lists under a header; taking back mid-sentence

def test_a_header_s_verb_is_said_over_each_numbered_item():
    got = actions("Taking a couple of vacant jobs, since nobody else wants them:\n\n"
                  "1) Ministry of Judging, reward m80\n2) Ministry of Business, reward m100\n")
    assert got == [("assign_ministry", {"ministry": "Judging", "reward": "m80"}),
                   ("assign_ministry", {"ministry": "Business", "reward": "m100"})]


@pytest.mark.parametrize("header, verb", [
    ("Taking a couple of vacant jobs, since nobody else wants them:", "take"),
    ("Supporting the following:", "support"),
    ("Voting summary so far (unofficial):", None),      # a noun: what the header is about
    ("end of the nweek):", None),                       # the last line of a header, not its start
    ("Voting on these:", None),                         # a list of votes reads as a ballot, not this way
])
def test_the_verb_a_header_says_over_its_items(header, verb):
    assert grammar._header_verb(header) == verb


def test_a_new_header_ends_the_items_of_the_one_before():
    got = actions("Actions:\n  * I become Ordained\n  * I assign Ministry of Fauna to myself (m100)\n"
                  "Chatter:\n  * Yes Wooble, I know you wanted Fauna.")
    assert got == [("become_ordained", {}), ("assign_ministry", {"ministry": "Fauna", "reward": "m100"})]


def test_scratch_that_between_commas_takes_back_what_came_before():
    assert actions("I give m5 to Bob, so scratch that, I give m5 to Chuck.") == [
        ("give", {"amount": "m5", "player": "Chuck"})]
    assert actions("I give m5 to Bob, so\nscratch that, I give m5 to Chuck.") == [
        ("give", {"amount": "m5", "player": "Chuck"})]


# ------------------------------------------------- displays shown as they are published (4E15)

def test_a_ballot_said_to_be_published_below_is_published():
    got = actions("The Ballot for nweek 7 is published below. I turn the Clock On.\n\n{{\nBallot, nweek 7\n"
                  "10 Fishy Business (Alice)\n}}", vocab(actor="Alice"))
    assert [n for n, _ in got] == ["publish_ballot", "clock_on"]


def test_a_heading_and_i_publish_the_above_are_one_publication():
    got = actions("RESULTS of voting, nweek 7\n\n{{\n10 F F WON\n}}\n\nI hereby publish the above as the "
                  "results of voting for nweek 7.", vocab(actor="Alice"))
    assert [n for n, _ in got] == ["publish_results"]


# ------------------------------------------------- more of the rules' own words

def test_withdrawing_that_objection_in_a_reply_is_withdrawing_a_stance():
    """(the intent it was on is found up the thread, through the References: the handler's)"""
    v = vocab(actor="Alice", replying=True)
    assert [n for n, _ in actions("Thinking about it more, I withdraw that objection.", v)] == ["withdraw_stance"]


def test_cancel_all_my_scheduled_actions_is_one_action_on_all_of_them():
    assert actions("I cancel all my scheduled actions.") == [("cancel_scheduled", {"number": "all"})]


def test_an_abbreviated_refresh_proposal_and_a_state_after_and():
    assert actions("I withdraw my RP and become Calm.") == [
        ("withdraw_refresh_proposal", {"which": "mine"}), ("mental_state", {"state": "Calm"})]


def test_the_writer_saying_what_e_is_between_commas():
    got = actions('Greetings. I, an External Force, request to become a Player of B Nomic\nunder the name '
                  '"Lord Fnord".', Vocabulary(players=PLAYERS))
    assert got == [("join", {"name": "Lord Fnord"})]


def test_a_request_to_join_signed_with_a_name_gives_it():
    assert actions("I'd like to become a Player.\n\nTeodora", Vocabulary(players=PLAYERS)) == [
        ("join", {"name": "Teodora"})]


def test_a_sign_off_is_no_name():
    assert read("I'd like to become a Player.\n\nCheers", Vocabulary(players=PLAYERS)) == [
        ("incomplete", "join", {})]


# ------------------------------------------------- the rules' own words for intents and Flags

def test_with_4_support_and_no_objections_is_rule_4e50_s_own_wording():
    m = grammar.INTENT_METHOD.match("Approve the following Public Display: with 4 Support and no Objections")
    assert m and m.group("action") == "Approve the following Public Display"


@pytest.mark.parametrize("said, flag", [("orange", "Setting Orange"), ("Setting Orange", "Setting Orange"),
                                        ("POLKA DOTS", "Polka Dots"), ("the Jolly Roger", "Jolly Roger")])
def test_a_flag_named_in_full_or_by_a_word_only_it_has(said, flag):
    assert actions(f"I set the Threat Flag to {said}.") == [("hoist_flag", {"flag": flag})]


def test_a_line_ending_in_the_is_joined_where_the_two_read_as_actions():
    got = actions("And I set the Proposal Color of 16 to Brick Red, and the\nProposal Color of 17 to Baby Blue.")
    assert got == [("color_proposal", {"number": "16", "color": "Brick Red"}),
                   ("color_proposal", {"number": "17", "color": "Baby Blue"})]


# ------------------------------------------------- numbers, headings, corrections, HTML, labels

def test_a_number_in_words_with_a_hyphen():
    assert actions("I hand over twenty-five macks to\nChuck for the jam recipe.") == [
        ("give", {"amount": "m25", "player": "Chuck"})]
    assert actions("I give seventeen macks to Chuck.") == [("give", {"amount": "m17", "player": "Chuck"})]


def test_a_heading_that_names_the_thing_acted_on():
    v = vocab(actor="Chuck", intents={3: "Wooble", 4: "Alice"})
    assert actions("Intent #4: I support.\nIntent #3: I object.", v) == [
        ("support", {"target": "4"}), ("object", {"target": "3"})]
    assert actions("Ministry of Fauna: I assign it to myself at m40.", v) == [
        ("assign_ministry", {"ministry": "Fauna", "reward": "m40"})]


def test_i_meant_takes_back_the_action_before_it():
    assert actions("I vote FOR 12. Actually no, wait, I meant 14. FOR 14, not 12.") == [
        ("vote", {"vote": "FOR", "which": "14"})]


def test_abstaining_on_everything_this_week():
    v = vocab(open_proposals=(10, 11))
    assert actions("I abstain on everything this week; I haven't had time to read any of it.", v) == [
        ("vote", {"vote": "ABSTAIN", "which": "all"})]


def test_html_tags_left_in_plain_text_are_no_words():
    assert actions("<ul>\n<li>FOR 13</li>\n<li>AGAINST 16</li>\n</ul>") == [
        ("vote", {"vote": "FOR", "which": "13"}), ("vote", {"vote": "AGAINST", "which": "16"})]


def test_two_proposals_under_letter_labels():
    got = grammar.read('I submit these two proposals:\n\nProposal A, "Tea Time":\n{{\nThe Clock is On at tea.\n}}\n\n'
                       'Proposal B, "Coffee Time":\n{{\nThe Clock is On at coffee.\n}}\n', vocab())
    assert [(r.spec.name, r.args["title"], r.args["document"]) for r in got] == [
        ("submit_proposal", "Tea Time", "The Clock is On at tea."),
        ("submit_proposal", "Coffee Time", "The Clock is On at coffee.")]


@pytest.mark.parametrize("text, title", [
    ("Proposal: Clock Fix III\n\n{{\nRepeal the paragraph of Rule 4E14.\n}}\n\nConflicts: 12, 14.", "Clock Fix III"),
    ("Proposal: Less Paranoia\n\nAmend Rule 4E0 by replacing \"four\" with \"five\".", "Less Paranoia"),
])
def test_a_proposal_label_s_words_are_its_title_over_its_text(text, title):
    (r,) = grammar.read(text, vocab())
    assert r.spec.name == "submit_proposal" and r.args["title"] == title and r.args["document"]


def test_a_proposal_label_over_talk_is_no_proposal():
    assert read("Proposal: let's all meet on IRC\n\nAnyone?") == []


def test_the_capacity_said_before_an_intent():
    got = actions('As Registrar, I intend, with support, to set the Message of the nweek to "Mind the Beast".')
    assert [n for n, _ in got] == ["intend"] and "Mind the Beast" in got[0][1]["rest"]


def test_someone_unnamed_is_no_recipient():
    assert read("I want to give m5 to someone who has been helpful. Nominations?") == [
        ("incomplete", "give", {"amount": "m5"})]


# ------------------------------------------------- intents (4E21, 4E22, 4E71)

def test_a_condition_after_the_action_before_its_colon():
    m = grammar.INTENT_METHOD.match("Approve the following Public Display, with 4 Support: without objection")
    assert m.group("action") == "Approve the following Public Display"


def test_it_after_the_beast_is_named_is_the_beast():
    got = actions("I intend to cause the Beast to vote AGAINST Proposal 16.\n\n"
                  "I also intend to cause it to give me m5, since that's what we do now.", vocab(actor="Chuck"))
    assert [a["rest"].split(",")[0] for _, a in got] == [
        "cause the Beast to vote AGAINST Proposal 16 without objection", "cause the Beast to give me m5"]


def test_it_with_no_beast_named_is_left_as_it_is():
    assert grammar.the_beast_meant("I intend to cause it to give me m5") == "I intend to cause it to give me m5"


def test_a_second_intent_in_one_sentence_has_its_own_conditions():
    got = actions("I withdraw that intent, and instead I intend, without\nobjection, to cause the Beast to "
                  "give m15 to Dana.", vocab(actor="Wooble", replying=True))
    assert [n for n, _ in got] == ["withdraw_intent", "intend"]
    assert got[1][1]["rest"] == "cause the Beast to give m15 to Dana without objection"


def test_a_trick_s_timing_said_after_its_document_goes_with_it():
    (r,) = grammar.read("I intend, with support and without objection, to teach the Beast the\nfollowing Trick:\n\n"
                        "{{\nHerring Drought\nThe Beast gains m1.\n}}\n\nIts Timing is Voting.", vocab())
    assert r.args["document"].endswith("Timing: Voting")


def test_a_trick_s_timing_in_its_document_is_not_said_twice():
    (r,) = grammar.read("I intend, with support and without objection, to teach the Beast the following Trick:\n\n"
                        "{{\nTiming: Anytime\nThe Beast gains m1.\n}}\n\nIts Timing is Voting.", vocab())
    assert r.args["document"] == "Timing: Anytime\nThe Beast gains m1."


# ------------------------------------------------- negation wrapped, remarks, "actually no"

def test_a_negation_at_a_line_s_end_is_joined_to_its_verb():
    v = vocab(actor="Dana", replied_intents=(3,), replying=True)
    assert actions("I'd support it if that were how it worked. I definitely don't\nobject, anyway!", v) == []


def test_a_quoted_word_that_begins_a_remark_after_the_action():
    v = vocab(actor="Wooble", replied_intents=(3,), replying=True)
    assert actions('I object, "foowear" is a beloved tradition and not an error.', v) == [
        ("object", {"target": "3"})]


def test_actually_no_takes_back_the_action_before_and_reads_what_follows():
    assert actions("I give m5 to Bob. Actually no, I give m5 to Chuck.") == [
        ("give", {"amount": "m5", "player": "Chuck"})]


def test_a_list_of_proposals_wrapped_after_its_and():
    got = actions("I vote SHELVE on 11, ABSTAIN on 12, and FOR on 10, 14 and\n15. That's everything.")
    assert got[-1] == ("vote", {"vote": "FOR", "which": "10, 14, 15"})


def test_on_my_way_out_is_said_in_passing():
    assert actions("I also vote FOR 15 and 16 on my way out.") == [("vote", {"vote": "FOR", "which": "15, 16"})]


# ------------------------------------------------- the Emergency Forum, conditions that hold either way, states kept

@pytest.mark.parametrize("text, forum", [
    ("I designate #b-panic on irc.example.net as the Emergency Forum and I'm emailing everyone.",
     "#b-panic on irc.example.net"),
    ("I designate the B\nNomic IRC channel #b-emergency as the Emergency Forum.", "#b-emergency"),
    ("so I designate the IRC channel\nirc://irc.example.net/bnomic-emergency as the Emergency Forum.",
     "irc://irc.example.net/bnomic-emergency"),
    ("I designate b-panic@example.org as the Emergency Forum.", "b-panic@example.org"),
])
def test_the_emergency_forum_as_written(text, forum):
    assert actions(text) == [("designate_forum", {"forum": forum})]


def test_a_condition_that_holds_either_way_is_no_condition():
    assert actions("Also, FOR 15 if I haven't said so.") == [("vote", {"vote": "FOR", "which": "15"})]


def test_a_real_condition_is_still_refused():
    (r,) = grammar.read("FOR 15 if Bob votes AGAINST it.", vocab())
    assert r.kind == "unknown" and "4E7" in r.error


def test_abstain_as_an_imperative_and_with_a_reason_after_it():
    v = vocab(open_proposals=(10, 11))
    assert actions("Abstain on everything this nweek, I'm travelling and can't read them.", v) == [
        ("vote", {"vote": "ABSTAIN", "which": "all"})]
    assert actions("and on Proposal\n13 I ABSTAIN because I can't decide.")[-1] == (
        "vote", {"vote": "ABSTAIN", "which": "13"})


def test_a_fronted_for_is_not_a_vote_before_i():
    """"For Indictment 2, I find Wooble GUILTY": a fronted role, not FOR and a clause."""
    assert [n for n, _ in actions("For Indictment 2, I find Wooble GUILTY.", vocab(indictments=(2,)))] != ["vote"]


def test_votes_for_an_nweek_is_a_time_not_a_vote_on_it():
    assert actions("Votes for nweek 7:\n\n10 FOR\n11 AGAINST") == [
        ("vote", {"vote": "FOR", "which": "10"}), ("vote", {"vote": "AGAINST", "which": "11"})]


def test_a_mental_state_kept_changes_nothing():
    assert actions("For the record, I'm still Paranoid and I'm staying that way.") == []
    assert actions("I am Calm. Setting my Mental State to Calm.") == [("mental_state", {"state": "Calm"})]


def test_a_name_of_letters_then_digits_by_its_letters():
    v = Vocabulary(players=("Ais523", "Alice", "Bob"), actor="Bob")
    assert actions("I give Ais m10.", v) == [("give", {"amount": "m10", "player": "Ais523"})]
    v2 = Vocabulary(players=("Ais523", "Aisling", "Bob"), actor="Bob")
    assert actions("I give Ais m10.", v2) != [("give", {"amount": "m10", "player": "Ais523"})]


def test_an_imperative_then_a_remark_with_i_ll():
    assert actions("Withdraw 11 please, I'll resubmit.")[0] == ("withdraw_proposal", {"number": "11"})


# ------------------------------------------------- the one addressed; disclaimers; details after a colon

def test_the_player_addressed_first_is_you_and_no_recipient_otherwise():
    assert actions("Bob, I give you m5.") == [("give", {"amount": "m5", "player": "Bob"})]
    assert actions("Bob, I give m5 to Chuck.") == [("give", {"amount": "m5", "player": "Chuck"})]


def test_the_capacity_and_a_detail_after_the_colon_of_a_request():
    v = vocab(consultations=(5,))
    for text in ("As Priest of Consultation 5, I request that the Oracle ZOT it: the\nquestion rests on a repealed rule.",
                 "Chuck, as Priest of Consultation 5 I request that you ZOT it. The question is moot."):
        assert actions(text, v) == [("request_zot", {"which": "5"})]


def test_a_message_that_says_it_takes_no_action_takes_none():
    assert read("Disclaimer: nothing in this message is a game action.\n\nI vote FOR 10.") == []


def test_the_format_shown_is_not_done():
    assert actions("Newcomers keep asking how to vote, so here is the format:\n\n    I vote FOR 10.\n"
                   "    I vote AGAINST 11 and 12.\n\nOne proposal per line is easiest.") == []


def test_at_the_full_reward():
    assert actions("I become MetaMin, at the full m100.") == [
        ("assign_ministry", {"ministry": "Ministry", "reward": "m100"})]


def test_votes_respectively():
    assert actions("I vote FOR, AGAINST, FOR on 13, 14, 15 respectively.") == [
        ("vote", {"vote": "FOR", "which": "13"}), ("vote", {"vote": "AGAINST", "which": "14"}),
        ("vote", {"vote": "FOR", "which": "15"})]


def test_votes_respectively_that_do_not_pair_up_are_not_guessed():
    assert [k for k, _, _ in read("I vote FOR, AGAINST on 13, 14, 15 respectively.")] != ["action"] * 2


def test_the_chairman_assigning_a_number_to_one_proposal():
    assert [n for n, _ in actions('I assign Proposal Number 18 to Wooble\'s "Sock Drawer" proposal.',
                                  vocab(actor="Alice"))] == ["number_proposals"]


def test_an_inline_tag_stays_a_part_of_what_is_written():
    assert actions("I join as Bo<b>ld</b>x.", Vocabulary(players=PLAYERS)) == [("join", {"name": "Bo<b>ld</b>x"})]


def test_him_in_a_later_clause_is_the_player_the_clause_before_names():
    assert actions("I remove the Active property from Chuck and give him m5 to say sorry.") == [
        ("remove_active", {"player": "Chuck"}), ("give", {"amount": "m5", "player": "Chuck"})]


def test_a_purpose_after_to_is_no_second_recipient():
    assert actions("I give Chuck m5 to say sorry.") == [("give", {"amount": "m5", "player": "Chuck"})]
    assert actions("I give Chuck m3 to go with it, sock insurance.") == [("give", {"amount": "m3", "player": "Chuck"})]
    assert actions("I give m5 to Bob and m3 to Chuck.") == [("give", {"amount": "m5", "player": "Bob"}),
                                                            ("give", {"amount": "m3", "player": "Chuck"})]


def test_a_note_to_self_takes_no_action():
    assert read("Note to self (sent to the list by accident, sorry):\n- vote on 16\n- give Dana m10") == []


# ------------------------------------------------- labels, asides and corrections (last batch)

def test_for_what_it_is_worth_is_said_in_passing():
    assert actions("I vote FOR 10 and 11, and, for what it's worth, AGAINST 12.")[-1] == (
        "vote", {"vote": "AGAINST", "which": "12"})


def test_make_that_a_vote():
    assert actions("Actually make that AGAINST on 15. Sorry Dana.") == [("vote", {"vote": "AGAINST", "which": "15"})]


def test_a_state_or_a_flag_under_a_label_is_a_report_not_an_action():
    """"Threat Flag: Pink Ponies" is how displays and reports show the value (Rule 4E40): no
    hoisting by the sender (a label reading tried tonight read a report as an action)."""
    assert actions("Threat Flag: Pink Ponies.") == []
    assert actions("Mental State: Paranoid.") == []


def test_un_ordain_and_an_address_removed_from_a_display():
    assert actions("I un-ordain myself; too much homework this term.") == [("leave_ordained", {})]
    assert actions("Remove bob@oldjob.example from my addresses on the Registrar's\ndisplay.") == [
        ("remove_address", {"name": "bob@oldjob.example"})]


@pytest.mark.parametrize("text", [
    "Question for the Oracle, formally: Can a Player vote on a Proposal they have withdrawn?",
    "Question for Consultation (formal):\n\nDoes a Player who rejoins keep eir Vested status?\n\nReasoning: none.",
])
def test_a_question_put_formally_is_a_consultation(text):
    (kind, name, args), = read(text)
    # (the Question first; its Reasoning, where said, on a line of its own after it)
    assert (kind, name) == ("action", "submit_consultation") and args["document"].split("\n")[0].endswith("?")


def test_a_question_for_the_oracle_in_passing_asks_nothing_formal():
    assert read("Question for the Oracle: can a Consultation ask about itself?") == []
