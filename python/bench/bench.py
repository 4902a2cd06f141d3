"""Speed of the Python package (BENCHMARKS.md, "From Python"): run from the repository root
with the package installed in release mode (`pip install ./python`):

    python python/bench/bench.py [--sweep N]

1. An orbit solve called from Python against the solve time the library measures itself
   (`Orbit.solve_seconds`, what `saltation orbit --json` reports), median of many calls.
2. Two threads solving in parallel against the same solves in series.
3. A sweep of N orbits (default 300) with saltation.dask.map_params on a LocalCluster of one
   worker and of two.
4. The walker's basin on a G × G grid (default 100; `--basin G`, 0 to skip) with
   saltation.dask.basin on a LocalCluster of two workers against the command `saltation basin`
   (target/release/saltation) on the same grid, and `model.basin` in this process.

Each line is printed with the load average (`os.getloadavg()`) when it was measured.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import tempfile
import threading
import time

import numpy as np

import saltation

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def cli_solve_seconds(n=21):
    """The command's own `solve_seconds` for the same orbit (median of n runs)."""
    exe = ROOT / "target" / "release" / "saltation"
    if not exe.exists():
        return None
    vals = []
    for _ in range(n):
        out = subprocess.run([str(exe), "orbit", str(ROOT / "models" / "simplest_walker.ron"),
                              "--json"], check=True, capture_output=True, text=True).stdout
        vals.append(json.loads(out)["solve_seconds"])
    return statistics.median(vals)


def orbit_overhead(walker, n=200):
    ratios, extra = [], []
    for _ in range(n):
        t = time.perf_counter()
        o = walker.orbit()
        wall = time.perf_counter() - t
        ratios.append(wall / o.solve_seconds)
        extra.append(wall - o.solve_seconds)
    print(f"orbit from Python: median wall/solve_seconds = {statistics.median(ratios):.3f}, "
          f"median overhead = {statistics.median(extra) * 1e6:.1f} µs "
          f"(solve_seconds ≈ {o.solve_seconds * 1e3:.3f} ms) [{load()}]")
    cli = cli_solve_seconds()
    if cli is not None:
        walls = []
        for _ in range(n):
            t = time.perf_counter()
            walker.orbit()
            walls.append(time.perf_counter() - t)
        w = statistics.median(walls)
        print(f"orbit from Python: median wall {w * 1e3:.3f} ms vs the command's median "
              f"solve_seconds {cli * 1e3:.3f} ms: ratio {w / cli:.3f}, "
              f"{(w - cli) * 1e6:.1f} µs over [{load()}]")


def threads(walker, reps=200):
    models = [walker.with_params(gamma=g) for g in (0.0085, 0.0095)]

    def work(m):
        for _ in range(reps):
            m.orbit()

    t = time.perf_counter()
    for m in models:
        work(m)
    serial = time.perf_counter() - t
    ths = [threading.Thread(target=work, args=(m,)) for m in models]
    t = time.perf_counter()
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    par = time.perf_counter() - t
    print(f"two threads: serial {serial:.3f} s, parallel {par:.3f} s, ratio {par / serial:.2f} "
          f"[{load()}]")


def sweep(walker, n):
    from distributed import Client, LocalCluster

    from saltation.dask import map_params

    gammas = np.linspace(0.004, 0.015, n)
    times = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as c, \
                Client(c) as client:
            map_params(walker, "gamma", gammas[:4], client=client, errors="return")  # warm up
            t = time.perf_counter()
            map_params(walker, "gamma", gammas, client=client, errors="return")
            times[workers] = time.perf_counter() - t
    print(f"dask sweep of {n} orbits: 1 worker {times[1]:.2f} s, 2 workers {times[2]:.2f} s, "
          f"speed-up {times[1] / times[2]:.2f} [{load()}]")


def basin(walker, g, shards=8):
    from distributed import Client, LocalCluster

    from saltation.dask import basin as dask_basin

    axes = f"u0=0.15:0.25:{g},u1=-0.3:-0.1:{g}"
    exe = ROOT / "target" / "release" / "saltation"
    if exe.exists():
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            subprocess.run([str(exe), "basin", str(ROOT / "models" / "simplest_walker.ron"),
                            "--axes", axes, "--json", "--out", d],
                           check=True, capture_output=True)
            cli = time.perf_counter() - t
        print(f"basin {g}×{g}: the command {cli:.2f} s [{load()}]")
    t = time.perf_counter()
    serial = walker.basin(axes=axes)
    here = time.perf_counter() - t
    print(f"basin {g}×{g}: model.basin in this process {here:.2f} s [{load()}]")
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as c, \
            Client(c) as client:
        dask_basin(walker, axes="u0=0.2:0.2:2", shards=2, client=client)  # warm up
        t = time.perf_counter()
        b = dask_basin(walker, axes=axes, shards=shards, client=client)
        dask_t = time.perf_counter() - t
    same = "identical" if b == serial else "DIFFERENT"
    print(f"basin {g}×{g}: saltation.dask.basin, LocalCluster(2), {shards} shards {dask_t:.2f} s "
          f"(cells {same} to model.basin) [{load()}]")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sweep", type=int, default=300)
    ap.add_argument("--basin", type=int, default=100)
    a = ap.parse_args()
    walker = saltation.Model.load(ROOT / "models" / "simplest_walker.ron")
    walker.orbit()
    orbit_overhead(walker)
    threads(walker)
    sweep(walker, a.sweep)
    if a.basin:
        basin(walker, a.basin)
