import asyncio
import json
import threading
import time

from server.live import CLOSED, Hub


def test_a_change_wakes_every_phone_of_that_table_only() -> None:
    async def scenario() -> None:
        hub = Hub()
        first, second, elsewhere = hub.listen("a"), hub.listen("a"), hub.listen("b")
        hub.publish("a", "photo")
        woken = [json.loads(await first.get()), json.loads(await second.get())]
        assert [w["what"] for w in woken] == ["photo", "photo"] and woken[0]["t"] > 0
        assert elsewhere.empty()
        hub.leave("a", first)
        assert hub.listeners("a") == 1
        hub.leave("a", second)
        assert hub.listeners("a") == 0

    asyncio.run(scenario())


def test_a_phone_too_slow_to_read_loses_old_news_never_the_newest_state() -> None:
    async def scenario() -> None:
        views = iter(range(100))
        hub = Hub(view=lambda table_id: {"revision": next(views)})
        slow = hub.listen("a")
        for _ in range(100):
            hub.publish("a", "photo")  # never blocks, never raises
        assert slow.full()
        unread = [json.loads(slow.get_nowait())["view"]["revision"] for _ in range(slow.qsize())]
        assert unread[-1] == 99 and unread == sorted(unread)

    asyncio.run(scenario())


def test_each_change_carries_the_view_made_once_for_every_phone() -> None:
    async def scenario() -> None:
        made: list[str] = []
        hub = Hub(view=lambda table_id: made.append(table_id) or {"table": table_id})
        hub.publish("a", "photo")  # nobody listens: no view is made
        first, second = hub.listen("a"), hub.listen("a")
        hub.publish("a", "photo")
        assert json.loads(await first.get())["view"] == json.loads(await second.get())["view"] == {"table": "a"}
        assert made == ["a"]

    asyncio.run(scenario())


def test_closing_ends_every_stream_even_one_whose_queue_is_full() -> None:
    async def scenario() -> None:
        hub = Hub()
        idle, slow = hub.listen("a"), hub.listen("b")
        for _ in range(100):
            hub.publish("b", "photo")
        hub.close()
        assert await idle.get() == CLOSED
        drained = [slow.get_nowait() for _ in range(slow.qsize())]
        assert drained[-1] == CLOSED and CLOSED not in drained[:-1]

    asyncio.run(scenario())


def test_a_change_published_from_another_thread_wakes_the_phones_at_once() -> None:
    # a plain `def` route (undo, settings, reset) runs in the thread pool, the camera in its own
    async def scenario() -> float:
        hub = Hub()
        phone = hub.listen("a")
        threading.Timer(0.05, hub.publish, args=("a", "undo")).start()
        start = time.perf_counter()
        assert json.loads(await asyncio.wait_for(phone.get(), timeout=5.0))["what"] == "undo"
        return time.perf_counter() - start

    assert asyncio.run(scenario()) < 2.0  # not woken, it waited for the 5 s timeout
