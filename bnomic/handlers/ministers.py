"""What a Legal Entity does with a Ministry: Rules 4E46 (Assigning), 4E47
(Resigning), 4E48 (Revising and Usurping, and Vacant Rewards reset), 4E49
(Rewards paid), and 4E45 (a Minister takes a duty back from bnomic, or
delegates it again).

The Ministries themselves (their names, holders, and the duties declared for
them) are ministries.py, which the reader's vocabulary needs and which so
declares no action.
"""
from __future__ import annotations

import re

from math import floor

from ..store import Ministry, Player, Usurpation
from . import durations
from .context import Context, Rejected
from .economy import credit, debit, parse_amount
from .entities import corporation_key
from .frames import frame, role
from .ministries import (aliases, describe, duties_listed, duty_named, find_ministry, give_ministry, held_by,
                         held_one, title, vacant)
from .registry import action, at_end_of, at_start_of, deadline
from .shares import share, words

# -------------------------------------------------------------- assigning

def _reward(ctx: Context, text: str | None, current: int, strictly_lower: bool, rule: str) -> int:
    if not text:
        if strictly_lower:
            raise Rejected("propose a new Reward lower than the current one", rule=rule)
        return current
    n, currency = parse_amount(ctx.config, text, rule=rule)
    if currency != "mackerel":
        raise Rejected("a Reward is an amount of mackerel", rule="4E48")
    low, high = ctx.config["ministries.min_reward"], ctx.config["ministries.default_reward"]
    if not low <= n <= high:
        raise Rejected(f"a Reward is between m{low} and m{high}", rule="4E48")
    if strictly_lower and n >= current:
        raise Rejected(f"the new Reward must be lower than the current m{current}", rule=rule)
    if not strictly_lower and n > current:
        raise Rejected(f"the new Reward may be at most the current m{current}", rule=rule)
    return n


# Rule 4E46/4E48: the Reward a Legal Entity specifies or proposes, said in any order
# and with any of these words ("setting its Reward to m90", "(reward m100)", ", Reward m100")
REWARD = ("reward:amount[reward|reward of|reward value|reward value of|reward to|reward at|with|with reward"
          "|with a reward of|with a new reward of|with the reward|with reward value|at|at a reward of|for"
          "|setting|setting its reward to|setting the reward to|setting its reward value to|set at|set to"
          "|proposing|proposing a reward of|proposing a new reward of|proposing a reward value of"
          "|specifying|specifying a reward of|specifying a new reward of|specifying a reward value of"
          "|offering|offering a reward of|offering a new reward of|asking|asking for|asking a reward of"
          "|and a reward of|and set its reward to|and set the reward to|its reward set to"
          "|for this ministry|specifying for this ministry|proposing for this ministry"
          "|keeping|keeping its reward of|keeping the reward of|keeping its reward at|keeping the reward at"
          "|leaving|leaving its reward at|leaving the reward at]?")
# "my Ministry", "his Ministry" (Rules 4E47, 4E53: "its Ministry", "his Ministry") are not
# the Ministry called Ministry: they name the one the Minister holds (see held_one)
THEIRS = role("ministry:choice?", {f"{w} {n}": ("mine" if w == "my" else "theirs")
                                    for w in ("my", "his", "her", "their", "its")
                                    for n in ("ministry", "office", "post")} | {"office": "theirs"}
              # "I resign from all my Ministries": each one the Minister holds (grammar._whose_ministry)
              | {w: "all mine" for w in ("all my ministries", "all of my ministries", "each of my ministries",
                                         "every ministry i hold", "all the ministries i hold", "all my offices",
                                         "every one of my ministries", "all ministries i hold")})
_REWARD_WORDS = "reward value rewards"


