"""judge / apply / actors: the one entry point every caller uses to change a game."""
from __future__ import annotations

from typing import Any, Final

from . import decisions, deals, flow
from .deals import start_play
from .decisions import normalize
from .cards import codes
from .effects import named
from .errors import InputError
from .flow_events import Passed
from .moves import Move, move_json, parse_move
from .play import Plan, joins_field, judge_play
from .rules.base import Rejection
from .resolution import resolve, write
from .state import Field, State, copied, replace
from .verdict import Verdict, reject, verdict_json

CARD_ERRORS: Final = ("invalid_cards",)


class _Unlogged:
    """The log of a change nobody reads (``advance``): entries are dropped; the costliest is not even built."""
    __slots__ = ()

    def append(self, entry) -> None:
        pass


UNLOGGED: Final = _Unlogged()


def proceed(st: State, log):
    """What a move left to do (``after``: its decisions, cut, skip, finishes; the end of the deal) is done."""
    return flow.proceed(st, log, normalize, start_play)


def actors(st: State) -> list[int]:
    """The seats that must act now."""
    if st.pending:
        head = st.pending[0]
        if head.action == "cut_back":
            seats = [p.seat for p in decisions.window(st)]
            return seats + [st.turn] if st.turn is not None and st.turn not in seats else seats
        return [head.seat]
    if st.phase == "play" and st.turn is not None:
        return [st.turn]
    return []


def leads_through_window(st: State, mv) -> bool:
    """The next leader plays (or passes, with lead_pass) during the cut-back window: its lead closes it."""
    if not st.pending or st.pending[0].action != "cut_back" or mv.seat != st.turn:
        return False
    in_window = any(p.seat == mv.seat for p in decisions.window(st))
    return mv.action == "play" or (mv.action == "pass" and not in_window)


def close_window(st: State, log):
    """Nobody cut back before the lead: the cut resolves as if every seat had declined."""
    return proceed(copied(st, {"pending": ()}), log)


def write_play(st: State, new: State, plan: Plan) -> bool:
    """Write the legal play ``plan`` of ``st`` onto ``new``, the copy of ``st`` this move makes: its cards, its
    effects folded (a play ends the passes in a row, if a rule counts them) and, when it leaves nothing to decide,
    cut, skip or finish, the next turn (who may take it changes only with the direction): True. Else ``turn`` is
    None and ``after`` says what is left (``proceed``): False."""
    view = plan.view
    field = st.field
    beneath = st.beneath  # the field's cards go beneath the play (unless it joins them: attach_revolution)
    if field is not None and not joins_field(view.special):
        beneath |= field.reading.mask
    went_out = ((plan.seat, flow.forbidden_reason(st.rules, plan.view, plan.effects)),) if plan.left_after == 0 else ()
    # the effects fold on the state the play was judged at: folds read only the order and who is still playing
    res = resolve(st, plan) if plan.effects or went_out else None
    turn = flow.next_in_turn(st, plan.seat, st.direction if res is None else res.direction)
    # what every play writes: its cards leave the hand for the field
    new.players, new.field = st.players_without(plan.seat, view.reading.mask), Field(plan.field_reading, plan.seat)
    new.beneath, new.trick_plays, new.first_play = beneath, st.trick_plays + 1, False
    after = write(new, st, res, went_out, plan.view.reading.n) if res is not None else None
    run = st.rules.pass_run
    if run >= 0:
        values = new.rule_slots
        if values[run]:  # slots.put, written out (every play asks)
            new.rule_slots = values[:run] + (0,) + values[run + 1:]
    if after is not None:
        new.turn = None
        return False
    new.turn = turn
    return True


def _play(st: State, plan: Plan, log):
    reading = plan.view.reading
    if log is not UNLOGGED:
        log.append({"kind": "play", "seat": plan.seat, "cards": codes(reading.mask),
                    "shape": plan.field_reading.shape, "as": reading.as_map()})
    new = st.clone()
    return new if write_play(st, new, plan) else proceed(new, log)


def _pass(st: State, seat: int, log):
    if log is not UNLOGGED:
        log.append({"kind": "pass", "seat": seat})
    rules = st.rules
    passers, count = rules.passers, rules.pass_run  # the slots the rules on keep the pass flow in (slots.keeps)
    run = st.rule_slots[count] + 1 if count >= 0 else 0  # passes in a row, this one included
    for react, params in rules.pass_hooks:  # a rule told of the pass may end the deal on it (pass_abort)
        ended = react(st, Passed(run, log), params)
        if ended is not None:
            return ended
    quiet = flow.quiet_pass(st, seat)
    if quiet is None:
        return flow.trick_end(st, seat, run, log)
    # most passes: the trick goes on, the passer sitting out if passes do
    new = st.clone()
    new.turn = quiet[0]
    if passers >= 0 or count >= 0:
        values = list(st.rule_slots)
        if passers >= 0:
            values[passers] = quiet[1]
        if count >= 0:
            values[count] = run
        new.rule_slots = tuple(values)
    return new


def _rejection(rej: Rejection) -> Verdict:
    return reject(rej.reason, rej.message, rej.rule)


def _turn_rejection(st: State, mv) -> Verdict:
    """No decision is pending, and it is not ``mv.seat``'s turn to play."""
    if st.phase == "deal_over":
        return reject("not_allowed", "the deal is over: start the next deal")
    own = " (its own cards are on the field)" if st.field and st.field.seat == st.turn else ""
    return reject("not_your_turn", f"it is seat {st.turn}'s turn{own}, not seat {mv.seat}'s")


