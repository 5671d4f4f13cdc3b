"""The validator: plays roll-and-write sheets with random dice under the real rules.

- `engine`: the contract each game's rules engines implement (Rules, Batch, inputs, BATCH);
- `run`: `run()` plays a layout in seeded batches across processes; `check()` is the gate for variants;
- `report`: the verdict and figures (`Report`, JSON); `show`: the console report;
- `heatmap`: the sheet shaded by how often each element was reached.
"""

from .report import Report

__all__ = ["Report"]  # run() and check() live in sheetgen.validate.run
