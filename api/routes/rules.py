from flask import Blueprint

import referee as engine

from ..http import respond
from ..schemas import CatalogSchema

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules")
def rules():
    return respond(CatalogSchema(), engine.catalog())
