from flask import Blueprint, current_app

from ..http import respond, service
from ..schemas import HealthSchema

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    kind = current_app.config["REFEREE_STORAGE"]
    service().store.ping()  # a failure is answered 503 storage_unavailable by the app's storage handler
    return respond(HealthSchema(), {"status": "ok", "storage": kind})
