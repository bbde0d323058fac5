"""GET /v1/tiebreaks and /v1/presets are cacheable: ETag, Cache-Control, and 304 for If-None-Match."""

from __future__ import annotations

import pytest

from tiebreak.http.catalogue import CACHE_CONTROL


@pytest.mark.parametrize("path", ["/v1/tiebreaks", "/v1/presets"])
def test_a_held_copy_is_answered_304_without_a_body(client, path):
    first = client.get(path)
    etag = first.headers["etag"]
    assert first.status_code == 200 and first.headers["cache-control"] == CACHE_CONTROL
    assert etag.startswith('W/"') and len(first.json()) > 3
    for held in (etag, etag.removeprefix("W/"), f'"stale", {etag}', "*"):
        again = client.get(path, headers={"If-None-Match": held})
        assert again.status_code == 304, held
        assert again.content == b"" and again.headers["etag"] == etag
        assert again.headers["cache-control"] == CACHE_CONTROL


@pytest.mark.parametrize("path", ["/v1/tiebreaks", "/v1/presets"])
def test_a_stale_copy_gets_the_list_again(client, path):
    response = client.get(path, headers={"If-None-Match": 'W/"0123"'})
    assert response.status_code == 200 and response.json() == client.get(path).json()


def test_the_etag_does_not_depend_on_the_content_coding(client):
    plain = client.get("/v1/tiebreaks", headers={"Accept-Encoding": "identity"})
    zipped = client.get("/v1/tiebreaks", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers.get("content-encoding") == "gzip" and "content-encoding" not in plain.headers
    assert plain.headers["etag"] == zipped.headers["etag"]
    assert (
        client.get(
            "/v1/tiebreaks", headers={"Accept-Encoding": "gzip", "If-None-Match": plain.headers["etag"]}
        ).status_code
        == 304
    )


def test_the_two_lists_have_different_tags(client):
    assert client.get("/v1/tiebreaks").headers["etag"] != client.get("/v1/presets").headers["etag"]
    held = client.get("/v1/tiebreaks").headers["etag"]
    assert client.get("/v1/presets", headers={"If-None-Match": held}).status_code == 200
