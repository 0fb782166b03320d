import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from cryptography import x509

from seqcam.cli import build_parser, main
from server.local import free_port
from server.serve import page_hosts
from server.settings import default_db_path
from server.tls import self_signed


def test_serve_binds_to_this_computer_only_by_default():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.https, args.camera) == ("127.0.0.1", 8000, None, False, None)


def test_a_port_in_use_is_said_before_the_banner_with_what_to_do(tmp_path: Path, capsys):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite3")]) == 2
    captured = capsys.readouterr()
    assert f"port {port}: the port is in use" in captured.err and "--port" in captured.err
    assert "Open http" not in captured.out  # no phone is sent to a server that never started


def test_a_port_out_of_range_or_an_address_not_of_this_computer_is_bad_usage(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["serve", "--port", "99999"])
    assert exited.value.code == 2 and "a port is a number from 0 to 65535" in capsys.readouterr().err
    assert main(["serve", "--host", "nosuchhost.invalid", "--db", str(tmp_path / "t.sqlite3")]) == 2
    assert "Give --host an address of this computer" in capsys.readouterr().err


def test_the_default_database_lives_in_the_users_data_folder():
    assert default_db_path().name == "seqcam.sqlite3" and "seqcam" in default_db_path().parent.parts


def test_phones_are_told_the_lan_address_when_serving_all_interfaces():
    assert page_hosts("127.0.0.1") == ["127.0.0.1"]
    assert page_hosts("0.0.0.0")[-1] == "127.0.0.1"


def test_https_makes_one_certificate_for_the_servers_addresses(tmp_path: Path):
    cert_path, key_path = self_signed(tmp_path, ["192.168.1.20", "localhost"])
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert [str(ip) for ip in names.get_values_for_type(x509.IPAddress)] == ["192.168.1.20"]
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert key_path.stat().st_mode & 0o077 == 0  # the key is the owner's alone
    made = cert_path.read_bytes()
    assert self_signed(tmp_path, ["localhost"]) == (cert_path, key_path)
    assert cert_path.read_bytes() == made  # kept while it names every host
    self_signed(tmp_path, ["10.0.0.7"])  # the laptop moved to another network
    assert cert_path.read_bytes() != made


def first_answer(url: str, verify: bool | ssl.SSLContext = True) -> httpx.Response:
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, timeout=1, verify=verify)
        except httpx.HTTPError:
            assert time.monotonic() < deadline, f"seqcam serve did not answer on {url}"
            time.sleep(0.2)


def serve(tmp_path: Path, port: int, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "seqcam.cli", "serve", "--port", str(port),
                             "--db", str(tmp_path / "t.sqlite3"), *args], stdout=subprocess.PIPE, text=True)


def test_serve_answers_on_its_port(tmp_path: Path):
    port = free_port()
    server = serve(tmp_path, port)
    try:
        assert str(tmp_path / "t.sqlite3") in server.stdout.readline()
        answer = first_answer(f"http://127.0.0.1:{port}/api/setup")
        assert answer.status_code == 200 and answer.json()[0] == {"players": 2, "teams": [2]}
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (tmp_path / "t.sqlite3").exists()


def test_serve_https_answers_with_its_own_certificate(tmp_path: Path):
    port = free_port()
    server = serve(tmp_path, port, "--https")
    try:
        assert "self-signed" in server.stdout.readline()
        trusted = ssl.create_default_context(cafile=tmp_path / "seqcam-cert.pem")
        answer = first_answer(f"https://127.0.0.1:{port}/api/setup", verify=trusted)
        assert answer.status_code == 200
        page = httpx.get(f"https://127.0.0.1:{port}/", verify=trusted, timeout=10)
        assert page.status_code == 200 and "/static/app.js" in page.text
        assert page.headers["x-frame-options"] == "DENY"
        with pytest.raises(httpx.ConnectError):  # a client that does not trust the certificate is refused
            httpx.get(f"https://127.0.0.1:{port}/", timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("make_bad_db", [
    lambda folder: folder / "a-folder.sqlite3",  # made a folder below
    lambda folder: folder / "text.sqlite3",  # made a text file below
    lambda folder: folder / "text.sqlite3" / "under-a-file.sqlite3",
], ids=["a folder", "not a database", "under a file"])
def test_a_database_file_that_cannot_be_used_is_a_sentence_and_exit_2(tmp_path: Path, capsys, make_bad_db):
    (tmp_path / "a-folder.sqlite3").mkdir()
    (tmp_path / "text.sqlite3").write_text("not a database, only text " * 10)
    assert main(["serve", "--port", "0", "--db", str(make_bad_db(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seqcam serve: Cannot keep the tables in") and "--db" in err and "Traceback" not in err
