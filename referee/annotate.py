"""What each legal move would set off, published so that clients need no rule code of their own.

``annotate(state, entries)`` returns the entries of ``legal_moves(state, seat)``, each with three keys more:

- ``effects``: the rule ids of the effects the move fires, as its verdict lists them (after them a verdict may
  list what the finish it completes sets off: ``forbidden_finish``, ``capital_fall``, ``gekokujo``);
- ``kinds``: what those effects do (``effects.KIND``): ``cut``, ``revolution``, ``jack_back``, ``lock``, ...;
- ``forbidden_finish``: going out with this move ranks the seat from the bottom. It is set on every play and
  cut back, whether or not the move empties the hand, so a client also learns which plays must not be its last.

``forbidden_last(state, seat)`` lists the seat's cards that could not be its last card: going out by leading
one alone now would rank it from the bottom. It covers the cards no legal move of the moment plays alone.

Only plays and cut backs fire anything. Each annotation is the engine's own judging of the move (the plan of
``judge_play``, the ``finish_verdict`` hooks), which reads the move, the seat's own cards and public facts,
never another hand: a seat may be shown the annotations of its moves.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import cards_of, codes, parse_many
from .decisions import cut_back_finish
from .effects import named
from .engine import close_window, leads_through_window
from .errors import InputError
from .flow import flush, forbidden_reason
from .moves import Move, parse_move
from .memo import remember
from .play import Plan, judge_play
from .rules.base import Rejection
from .state import State, replace
from .view import Table, table_of

if TYPE_CHECKING:
    from .ruleset import Ruleset


def nothing() -> dict:
    """The annotation of a move that fires nothing (a pass, a decision)."""
    return {"effects": [], "kinds": [], "forbidden_finish": False}


def annotate(st: State, entries: list[dict]) -> list[dict]:
    """Each legal-moves entry of ``st`` with its ``effects``, ``kinds`` and ``forbidden_finish``."""
    closed: list = []  # the state with the cut-back window closed, made once: the next leader's plays are judged there
    return [dict(entry, **_annotation(st, entry, closed)) for entry in entries]


def _annotation(st: State, entry: dict, closed: list) -> dict:
    action = entry["action"]
    if action == "cut_back":
        why = cut_back_finish(st, entry["seat"], parse_many(entry["cards"]), st.pending[0].rule)
        return {"effects": [], "kinds": [], "forbidden_finish": why is not None}
    if action != "play":
        return nothing()
    mv = parse_move(entry)
    if leads_through_window(st, mv):
        if not closed:
            closed.append(close_window(st, []))
        st = closed[0]
    return play_annotation(st, mv)


class Note:
    """A legal play's annotation as memoised: the JSON keys of ``annotate`` as tuples (shared: read only; a plain
    class with slots: compiled, built by a direct call where a named tuple's is a call through the interpreter)."""
    __slots__ = ("effects", "kinds", "forbidden_finish")
    effects: tuple
    kinds: tuple
    forbidden_finish: bool

    def __init__(self, effects: tuple, kinds: tuple, forbidden_finish: bool) -> None:
        self.effects, self.kinds, self.forbidden_finish = effects, kinds, forbidden_finish

    def __eq__(self, other: object) -> bool:
        return (type(other) is Note and self.effects == other.effects and self.kinds == other.kinds
                and self.forbidden_finish == other.forbidden_finish)

    def __hash__(self) -> int:
        return hash((self.effects, self.kinds, self.forbidden_finish))

    def __repr__(self) -> str:
        return f"Note(effects={self.effects!r}, kinds={self.kinds!r}, forbidden_finish={self.forbidden_finish!r})"


NOTHING: Final = (Note((), (), False), Note((), (), True))  # the notes of plays that fire nothing, shared


def play_notes(st: State, seat: int, moves) -> list[Note | None]:
    """``play_note`` of each of ``seat``'s ``moves`` (None for a pass), the seat's Table made once."""
    table = table_of(st, seat)
    out: list[Note | None] = []
    for m in moves:
        mv: Move = m  # typed: its fields are read natively
        out.append(None if mv.action == "pass" else _noted(st, mv, table))
    return out


def play_note(st: State, mv: Move) -> Note:
    """The annotation of the legal play ``mv``. Like its judgement it is a function of the seat's Table and the
    move without its seat (another seat's same cards on an equal table are annotated alike): memoised under those."""
    return _noted(st, mv, table_of(st, mv.seat))


def _note_key(table: Table, mv: Move) -> tuple:
    """A note's memo key: the table and the move without its seat (its cards alone for a plain play)."""
    return (table, mv.play()) if mv.as_map or mv.declare or mv.decline else (table, mv.cards)


def _noted(st: State, mv: Move, table: Table) -> Note:
    key = _note_key(table, mv)
    memo = st.rules.moves_memo
    hit = memo.get(key)
    if hit is None:
        plan = judge_play(st, mv)
        if isinstance(plan, Rejection):
            raise InputError("bad_move", f"only legal moves are annotated: {plan.message}")
        hit = remember(memo, key, _note(st.rules, plan))
    return hit


def note_listed(rules: Ruleset, table: Table, mv: Move, plan: Plan) -> None:
    """Memoise the annotation of ``mv``, a play legal_moves lists on ``table``, from ``plan``, its judgement with
    effects just made there (whoever annotates it next finds it)."""
    remember(rules.moves_memo, _note_key(table, mv), _note(rules, plan))


def _note(rules: Ruleset, plan: Plan) -> Note:
    effects = plan.effects
    forbidden = forbidden_reason(rules, plan.view, effects) is not None
    if not effects:
        return NOTHING[forbidden]  # most plays fire nothing
    return Note(tuple(named(effects)), tuple(named(effects, kinds=True)), forbidden)


def play_annotation(st: State, mv: Move) -> dict:
    """The annotation of the legal play ``mv`` as ``annotate`` adds it to its entry."""
    note = play_note(st, mv)
    return {"effects": list(note.effects), "kinds": list(note.kinds), "forbidden_finish": note.forbidden_finish}


def forbidden_last(st: State, seat: int) -> list[str]:
    """The cards of ``seat`` that could not be its last card: each is judged as a lone lead on the field as a
    flush now leaves it, and going out with it would rank the seat from the bottom."""
    return codes(forbidden_last_mask(st, seat))


def forbidden_last_mask(st: State, seat: int) -> int:
    """``forbidden_last`` as a card set. That lead's judged key depends only on this state's, so it is memoised
    under this state's key, and each card's answer under the lead's key (the same on every field that flushes to
    the same lead), in one list by card."""
    if not st.rules.finish_hooks:
        return 0
    memo = st.rules.moves_memo
    table = table_of(st, seat)
    lead = None
    lead_table = memo.get(("lead", table))
    if lead_table is None:
        lead = _lead(st, seat)
        lead_table = remember(memo, ("lead", table), table_of(lead, seat))
    last_key = ("last", lead_table)
    answers: list = memo.get(last_key) or remember(memo, last_key, [None] * 54)
    out = 0
    for c in cards_of(st.hand(seat)):
        forbidden = answers[c]
        if forbidden is None:
            if lead is None:
                lead = _lead(st, seat)
            plan = judge_play(lead, Move(seat, "play", 1 << c))
            forbidden = answers[c] = (not isinstance(plan, Rejection)
                                      and forbidden_reason(st.rules, plan.view, plan.effects) is not None)
        if forbidden:
            out |= 1 << c
    return out


def _lead(st: State, seat: int):
    """``seat`` leading on the field as a flush now leaves it."""
    return replace(flush(st, []), pending=(), turn=seat, first_play=False)
