"""The long engine comparisons: each game's fast engine against its reference engine, on the shipped
sheets and on generated variants, every policy, many games; prints the games compared and any
mismatch (the tests play a few well-chosen games; SHEETGEN_LONG=1 makes them play more).

Run: python benchmarks/engines_equal.py [--games N] [--variants N]
"""

from __future__ import annotations

import argparse
import importlib
import time

import numpy as np
import yaml

from sheetgen.kinds import load
from sheetgen.validate.engine import POLICIES
from sheetgen.validate.run import rules_of, sheets_of

GAMES = ("tricky-treats", "haunt-the-block", "boogaloo")


def docs(name: str, variants: int):
    """(label, doc) of each sheet of the shipped layout, then of `variants` generated ones."""
    loaded = load(name)
    rules = rules_of(loaded)
    for n, label, doc in sheets_of(loaded, rules):
        yield f"shipped {label or n}", doc
    gen = importlib.import_module(loaded.kind.variant).generate
    data = loaded.doc.model_dump(mode="json")
    raw = yaml.safe_load(loaded.path.read_text())["content"]  # as the variant command reads it
    for seed in range(variants):
        content = gen(raw, np.random.default_rng(seed))
        doc = type(loaded.doc).model_validate({**data, "content": content})
        for label, part in rules.sheets(doc) if rules.sheets else [("", doc)]:
            yield f"variant {seed} {label}".strip(), part


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per sheet and policy")
    ap.add_argument("--variants", type=int, default=3)
    args = ap.parse_args()
    for name in GAMES:
        rules = rules_of(load(name))
        compared, bad, t0 = 0, [], time.perf_counter()
        for label, doc in docs(name, args.variants):
            n_el = len(rules.element_ids(doc))
            for policy in POLICIES:
                dice, u, targets = rules.inputs(1, args.games, 17, policy, n_el)
                ref = rules.reference(doc, dice, u, policy, targets)
                fast = rules.fast(doc, dice, u, policy, targets)
                compared += args.games
                if not ref.same_as(fast):
                    bad.append(f"{label} {policy}")
        print(f"{name}: {compared:,} games compared in {time.perf_counter() - t0:.0f} s, "
              f"{'no mismatch' if not bad else 'MISMATCH: ' + ', '.join(bad)}", flush=True)


if __name__ == "__main__":
    main()
