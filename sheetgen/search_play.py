"""Playing search candidates: the one adapter to the validator, the tasks, and where they run.

`play()` is the adapter: "play these games of this layout document with these policies on this
seed; give back, per sheet, a Tally (scores, reach, faults: what completable is judged on)". It
is the only code of the search that calls sheetgen.validate; when the engines change, it is the
one function to change.

Seeds come from the root seed alone: unit (branch, batch) plays
`SeedSequence(root, spawn_key=(branch, batch))`, never anything about the worker, so a task's
result is the same in this process, in a pool of processes or on a Dask worker.

Tasks are lists of units of at least TASK_GAMES games. Workers keep what is costly warm: the
compiled engines (one warm-up game per policy when the worker starts), each candidate's model
and tables, and the dice of each batch (every candidate at a rung plays the same batches).
"""

from __future__ import annotations

import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from . import pools
from .errors import SheetgenError
from .validate.engine import POLICIES
from .validate.report import Tally
from .validate.run import play_batch

TASK_GAMES = 10_000  # games per task at least: a task's cost is far above its overhead


@dataclass(frozen=True)
class Unit:
    """One candidate's games on one batch of dice, under each of `policies` (the same dice)."""

    cand: int  # candidate number; -1 is the shipped sheet
    kind: str  # layout kind
    doc: str  # the layout document as JSON
    policies: tuple[str, ...]
    key: tuple[int, int]  # (branch, batch) under the root seed
    games: int


@dataclass
class Played:
    """What a unit gave: per policy, one Tally per sheet; and the paired greedy - random score
    differences (count, sum, sum of squares) when both were played on the same dice."""

    cand: int
    key: tuple[int, int]
    tallies: dict[str, list[Tally]]
    gap: tuple[int, int, int] = (0, 0, 0)


@lru_cache(maxsize=256)
def _sheet_docs(kind: str, doc_json: str):
    """(rules, [(doc of one sheet, number of elements)]) of a layout document; cached per worker."""
    from .kinds import Loaded
    from .kinds import kind as kind_of
    from .validate.run import rules_of, sheets_of

    k = kind_of(kind)
    doc = k.model.model_validate_json(doc_json)
    rules = rules_of(Loaded(doc, Path(f"{kind}.yaml"), kind, k))
    sheets = sheets_of(Loaded(doc, Path(f"{kind}.yaml"), kind, k), rules)
    return rules, [(one, tuple(rules.element_ids(one))) for _, _, one in sheets]


@lru_cache(maxsize=32)
def _inputs(rules_game: str, rules, seed: int, games: int, policy: str, n_el: int):
    return rules.inputs(0, games, seed, policy, n_el)


def seed_of(root: int, key: tuple[int, int]) -> int:
    """The integer seed of unit `key`: from the root's SeedSequence, spawned by (branch, batch)."""
    return int(np.random.SeedSequence(root, spawn_key=key).generate_state(1, np.uint64)[0])


def play(kind: str, doc_json: str, policies: tuple[str, ...], seed: int, games: int):
    """The adapter: per policy, (scores per sheet, Tally per sheet) of `games` games on `seed`."""
    rules, sheets = _sheet_docs(kind, doc_json)
    out = {}
    for policy in policies:
        scores, tallies = [], []
        for one, elements in sheets:  # played as the validator plays a batch
            inputs = _inputs(rules.game, rules, seed, games, policy, len(elements))
            batch, tally = play_batch(rules, one, elements, policy, "fast", inputs, games)
            scores.append(np.asarray(batch.score, np.int64))
            tallies.append(tally)
        out[policy] = (scores, tallies)
    return out


def play_unit(root: int, u: Unit) -> Played:
    got = play(u.kind, u.doc, u.policies, seed_of(root, u.key), u.games)
    gap = (0, 0, 0)
    if "greedy" in got and "random" in got:
        d = np.concatenate(got["greedy"][0]) - np.concatenate(got["random"][0])
        gap = (len(d), int(d.sum()), int((d * d).sum()))
    return Played(u.cand, u.key, {p: t for p, (_, t) in got.items()}, gap)


def play_task(root: int, units: tuple[Unit, ...]) -> list[Played]:
    """One task: its units in order (plain Python, picklable, the same wherever it runs)."""
    return [play_unit(root, u) for u in units]


def tasks_of(units: list[Unit]) -> list[tuple[Unit, ...]]:
    """Consecutive units grouped into tasks of at least TASK_GAMES games (the last may be smaller)."""
    out, cur, n = [], [], 0
    for u in units:
        cur.append(u)
        n += u.games * len(u.policies)
        if n >= TASK_GAMES:
            out.append(tuple(cur))
            cur, n = [], 0
    if cur:
        out.append(tuple(cur))
    return out


