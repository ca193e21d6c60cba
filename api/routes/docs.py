import os
from pathlib import Path

from flask import Blueprint, Response

from service.errors import NotFound

bp = Blueprint("docs", __name__)


def spec_path() -> Path | None:
    """openapi.yaml lives at the repo root; an installed package finds it via env or cwd."""
    candidates = [os.environ.get("REFEREE_OPENAPI"), Path(__file__).resolve().parents[2] / "openapi.yaml",
                  Path.cwd() / "openapi.yaml"]
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    return None


@bp.get("/openapi.yaml")
def openapi():
    path = spec_path()
    if path is None:
        raise NotFound("openapi.yaml is not installed here (set REFEREE_OPENAPI)", code="no_spec")
    return Response(path.read_text(encoding="utf-8"), mimetype="application/yaml")
