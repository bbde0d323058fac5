"""Static files (the page's and the API docs' bundles) served from a list made once, at start.

A URL is only ever looked up in that list, never joined to a directory: no URL reaches the file
system, so none can make a 500 (a NUL, a file used as a directory, a name too long) or name the
install path in a 404. Each file has an ETag of its content; a matching If-None-Match is 304.
"""

from __future__ import annotations

import functools
import hashlib
import mimetypes
from pathlib import Path

from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath


@functools.cache
def _content(path: Path) -> tuple[bytes, str]:
    data = path.read_bytes()
    return data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _media_type(name: str) -> str:
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    # litestar adds `; charset=utf-8` to text/* itself (once: adding it here would make two)
    return kind + "; charset=utf-8" if kind in ("application/javascript", "application/json") else kind


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    # RFC 9110 13.1.2: weak comparison, a list of tags or "*"
    tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
    return "*" in tags or etag in tags


def static_files(prefix: str, directory: Path, cache_control: str, name: str, headers: dict[str, str] | None = None):
    """A GET handler for `prefix/<file>` answering the files under `directory` (at start) only."""
    files = {p.relative_to(directory).as_posix(): p for p in sorted(directory.rglob("*")) if p.is_file()}
    extra = headers or {}
    # read, hashed and typed once, on first asking: the files are the package's own, fixed at start
    contents: dict[Path, tuple[bytes, str, str]] = {}

    @get(f"{prefix}/{{file_path:path}}", include_in_schema=False, sync_to_thread=False, name=name)
    def asset(request: Request, file_path: FromPath[str]) -> Response[bytes]:
        found = files.get(file_path.lstrip("/"))
        if found is None:
            raise NotFoundException()  # the same 404 as an unknown route, without any path
        if found not in contents:
            contents[found] = (*_content(found), _media_type(found.name))
        data, etag, media_type = contents[found]
        common = {"ETag": etag, "Cache-Control": cache_control, **extra}
        if _matches(request.headers.get("if-none-match"), etag):
            return Response(b"", status_code=304, headers=common)
        return Response(data, media_type=media_type, headers=common)

    return asset
