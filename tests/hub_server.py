"""A loopback stand-in for the Hugging Face Hub, for download tests that must never touch the network.

It answers the three requests huggingface_hub makes for a model: the listing
(``GET /api/models/<repo>/revision/<rev>``), each file's metadata (``HEAD /<repo>/resolve/<rev>/<file>``:
X-Repo-Commit, ETag, Content-Length) and the file itself (``GET``, with ``Range`` for resuming), and
its error headers (``X-Error-Code: RepoNotFound`` / ``EntryNotFound``) as the Hub sends them. Files whose
name ends in .safetensors or .bin get their SHA-256 as ETag, as the Hub's LFS files do.

Faults a test can switch on: ``throttle`` (bytes per second, to cancel mid-file), ``cut_after`` (close the
connection after that many bytes of a file: a truncated download), ``corrupt`` (flip a byte of a file),
``requests`` (what was asked, to prove a resume asked for the rest only).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

LFS = (".safetensors", ".bin")
REPO = "test-org/opus-mt-en-de"  # what the `hub` fixture (tests/conftest.py) serves


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[str, dict[str, bytes]] = {}
        self.commits: dict[str, str] = {}
        self.folders: dict[str, Path] = {}
        self.throttle: int | None = None
        self.cut_after: dict[str, int] = {}
        self.corrupt: set[str] = set()
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, Range header)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def add_folder(self, repo_id: str, folder: Path) -> None:
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
        self.repos[repo_id] = files
        self.folders[repo_id] = folder
        self.commits[repo_id] = hashlib.sha1(repr(sorted(files)).encode() + repo_id.encode()).hexdigest()

    def start(self) -> FakeHub:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop answering (a test's "the network is gone"); safe to call twice."""
        if self._thread.is_alive():
            self._server.shutdown()
            self._server.server_close()

    @staticmethod
    def etag(name: str, data: bytes) -> str:
        if name.endswith(LFS):
            return hashlib.sha256(data).hexdigest()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's blob id, as the Hub uses

    def _handler(self):
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, str(value))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def _route(self):
                path = unquote(urlparse(self.path).path)
                hub.requests.append((self.command, path, self.headers.get("Range")))
                if path.startswith("/api/models/"):
                    rest = path.removeprefix("/api/models/")
                    repo_id = rest.split("/revision/")[0]
                    return self._listing(repo_id)
                parts = path.strip("/").split("/")
                if len(parts) >= 5 and parts[2] == "resolve":
                    return self._file("/".join(parts[:2]), "/".join(parts[4:]))
                return self._send(404, b"not found")

            do_GET = do_HEAD = _route

            def _listing(self, repo_id: str):
                files = hub.repos.get(repo_id)
                if files is None:
                    return self._send(404, b'{"error":"Repository not found"}', {"X-Error-Code": "RepoNotFound"})
                config = json.loads(files["config.json"]) if "config.json" in files else {}
                body = {"id": repo_id, "modelId": repo_id, "sha": hub.commits[repo_id], "private": False,
                        "config": {"model_type": config.get("model_type")} if config else None,
                        "siblings": [{"rfilename": n, "size": len(d)} for n, d in files.items()]}
                self._send(200, json.dumps(body).encode(), {"Content-Type": "application/json"})

            def _file(self, repo_id: str, name: str):
                files = hub.repos.get(repo_id)
                if files is None:
                    return self._send(404, b"", {"X-Error-Code": "RepoNotFound"})
                if name not in files:
                    return self._send(404, b"", {"X-Error-Code": "EntryNotFound"})
                data = files[name]
                headers = {"X-Repo-Commit": hub.commits[repo_id], "ETag": f'"{hub.etag(name, data)}"',
                           "Accept-Ranges": "bytes"}
                if self.command == "HEAD":
                    self.send_response(200)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    return None
                if name in hub.corrupt:
                    data = bytes([data[0] ^ 0xFF]) + data[1:]
                start, status = 0, 200
                wanted = self.headers.get("Range")
                if wanted and wanted.startswith("bytes="):
                    start, status = int(wanted[6:].split("-")[0]), 206
                    headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
                body = data[start:]
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self._stream(name, body, start)
                return None

            def _stream(self, name: str, body: bytes, start: int) -> None:
                limit = hub.cut_after.get(name)  # an offset into the file: every try stops there
                sent, step = 0, 16 * 1024
                while sent < len(body):
                    if limit is not None and start + sent >= limit:
                        self.close_connection = True
                        return  # the connection drops mid-file
                    piece = body[sent:sent + (step if limit is None else min(step, limit - start - sent))]
                    try:
                        self.wfile.write(piece)
                        self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        return
                    sent += len(piece)
                    if hub.throttle:
                        time.sleep(len(piece) / hub.throttle)

        return Handler
