"""The page with API keys on (issue 39, point 12): its HTML, script and styles load without a key
(they hold no data), its API calls need one, and its key field is shown only when keys are on.
The field at work: tests/contract/test_page_api_key_in_browser.py."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.http.ops import OpsConfig

FIELD = '<div id="api-key-field" class="field" data-testid="api-key-field"'


@pytest.fixture(scope="module")
def keyed():
    with TestClient(create_app(ops=OpsConfig(api_keys=("k",)))) as c:
        yield c


@pytest.mark.parametrize("url", ["/", "/?lang=ja", "/page/page.js", "/page/page.css", "/page/index.html"])
def test_the_page_loads_without_a_key(keyed, url):
    assert keyed.get(url).status_code == 200


def test_its_api_calls_need_the_key(keyed):
    assert keyed.get("/v1/presets").status_code == 401
    assert keyed.get("/v1/presets", headers={"x-api-key": "k"}).status_code == 200


def test_the_key_field_is_shown_with_keys_on_and_hidden_without(keyed, client):
    assert FIELD + ">" in keyed.get("/").text
    assert FIELD + " hidden>" in client.get("/").text
