"""gunicorn settings `serve` passes with ``-c python:service.gunicorn_conf``."""
import os

from gunicorn.glogging import Logger

from service.settings import Settings


def child_exit(server, worker):
    # a dead worker's live gauges (open streams) must leave the multiprocess aggregate
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


class _Logger(Logger):
    """gunicorn builds and writes an access line per request whenever a logging config is given (as below), on top
    of the app's own JSON line for the request: only with --access-logfile here (debugging)."""

    def access(self, resp, req, environ, request_time):
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


logger_class = _Logger

# each request is read whole by the worker's loop before a thread serves it: slow senders hold no thread
# (service/http_worker.py); an explicit --worker-class on the command line would override it
worker_class = "service.http_worker.BufferingWorker"
threads = Settings.from_env().gunicorn_threads


def post_fork(server, worker):
    from referee.memo import relax_gc
    from service import logs

    relax_gc()
    # under load the CPU goes to owed bot turns first: a bot seat keeps its budget however busy the API is
    nice = Settings.from_env().http_nice
    if nice > 0:
        os.nice(nice)

    logs.configure()


# gunicorn's own lines (start, worker boot and exit) as JSON too
_json = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"level": "INFO", "handlers": ["console"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False, "qualname": "gunicorn.error"},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False, "qualname": "gunicorn.access"},
    },
    "handlers": {"console": dict(_json), "error_console": dict(_json)},
    "formatters": {"json": {"()": "service.logs.JsonFormatter"}},
}
