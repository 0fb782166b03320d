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
    """Per table, the queues of the streams open on it. Used from the event loop only."""

    def __init__(self, view: View | None = None) -> None:
        self._listeners: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)
        self._view = view

    def listen(self, table_id: str) -> asyncio.Queue[str]:
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
        table's new view; a stream too slow to keep up loses its oldest unread message, never
        the newest state."""
        queues = self._listeners.get(table_id)
        if not queues:
            return
        news: dict[str, Any] = {"what": what, "t": time.time()}
        view = self._view(table_id) if self._view is not None else None
        if view is not None:
            news["view"] = view
        message = json.dumps(news)
        for queue in queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)
