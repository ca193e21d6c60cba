"""連続パス打ち切り (pass abort, the UECda server): too many passes in a row end the deal."""
import random
from typing import Final

from ..flow_events import Passed
from ..slots import DEAL, PASS_RUN, Slot
from ..state import replace, with_slot
from .base import Param

ID: Final = "pass_abort"
NAME_JA = "連続パス打ち切り"
NAME_EN = "too many passes end the deal"
SUMMARY = ("After `turns` passes in a row without a play (passes on an empty field included; any play resets "
           "the count), the deal ends at once and the unfinished players take the remaining places in a random "
           "order drawn from the game's seed.")
SUMMARY_JA = ("出さずに turns 回パスが続くと（空の場でのパスも数える）、その回はすぐ終わり、"
              "残りの人の順位はゲームのシードから無作為に決まる。")
PARAMS = {"turns": Param(20, "passes in a row that end the deal (UECda: 20)", lo=2, hi=200)}
REACTS_TO = (Passed,)
# passes in a row since the last play: the core counts them while the rule is on (slots.PASS_RUN), told as Passed.idle
IDLE: Final = Slot("idle_turns", 0, DEAL, read=int, keeps=PASS_RUN, schema={"type": "integer", "minimum": 0},
                   doc="pass_abort: passes in a row since the last play (the deal ends at its turns; 0 while the rule "
                       "is off)")
STATE = (IDLE,)


def react(st, event: Passed, params):
    """``turns`` passes in a row (``event.idle``, this pass included): the deal ends; the unfinished players take
    the remaining places in a seeded random order. None while the deal goes on."""
    idle, log = event.idle, event.log
    if idle < params["turns"]:
        return None
    rest = order(st.active_seats(), st.seed, st.deal, st.seq)
    players = list(st.players)
    for seat, place in zip(rest, st.free_places()):
        players[seat] = replace(players[seat], place=place)
    ranked = tuple(sorted(rest, key=lambda s: players[s].place))
    log.append({"kind": "abort", "rule": ID, "passes": idle,
                "places": [{"seat": s, "place": players[s].place} for s in ranked]})
    log.append({"kind": "deal_over"})
    ended = replace(st, players=tuple(players), finish_order=st.finish_order + ranked, phase="deal_over", turn=None,
                    pending=(), after=None, ended_by=ID)
    return with_slot(ended, IDLE, idle)


def order(seats: list[int], seed, deal: int, seq: int) -> list[int]:
    """The unfinished seats in the random (seeded, reproducible) order they take the remaining places."""
    out = list(seats)
    random.Random(f"daifugo:{seed}:{deal}:{seq}:pass_abort").shuffle(out)
    return out
