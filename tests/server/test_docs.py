"""The API's docs page (/docs): Swagger UI from the server's own files, started by its own
script, so it works with no internet and under the page's Content-Security-Policy."""

from __future__ import annotations

from html.parser import HTMLParser

from fastapi.testclient import TestClient

from server.headers import CONTENT_SECURITY_POLICY


class Resources(HTMLParser):
    """The files a page loads (script src, link href) and the text of its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.links: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self._in_script = True
            self.scripts.append(found.get("src") or "")
        elif tag == "link" and found.get("href"):
            self.links.append(found["href"] or "")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


def same_origin(url: str) -> bool:
    return url.startswith("/") and not url.startswith("//")


def test_the_docs_page_loads_only_the_servers_own_files(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY  # the page's strict one
    page = Resources()
    page.feed(response.text)
    assert page.inline == [] and "" not in page.scripts  # no inline script: the policy would refuse it
    assert len(page.scripts) == 2 and len(page.links) == 2  # Swagger UI and our start; its style and icon
    assert all(same_origin(url) for url in page.scripts + page.links), page.scripts + page.links
    served = {url: client.get(url) for url in page.scripts + page.links}
    assert {url: r.status_code for url, r in served.items()} == dict.fromkeys(served, 200)
    types = {url.rsplit(".", 1)[1]: r.headers["content-type"].split(";")[0] for url, r in served.items()}
    assert types == {"js": "text/javascript", "css": "text/css", "png": "image/png"}
    bundle, start = (served[url].text for url in page.scripts)
    assert "SwaggerUIBundle" in bundle and len(bundle) > 500_000  # the real bundle, not a stub
    assert 'SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui"' in start
    assert 'id="swagger-ui"' in response.text
    assert client.get("/openapi.json").status_code == 200


def test_no_redoc_page(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404  # ReDoc injects <style> elements the policy refuses
