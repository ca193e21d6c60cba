"""スペ3 (spade three): a single ♠3 beats a lone joker played as a joker, and the field flushes."""
from typing import Final

from ..cards import parse
from ..effects import Cut
from ..view import PlayView

ID: Final = "spade3"
NAME_JA = "スペ3"
NAME_EN = "spade 3"
SUMMARY = "A single ♠3 beats a lone joker (played as a joker); the field flushes and the ♠3's player leads."
SUMMARY_JA = "ジョーカー単体に♠3単体で勝てる。場が流れ、♠3を出した人が親。"
PARAMS: dict = {}
DECLARABLE = True
S3: Final = parse("S3")


def candidates(field, possible: int, params) -> set[int]:
    """The card sets this special play may admit on ``field`` whether or not they beat it: the ♠3 on a lone joker."""
    return {1 << S3} if field.wild and field.n == 1 and possible >> S3 & 1 else set()


def special_play(view: PlayView, params):
    f = view.field
    if f is not None and f.wild and f.n == 1 and view.reading.mask == 1 << S3:
        return view.reading
    return None


def after_play(view: PlayView, params):
    return [Cut(ID)] if view.special == ID else []
