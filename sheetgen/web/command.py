"""`sheetgen serve`: the web pages, served by uvicorn (registered in cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import SheetgenError


def serve(host: str = typer.Option("127.0.0.1", "--host",
                                   help="address to listen on (0.0.0.0: every network of this machine)"),
          port: int = typer.Option(8000, "--port", min=1, max=65535, help="port to listen on"),
          base_url: Optional[str] = typer.Option(None, "--base-url",
                                                 help="the address phones open, printed in QR codes, e.g. "
                                                      "http://192.168.1.20:8000 (default: http://HOST:PORT, "
                                                      "none when HOST is 0.0.0.0)"),
          cache: Optional[Path] = typer.Option(None, "--cache", help="folder for rendered PDFs and previews "
                                                                     "(default: a new temporary folder)"),
          workers: int = typer.Option(2, "--workers", min=1, max=16,
                                      help="worker processes rendering PDFs at the same time")):
    """Serve the web pages: games, previews, PDFs, kits and variants (needs the web extra)."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise SheetgenError(f"the web server is not installed ({exc.name} is missing)",
                            fix="pip install 'sheetgen[web]'") from None
    if base_url is None and host not in ("0.0.0.0", "::"):
        base_url = f"http://{host}:{port}"
    app = create_app(base_url, cache, workers)
    qr = f"QR codes link to {base_url}" if base_url else "QR codes keep their text; give --base-url to link them here"
    typer.echo(f"sheetgen serve: http://{host}:{port}/  ({qr})", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