def warm(kind: str) -> None:
    """Load the compiled engines of a kind's rules once in this process: one game per policy."""
    from .kinds import layouts_dir, load

    path = layouts_dir() / f"{kind}.yaml"  # the shipped sheet of that kind
    if path.exists():
        play(kind, load(path).doc.model_dump_json(), POLICIES, 0, 1)


# ----- where tasks run ---------------------------------------------------------------------------

Done = Callable[[int, list[Played]], None]  # done(task number, its results)


def _start_worker(kind: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    warm(kind)


@dataclass
class Local:
    """Tasks in this process (workers=1) or a pool of local worker processes, started once."""

    workers: int = 0
    kind: str = ""
    _pool: ProcessPoolExecutor | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        return f"{self.size} local process{'es' if self.size > 1 else ''}"

    @property
    def size(self) -> int:
        return pools.count(self.workers)

    def run(self, root: int, tasks: list[tuple[Unit, ...]], done: Done, fn=play_task) -> None:
        if self.size == 1:
            for i, t in enumerate(tasks):
                done(i, fn(root, t))
            return
        if self._pool is None:
            self._pool = pools.pool(self.size, _start_worker, (self.kind,))
        futures = {self._pool.submit(fn, root, t): i for i, t in enumerate(tasks)}
        try:
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in sorted(finished, key=futures.get):
                    done(futures[f], f.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class Cluster:
    """Tasks on a Dask distributed cluster (`pip install 'sheetgen[cluster]'`)."""

    def __init__(self, address: str, kind: str):
        try:
            from distributed import Client
        except ImportError:
            raise SheetgenError("--scheduler needs Dask distributed, which is not installed",
                                fix="pip install 'sheetgen[cluster]'") from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise SheetgenError(f"cannot reach the Dask scheduler at {address}: {exc}", key="--scheduler",
                                fix="start one with 'dask scheduler' and give its tcp://HOST:8786") from None
        self.client.register_plugin(_warm_plugin(kind), name=f"sheetgen-warm-{kind}")
        self.address = address

    @property
    def size(self) -> int:
        return max(1, sum(w.get("nthreads", 1) for w in self.client.scheduler_info()["workers"].values()))

    @property
    def label(self) -> str:
        n = len(self.client.scheduler_info()["workers"])
        return f"Dask cluster {self.address} ({n} worker{'s' if n != 1 else ''})"

    def run(self, root: int, tasks: list[tuple[Unit, ...]], done: Done, fn=play_task) -> None:
        from distributed import as_completed

        futures = [self.client.submit(fn, root, t, pure=False) for t in tasks]
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for f in as_completed(futures):
                done(index[f.key], f.result())
        except (KeyboardInterrupt, SheetgenError):
            self.client.cancel(futures)
            raise
        except Exception as exc:  # the cluster's, e.g. a scheduler or worker without this sheetgen
            self.client.cancel(futures)
            raise SheetgenError(f"the Dask cluster at {self.address} failed: {' '.join(str(exc).split())[:300]}",
                                key="--scheduler", fix="install this sheetgen on the scheduler and on every "
                                "worker (pip install 'sheetgen[cluster]'), then start them again") from None

    def close(self) -> None:
        self.client.close()


def _warm_plugin(kind: str):
    """A Dask worker plugin that loads the compiled engines once when a worker starts (they stay
    loaded in the worker process, with the caches above)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class WarmEngines(WorkerPlugin):
        def __init__(self, kind: str):
            self.kind = kind

        def setup(self, worker) -> None:
            warm(self.kind)

    return WarmEngines(kind)


def backend(workers: int, scheduler: str | None, kind: str):
    return Cluster(scheduler, kind) if scheduler else Local(workers, kind)


def run_all(back, root: int, units: Iterable[Unit], done: Callable[[Played], None]) -> None:
    """Play units in tasks; `done` gets each unit's result, task by task as they finish."""
    tasks = tasks_of(list(units))
    back.run(root, tasks, lambda i, results: [done(r) for r in results])


def verdict(kind: str, doc_json: str, tallies: dict[str, list[Tally]], full: bool) -> list[str]:
    """The validator's faults for these tallies. full=False keeps only those a few games prove
    (a roll left without a legal move, a game of the wrong length); full=True is the verdict
    `sheetgen validate` gives (completable), to be used with every policy played."""
    from .validate.report import SheetReport

    rules, sheets = _sheet_docs(kind, doc_json)
    out = []
    for n, (one, elements) in enumerate(sheets):
        rep = SheetReport(n + 1, "", list(elements), {p: ts[n] for p, ts in tallies.items()},
                          rules.turns)
        found = rep.faults if full else [f for f in rep.faults if "never reached" not in f]
        out += [(f"sheet {n + 1}: " if len(sheets) > 1 else "") + f for f in found]
    return out
