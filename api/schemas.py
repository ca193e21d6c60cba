"""Marshmallow schemas for every request body and response of the HTTP API."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.moves import ANNOTATIONS

MAX_SEQ = 2 ** 53  # far above any game's seq, far below Redis' 64-bit stream ids
ACTIONS = ["play", "pass", "give", "discard", "take", "request", "cut_back"]
Card = fields.String(validate=validate.Length(min=1, max=4))
Hands = fields.List(fields.List(fields.String(validate=validate.Length(min=1, max=4))))


class ErrorBody(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBody, required=True)


class PlayerSchema(Schema):
    name = fields.String(required=True)  # printable, one line, REFEREE_MAX_NAME_CHARS: checked by the service
    bot = fields.String(allow_none=True, validate=validate.Length(min=1, max=41))  # a strategy, or "@" + a bot's name


class CreateGameSchema(Schema):
    preset = fields.String(required=True, validate=validate.Length(min=1, max=32))
    rules = fields.Dict(keys=fields.String(), values=fields.Raw(), allow_none=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True, validate=validate.Length(min=2, max=8))
    seed = fields.Integer(allow_none=True, strict=True)
    hands = fields.List(fields.List(fields.String()), allow_none=True)
    table = fields.Boolean(load_default=False)
    leader = fields.Integer(allow_none=True, strict=True)
    # registered bot seats: the per-move budget, the misses in a row that mark a seat away, the fallback
    # (bounds and defaults are server settings: checked by the service)
    bot_budget_ms = fields.Integer(allow_none=True, strict=True)
    bot_away_after = fields.Integer(allow_none=True, strict=True)
    bot_fallback = fields.String(allow_none=True)
    deals = fields.Integer(allow_none=True, strict=True)  # the match's length (1 to MAX_DEALS; null: open)


class HandsCorrectionSchema(Schema):
    hands = fields.List(fields.List(fields.String(), allow_none=True), required=True)


class MoveSchema(Schema):
    """A proposal; fields other than seat and action are passed to the engine as given."""
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    action = fields.String(required=True, validate=validate.OneOf(ACTIONS))
    cards = fields.List(Card)
    as_ = fields.Dict(keys=fields.String(), values=fields.String(), data_key="as")
    declare = fields.Raw(allow_none=True)
    decline = fields.Raw(allow_none=True)
    rank = fields.Raw(allow_none=True)
    count = fields.Integer(strict=True, allow_none=True)
    # a legal-moves entry proposed as served: its annotations are the referee's answer, ignored (move_from)
    effects = fields.Raw(allow_none=True)
    kinds = fields.Raw(allow_none=True)
    forbidden_finish = fields.Raw(allow_none=True)


class MoveRequestSchema(MoveSchema):
    expected_seq = fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=0))


class DetachedJudgeSchema(Schema):
    preset = fields.String(required=True, validate=validate.Length(min=1, max=32))
    rules = fields.Dict(keys=fields.String(), values=fields.Raw(), allow_none=True)
    state = fields.Dict(required=True)
    move = fields.Nested(MoveSchema, required=True)


class DealSchema(Schema):
    hands = fields.List(fields.List(fields.String()), allow_none=True)


class SeqQuery(Schema):
    seq = fields.Integer(required=True)


class AfterQuery(Schema):
    after = fields.Integer(load_default=-1, validate=validate.Range(min=-1, max=MAX_SEQ))
    include_rejected = fields.Boolean(load_default=False)


class StreamQuery(AfterQuery):
    wait = fields.Float(load_default=30.0, validate=validate.Range(min=0, max=300))


class RegisterBotSchema(Schema):
    name = fields.String(required=True)  # a player's name rules and no "@": checked by the route (service/names.py)


class BotStreamQuery(Schema):
    wait = fields.Float(load_default=300.0, validate=validate.Range(min=0, max=3600))


class BotListQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    recent = fields.Integer(load_default=10, validate=validate.Range(min=0, max=50))  # bot_accounts.RESULTS_MAX
    sort = fields.String(load_default="recent", validate=validate.OneOf(["recent", "rating"]))


class LeaderboardQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class PolicySchema(Schema):
    """A bot's standing policy (service/challenges.py checks the values: 400 bad_policy)."""
    mode = fields.String()
    presets = fields.Raw(allow_none=True)
    seats = fields.Raw(allow_none=True)
    budget_ms = fields.Raw(allow_none=True)
    max_games = fields.Raw(allow_none=True)


class DeclineSchema(Schema):
    reason = fields.String(allow_none=True)  # service/challenges.DECLINE_REASONS


class SeatQuery(Schema):
    seat = fields.Integer(load_default=None, allow_none=True)


