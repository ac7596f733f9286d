"""Old and new side by side: one benchmark script timed on two checkouts in one run.

Used by ``bench_speed.py``, ``bench_intervals.py`` and ``bench_thresholds.py``
for their ``--baseline DIR`` option. DIR is a checkout of an older commit
(``git worktree add /tmp/old <commit>``); the script starts itself a second
time, in a subprocess whose ``PYTHONPATH`` is DIR, so that the same benchmark
code imports the older ``sklearn_mlcm``. Both processes build the same data
from the same seeds and go through the same timed calls in the same order, in
step: at each timed call each process waits until the other one has reached
it, then the two take turns, one run each, old first on even rounds and new
first on odd ones (old, new, new, old, ...), so that a slow moment of the
shared machine falls on both. In step, each side first runs every call once
untimed (the first run after untimed work was up to 2.5x slower than the
next, whichever checkout it was: new/old 0.4-2.1 for the same code), and a
call timed once alone is timed in two rounds. Only one process runs at a
time while a call is timed; the untimed work in between (drawing data,
printing) may overlap.

The two processes run where the scheduler puts them, and CPUs are not
always alike (this machine's two vCPUs differed by up to 1.7x in the
median of the same single-threaded call): for rows that run in one thread,
put both on one CPU, which the subprocess inherits,
``taskset -c 0 python benchmarks/bench_intervals.py ... --baseline DIR``
(see benchmarks/README.md, "One CPU for single-threaded rows").

Every time goes through :meth:`SideBySide.time` (or :meth:`SideBySide.times`,
several calls interleaved), the references (scikit-learn, floors) too: their
new/old is the noise of the run, since their code is the same in both. After
the script's own tables (the new checkout's; the old one's are printed after
them), a table gives each timed row's old and new time and new/old, with the
range of new/old over the rounds ("rounds": each round's old and new run
were neighbours in time, so the range is the noise of that row), and the
numbers given to :meth:`SideBySide.record` (peak memory, say) likewise.

Without ``--baseline`` the same calls are simply timed in this process.
This module is a helper of the scripts, not a benchmark: pytest does not
collect ``benchmarks/`` (``testpaths`` in ``pyproject.toml``).
"""

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

# the subprocess finds the ends of its two pipes here: "read_fd,write_fd"
PEER_ENV = "SKLEARN_MLCM_BENCH_PEER"

STATS = {"median": statistics.median, "min": min}


