"""Live updates: every phone at a table holds a server-sent-events stream; a change to the
table wakes them all, and each fetches the new state (one small message, no state copy)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict


CLOSED = ""  # the message that ends a stream


class Hub:
    """Per table, the queues of the streams open on it. Used from the event loop only."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)

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
        """Tells every stream of the table that ``what`` changed, and when (for latency checks);
        a stream too slow to keep up misses a wake-up, never the state (it refetches everything)."""
        message = json.dumps({"what": what, "t": time.time()})
        for queue in self._listeners.get(table_id, ()):
            if not queue.full():
                queue.put_nowait(message)
