"""DataLoader throughput: pagaie.io.DataLoader with 0 and 2 workers vs torch.utils.data.DataLoader.

Two datasets of (image, label) samples: "light" (a 3x64x64 float32 array, no work: measures the
loader's own overhead and transport) and "heavy" (the same plus some numpy augmentation per
sample: where workers pay off). Prints batches/s and ratios:

    python bench/dataloader.py [--batches 100] [--batch-size 32] [--repeat 3]

Each figure is the best of ``--repeat`` interleaved runs (the machine may be shared).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Images:
    def __init__(self, n: int, heavy: bool) -> None:
        self.n, self.heavy = n, heavy

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        img = np.full([3, 64, 64], i % 255, dtype="float32")
        if self.heavy:
            for _ in range(4):
                img = np.flip(img, axis=2) * 0.5 + np.tanh(img) * 0.5
            img = np.ascontiguousarray(img, dtype="float32")
        return img, np.array([i % 10], dtype="int64")


def rate(make, batches: int) -> float:
    loader = make()
    it = iter(loader)
    next(it)  # start-up (worker launch) is not timed
    t0 = time.perf_counter()
    n = 0
    for _ in it:
        n += 1
        if n == batches:
            break
    dt = time.perf_counter() - t0
    del it
    return n / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batches", type=int, default=100)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import torch
    import torch.utils.data as tud

    import pagaie

    bs = args.batch_size
    for heavy in (False, True):
        ds = Images((args.batches + 2) * bs, heavy)
        res: dict[str, float] = {}
        for _ in range(args.repeat):
            for nw in (0, 2):
                for fw, make in (("pagaie", pagaie.io.DataLoader), ("torch", tud.DataLoader)):
                    r = rate(lambda: make(ds, batch_size=bs, num_workers=nw), args.batches)
                    res[f"{fw}-{nw}"] = max(res.get(f"{fw}-{nw}", 0.0), r)
        name = "heavy" if heavy else "light"
        print(f"{name}: " + "  ".join(f"{k} {v:.1f} b/s" for k, v in sorted(res.items())))
        print(f"  pagaie 2 workers / 0 workers = {res['pagaie-2'] / res['pagaie-0']:.2f}x   "
              f"pagaie/torch: 0 workers {res['pagaie-0'] / res['torch-0']:.2f}x, "
              f"2 workers {res['pagaie-2'] / res['torch-2']:.2f}x")
    del torch


if __name__ == "__main__":
    main()