@action("assign_ministry",
        # Rule 4E46: "assign a Vacant Ministry to itself, specifying ... a new Reward Value"
        frame("assign|reassign|assign to myself|give myself|take|take on|take up|claim|assume|accept|fill"
              "|occupy|become|appoint myself|appoint myself as|appoint myself to|install myself as"
              "|take over|take over as|step in as|step up as",
              "ministry:ministry", REWARD,
              also="myself me itself to vacant empty " + _REWARD_WORDS + " post office job role position seat of as"
                   " current existing unchanged present keeping"
                   " ministries offices ministry"),
        # "I give the Ministry of Change to myself" (not "I give m5 to the Chairman", Rule 4E33)
        frame("give", "ministry:ministry", REWARD, also="myself me to " + _REWARD_WORDS, needs="myself"),
        rule="4E46", example="I assign the Ministry of Change to myself with a Reward of m80", legal_entity=True,
        says="assign {ministry} to myself {reward}",
        not_actions=("I take the point about the Ministry of Law", "I took the Ministry of Change",
                     "Wooble takes the Ministry of Change",
                     "Should I take the Ministry of Law?", "I accept the Chairman's ruling on this",
                     "I think I'll claim the Registrar"))
def assign(ctx: Context, actor: Player, ministry: str, reward: str | None = None) -> None:
    """Rule 4E46: a Legal Entity may assign a Vacant Ministry to itself,
    specifying a new Reward no higher than the current one."""
    m = find_ministry(ctx, ministry, "4E46")
    if m.holder_id is not None:
        holder = "you" if m.holder_id == actor.id else m.holder.name
        raise Rejected(f"{describe(ctx.config, m)} is held by {holder}, not Vacant "
                       "(it can be Usurped, Rule 4E48)", rule="4E46")
    m.reward = _reward(ctx, reward, m.reward, strictly_lower=False, rule="4E46")
    give_ministry(ctx, m, actor, f"assigned to itself with a Reward of m{m.reward}", "4E46")


@action("resign_ministry",
        # Rule 4E47: "A Minister may Resign from its Ministry"
        frame("resign|resign from|resign as|step down|step down from|step down as|quit as"
              "|vacate|relinquish|give up|stand down|stand down as|stand down from|cede|abdicate|abdicate from"
              "|abdicate as",
              "ministry:ministry", THEIRS, also="post office job role position of ministry"),
        rule="4E47", example="I resign as Chairman", legal_entity=True, says="resign from {ministry}",
        not_actions=("I resigned as Chairman last week", "Wooble resigns from the Ministry of Law",
                     "I resign myself to losing the Ministry of Law", "Should I resign as Chairman?",
                     "I leave this here", "I quit smoking last week"))
def resign(ctx: Context, actor: Player, ministry: str) -> None:
    """Rule 4E47: a Minister may Resign; the Ministry becomes Vacant."""
    if ministry == "all mine":              # "all my Ministries", where the reader knew of none held
        raise Rejected("you hold no Ministry to resign from", rule="4E47")
    m = find_ministry(ctx, ministry, "4E47", holder=actor)
    if m.holder_id != actor.id:
        raise Rejected(f"you do not hold {describe(ctx.config, m)}", rule="4E47")
    give_ministry(ctx, m, None, f"{actor.name} resigned", "4E47")


@action("revise_reward",
        # Rule 4E48: "Revise the Reward Value of its Ministry, ... changing it to a value lower"
        frame("revise|lower|reduce|cut|decrease|drop|set|change|adjust",
              "ministry:ministry[of|for|on]?", THEIRS, "reward:amount[to|at|down to]",
              "was:amount[from]?",                                        # "from m80 to m75"
              also=_REWARD_WORDS + " its", needs="reward"),               # "I revise my Reward to m50"
        # "give the Ministry of Questions a new Reward of m40 (by revising it)"
        frame("give", "ministry:ministry", "reward:amount[a new reward of|a lower reward of|a reward of"
              "|new reward of|reward of]", also="by revising lowering it its the", needs="reward"),
        rule="4E48", example="I revise the Reward of the Ministry of Change to m60", legal_entity=True,
        says="revise the Reward of {ministry} to {reward}",
        not_actions=("I lowered the Reward of the Ministry of Law to m60",
                     "Wooble revises the Reward of the Ministry of Law to m60",
                     "I reduce my expectations of the Chairman"))
