"""Paper sizes and the printer-safe margin, in millimetres."""

from __future__ import annotations

SAFE_MARGIN_MM = 6.35  # a quarter inch: what most home printers can reach
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MM = 72 / 25.4  # points per millimetre


def page_size(paper: str, orientation: str = "portrait") -> tuple[float, float]:
    w, h = PAPER_MM[paper]
    return (h, w) if orientation == "landscape" else (w, h)
