"""A `sheetgen serve` app run by uvicorn in a thread on 127.0.0.1 and a free port, for the tests.
Ready when /health answers (polled), stopped by `close()`. QR codes link to the server itself
unless `base_url` says otherwise."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, cache: Path, workers: int = 2, base_url: str | None = None):
        import uvicorn

        from sheetgen.variant import Settings
        from sheetgen.web.app import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # variants checked with 300 games a policy, as tests/test_variant.py does (the server's 2000: slow)
        self.app = create_app(base_url or self.url, cache, workers, Settings(games=300))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self._wait()

    def _wait(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.thread.is_alive():
                raise RuntimeError("the server stopped while starting")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1) as r:
                    if r.read() == b"ok":
                        return
            except OSError:
                time.sleep(0.02)  # poll again
        raise RuntimeError(f"the server did not answer {self.url}/health within {timeout:.0f} s")

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