def revise(ctx: Context, actor: Player, reward: str, ministry: str | None = None,
           was: str | None = None) -> None:
    """Rule 4E48: a Minister may Revise its Ministry's Reward to a lower value ("my
    Reward", "my Ministry": the one it holds). A Reward said "from" must be the one it has."""
    m = (held_one(ctx, actor, "4E48") if ministry in (None, "mine", "theirs")
         else find_ministry(ctx, ministry, "4E48"))
    if m.holder_id != actor.id:
        raise Rejected(f"only its Minister may revise the Reward of {describe(ctx.config, m)}",
                       rule="4E48")
    said = re.fullmatch(r"m?(\d+)", str(was or "").strip().lower())
    if was and (said is None or int(said.group(1)) != m.reward):
        raise Rejected(f"the Reward of {describe(ctx.config, m)} is m{m.reward}, not {was}: say the "
                       "Reward you mean", rule="4E48")
    new = _reward(ctx, reward, m.reward, strictly_lower=True, rule="4E48")
    ctx.record("reward", f"{actor.name} revises the Reward of {describe(ctx.config, m)} from "
               f"m{m.reward} to m{new}", rule="4E48", ministry=m.name, before=m.reward, after=new)
    m.reward = new
    m.save()


# --------------------------------------------------------------- usurping

# Rule 4E48's own words, "proposing for this Ministry a new Reward Value", said of "it"
USURPER_REWARD = REWARD.replace("]?", "|proposing for this ministry a new reward of|proposing for it"
                                "|proposing for it a new reward of|propose for it|and propose for it"
                                "|and propose|and propose a new reward of|and propose a reward of]")

@action("usurp",
        # Rule 4E48: "Usurp a Ministry that is currently held by a different Legal Entity,
        # proposing for this Ministry a new Reward Value" (a missing Reward is refused there)
        frame("usurp|usurp the post of", "ministry:ministry", USURPER_REWARD, "holder:player[from]?",
              also=_REWARD_WORDS + " proposed"),        # "with a proposed Reward of m55"
        rule="4E48", example="I usurp the Ministry of Change, proposing a Reward of m40", legal_entity=True,
        says="usurp {ministry} proposing {reward}",
        not_actions=("I usurped the Chairman yesterday", "Wooble usurps the Ministry of Law",
                     "Should I usurp the Registrar?"))
def usurp(ctx: Context, actor: Player, ministry: str, reward: str | None = None,
          holder: str | None = None) -> None:
    """Rule 4E48: a Legal Entity holding at least half a Ministry's Reward may
    Usurp it from another, proposing a lower Reward; it settles 2 rdays later."""
    m = find_ministry(ctx, ministry, "4E48")
    if m.holder_id is None:
        raise Rejected(f"{describe(ctx.config, m)} is Vacant: assign it to yourself instead "
                       "(Rule 4E46)", rule="4E48")
    if m.holder_id == actor.id:
        raise Rejected("you already hold it", rule="4E48")
    if holder and corporation_key(m.holder.name) != corporation_key(holder):   # "from the X Corporation" too
        raise Rejected(f"{describe(ctx.config, m)} is held by {m.holder.name}, not {holder}",
                       rule="4E48")
    proposed = _reward(ctx, reward, m.reward, strictly_lower=True, rule="4E48")
    actor = Player.get_by_id(actor.id)
    needed = share(ctx, "ministries.usurp_share")
    if actor.mackerel < needed * m.reward:
        raise Rejected(f"you have m{actor.mackerel}; usurping needs at least {words(needed)} the "
                       f"Reward (m{m.reward})", rule="4E48")
    u = Usurpation.create(ministry=m, usurper=actor, proposed=proposed, at=ctx.at)
    due = durations.due_after(ctx, ctx.config["ministries.usurpation_settles"])
    durations.schedule(ctx, due, "usurpation_settles", "4E48", usurpation=u.id)
    ctx.record("usurp", f"{actor.name} usurps {describe(ctx.config, m)} from {m.holder.name}, "
               f"proposing m{proposed}; it settles {due.describe()}", rule="4E48",
               ministry=m.name, usurper=actor.name, proposed=proposed, usurpation=u.id)


