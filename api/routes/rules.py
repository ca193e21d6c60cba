from flask import Blueprint

import referee as engine

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules")
def rules():
    return engine.catalog()
