"""Paper sizes and the printer-safe margin, in millimetres; the smallest text, in points."""

from __future__ import annotations

SAFE_MARGIN_MM = 6.35  # a quarter inch: what most home printers can reach
MIN_TEXT_PT = 6.0  # the smallest text printed
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MM = 72 / 25.4  # points per millimetre


def readable(size: float) -> float:
    """A text size scaled to fit, never below the smallest text printed."""
    return max(MIN_TEXT_PT, size)


def page_size(paper: str, orientation: str = "portrait") -> tuple[float, float]:
    w, h = PAPER_MM[paper]
    return (h, w) if orientation == "landscape" else (w, h)