@deadline("usurpation_settles")
def settle(ctx: Context, usurpation: int) -> None:
    """Rule 4E48: 2 rdays after, if the Reward is still higher than proposed: half
    the Reward from the usurper to the Minister, then the Ministry to the usurper,
    then the Reward set; each only if the one before it succeeded."""
    u = Usurpation.get_by_id(usurpation)
    m = Ministry.get_by_id(u.ministry_id)
    usurper = Player.get_by_id(u.usurper_id)
    if m.reward <= u.proposed:
        u.state = "lapsed"
        u.save()
        ctx.record("usurp", f"{usurper.name}'s usurpation of {describe(ctx.config, m)} lapses: its "
                   f"Reward (m{m.reward}) is not higher than the proposed m{u.proposed}",
                   rule="4E48", usurpation=u.id)
        return
    u.state = "lapsed"
    if m.holder_id is None or m.holder_id == usurper.id:
        u.save()
        ctx.record("usurp", f"{usurper.name}'s usurpation of {describe(ctx.config, m)} lapses: "
                   "there is no other Minister to pay", rule="4E48", usurpation=u.id)
        return
    holder = Player.get_by_id(m.holder_id)
    part = share(ctx, "ministries.usurp_share")
    half = floor(part * m.reward)
    try:
        debit(ctx, usurper, "mackerel", half, "4E48", f"{words(part)} the Reward, to {holder.name}")
    except Rejected as e:
        u.save()
        ctx.record("usurp", f"{usurper.name}'s usurpation of {describe(ctx.config, m)} stops: "
                   f"{e.reason}", rule="4E48", usurpation=u.id)
        return
    credit(ctx, holder, "mackerel", half, "4E48", f"{words(part)} the Reward, from {usurper.name}")
    give_ministry(ctx, m, usurper, f"usurped from {holder.name}", "4E48")
    ctx.record("reward", f"the Reward of {describe(ctx.config, m)} is set to m{u.proposed}",
               rule="4E48", ministry=m.name, before=m.reward, after=u.proposed)
    m.reward = u.proposed
    m.save()
    u.state = "settled"
    u.save()


# ------------------------------------------------------------- each nweek

@at_end_of("nweek", rule="4E49")
def pay_rewards(ctx: Context) -> None:
    """Rule 4E49: at the end of each nweek, each Ministry held by the same
    minister since the Clock was first turned On that nweek earns it the Reward."""
    first_on = ctx.game.clock_first_on_at
    if first_on is None:
        return
    for m in Ministry.select().where(Ministry.holder.is_null(False)).order_by(Ministry.name):
        if m.held_since is not None and m.held_since <= first_on:
            credit(ctx, Player.get_by_id(m.holder_id), "mackerel", m.reward, "4E49",
                   f"the Reward of {describe(ctx.config, m)}")


@at_start_of("nweek", rule="4E48")
def reset_vacant_rewards(ctx: Context) -> None:
    """Rule 4E48: at the beginning of each nweek, a Vacant Ministry's Reward is
    set to the default (m100); and 4E49 starts counting the new nweek."""
    default = ctx.config["ministries.default_reward"]
    for m in vacant():
        if m.reward != default:
            ctx.record("reward", f"the Reward of Vacant {describe(ctx.config, m)} is set to "
                       f"m{default}", rule="4E48", ministry=m.name, before=m.reward, after=default)
            m.reward = default
            m.save()
    game = ctx.game
    if game.clock_first_on_at is not None:
        game.clock_first_on_at = None
        game.save()


