"""The operations that take a body of items (/v1/standings/batch, /v1/check) document each media
type they accept (issue 37 point 13): a JSON array, and NDJSON, one item a line (decision 0213)."""

import json

import pytest

NDJSON = "application/x-ndjson"
ITEMS_OPERATIONS = ["/v1/standings/batch", "/v1/check"]


@pytest.mark.parametrize("path", ITEMS_OPERATIONS)
def test_both_body_media_types_are_documented_and_each_is_taken(client, path):
    document = client.get("/schema/openapi.json").json()
    content = document["paths"][path]["post"]["requestBody"]["content"]
    assert set(content) == {"application/json", NDJSON}
    # One NDJSON line is one item of the JSON array; the whole body is bytes to a generator.
    assert content[NDJSON]["itemSchema"] == content["application/json"]["schema"]["items"]
    assert content[NDJSON]["schema"] == {"type": "string", "format": "binary"}
    for example in content["application/json"]["examples"].values():
        items = example["value"]
        as_json = client.post(path, content=json.dumps(items), headers={"Content-Type": "application/json"})
        lines = "".join(json.dumps(item) + "\n" for item in items)
        as_ndjson = client.post(path, content=lines, headers={"Content-Type": NDJSON})
        assert as_json.status_code == as_ndjson.status_code == 200
        assert as_ndjson.headers["content-type"].startswith(NDJSON)
        assert as_ndjson.text == as_json.text
