"""The flow of a deal (RULES.md §3, §7): flushing, whose turn, finishing, and the end of a deal.

Every function takes a State and returns a new one, but for ``flush_on`` and ``lead_on``, which write onto the
copy a move is making before anyone else sees it; ``log`` collects what happened, for the event.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .flow_events import FIELD_CUT, PLACES_FINAL, Finished
from .seating import BACKWARD, FORWARD, after, next_active
from .slots import TRICK, put, reset
from .state import After, State, copied, new_tuple

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .view import PlayView


def flush_on(new: State, st: State, log) -> None:
    """Flush ``st``'s field (流れる) on ``new``, the copy of ``st`` a move is making: the cards go to the discard
    pile and the trick-long effects end (the rules' trick slots, those of the seats that passed among them)."""
    field = st.field
    assert field is not None
    log.append({"kind": "flush"})
    new.discard = st.discard | st.beneath | field.reading.mask
    new.beneath, new.field, new.trick_plays = 0, None, 0
    rules = st.rules
    new.view_slots = reset(st.view_slots, rules.view_defaults, rules.trick_view)
    new.rule_slots = reset(st.rule_slots, rules.rule_defaults, rules.trick_rule)
    for s in rules.direction_slots:  # a trick-long turn of the direction ends with the trick
        if s.lifetime == TRICK and (st.view_slots if s.view else st.rule_slots)[s.index]:
            new.direction = -new.direction


def lead_on(new: State, st: State, seat) -> None:
    """``seat`` leads on ``new`` (the copy of ``st`` a move is making), or the next active player if it has
    finished. A trick begins: nobody has passed in it (a flush has cleared the seats that passed already; a trick
    of passes on an empty field has not)."""
    if not st.active(seat):
        seat = next_active(st, seat)
    new.turn = seat
    passers = st.rules.passers
    if passers >= 0 and new.rule_slots[passers]:
        new.rule_slots = put(new.rule_slots, passers, 0)


def flush(st: State, log):
    """The field is flushed into the discard pile; trick-long effects end."""
    if st.field is None:
        return st
    new = st.clone()
    flush_on(new, st, log)
    return new


def lead(st: State, seat):
    """``seat`` leads on an empty field, or the next active player if it has finished."""
    new = st.clone()
    lead_on(new, st, seat)
    return new


def lead_after_flush(st: State, seat, log):
    """``lead(flush(st, log), seat)`` in one copy (who is active does not change with a flush)."""
    new = st.clone()
    if st.field is not None:
        flush_on(new, st, log)
    lead_on(new, st, seat)
    return new


def next_in_turn(st: State, player, direction: int | None = None) -> int:
    """Who takes the turn after ``player``'s play that stays on the field, nobody skipped: the next seat that can
    (active, and not sitting out: a seat that passed since the trick began, under pass_until_flush), or ``player``
    again when none can; ``direction`` is the one the play leaves (st's if None)."""
    players = st.players
    n = len(players)
    d = st.direction if direction is None else direction
    # every play asks: the seats' own order read here, a seating (seating.after) only when a rule sets one
    nxt = after(st, d) if st.rules.seating is not None else FORWARD[n] if d > 0 else BACKWARD[n]
    # the seats sitting out, in the slot of the rule on that keeps them (slots.PASSERS; Ruleset.passers: its index)
    passers = st.rules.passers
    out = st.rule_slots[passers] if passers >= 0 else 0
    s = player
    for _ in range(n - 1):
        s = nxt[s]
        if players[s].place is None and not out >> s & 1:
            return s
    return player


def advance_after_play(st: State, player, skip, log):
    """Turn after a play that stays on the field: the next active player, skipping ``skip`` of them.

    Each skipped turn counts as a pass. When every other seat has been skipped the skipping is back round at the
    player (コンボ): it gets the turn with its cards still on the field, or (five_skip's ``round`` "flush") the
    field flushes and it leads. With ``wrap``, skips left over go on round the table: the player's own turn is
    skipped too, a pass that ends the trick, and the leads that follow are skipped until the skips run out
    (qsona's K-skip point: three skips at three seats skip seats 1 and 2 and the player's turn; seat 1 leads). A
    finished player whose cards are reached again is flushed and the next active player leads (its turn, which it
    no longer has, skips nobody).
    """
    if not skip and st.active(player):
        return copied(st, {"turn": next_in_turn(st, player)})
    players = st.players
    n = len(players)
    nxt = after(st, st.direction)
    passers = st.rules.passers
    out = st.rule_slots[passers] if passers >= 0 else 0  # the seats sitting out (next_in_turn)
    s = player
    skipped: list[int] = []
    for _ in range(n):
        s = nxt[s]
        if s == player:
            break
        if players[s].place is not None or out >> s & 1:
            continue
        if skip > 0:
            skip -= 1
            skipped.append(s)
            continue
        if skipped:
            log.append({"kind": "skip", "seats": skipped})
        return copied(st, {"turn": s})
    # every other seat has been skipped (or has passed): the turn is back round at the player
    if skip > 0 and skipped and st.rules.skip_wraps:
        log.append({"kind": "skip", "seats": skipped})
        return _skip_leads(st, player, skip, log)
    if not st.active(player):
        return lead_after_flush(st, player, log)
    if skipped:
        log.append({"kind": "skip", "seats": skipped})
        if st.rules.skip_round == "flush":
            return lead_after_flush(st, player, log)
        log.append({"kind": "combo", "seat": player})
    return copied(st, {"turn": player})


def _skip_leads(st: State, player: int, skip: int, log) -> State:
    """Skips left over once every other seat has been skipped (five_skip's ``wrap``): the player's turn, if it
    still has one, is skipped too (a pass: the trick ends), then the leads in turn order, a skip each."""
    n = len(st.players)
    skipped: list[int] = []
    if st.active(player):
        skip -= 1
        skipped.append(player)
    new = st.clone()
    flush_on(new, st, log)
    nxt = after(st, new.direction)  # the next trick's (a trick-long reverse ends with the flush)
    s = player
    for _ in range(n * (skip + 1)):
        s = nxt[s]
        if not st.active(s):
            continue
        if skip > 0:
            skip -= 1
            skipped.append(s)
            continue
        if skipped:
            log.append({"kind": "skip", "seats": skipped})
        lead_on(new, st, s)
        return new
    raise AssertionError("no active seat to lead")


def trick_end(st: State, passer: int, run: int, log) -> State:
    """The state after a pass that the pass hooks let stand (``run``: the passes in a row it makes) and that ends
    the trick (``quiet_pass`` None): its owner leads (under pass_until_flush, when nobody played since the lead, the
    seat after the last passer leads again)."""
    new = st.clone()
    field = st.field
    if field is None:
        lead_on(new, st, next_active(st, passer))
    else:
        flush_on(new, st, log)
        lead_on(new, st, field.seat)
    count = st.rules.pass_run
    if count >= 0:
        new.rule_slots = put(new.rule_slots, count, run)
    return new


def quiet_pass(st: State, passer: int) -> tuple[int | None, int] | None:
    """(turn, seats sitting out) after a pass after which the trick goes on (the turn moves to the next seat that
    may play, the passer sitting out under pass_until_flush), or None when the pass ends the trick (every seat has
    passed, or the turn is back at the field's owner, or would be and the owner does not play on). The pass hooks
    were asked first."""
    players = st.players
    n = len(players)
    d = st.direction
    nxt = after(st, d) if st.rules.seating is not None else FORWARD[n] if d > 0 else BACKWARD[n]  # as next_in_turn
    s = passer
    passers = st.rules.passers
    if passers >= 0:  # passes sit out (PASSES_SIT_OUT: its rule keeps the seats that passed)
        passed = st.rule_slots[passers] | 1 << passer  # the seats sitting out, and now the passer
        for _ in range(n - 1):
            s = nxt[s]
            if players[s].place is None and not passed >> s & 1:
                if st.field is not None and s == st.field.seat and not st.rules.owner_plays_on:
                    return None  # everyone else has passed: the owner leads on an empty field
                return s, passed
        return None
    if st.field is None:
        return next_active(st, passer), 0
    owner = st.field.seat
    if passer == owner:
        return None
    for _ in range(n):
        s = nxt[s]
        if s == owner:
            return None
        if players[s].place is None:
            return s, 0
    raise AssertionError("no active seat to move to")


def _free_places(st: State):
    return st.free_places()


def forbidden_reason(rules: Ruleset, view: PlayView, effects) -> str | None:
    """Why going out with the play of ``view`` (firing ``effects``) ranks the player from the bottom (the rules'
    finish_verdict hooks), or None. The hooks read the play, never how many cards it leaves."""
    why = None
    for finish_verdict, params in rules.finish_hooks:
        why = why or finish_verdict(view, effects, params)
    return why


def place_final(st: State, seat: int) -> bool:
    """Has ``seat`` its place for good? A place once given changes only by a rule that rewrites them all (its
    ``react`` hook, asked PlacesFinal, says until when: gekokujo); nothing played after can change it otherwise."""
    if st.players[seat].place is None:
        return False
    for react, params in st.rules.place_hooks:
        if not react(st, PLACES_FINAL, params):
            return False
    return True


def finish(st: State, seat, forbidden, log):
    """``seat`` has emptied its hand: rank it (from the bottom if ``forbidden``), then the house rules."""
    free = _free_places(st)
    place = free[-1] if forbidden else free[0]
    st = st.with_player(seat, place=place)
    st = copied(st, {"finish_order": st.finish_order + (seat,)})
    entry = {"kind": "finish", "seat": seat, "place": place}
    if forbidden:
        entry.update(rule="forbidden_finish", why=forbidden)
    log.append(entry)
    for react, params in st.rules.on_finish_hooks:
        st = react(st, Finished(seat, place, log), params)
        if st.phase == "deal_over":
            return st
    return end_if_over(st, log)


def end_if_over(st: State, log):
    if st.phase == "deal_over":
        return st
    active = st.active_seats()
    if len(active) > 1:
        return st
    for seat in active:
        place = _free_places(st)[0]
        st = st.with_player(seat, place=place)
        st = copied(st, {"finish_order": st.finish_order + (seat,)})
        log.append({"kind": "finish", "seat": seat, "place": place, "last": True})
    log.append({"kind": "deal_over"})
    return copied(st, {"phase": "deal_over", "turn": None, "pending": (), "after": None})


def finish_empty_hands(st: State, first: int, log):
    """Every active player left without cards finishes, in turn order from ``first``."""
    nxt = after(st, st.direction)
    seat = first
    for i in range(len(st.players)):
        if i:
            seat = nxt[seat]
        p = st.players[seat]
        if not p.hand and not p.unknown and p.place is None and st.phase != "deal_over":
            st = finish(st, seat, None, log)
    return st


def resolve(st: State, log):
    """All pending decisions of a play are made: cut, finish check, then whose turn (RULES.md §5 order)."""
    a = st.after
    assert a is not None
    st = copied(st, {"after": None})
    flushed = False
    if a.cut:
        st = flush(st, log)
        flushed = True
    for seat, forbidden in a.went_out:
        if st.phase == "deal_over" or not st.active(seat):
            continue
        st = finish(st, seat, forbidden, log)
        if st.rules.flushes_on_finish and not flushed:
            st = flush(st, log)
            flushed = True
    st = finish_empty_hands(st, a.seat, log)
    if st.phase == "deal_over":
        return st
    if flushed or st.field is None:
        return lead(st, a.seat)
    return advance_after_play(st, a.seat, a.skip, log)


def open_window(st: State):
    """Right after a cut the rules told of it may offer seats a decision (cut back, 切り返し); ``turn`` names the
    seat that leads if nobody takes it (it may lead at once, closing the window)."""
    window = tuple(p for react, params in st.rules.cut_hooks for p in react(st, FIELD_CUT, params))
    a = st.after
    assert a is not None
    st = copied(st, {"after": new_tuple(After, (a.seat, a.cut, a.skip, a.went_out, True, a.cards))})
    if not window:
        return st
    after = resolve(st, [])
    leader = after.turn if after.phase == "play" and not after.pending else None
    return copied(st, {"turn": leader, "pending": window})


def proceed(st: State, log, normalize, start_play):
    """Go on until someone must decide something: pending decisions, the cut-back window, or the turn."""
    st = normalize(st, log)
    if st.pending or st.phase == "deal_over":
        return st
    if st.phase == "exchange":
        return start_play(st, log)
    a = st.after
    if a is None:
        return st
    if a.cut and not a.window_done and st.rules.cut_hooks:
        st = open_window(st)
        if st.pending:
            return st
    return resolve(st, log)