# the duty a Minister names: free words after "the duty to" ("turn the Clock On",
# "publish the Registrar's display"), read by _duty_of
DUTY = "duty:text[duty|duty to|duty of|duties|duties of|job of|job to|task of|task to]"


@action("keep_duty",
        # Rule 4E45: a Minister's duties are its own; bnomic performs them unless taken back
        frame("take back|keep|perform|perform myself|retain|reclaim|resume",
              DUTY, also="myself back from bnomic duty duties"),
        rule="4E45", example="I take back the duty to turn the Clock On", legal_entity=True,
        says="take back the duty to {duty}",
        not_actions=("I took back the duty to turn the Clock On", "Wooble keeps the duty to "
                     "turn the Clock On", "I keep forgetting my duties"))
def keep_duty(ctx: Context, actor: Player, duty: str) -> None:
    """Rule 4E45: a Minister may take back a duty it delegated to bnomic."""
    key, ministry = _duty_of(ctx, actor, duty)
    if key not in ministry.kept_duties:
        ministry.kept_duties = [*ministry.kept_duties, key]
        ministry.display_digest = None
        ministry.save()
    ctx.record("duty", f"{actor.name} performs the duty to {duty_named(key).does} themselves",
               rule="4E45", duty=key, ministry=ministry.name)


@action("delegate_duty",
        # Rule 4E45: "A Minister may delegate some or all of its Ministry's defined powers"
        frame("delegate|hand over|hand back|give back|give|entrust",
              DUTY, also="to bnomic back again duty duties"),
        rule="4E45", example="I delegate the duty to turn the Clock On to bnomic", legal_entity=True,
        says="delegate the duty to {duty}",
        not_actions=("I delegated the duty to turn the Clock On to bnomic",
                     "Wooble delegates the duty to turn the Clock On"))
def delegate_duty(ctx: Context, actor: Player, duty: str) -> None:
    """Rule 4E45: a Minister may delegate a duty to bnomic again."""
    key, ministry = _duty_of(ctx, actor, duty)
    ministry.kept_duties = [d for d in ministry.kept_duties if d != key]
    ministry.save()
    ctx.record("duty", f"bnomic performs the duty to {duty_named(key).does} for {actor.name}",
               rule="4E45", duty=key, ministry=ministry.name)


def _duty_of(ctx: Context, actor: Player, text: str):
    """The duty named ('to turn the Clock On', 'to publish the Registrar's display')
    and the actor's ministry it is of."""
    t = text.lower()
    key = next((k for word, k in (("ballot", "ballot"), ("result", "results"), ("number", "numbers"),
                                  ("priest", "priests"), ("consultation", "priests"), ("jury", "jury"),
                                  ("clock", "clock_on"), ("display", "displays"),
                                  ("trick", "tricks")) if word in t), None)
    if key is None:
        raise Rejected(f"bnomic knows no duty {text!r}; it performs: "
                       + "; ".join(f"{d.name}: {d.does}" for d in duties_listed()), rule="4E45")
    owner = duty_named(key).ministry
    if owner == "*":
        mine = list(held_by(actor))
        named = [m for m in mine if any(a in t for a, n in aliases(ctx.config).items() if n == m.name)]
        chosen = named or (mine if len(mine) == 1 else [])
        if not chosen:
            raise Rejected("name the Ministry whose display you mean (one you hold)", rule="4E45")
        return key, chosen[0]
    ministry = Ministry.get_or_none(Ministry.name == owner)
    if ministry is None or ministry.holder_id != actor.id:
        raise Rejected(f"that duty is the {title(ctx.config, owner)}'s, and you do not "
                       "hold that Ministry", rule="4E45")
    return key, ministry
