"""No answer of the service names a path of the server (issue 38): studies are named by their
id. Every route of the API (from its OpenAPI schema), the pages, the static files, the API
docs, the downloads and the comparison (JSON, text, page) are read for two finished studies,
one of them played with a content variant of the data directory, and no answer may hold
the data directory's path, nor any other absolute path of this machine's test directory."""

import json
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from sim.app.service.app import create_app
from sim.app.service.config import ServiceConfig
from sim.content import DATA_DIR
from tests.support.service import wait_for

SPEC = {
    "name": "paths",
    "decks": [["imperial", "highland"]],
    "modes": ["deathmatch"],
    "policies": "random",
    "games": 6,
    "seed": 5,
    "chunk_size": 3,
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("service-paths") / "data"
    config = ServiceConfig(data=data, workers=0, max_running=2, poll_s=0.1)
    config.prepare()
    variant = config.content_root / "variant"  # the README's changed Ritual Master
    shutil.copytree(DATA_DIR, variant)
    cards = variant / "highland.toml"
    old = 'count = 2, if = "summoned-on-green"'
    assert old in cards.read_text()
    cards.write_text(cards.read_text().replace(old, 'count = 1, if = "summoned-on-green"'))
    with TestClient(create_app(config), base_url="http://127.0.0.1") as client:
        a = client.post("/api/v1/studies", json=SPEC)
        b = client.post("/api/v1/studies", json={**SPEC, "name": "paths B", "content": "variant"})
        assert a.status_code == b.status_code == 201, (a.text, b.text)
        ids = [a.json()["id"], b.json()["id"]]
        for sid in ids:

            def finished(sid=sid):
                s = client.get(f"/api/v1/studies/{sid}").json()
                assert s["state"] not in ("failed", "cancelled"), s
                return s["state"] == "finished"

            wait_for(finished, 600, f"study {sid} to finish")
        yield client, ids, data


def _leaks(body: bytes, data) -> list:
    """The server paths in an answer: the data directory (as given, resolved, or its parent
    test directory), in plain text or JSON-escaped."""
    paths = {str(data), str(data.resolve()), str(data.parent), str(data.parent.resolve())}
    found = []
    for p in paths:
        for form in (p, json.dumps(p)[1:-1]):
            if form.encode() in body:
                found.append(form)
    return found


def _fill(path: str, ids) -> list:
    """Concrete URLs of a route template: each study id, the pair (A, B) and (A, A) for the
    comparisons, every table for a download."""
    a, b = ids
    if "{table}" in path:
        return [path.replace("{sid}", a).replace("{table}", t) for t in ("games", "card_events")]
    if "{a}" in path:
        return [path.replace("{a}", a).replace("{b}", b), path.replace("{a}", a).replace("{b}", a)]
    if "{sid}" in path:
        return [path.replace("{sid}", s) for s in ids]
    return [path]


def test_no_answer_names_a_server_path(served):
    client, ids, data = served
    schema = client.get("/openapi.json").json()
    urls = []
    for path, methods in schema["paths"].items():
        if "get" in methods:
            urls += _fill(path, ids)
    pages = ["/", "/docs", "/redoc", "/openapi.json"]
    static_dir = DATA_DIR.parent / "app" / "service" / "static"
    static = [f"/static/{p.name}" for p in sorted(static_dir.iterdir())]
    read, leaks = [], []
    for url in urls + pages + static:
        if url.endswith("/events"):  # a stream: read up to its first event
            body = b""
            with client.stream("GET", url) as r:
                for chunk in r.iter_bytes():
                    body += chunk
                    if b"\ndata: " in body:
                        break
        else:
            r = client.get(url)
            body = r.content
        read.append(url)
        assert r.status_code < 500, (url, r.status_code)
        if _leaks(body, data):
            at = body.find(_leaks(body, data)[0].encode())
            leaks.append((url, body[max(0, at - 120) : at + 80]))
    assert not leaks, "\n".join(f"{u}: {b!r}" for u, b in leaks)
    # the comparison was read, and names the studies by id
    assert any(u.endswith(f"/compare/{ids[0]}/{ids[1]}/text") for u in read)
    result = client.get(f"/api/v1/compare/{ids[0]}/{ids[1]}").json()
    assert (result["a"]["id"], result["b"]["id"]) == tuple(ids)
    assert not result["nothing_to_compare"] and result["differs_in"] == ["content"]
    text = client.get(f"/api/v1/compare/{ids[0]}/{ids[1]}/text").text
    assert re.search(rf"A \(baseline\): (study )?{ids[0]}\b", text), text[:300]
    page = client.get(f"/api/v1/compare/{ids[0]}/{ids[1]}/page").text
    assert f"B = {ids[1]} against A (the baseline) = {ids[0]}." in page


def test_answers_of_writes_and_errors_name_no_server_path(served):
    client, ids, data = served
    answers = [
        client.post("/api/v1/studies/check", json=SPEC),
        client.post("/api/v1/studies/check", json={**SPEC, "content": "nope"}),
        client.post("/api/v1/studies", json={**SPEC, "decks": [["nope", "imperial"]]}),
        client.post(f"/api/v1/studies/{ids[0]}/cancel"),
        client.post(f"/api/v1/studies/{ids[0]}/resume"),
        client.get("/api/v1/studies/0123456789ab/report"),
    ]
    for r in answers:
        assert r.status_code < 500 and not _leaks(r.content, data), (r.status_code, r.text)