def without_baseline(argv):
    """``argv`` without ``--baseline DIR`` (or ``--baseline=DIR``)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--baseline":
            skip = True
        elif not arg.startswith("--baseline="):
            kept.append(arg)
    return kept


def _time_once(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


class SideBySide:
    """Times the calls of a benchmark, alone or in step with a baseline.

    Make one with :meth:`start`; call :meth:`finish` at the end of the run.
    """

    def __init__(self):
        self._role = "alone"
        self._rows = {}  # key -> [old, new, unit], in the order met
        self._rounds = {}  # key -> new/old of each round (old and new in turn)
        self._records = {}  # key -> [value, unit], this process's records
        self._send = self._recv = self._process = self._output = None
        self._baseline = None

    # -- construction ---------------------------------------------------------

    @classmethod
    def start(cls, baseline, argv, script):
        """The clock of this run.

        Parameters
        ----------
        baseline : str or None
            The ``--baseline`` folder, or None.
        argv : list of str
            The script's arguments (``sys.argv[1:]``); the subprocess gets
            them without ``--baseline``.
        script : str
            The script's path (its ``__file__``).
        """
        clock = cls()
        peer = os.environ.get(PEER_ENV)
        if peer:
            clock._become_baseline(peer)
        elif baseline:
            clock._start_baseline(baseline, argv, script)
        return clock

    def _become_baseline(self, peer):
        read_fd, write_fd = (int(fd) for fd in peer.split(","))
        self._role = "baseline"
        self._recv = os.fdopen(read_fd, "r", buffering=1)
        self._send = os.fdopen(write_fd, "w", buffering=1)
        import sklearn_mlcm

        self._put({"hello": os.path.dirname(os.path.abspath(sklearn_mlcm.__file__))})

    def _start_baseline(self, folder, argv, script):
        import sklearn_mlcm

        folder = os.path.abspath(folder)
        if not os.path.isdir(os.path.join(folder, "sklearn_mlcm")):
            raise SystemExit(f"--baseline {folder}: no sklearn_mlcm folder there")
        to_peer_r, to_peer_w = os.pipe()
        from_peer_r, from_peer_w = os.pipe()
        env = {
            **os.environ,
            "PYTHONPATH": folder,
            PEER_ENV: f"{to_peer_r},{from_peer_w}",
        }
        self._output = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(
            [sys.executable, os.path.abspath(script), *without_baseline(argv)],
            env=env,
            stdout=self._output,
            pass_fds=(to_peer_r, from_peer_w),
        )
        os.close(to_peer_r)
        os.close(from_peer_w)
        self._role = "driver"
        self._send = os.fdopen(to_peer_w, "w", buffering=1)
        self._recv = os.fdopen(from_peer_r, "r", buffering=1)
        old = self._get("hello")["hello"]
        new = os.path.dirname(os.path.abspath(sklearn_mlcm.__file__))
        if os.path.commonpath([old, folder]) != folder or old == new:
            self._process.kill()
            raise SystemExit(
                f"--baseline {folder}: the subprocess imported sklearn_mlcm from "
                f"{old}, this one from {new}; run from the new checkout with "
                "PYTHONPATH set to it"
            )
        self._baseline = old
        print(f"# old: sklearn_mlcm from {old}\n# new: sklearn_mlcm from {new}")
        print("# old and new timed in step, in turns (old, new, new, old, ...)")

    # -- the pipe -------------------------------------------------------------

    def _put(self, message):
        self._send.write(json.dumps(message) + "\n")

    def _get(self, kind):
        line = self._recv.readline()
        if not line:
            if self._role == "baseline":  # the new checkout's process stopped
                sys.exit(1)
            code = self._process.wait()
            raise RuntimeError(
                f"the baseline process stopped (exit status {code}) before "
                f"sending {kind!r}; its output:\n{self._baseline_output()}"
            )
        message = json.loads(line)
        if kind not in message:
            raise RuntimeError(f"expected {kind!r} from the other process, got {line}")
        return message

    def _baseline_output(self):
        self._output.flush()
        self._output.seek(0)
        return self._output.read()

    # -- timing ---------------------------------------------------------------

    def time(self, key, func, repeat=1, stat="median"):
        """The ``stat`` of ``repeat`` runs of ``func`` in seconds, timed in
        turns with the baseline's run of the same key. ``func`` None: this
        checkout has no such call (the row shows the other one's time only);
        NaN is returned."""
        return self.times([(key, func)], repeat, stat)[0]

    def times(self, items, repeat=1, stat="median"):
        """Like :meth:`time` for several ``(key, func)`` interleaved: each round
        runs every call once, in turn with the baseline's. A list of times."""
        keys = [key for key, _ in items]
        funcs = [func for _, func in items]
        repeat = max(1, int(repeat))
        mine = [[] for _ in items]
        if self._role == "alone":
            for _ in range(repeat):
                for i, func in enumerate(funcs):
                    if func is not None:
                        mine[i].append(_time_once(func))
        elif self._role == "baseline":
            self._put({"at": keys, "present": [f is not None for f in funcs]})
            warm = set()
            while True:
                message = self._get("do")["do"]
                if message == "end":
                    break
                seconds = _time_once(funcs[message])
                if message in warm:
                    mine[message].append(seconds)
                warm.add(message)
                self._put({"seconds": seconds})
        else:
            # at least two rounds: each side runs once first and once second
            # (whoever runs first after untimed work meets colder caches)
            theirs = self._in_step(keys, funcs, max(repeat, 2), mine)
            for key, old, new in zip(keys, theirs, mine):
                self._rows[key] = [_stat(stat, old), _stat(stat, new), "s"]
                if len(old) == len(new) > 1:
                    self._rounds[key] = [b / a for a, b in zip(old, new)]
        return [_stat(stat, times) for times in mine]

    def _in_step(self, keys, funcs, repeat, mine):
        message = self._get("at")
        if message["at"] != keys:
            self._process.kill()
            raise RuntimeError(
                f"old and new left step: old times {message['at']}, new {keys} "
                "(the two runs must make the same timed calls in the same order; "
                "pass None as the function of a call one checkout lacks)"
            )
        present = message["present"]
        theirs = [[] for _ in keys]
        # one untimed run each first: the first run after untimed work was
        # up to 2.5x slower than the next (caches, page faults), whichever
        # checkout it was
        for i, func in enumerate(funcs):
            if present[i]:
                self._put({"do": i})
                self._get("seconds")
            if func is not None:
                func()
        for round_ in range(repeat):
            for i, func in enumerate(funcs):
                for side in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                    if side == "old" and present[i]:
                        self._put({"do": i})
                        theirs[i].append(self._get("seconds")["seconds"])
                    elif side == "new" and func is not None:
                        mine[i].append(_time_once(func))
        self._put({"do": "end"})
        return theirs

    def record(self, key, value, unit):
        """A number of this run that is not a time (peak MiB, rows/s), shown
        beside the baseline's in the final table."""
        self._records[key] = [value, unit]

    # -- the end --------------------------------------------------------------

    def finish(self):
        """The baseline: hand over the records and stop. The driver: print the
        baseline's own output, then old and new side by side."""
        if self._role == "baseline":
            self._put({"records": self._records})
            self._send.close()
            return
        if self._role != "driver":
            return
        theirs = self._get("records")["records"]
        self._process.wait()
        print("\n# ---- the baseline's own output (old) ----")
        print(self._baseline_output().rstrip())
        print("# ---- end of the baseline's output ----")
        self._print_table(theirs)

    def _print_table(self, theirs):
        rows = dict(self._rows)
        for key, (value, unit) in self._records.items():
            rows[key] = [theirs.get(key, [math.nan])[0], value, unit]
        for key, (value, unit) in theirs.items():
            rows.setdefault(key, [value, math.nan, unit])
        width = max([len(key) for key in rows] + [20])
        print(f"\n## old and new, measured in step in this run (old: {self._baseline})")
        line = (
            f"{'row':<{width}} {'old':>11} {'new':>11} {'new/old':>8} unit "
            f"{'rounds':>11}"
        )
        print(line)
        print("-" * len(line))
        ratios = []
        for key, (old, new, unit) in rows.items():
            ratio = new / old if old and not math.isnan(old) else math.nan
            if unit == "s" and not math.isnan(ratio):
                ratios.append((ratio, key))
            rounds = self._rounds.get(key)
            spread = f"{min(rounds):.2f}-{max(rounds):.2f}" if rounds else ""
            print(
                f"{key:<{width}} {_cell(old)} {_cell(new)} {ratio:>8.2f} "
                f"{unit:<4} {spread:>11}"
            )
        if ratios:
            slow = [key for ratio, key in ratios if ratio > 1.10]
            worst, where = max(ratios)
            mean = math.exp(statistics.fmean(math.log(r) for r, _ in ratios))
            print(
                f"\n{len(ratios)} timed rows: new/old from {min(ratios)[0]:.2f} to "
                f"{worst:.2f} ({where}), geometric mean {mean:.2f}; "
                f"{len(slow)} above 1.10" + (f": {', '.join(slow)}" if slow else "")
            )


def _stat(stat, times):
    return STATS[stat](times) if times else math.nan


def _cell(value):
    return f"{value:>11.4g}" if value is not None and not math.isnan(value) else (
        f"{'-':>11}"
    )
