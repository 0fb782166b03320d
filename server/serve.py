"""`seqcam serve`: the web server for the phones at the table."""

from __future__ import annotations

import asyncio
import errno
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import TextIO

import uvicorn

from server.app import create_app
from server.live import Hub
from server.routers.tables import join_path
from server.settings import default_db_path
from server.store import StoreError
from server.workers import stop_workers

EXIT_OK, EXIT_USAGE = 0, 2
ALL_INTERFACES = ("0.0.0.0", "::")
STOP_GRACE_S = 2  # seconds open requests get to finish when the server stops


class TableServer(uvicorn.Server):
    """uvicorn's server that, asked to stop (Ctrl+C), first ends the phones' live streams:
    they stay open for good, and uvicorn would wait for every phone to hang up."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        try:
            asyncio.get_running_loop().call_soon_threadsafe(self.hub.close)
        except RuntimeError:
            pass  # not serving yet: no stream to end
        super().handle_exit(sig, frame)


def lan_address() -> str | None:
    """This machine's address on the local network, found without sending a packet."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.168.0.1", 9))  # UDP connect only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return None


def page_hosts(host: str) -> list[str]:
    """The addresses phones can use to reach a server bound to ``host``."""
    if host in ALL_INTERFACES:
        lan = lan_address()
        return [lan, "127.0.0.1"] if lan else ["127.0.0.1"]
    return [host]


def listening_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port``, and what to do, None if it can
    (uvicorn would only log the error, after the banner has told the players where to go)."""
    try:
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return "the port is in use. Stop the program using it (another seqcam serve?) or choose another --port."
        return (f"{error.strerror or error}. Give --host an address of this computer: 127.0.0.1 for it alone, "
                "0.0.0.0 for the phones on your Wi-Fi.")
    return None


def run_serve(host: str, port: int, db: str | None, https: bool, camera: str | None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    db_path = Path(db) if db else default_db_path()
    hosts = page_hosts(host)
    scheme = "https" if https else "http"
    lan_base_url = f"{scheme}://{hosts[0]}:{port}" if host in ALL_INTERFACES and hosts[0] != "127.0.0.1" else None
    problem = listening_problem(host, port)
    if problem:
        print(f"seqcam serve: cannot listen on {host} port {port}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        app = create_app(db_path, lan_base_url=lan_base_url, camera=camera)
    except StoreError as error:
        print(f"seqcam serve: {error}", file=sys.stderr)
        return EXIT_USAGE
    ssl: dict[str, str] = {}
    if https:
        from server.tls import self_signed

        cert, key = self_signed(db_path.parent, [*hosts, "localhost"])
        ssl = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
        print(f"HTTPS with a self-signed certificate ({cert}). Each phone shows a warning the first time: "
              "choose 'Advanced' then 'Proceed' (or 'Show details', 'visit this website').", file=out)
    print(f"Tables are kept in {db_path}", file=out)
    for address in hosts:
        print(f"Open {scheme}://{address}:{port}/ on a phone to start a table.", file=out)
    camera_table = app.state.camera_table
    if camera_table is not None:
        print(f"The camera ({camera}) feeds a table of its own; players join it at "
              f"{scheme}://{hosts[0]}:{port}{join_path(camera_table)}", file=out)
    if host not in ALL_INTERFACES and host.startswith("127."):
        print("Only this computer can reach it. For the phones on your Wi-Fi, add --host 0.0.0.0.", file=out)
    out.flush()
    try:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                timeout_graceful_shutdown=STOP_GRACE_S, **ssl)
        TableServer(config, app.state.hub).run()
    except KeyboardInterrupt:
        pass  # Ctrl+C: the way to stop the server
    finally:
        stop_workers()
    return EXIT_OK
