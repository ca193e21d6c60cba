# The referee service. Storage is the Redis at REDIS_URL (required here: a container's
# embedded store would vanish with the container unless REFEREE_DATA_DIR is a volume).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    REFEREE_OPENAPI=/app/openapi.yaml \
    REFEREE_DATA_DIR=/data \
    PROMETHEUS_MULTIPROC_DIR=/tmp/referee-metrics

WORKDIR /app
COPY pyproject.toml setup.py README.md* openapi.yaml ./
COPY referee ./referee
COPY service ./service
COPY cli ./cli
COPY api ./api
COPY workers ./workers
# gcc only for the build: setup.py compiles the engine's hot modules with mypyc (without a compiler the same
# package installs as pure Python; docs/engine-core.md, "Compiled modules")
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-cache-dir . \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 referee \
    && mkdir -p /data /tmp/referee-metrics && chown referee /data /tmp/referee-metrics
USER referee

EXPOSE 8000
# service/gunicorn_conf.py sets the worker class and the threads: gthread reading each request whole before a
# thread serves it (slow senders hold no thread, docs/deploy.md "Slow clients"), with a thread for each stream
# the app allows (REFEREE_SSE_MAX_STREAMS + REFEREE_SSE_BOT_STREAMS) + REFEREE_HTTP_THREADS for other requests.
# --limit-request-line 0: long URLs get the app's JSON 414 (docs/limits.md).
# Run bots with the same image: `docker run … referee worker`. The app logs each request as a JSON line;
# /metrics aggregates this container's gunicorn workers (PROMETHEUS_MULTIPROC_DIR). See docs/deploy.md.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "2", \
     "--limit-request-line", "0", "-c", "python:service.gunicorn_conf", "api.app:create_app()"]
