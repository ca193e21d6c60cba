"""Property-based run of every operation in openapi.yaml against the live app.

Bounded and derandomized for CI: no 5xx, and every response conforms to the spec.
(Driven through Hypothesis directly: schemathesis' pytest plugin does not load under pytest 9.)
"""
import os
import secrets

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.spec import openapi_spec

from .helpers import Client

SPEC = openapi_spec()  # what GET /openapi.yaml serves: openapi.yaml with the rules' slots filled in
OPERATIONS = [(m.upper(), p) for p, item in SPEC["paths"].items() for m in item
              if m != "parameters" and p != "/openapi.yaml"]  # schemathesis skips the spec's own URL

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "20"))


@pytest.fixture(scope="module")
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/openapi.yaml", app)


def test_every_operation_is_covered(api_schema):
    assert api_schema.specification.version == "3.1.0"  # schemathesis 4 reads 3.1 natively (JSON Schema 2020-12)
    ops = {(op.method.upper(), op.path) for op in (r.ok() for r in api_schema.get_all_operations())}
    assert ops == set(OPERATIONS)


@pytest.mark.parametrize("method,path", OPERATIONS)
def test_api_conforms(api_schema, app, method, path):
    op = api_schema[path][method]
    client = Client(app.test_client())
    game = client.create(players=4, seed=99)
    bot = None
    as_bot = op.path.startswith("/v1/bots/") and op.path != "/v1/bots/leaderboard"  # the bot's own routes
    if as_bot:
        bot = client.post("/v1/bots", {"name": f"fuzz-{secrets.token_hex(4)}"}).json
        seated = client.post("/v1/games", {"preset": "uecda", "seed": 99,
                                           "players": [{"name": "b", "bot": bot["seat"]}, {"name": "h"}]})
        assert seated.status_code == 201, seated.json

    @given(case=op.as_strategy())
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case):
        headers = {}
        # half the cases go to a real game with its table token, so the deep paths run too
        if "game_id" in (case.path_parameters or {}) and not op.path.endswith("/stream"):
            if len(str(case.path_parameters["game_id"])) % 2 == 0:
                case.path_parameters["game_id"] = game["game_id"]
                headers["Authorization"] = f"Bearer {game['table_token']}"
        if as_bot and len(repr(case.query)) % 2 == 0:
            # half the cases act as a registered bot seated in a game (briefly: a stream waits for turns); the
            # game's id goes to the routes of its challenges and games
            headers["Authorization"] = f"Bearer {bot['bot_token']}"
            if op.path == "/v1/bots/stream":
                case.query = dict(case.query or {}, wait=0)
            if "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = seated.json["game_id"]
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()
