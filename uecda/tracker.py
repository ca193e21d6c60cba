"""The client's own referee: the game rebuilt from the tables a UECda server sends, every step judged by our
engine (table mode: the other hands are counts). A table our engine would rule differently is a disagreement.

What the tables cannot show is not judged: other players' rejected plays (only the mover sees its 8), the
random places of a 20-pass abort, and classes in turn tables (the reference server rewrites them mid-game).
"""
from __future__ import annotations

import logging

from referee import apply, build_ruleset
from referee.cards import codes, parse
from referee.rules.suit_lock import LOCK_SUITS
from referee.state import Player, State

from . import protocol, status, tables

log = logging.getLogger("uecda.client")
RULES = {"exchange": False}   # the server does the exchange; the deal starts from the hands after it
D3 = parse("D3")


class Tracker:
    def __init__(self, me: int):
        self.me = me
        self.rules = build_ruleset("uecda", RULES)
        self.state = None
        self.game = 0
        self.seating = tuple(range(protocol.PLAYERS))
        self.disagreements: list[dict] = []
        self.lost = False           # after a disagreement the rest of the game is not judged
        self.last_rows = protocol.empty()[:5]
        self.mover = None
        self.places_known = None    # places by player of the finished game (None if not judged)
        self.moves_judged = 0

    # --- bookkeeping ------------------------------------------------------------
    def disagree(self, what: str, **detail) -> None:
        entry = {"game": self.game, "what": what, **detail}
        self.disagreements.append(entry)
        log.warning("disagreement in game %d: %s %s", self.game, what, detail or "")
        self.lost = True

    def seat_of(self, player: int) -> int:
        return self.seating.index(player)

    def judging(self) -> bool:
        return self.state is not None and not self.lost

    # --- tables -----------------------------------------------------------------
    def on_deal(self, t) -> None:
        s = status.read(t)
        reset = len(set(s.classes)) == 1
        if self.places_known is not None and not reset:
            classes = [p - 1 if p else None for p in self.places_known]
            if any(c is not None and c != got for c, got in zip(classes, s.classes)):
                self.disagree("classes after the game", ours=classes, server=list(s.classes))
        self.game += 1
        self.seating = s.seating
        self.state = None
        self.lost = False
        self.last_rows = protocol.empty()[:5]
        self.places_known = None

    def _start(self, t, s) -> None:
        players = []
        for seat, player in enumerate(self.seating):
            if player == self.me:
                players.append(Player(seat, f"player{player}", tables.hand_of(t)))
            else:
                players.append(Player(seat, f"player{player}", 0, None, s.counts[player]))
        self.state = State(rules=self.rules, players=tuple(players), deal=self.game, phase="play",
                           turn=self.seat_of(s.mover), first_play=False, table=True, seed=0)
        mine = tables.hand_of(t) >> D3 & 1
        if mine != (s.mover == self.me):
            self.disagree("first leader", leader=s.mover, d3_is_mine=bool(mine))

    def on_turn(self, t) -> None:
        s = status.read(t)
        self.mover = s.mover
        if self.state is None:
            self._start(t, s)
            if self.lost:
                return
        if not self.judging():
            return
        st = self.state
        ours = {"turn": self.seating[st.turn] if st.turn is not None else None,
                "empty_field": st.field is None, "revolution": st.revolution, "lock": bool(st.slot(LOCK_SUITS)),
                "counts": [st.left(self.seat_of(p)) for p in range(protocol.PLAYERS)],
                "hand": codes(st.hand(self.seat_of(self.me)))}
        server = {"turn": s.mover, "empty_field": s.empty_field, "revolution": s.revolution, "lock": s.lock,
                  "counts": list(s.counts), "hand": codes(tables.hand_of(t))}
        diff = {k: {"ours": ours[k], "server": server[k]} for k in ours if ours[k] != server[k]}
        if diff:
            self.disagree("turn table", **diff)

    def on_own_reply(self, move: dict, reply: int) -> None:
        """Our own play: the server's 9/8 must be our engine's verdict."""
        if not self.judging():
            return
        if move["action"] == "pass":
            want = protocol.ACCEPTED if self.state.field is None else protocol.REJECTED
        else:
            verdict = apply(self.state, move)[0]
            want = protocol.ACCEPTED if verdict.legal else protocol.REJECTED
        if reply != want:
            self.disagree("reply to our move", move=move, ours=want, server=reply)

    def on_field(self, t, own_move: dict | None = None, own_reply: int | None = None) -> None:
        rows = [list(r) for r in t[:5]]
        move = None
        seat = self.seat_of(self.mover) if self.mover is not None else None
        if own_move is not None:
            move = own_move if own_reply == protocol.ACCEPTED and own_move["action"] == "play" else None
        elif any(any(r) for r in rows) and not tables.rows_equal(rows, self.last_rows):
            try:
                move = tables.move_of(rows, seat)
            except tables.BadTable as exc:
                if self.judging():
                    self.disagree("field table", error=str(exc))
        if move is not None:
            self.last_rows = rows
        if not self.judging():
            return
        move = move or {"seat": seat, "action": "pass"}
        before = self.state
        verdict, after, _ = apply(before, move)
        self.moves_judged += 1
        if not verdict.legal:
            self.disagree("accepted play", move=move, ours=verdict.to_json()["message"])
            return
        self.state = after
        s = status.read(t)
        if s.revolution != after.revolution or s.mover != self.mover:
            self.disagree("field table status", revolution={"ours": after.revolution, "server": s.revolution})

    def on_flag(self, flag: int) -> None:
        if not self.judging():
            return
        over = self.state.phase == "deal_over"
        if over != (flag != protocol.GO_ON):
            self.disagree("end flag", ours="over" if over else "go on", server=flag)
            return
        if over:
            st = self.state
            aborted = st.ended_by == "pass_abort"
            # an abort's places are drawn at random by the server: only those who went out are judged
            self.places_known = [None] * protocol.PLAYERS
            for p in st.players:
                if not aborted or p.left == 0:
                    self.places_known[self.seating[p.seat]] = p.place

    def hand(self) -> int:
        return self.state.hand(self.seat_of(self.me)) if self.state is not None else 0

