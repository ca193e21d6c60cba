from flask import Blueprint, current_app

from ..http import respond, service
from ..schemas import HealthSchema

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    kind = current_app.config["REFEREE_STORAGE"]
    try:
        service().store.ping()
    except Exception:  # noqa: BLE001 - any storage failure means unhealthy
        return respond(HealthSchema(), {"status": "unavailable", "storage": kind}, 503)
    return respond(HealthSchema(), {"status": "ok", "storage": kind})
