"""Static graph vs eager: training steps/s and peak memory, side by side.

Variants, each in its own child process (so peak resident memory, ``ru_maxrss``, is
that variant's alone):

- ``eager``: the dygraph loop (forward, ``loss.backward()``, ``opt.step()``).
- ``interpreter``: the same model built as a static program (``program_guard`` +
  ``minimize``) run by ``Executor.run`` (the interpreter).
- ``passes``: the program after the graph passes (BuildStrategy with every fusion
  on; for inference, ``optimize_for_inference``: conv + batch norm folding too).
- ``compiled``: the passes, then the compiled executor (torch.fx + torch.compile,
  ``BuildStrategy.build_cinn_pass``); its compile time is reported apart.
- ``compiled_cudagraph`` (``--device gpu`` only): ``compiled`` with
  ``BuildStrategy.allow_cuda_graph_capture``: the compiled kernels replay as CUDA graphs.

Workloads: a small Transformer encoder (2 layers, hidden 128, 4 heads, batch 32,
sequence 64) training, and ResNet50 inference (batch 4, 224x224). ``--full`` adds a
BERT-base-sized encoder (12 layers, hidden 768, 12 heads) and ResNet50 training.
``--workloads transformer_tiny`` runs the small Transformer's graph at hidden 16, batch 2,
sequence 4: a step that is nothing but per-op overhead.

Each variant runs ``--rounds`` times, interleaved with the others; the best speed and
the lowest peak memory are kept. On the CPU the table also gives the steps' own memory:
the peak RSS minus the RSS once the model or program is built (imports, parameters and
the program itself are not counted). Building a static program runs torch's meta kernels,
whose Python type-promotion helpers import ``sympy`` (about 50 MB resident) where an eager
process never does, so the peak RSS of small workloads shows that fixed cost. ``--device gpu`` runs every variant
on the GPU; peak memory is then the GPU's (``max_memory_allocated``).

    python bench/static_vs_eager.py [--full] [--steps 20] [--rounds 3] [--variants eager,...]
                                    [--device cpu|gpu]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

WORKLOADS = {
    # name: (kind, config)
    "transformer": ("encoder", dict(layers=2, hidden=128, heads=4, ff=512, batch=32, seq=64)),
    "resnet50_infer": ("resnet_infer", dict(batch=4, size=224)),
    "bert_base": ("encoder", dict(layers=12, hidden=768, heads=12, ff=3072, batch=8, seq=128)),
    "resnet50_train": ("resnet_train", dict(batch=4, size=224)),
    # the small Transformer's graph at a size where the step is all per-op overhead
    "transformer_tiny": ("encoder", dict(layers=2, hidden=16, heads=4, ff=64, batch=2, seq=4)),
}
DEFAULT = ("transformer", "resnet50_infer")
FULL = ("bert_base", "resnet50_train")
VARIANTS = ("eager", "interpreter", "passes", "compiled")
GPU_VARIANTS = VARIANTS + ("compiled_cudagraph",)


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---- child: build and time one (workload, variant) ------------------------------------------

def _encoder(paddle, c):
    layer = paddle.nn.TransformerEncoderLayer(c["hidden"], c["heads"], c["ff"])
    enc = paddle.nn.TransformerEncoder(layer, c["layers"])
    head = paddle.nn.Linear(c["hidden"], 10)

    def forward(x, label):
        return paddle.nn.functional.cross_entropy(head(enc(x).mean(axis=1)), label)

    params = enc.parameters() + head.parameters()
    return forward, params, [enc, head]


def _resnet(paddle):
    from pagaie.vision.models import resnet50
    return resnet50()


def _data(np, kind, c):
    rng = np.random.default_rng(0)
    if kind == "encoder":
        return {"x": rng.standard_normal((c["batch"], c["seq"], c["hidden"]), dtype=np.float32),
                "label": rng.integers(0, 10, (c["batch"], 1)).astype(np.int64)}
    x = rng.standard_normal((c["batch"], 3, c["size"], c["size"]), dtype=np.float32)
    return {"x": x, "label": rng.integers(0, 1000, (c["batch"], 1)).astype(np.int64)}


def _static_train(paddle, kind, c, build_model):
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        if kind == "encoder":
            x = paddle.static.data("x", [c["batch"], c["seq"], c["hidden"]], "float32")
        else:
            x = paddle.static.data("x", [c["batch"], 3, c["size"], c["size"]], "float32")
        label = paddle.static.data("label", [c["batch"], 1], "int64")
        forward, _ = build_model()
        loss = forward(x, label)
        paddle.optimizer.Adam(1e-4).minimize(loss)
    paddle.disable_static()
    return main, loss


def _static_infer(paddle, c, model):
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [c["batch"], 3, c["size"], c["size"]], "float32")
        out = model(x)
    paddle.disable_static()
    return main, out


def _all_fusions(bs_cls, compiled: bool, cuda_graphs: bool = False):
    bs = bs_cls()
    bs.fuse_elewise_add_act_ops = bs.fuse_bn_act_ops = bs.fuse_gemm_epilogue = True
    bs.fused_feedforward = True
    bs.build_cinn_pass = compiled
    bs.allow_cuda_graph_capture = cuda_graphs
    return bs


def child(workload: str, variant: str, steps: int, warmup: int, device: str = "cpu") -> dict:
    import numpy as np
    import torch
    import pagaie as paddle
    from pagaie._static.compiled import StrategyRunner
    from pagaie.static.build_strategy import BuildStrategy

    torch.set_num_threads(max(1, os.cpu_count() or 1))
    paddle.set_device(device)
    gpu = device.startswith("gpu")
    kind, c = WORKLOADS[workload]
    paddle.seed(0)
    feed = _data(np, kind, c)
    infer = kind == "resnet_infer"

    if kind == "encoder":
        def build_model():
            fwd, params, _ = _encoder(paddle, c)
            return fwd, params
    else:
        def build_model():
            m = _resnet(paddle)
            return (lambda x, label: paddle.nn.functional.cross_entropy(m(x), label)), m.parameters()

    info: dict = {}
    if variant == "eager":
        if infer:
            model = _resnet(paddle)
            model.eval()
            x = paddle.to_tensor(feed["x"])

            def step():
                with paddle.no_grad():
                    return model(x)
        else:
            fwd, params = build_model()
            opt = paddle.optimizer.Adam(1e-4, parameters=params)
            x, label = paddle.to_tensor(feed["x"]), paddle.to_tensor(feed["label"])

            def step():
                loss = fwd(x, label)
                loss.backward()
                opt.step()
                opt.clear_grad()
                return loss
    else:
        exe = paddle.static.Executor(paddle.CUDAPlace(0) if gpu else paddle.CPUPlace())
        if infer:
            model = _resnet(paddle)
            model.eval()
            main, out = _static_infer(paddle, c, model)
            fetch = [out]
            feed = {"x": feed["x"]}
        else:
            main, loss = _static_train(paddle, kind, c, build_model)
            fetch = [loss]
        t0 = time.perf_counter()
        if variant == "interpreter":
            prog = main
        elif infer:
            from pagaie._static.passes import optimize_for_inference
            opt_prog = optimize_for_inference(main, keep=[v.name for v in fetch])
            info["ops_before"] = len(main.global_block().ops)
            info["ops_after"] = len(opt_prog.global_block().ops)
            fetch = [opt_prog.global_block().var(v.name) for v in fetch]
            prog = StrategyRunner(opt_prog, _all_fusions(BuildStrategy, variant.startswith("compiled"),
                                                         variant == "compiled_cudagraph"))
        else:
            prog = StrategyRunner(main, _all_fusions(BuildStrategy, variant.startswith("compiled"),
                                                     variant == "compiled_cudagraph"))
        info["prepare_s"] = time.perf_counter() - t0

        def step():
            return exe.run(prog, feed=feed, fetch_list=fetch)

    sync = torch.cuda.synchronize if gpu else (lambda: None)
    # what the process holds once the model (or program) is built: the imports, parameters
    # and program; the steps' own memory is the peak above it
    built = None if gpu else _rss_mb()
    t0 = time.perf_counter()
    for _ in range(warmup):
        step()
    sync()
    info["warmup_s"] = time.perf_counter() - t0
    rss0 = _rss_mb()
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    sync()
    dt = time.perf_counter() - t0
    peak = torch.cuda.max_memory_allocated() / 2**20 if gpu else _maxrss_mb()
    info.update(steps_per_s=steps / dt, peak_rss_mb=peak, rss_before_mb=rss0,
                run_mb=None if built is None else max(peak - built, 0.0))
    return info


# ---- parent: run every variant in a child and print the table ----------------------------------

def _run_child(w: str, v: str, steps: int, warmup: int, env: dict, device: str) -> dict | None:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", w, v,
           "--steps", str(steps), "--warmup", str(warmup), "--device", device]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if p.returncode != 0 or line is None:
        err = (p.stderr.strip().splitlines() or ["?"])[-1]
        print(f"{w:16s} {v:12s} FAILED: {err}", flush=True)
        return None
    return json.loads(line[7:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="add BERT-base and ResNet50 training")
    ap.add_argument("--steps", type=int, default=None, help="timed steps per variant")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best is kept")
    ap.add_argument("--variants", default=None, help="default: all (the CUDA-graph one on GPU only)")
    ap.add_argument("--workloads", default=None)
    ap.add_argument("--device", default="cpu", help="cpu or gpu")
    ap.add_argument("--child", nargs=2, metavar=("WORKLOAD", "VARIANT"), help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        w, v = args.child
        print("RESULT " + json.dumps(child(w, v, args.steps or 10, args.warmup, args.device)))
        return

    workloads = args.workloads.split(",") if args.workloads else \
        list(DEFAULT) + (list(FULL) if args.full else [])
    variants = [v for v in (args.variants or ",".join(
        GPU_VARIANTS if args.device.startswith("gpu") else VARIANTS)).split(",") if v]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    results: dict = {}
    mem = "peak GPU" if args.device.startswith("gpu") else "peak RSS"
    for w in workloads:
        steps = args.steps or (20 if w == "transformer" else 5)
        runs: dict = {}
        # Interleaved rounds, best of each: a shared machine's load drifts over minutes.
        for _ in range(args.rounds):
            for v in variants:
                if w == "resnet50_infer" and v.startswith("compiled") and not args.full and args.device == "cpu":
                    continue  # inductor on all of ResNet50 takes minutes on a small CPU
                r = _run_child(w, v, steps, args.warmup, env, args.device)
                if r is not None:
                    runs.setdefault(v, []).append(r)
        for v in variants:
            if v not in runs:
                continue
            r = results[(w, v)] = max(runs[v], key=lambda x: x["steps_per_s"])
            r["peak_rss_mb"] = min(x["peak_rss_mb"] for x in runs[v])
            if r.get("run_mb") is not None:
                r["run_mb"] = min(x["run_mb"] for x in runs[v])
            extra = f"  ops {r['ops_before']} -> {r['ops_after']}" if "ops_after" in r else ""
            run = f" (steps +{r['run_mb']:.0f} MB)" if r.get("run_mb") is not None else ""
            print(f"{w:16s} {v:12s} {r['steps_per_s']:8.2f} steps/s  {mem} {r['peak_rss_mb']:7.0f} MB"
                  f"{run}  (warm-up {r['warmup_s']:.1f}s){extra}", flush=True)
    print(f"\nratios against eager (steps/s: higher is better; {mem}: lower is better)")
    for w in workloads:
        base = results.get((w, "eager"))
        if base is None:
            continue
        for v in variants[1:] if variants and variants[0] == "eager" else variants:
            r = results.get((w, v))
            if r is None or v == "eager":
                continue
            run = ""
            if r.get("run_mb") is not None and base.get("run_mb"):
                run = f"   step memory x{r['run_mb'] / base['run_mb']:.2f}"
            print(f"  {w:16s} {v:12s} speed x{r['steps_per_s'] / base['steps_per_s']:.2f}   "
                  f"memory x{r['peak_rss_mb'] / base['peak_rss_mb']:.2f}{run}")


if __name__ == "__main__":
    main()
