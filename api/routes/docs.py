from flask import Blueprint, Response

from service.errors import NotFound

from ..spec import SpecMissing, openapi_text

bp = Blueprint("docs", __name__)


@bp.get("/openapi.yaml")
def openapi():
    """openapi.yaml with the State schema's slot keys filled in from the rules' slots (api/spec.py)."""
    try:
        text = openapi_text()
    except SpecMissing as e:
        raise NotFound(str(e), code="no_spec") from None
    return Response(text, mimetype="application/yaml")
