"""gunicorn settings `serve` passes with ``-c python:service.gunicorn_conf``."""
import os


def child_exit(server, worker):
    # a dead worker's live gauges (open streams) must leave the multiprocess aggregate
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_fork(server, worker):
    from service import logs

    logs.configure()
