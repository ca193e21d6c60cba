"""The web page at ``/``: plain HTML/CSS/JS and a font from api/static (nothing external; the font is prebuilt).

The page talks to the public /v1 API; two routes tell it what the API does not: ``/web/config.json`` the bot
strategies the service accepts, ``/web/games/<id>/seats`` who sits where (a human, or which bot), for the seat
badges on the table.
"""
from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, send_from_directory

from service.scheduler import BOT_STRATEGIES

from ..http import bearer, service
from ..i18n import localize_response

# The page loads only its own files: no inline script or style, no other origin (its styles are in app.css,
# its behaviour in app.js; positions are set through the CSSOM, which a strict style-src allows).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

STATIC = Path(__file__).resolve().parent.parent / "static"
# The page's Japanese font (static/fonts): Python knows .woff2 only from /etc/mime.types, which slim images lack.
mimetypes.add_type("font/woff2", ".woff2")
bp = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static")
bp.after_app_request(localize_response)  # verdict messages in Japanese for ?lang=ja / Accept-Language: ja


@bp.get("/")
def index():
    resp = send_from_directory(STATIC, "index.html")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"  # the page's URL may carry a token (in its fragment)
    return resp


@bp.get("/web/config.json")
def config():
    return {"bots": list(BOT_STRATEGIES)}


@bp.get("/web/games/<game_id>/seats")
def seats(game_id):
    """Each seat's kind for any token of the game: ``{"kind": "human"}`` or ``{"kind": "bot", "bot": "mc"}``
    (``"@name"`` for a registered bot). Who is a bot is no secret at the table: the page shows it on every seat."""
    svc = service()
    rec = svc.load(game_id)
    svc.viewer(rec, bearer())  # any seat's token, or the table's
    return {"seats": [{"kind": "bot", "bot": bot} if bot else {"kind": "human"} for bot in rec.bots]}
