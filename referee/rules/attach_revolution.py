"""付け革 (attach revolution): add cards to a field of ≤3 so that together they make a 4-card revolution."""
from ..effects import Revolution
from ..shapes import readings, strength_key

ID = "attach_revolution"
NAME_JA = "付け革"
SUMMARY = ("On a field of 3 cards or fewer, play cards that together with the field form a legal 4-card group or "
           "stairs (exactly 4, no 2-3 link): a revolution, and the 4 cards become the field.")
PARAMS = {}
DECLARABLE = True


def special_play(ctx, params):
    """The combined 4-card reading that the field becomes, or None."""
    field = ctx.field
    if field is None or field.wild or field.n > 3 or ctx.reading.n + field.n != 4 or ctx.state.revolution_min > 4:
        return None
    combined = [r for r in readings(field.mask | ctx.reading.mask, frozenset({"stairs"}))
                if r.shape in ("group", "stairs") and not r.wild]
    if not combined:
        return None
    return max(combined, key=lambda r: strength_key(r, ctx.reversed))


def after_play(ctx, params):
    return [Revolution(ID)] if ctx.special == ID else []
