"""HTTP referee service: Flask app factory, schemas, blueprints, Redis store."""
from .app import create_app

__all__ = ["create_app"]