PASS_MESSAGES: Final = tuple(f"seat {seat} passes" for seat in range(8))  # most moves are passes that fire nothing


def _summary(seat: int, mv: Move, plan: Plan | None, extra_effects: list) -> tuple[str, tuple]:
    if mv.action == "pass":
        if not extra_effects and seat < len(PASS_MESSAGES):
            return PASS_MESSAGES[seat], ()
        text = f"seat {seat} passes"
    elif mv.action == "play":
        assert plan is not None  # a legal play was judged
        shape = plan.field_reading.shape
        text = f"seat {seat} plays {' '.join(codes(mv.cards))} ({shape})"
    else:
        text = f"seat {seat} {mv.action}s" + (f" {' '.join(codes(mv.cards))}" if mv.cards else "")
    fired = named(plan.effects) if plan is not None and plan.effects else []
    if extra_effects:
        fired += [x for x in extra_effects if x not in fired]
    if fired:
        text += ": " + ", ".join(fired)
    return text, tuple(fired)


def _unchecked(st: State, mv) -> tuple:
    """Table mode: what the referee had to take on trust."""
    if not st.table:
        return ()
    out = []
    if mv.cards & ~st.hand(mv.seat):
        out.append("not_in_hand")
    head = st.pending[0] if st.pending else None
    if head is not None and head.seat == mv.seat and st.players[mv.seat].unknown:
        if head.strongest:
            out.append("strongest_cards")
        if head.upto and mv.action == "pass":
            out.append("rank_not_held")
    if mv.action == "play" and st.first_play and st.players[mv.seat].unknown:
        out.extend(st.rules.first_play_trust)  # the cards required_cards asks for are not seen
    return tuple(out)


def _change(st: State, move, log) -> tuple[Move | None, Verdict | None, State, State, Any, Plan | None]:
    """(move, rejection or None, the state the move was judged at, new state without its seq, log, plan)."""
    try:
        mv = move if type(move) is Move else parse_move(move)
    except InputError as e:
        if e.code in CARD_ERRORS:
            return None, reject(e.code, e.message), st, st, [], None
        raise
    if not 0 <= mv.seat < len(st.players):
        raise InputError("bad_move", f"seat must be 0 to {len(st.players) - 1}, not {mv.seat}")
    plan = None
    if st.pending and leads_through_window(st, mv):
        st = close_window(st, log)
    if not st.pending and (mv.seat != st.turn or st.phase == "deal_over"):
        return mv, _turn_rejection(st, mv), st, st, [], None
    if st.pending:
        rej = decisions.judge(st, mv)
        if rej is not None:
            return mv, _rejection(rej), st, st, [], None
        new = proceed(decisions.apply(st, mv, log), log)
    elif mv.action == "play":
        plan = judge_play(st, mv)
        if isinstance(plan, Rejection):
            return mv, _rejection(plan), st, st, [], None
        new = _play(st, plan, log)
    elif mv.action == "pass":
        if st.field is None and not st.rules.lead_may_pass:
            return mv, reject("must_play", "you lead on an empty field: you must play (passing is not allowed; "
                              "lead_pass is off)", "lead_pass"), st, st, [], None
        new = _pass(st, mv.seat, log)
    else:
        return mv, reject("not_allowed", f"there is nothing to {mv.action} now: it is seat {mv.seat}'s turn to "
                          "play or pass"), st, st, [], None
    return mv, None, st, new, log, plan


def _numbered(new: State, st: State, st_at: State) -> State:
    """``new`` with the next seq. A state this move made is not yet seen by anyone: its seq is written in place (a
    copy less per move)."""
    if new is st or new is st_at:
        return replace(new, seq=st_at.seq + 1)
    new.seq = st_at.seq + 1
    return new


def apply(st: State, move) -> tuple:
    """(verdict, new state, events). An illegal move leaves the state as it was and yields no event."""
    log: list[dict] = []
    mv, rejected, st_at, new, log, plan = _change(st, move, log)
    if rejected is not None:
        return rejected, st, []
    assert mv is not None  # a move that was not rejected was parsed
    finishers = st.rules.finishers
    extra = [x["rule"] for x in log if x.get("rule") and (x.get("kind") == "finish" or x["rule"] in finishers)]
    message, effects = _summary(mv.seat, mv, plan, extra)
    verdict = Verdict(True, None, message, effects, plan.view.reading.as_map() if plan else {},
                      plan.void if plan else (), None, _unchecked(st_at, mv))
    new = _numbered(new, st, st_at)
    event = {"seq": new.seq, "type": "move", "move": move_json(mv), "verdict": verdict_json(verdict),
             "outcome": log}
    return verdict, new, [event]


def advance(st: State, move):
    """The state after a legal ``move``, or the rejecting Verdict: ``apply`` without its verdict and event (for
    replaying a log and for playouts)."""
    _, rejected, st_at, new, _, _ = _change(st, move, UNLOGGED)
    return rejected if rejected is not None else _numbered(new, st, st_at)


def judge(st: State, move) -> Verdict:
    """What would happen: the verdict of ``apply`` without keeping its state."""
    return apply(st, move)[0]


def next_deal(st: State, hands=None):
    return deals.next_deal(st, hands, proceed)
