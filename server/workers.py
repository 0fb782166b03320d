"""Photos are read in worker processes, one per core.

Reading a photo is many short numpy and OpenCV steps, and Python runs the steps of one
process's threads one at a time: two threads read about as many photos per second as one.
Processes use every core. A worker that dies (a native crash on a hostile file) costs that one
photo a clear error, and a new pool is started for the next.

The pool is made on first use and shared by every app of the process (tests make many).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import cv2

from server.errors import ApiError
from vision.profile import Profile

log = logging.getLogger(__name__)

Outcome = tuple[dict[str, Any] | None, int, str]  # (reading, 0, "") or (None, HTTP status, error code)

WARM_TIMEOUT_S = 30.0  # a machine this slow to start its readers serves all the same
_pool: ProcessPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


def read_in_worker(data: bytes, team_count: int, profile: Profile | None,
                   near_corners: list[list[float]] | None = None, earlier_grid: list[str] | None = None) -> Outcome:
    """Runs in a worker: the photo's reading, or the API error it gets (errors cross the
    process boundary as plain values); ``near_corners`` and ``earlier_grid`` as for ``analyse``."""
    from server.routers.photos import analyse  # imported here: the worker needs no web app

    try:
        return analyse(data, team_count, profile, near_corners, earlier_grid), 0, ""
    except ApiError as error:
        return None, error.status, error.code


def _executor(size: int) -> ProcessPoolExecutor:
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size != size:
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            # spawn: a fork of a server with threads running can deadlock in the child
            _pool = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_start_worker, initargs=(os.getpid(),))
            _pool_size = size
        return _pool


def _start_worker(server_pid: int) -> None:
    """In each worker: one OpenCV thread (the workers are the parallelism), the bundled sample
    read once (loading the models and warming every stage: the first photo of a table read
    about 70 ms slower than the next), and an exit as soon as the server is gone, however it
    ended (a killed server must not leave readers behind)."""
    cv2.setNumThreads(1)
    _warm()

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="seqcam-watch-server", daemon=True).start()


def _forget(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def read_photo(data: bytes, team_count: int, profile: Profile | None, processes: int,
                     near_corners: list[list[float]] | None = None, earlier_grid: list[str] | None = None
                     ) -> dict[str, Any]:
    """The photo's reading from a worker process; raises ``ApiError`` as ``analyse`` does."""
    pool = _executor(processes)
    try:
        reading, status, code = await asyncio.get_running_loop().run_in_executor(
            pool, read_in_worker, data, team_count, profile, near_corners, earlier_grid)
    except BrokenProcessPool:
        log.error("a photo reader process died; starting new ones")
        _forget(pool)
        raise ApiError(422, "photo_failed") from None
    if reading is None:
        raise ApiError(status, code)
    return reading


def start_workers(processes: int) -> None:
    """Starts the workers and waits (up to ``WARM_TIMEOUT_S``) until they have loaded, so that
    the first photos do not wait for them (a task each: a pool starts a process for a task
    when none is idle)."""
    pool = _executor(processes)
    wait([pool.submit(int) for _ in range(processes)], timeout=WARM_TIMEOUT_S)


def stop_workers() -> None:
    """Ends the workers (the server is stopping)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _warm() -> None:
    from seqcam.samples import default_sample
    from server.routers.photos import analyse  # loads vision and its models

    try:
        analyse(default_sample().read_bytes(), 2, None)
    except (ApiError, OSError) as error:  # a worker reads photos all the same, only its first more slowly
        log.warning("warming a photo reader failed: %s", error)
