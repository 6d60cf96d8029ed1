"""Training throughput and peak memory: pagaie vs PyTorch eager vs real Paddle.

Models: ResNet50 (batch 8, 224x224, Momentum) and a BERT-base-sized TransformerEncoder
(12 layers, hidden 768, 12 heads, batch 8, sequence 128, AdamW). pagaie and Paddle run the
same Paddle-API code; PyTorch runs the same architecture written in torch. Each framework
runs in its own process; the parent prints steps/s, peak memory and the ratios.

    python bench/train_throughput.py [--model resnet50|bert|all] [--steps 5] [--quick]
    python bench/train_throughput.py --amp bf16-O1   # the AMP variant (see bench/amp.py)

``--quick`` shrinks the models (fewer layers, smaller images) for a fast smoke run.
Target (issue "Training stack"): pagaie >= 0.95x PyTorch eager, ahead of Paddle, peak
memory <= 1.05x PyTorch's.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time


def _sizes(model: str, quick: bool) -> dict:
    if model == "resnet50":
        return {"batch": 8, "image": 64 if quick else 224}
    return {"batch": 8, "seq": 32 if quick else 128, "hidden": 768, "heads": 12,
            "layers": 2 if quick else 12, "ffn": 3072}


# ---------------------------------------------------------------- Paddle-API models
def _paddle_step_fn(paddle, model: str, s: dict, amp: str | None):
    paddle.seed(0)
    if model == "resnet50":
        net = paddle.vision.models.resnet50(num_classes=1000)
        opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9, parameters=net.parameters())
        x = paddle.randn([s["batch"], 3, s["image"], s["image"]])
        y = paddle.randint(0, 1000, [s["batch"]])
        loss_fn = paddle.nn.CrossEntropyLoss()

        def forward():
            return loss_fn(net(x), y)
    else:
        layer = paddle.nn.TransformerEncoderLayer(s["hidden"], s["heads"], s["ffn"], dropout=0.1,
                                                  activation="gelu")
        net = paddle.nn.TransformerEncoder(layer, s["layers"])
        opt = paddle.optimizer.AdamW(learning_rate=1e-4, parameters=net.parameters())
        x = paddle.randn([s["batch"], s["seq"], s["hidden"]])

        def forward():
            return net(x).mean()
    net.train()
    level, dtype = _amp_parts(amp)
    if level and hasattr(paddle.amp, "state"):
        paddle.amp.state.allow_cpu(True)  # pagaie follows Paddle (no CPU AMP) unless asked

    def step():
        if level:
            with paddle.amp.auto_cast(level=level, dtype=dtype):
                loss = forward()
        else:
            loss = forward()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if level == "O2":
        net, opt = paddle.amp.decorate(net, opt, level="O2", dtype=dtype)
    return step


# ------------------------------------------------------------------ torch models
def _torch_resnet50(torch):
    nn = torch.nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride, down):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(width)
            self.conv3 = nn.Conv2d(width, width * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(width * 4)
            self.relu = nn.ReLU()
            self.down = down

        def forward(self, x):
            idt = x if self.down is None else self.down(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            return self.relu(out + idt)

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            st = stride if i == 0 else 1
            down = None
            if st != 1 or cin != width * 4:
                down = nn.Sequential(nn.Conv2d(cin, width * 4, 1, st, bias=False), nn.BatchNorm2d(width * 4))
            layers.append(Bottleneck(cin, width, st, down))
            cin = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000)]
    return nn.Sequential(*layers)


def _torch_step_fn(torch, model: str, s: dict, amp: str | None):
    torch.manual_seed(0)
    if model == "resnet50":
        net = _torch_resnet50(torch)
        opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
        x = torch.randn(s["batch"], 3, s["image"], s["image"])
        y = torch.randint(0, 1000, (s["batch"],))
        loss_fn = torch.nn.CrossEntropyLoss()

        def forward():
            return loss_fn(net(x), y)
    else:
        layer = torch.nn.TransformerEncoderLayer(s["hidden"], s["heads"], s["ffn"], dropout=0.1,
                                                 activation="gelu", batch_first=True)
        net = torch.nn.TransformerEncoder(layer, s["layers"], enable_nested_tensor=False)
        opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
        x = torch.randn(s["batch"], s["seq"], s["hidden"])

        def forward():
            return net(x).mean()
    net.train()
    level, dtype = _amp_parts(amp)
    tdt = {"bfloat16": torch.bfloat16, "float16": torch.float16}.get(dtype)
    if level == "O2":
        net = net.to(tdt)
        x = x.to(tdt)

    def step():
        if level == "O1":
            with torch.autocast("cpu", dtype=tdt):
                loss = forward()
        else:
            loss = forward()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=False)
        return loss

    return step


def _amp_parts(amp: str | None) -> tuple[str | None, str | None]:
    if not amp:
        return None, None
    dtype, level = amp.split("-")
    return level, {"bf16": "bfloat16", "fp16": "float16"}[dtype]


def _child(framework: str, model: str, steps: int, quick: bool, amp: str | None) -> None:
    s = _sizes(model, quick)
    import torch
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    if framework == "torch":
        step = _torch_step_fn(torch, model, s, amp)
    elif framework == "pagaie":
        import pagaie
        step = _paddle_step_fn(pagaie, model, s, amp)
    else:
        import paddle
        step = _paddle_step_fn(paddle, model, s, amp)
    for _ in range(2):  # warm-up: allocator, optimizer state, autotuning
        step()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        loss = step()
        float(loss)
        times.append(time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # The median step: robust to the other tenants of a shared machine.
    median = sorted(times)[len(times) // 2]
    print(json.dumps({"steps_per_s": 1.0 / median, "peak_mb": peak / 1024,
                      "growth_mb": (peak - base) / 1024}))


def run_one(framework: str, model: str, steps: int, quick: bool, amp: str | None,
            threads: int = 1) -> dict | None:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", framework, "--model", model,
           "--steps", str(steps)] + (["--quick"] if quick else []) + (["--amp", amp] if amp else [])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # The same thread count for every framework: on a shared machine, OpenMP pools larger
    # than the free cores spin against each other and the comparison measures the noise.
    env = {**os.environ, "GLOG_minloglevel": "3", "OMP_NUM_THREADS": str(threads),
           "MKL_NUM_THREADS": str(threads),
           "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    for line in reversed(proc.stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    err = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    print(f"  [{framework}] unavailable: {err}")
    return None


def report(model: str, results: dict, amp: str | None) -> None:
    tag = f"{model}{' ' + amp if amp else ''}"
    print(f"{tag}:")
    for fw, r in results.items():
        if r:
            print(f"  {fw:7s} {r['steps_per_s']:.3f} steps/s  peak RSS {r['peak_mb']:.0f} MB")
    t, p, d = results.get("torch"), results.get("pagaie"), results.get("paddle")
    if t and p:
        print(f"  pagaie/torch speed = {p['steps_per_s'] / t['steps_per_s']:.2f}x   "
              f"pagaie/torch peak memory = {p['peak_mb'] / t['peak_mb']:.2f}x")
    if d and p:
        print(f"  pagaie/paddle speed = {p['steps_per_s'] / d['steps_per_s']:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="all", choices=["resnet50", "bert", "all"])
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--amp", default=None, help="e.g. bf16-O1, bf16-O2")
    ap.add_argument("--frameworks", default="torch,pagaie,paddle")
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads for every framework")
    ap.add_argument("--child")
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.model, args.steps, args.quick, args.amp)
        return
    models = ["resnet50", "bert"] if args.model == "all" else [args.model]
    for model in models:
        results = {fw: run_one(fw, model, args.steps, args.quick, args.amp, args.threads)
                   for fw in args.frameworks.split(",")}
        report(model, results, args.amp)


if __name__ == "__main__":
    main()
