"""The web page at ``/``: plain HTML/CSS/JS from api/static (no build step, nothing external).

The page talks only to the public /v1 API; ``/web/config.json`` tells it what the
catalogue does not: the bot strategies the service accepts.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

from service.scheduler import BOT_STRATEGIES

STATIC = Path(__file__).resolve().parent.parent / "static"
bp = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static")


@bp.get("/")
def index():
    resp = send_from_directory(STATIC, "index.html")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/web/config.json")
def config():
    return {"bots": list(BOT_STRATEGIES)}
