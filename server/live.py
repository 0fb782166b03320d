"""Live updates: every phone at a table holds a server-sent-events stream; a change to the
table sends them all its new view, made once (ten phones fetching it back cost the server ten
requests per change, each three when the page fetched its parts apart)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any


CLOSED = ""  # the message that ends a stream
View = Callable[[str], "dict[str, Any] | None"]  # a table's view as the page shows it, None when it is gone


class Hub:
    """Per table, the queues of the streams open on it. Streams listen on the event loop;
    changes may be published from any thread (a plain ``def`` route runs in the thread pool,
    the camera in its own): an asyncio queue filled from another thread does not wake its
    reader, so the message is handed to the loop."""

    def __init__(self, view: View | None = None) -> None:
        self._listeners: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)
        self._view = view
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop the streams listen on

    def listen(self, table_id: str) -> asyncio.Queue[str]:
        self._loop = running_loop() or self._loop
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=16)
        self._listeners[table_id].add(queue)
        return queue

    def leave(self, table_id: str, queue: asyncio.Queue[str]) -> None:
        self._listeners[table_id].discard(queue)
        if not self._listeners[table_id]:
            del self._listeners[table_id]

    def listeners(self, table_id: str) -> int:
        return len(self._listeners.get(table_id, ()))

    def close(self) -> None:
        """Ends every stream (the server is stopping): each gets ``CLOSED`` instead of waiting
        for its next change, so the server need not wait for the phones to hang up."""
        for queues in self._listeners.values():
            for queue in queues:
                if queue.full():
                    queue.get_nowait()  # a wake-up is worth less than the close
                queue.put_nowait(CLOSED)

    def publish(self, table_id: str, what: str) -> None:
        """Sends every stream of the table what changed, when (for latency checks) and the
        table's new view (made in the caller's thread); a stream too slow to keep up loses its
        oldest unread message, never the newest state."""
        if not self._listeners.get(table_id):
            return
        news: dict[str, Any] = {"what": what, "t": time.time()}
        view = self._view(table_id) if self._view is not None else None
        if view is not None:
            news["view"] = view
        message = json.dumps(news)
        if self._loop is None or running_loop() is self._loop:
            self._deliver(table_id, message)
        else:
            self._loop.call_soon_threadsafe(self._deliver, table_id, message)

    def _deliver(self, table_id: str, message: str) -> None:
        for queue in self._listeners.get(table_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