# --- responses --------------------------------------------------------------
class CatalogSchema(Schema):
    presets = fields.Dict(required=True)
    seats = fields.Dict(required=True)  # per preset, {"min": fewest, "max": most} players (presets.SEATS)
    rules = fields.List(fields.Dict(), required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)
    storage = fields.String(required=True)


class CreatedGameSchema(Schema):
    game_id = fields.String(required=True)
    table_token = fields.String(required=True)
    seat_tokens = fields.List(fields.String(allow_none=True), required=True)  # null at a registered bot's seat
    seq = fields.Integer(required=True)
    state = fields.Dict(required=True)
    challenge = fields.Dict()  # games seating registered bots: the challenge's status and each bot's answer


class BotCreatedSchema(Schema):
    name = fields.String(required=True)
    seat = fields.String(required=True)  # what a game's player names as its "bot" to seat this one
    bot_token = fields.String(required=True)


class BotResultSchema(Schema):
    game_id = fields.String(required=True)
    deal = fields.Integer(required=True)
    preset = fields.String(required=True)
    seat = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    place = fields.Integer(required=True)
    points = fields.Integer(required=True)  # UECda scoring (referee/scoring.py)
    fallbacks = fields.Dict(keys=fields.String(), values=fields.Integer())  # its moves the fallback played, by kind
    rated = fields.Boolean()  # the deal counted in its rating (service/ratings.py)
    finished_at = fields.Float(required=True)  # Unix time, seconds


class RatingSchema(Schema):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    score = fields.Float(required=True)  # mu - 3 sigma: what the leaderboard sorts by
    interval = fields.List(fields.Float(), required=True)  # mu ± 2 sigma
    deals = fields.Integer(required=True)  # rated deals


class BotSummarySchema(Schema):
    name = fields.String(required=True)
    seat = fields.String(required=True)
    registered_at = fields.Float(required=True)
    status = fields.String(required=True)  # active, or revoked
    deals = fields.Integer(required=True)
    mean_place = fields.Float(required=True, allow_none=True)
    points = fields.Integer(required=True)
    mean_points = fields.Float(required=True, allow_none=True)
    fallbacks = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    rating = fields.Nested(RatingSchema, required=True, allow_none=True)
    recent = fields.List(fields.Nested(BotResultSchema), required=True)


class BotListSchema(Schema):
    count = fields.Integer(required=True)
    bots = fields.List(fields.Nested(BotSummarySchema), required=True)


class BotGameSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    status = fields.String(required=True)  # pending (its challenge waits for an answer), or playing
    seq = fields.Integer(required=True)


class BotAccountSchema(BotSummarySchema):
    recent = fields.List(fields.Nested(BotResultSchema))
    policy = fields.Dict(required=True)
    games = fields.List(fields.Nested(BotGameSchema), required=True)


class LeaderboardEntrySchema(Schema):
    rank = fields.Integer(required=True)
    kind = fields.String(required=True)  # registered, or builtin
    name = fields.String(required=True)
    seat = fields.String(required=True)  # "@name", or the built-in strategy
    status = fields.String(required=True)  # active, revoked, or builtin
    rating = fields.Nested(RatingSchema, required=True)
    deals = fields.Integer(required=True)  # every deal it finished (a built-in: its rated deals)
    mean_place = fields.Float(required=True, allow_none=True)
    fallbacks = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, allow_none=True)


class LeaderboardSchema(Schema):
    count = fields.Integer(required=True)
    entries = fields.List(fields.Nested(LeaderboardEntrySchema), required=True)


class VerdictSchema(Schema):
    legal = fields.Boolean(required=True)
    reason = fields.String(allow_none=True)
    message = fields.String(allow_none=True)
    effects = fields.List(fields.Raw())
    reading = fields.Dict()
    void_declarations = fields.List(fields.Raw())


class JudgedSchema(Schema):
    verdict = fields.Raw(required=True)  # engine Verdict.to_json(), passed through whole
    seq = fields.Integer()
    state = fields.Dict(required=True)


class StateSchema(Schema):
    seq = fields.Integer(required=True)
    state = fields.Dict(required=True)


class LegalMovesSchema(Schema):
    seat = fields.Integer(required=True)
    seq = fields.Integer(required=True)
    actors = fields.List(fields.Integer(), required=True)  # the seats that must act now
    moves = fields.List(fields.Dict(), required=True)  # each annotated: effects, kinds, forbidden_finish
    forbidden_last = fields.List(fields.String(), required=True)  # the seat's cards that cannot be its last


class EventsSchema(Schema):
    seq = fields.Integer(required=True)
    events = fields.List(fields.Dict(), required=True)


IGNORED = ("expected_seq", *ANNOTATIONS)


def move_from(data: dict) -> dict:
    """The engine's move dict from a loaded MoveSchema (``as_`` back to ``as``)."""
    move = {k: v for k, v in data.items() if k not in IGNORED}
    if "as_" in move:
        move["as"] = move.pop("as_")
    return move
