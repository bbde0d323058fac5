from tests.contract.target import limited_server  # noqa: F401 (a fixture: uvicorn with test-only lower limits)
