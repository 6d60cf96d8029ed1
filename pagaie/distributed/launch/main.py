"""The launcher: one process per local device (or per ``--nproc_per_node``), with Paddle's env vars.

Rank 0's output goes to the console and ``<log_dir>/workerlog.0``; rank i's to
``<log_dir>/workerlog.i``. When a process fails the others are stopped and the launcher exits
with its code.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time

import torch

__all__ = ["launch"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pagaie.distributed.launch",
                                description="Start a training script on several local processes.")
    p.add_argument("--master", default=None, help="ip:port of the rendezvous (rank 0's host)")
    p.add_argument("--nnodes", default="1", help="the number of nodes (only 1 is supported)")
    p.add_argument("--nproc_per_node", type=int, default=None, help="processes on this node")
    p.add_argument("--rank", type=int, default=-1, help="this node's rank")
    p.add_argument("--log_dir", default="log", help="where worker logs are written")
    p.add_argument("--log_level", default="INFO")
    p.add_argument("--job_id", default="default")
    p.add_argument("--devices", "--gpus", "--xpus", dest="devices", default=None,
                   help="comma-separated accelerator ids")
    p.add_argument("--run_mode", default="collective", help="only 'collective' is supported")
    p.add_argument("--max_restart", type=int, default=3)
    p.add_argument("--backend", default=None, help="'gloo' or 'nccl' (chosen by device when omitted)")
    p.add_argument("training_script", help="the script to run")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _pump(stream, files: list) -> None:
    for line in iter(stream.readline, b""):
        for f in files:
            f.write(line)
            f.flush()
    stream.close()


def launch() -> None:
    """Parse the command line (``sys.argv``) and run the training script on local processes.

    ``python -m pagaie.distributed.launch --nproc_per_node 2 train.py --lr 0.1`` starts two
    processes of ``train.py`` with ``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``,
    ``PADDLE_TRAINER_ENDPOINTS``, ``PADDLE_CURRENT_ENDPOINT`` and ``PADDLE_MASTER`` set.

    Examples:
        >>> from pagaie.distributed.launch.main import launch
        >>> callable(launch)
        True
    """
    from pagaie.distributed.spawn import trainer_envs

    args = _parser().parse_args(sys.argv[1:])
    if str(args.nnodes) != "1":
        raise NotImplementedError("paddle.distributed.launch: only single-node jobs (--nnodes 1) are supported")
    if args.run_mode != "collective":
        raise NotImplementedError(f"paddle.distributed.launch: run_mode {args.run_mode!r} is not supported; "
                                  "use 'collective'")
    devices = [d for d in args.devices.split(",") if d] if args.devices else None
    if devices is None and torch.cuda.is_available():
        devices = [str(i) for i in range(torch.cuda.device_count())]
    nproc = args.nproc_per_node or (len(devices) if devices else 1)
    backend = args.backend or os.environ.get("PADDLE_DISTRI_BACKEND") or ("nccl" if devices else "gloo")
    host = args.master.split(":")[0] if args.master else "127.0.0.1"
    envs = trainer_envs(nproc, host=host, backend=backend, devices=devices if backend == "nccl" else None)
    if args.master and ":" in args.master:
        for env in envs:
            env["PADDLE_MASTER"] = args.master
    os.makedirs(args.log_dir, exist_ok=True)
    print(f"LAUNCH INFO {time.strftime('%Y-%m-%d %H:%M:%S')} Job: {args.job_id}, mode {args.run_mode}, "
          f"replicas 1[1:1], nproc_per_node {nproc}, log_dir {args.log_dir}", file=sys.stderr, flush=True)
    procs, logs, pumps = [], [], []
    cmd = [sys.executable, "-u", args.training_script, *args.training_script_args]
    for rank, extra in enumerate(envs):
        env = dict(os.environ, **extra, PADDLE_LOG_DIR=os.path.abspath(args.log_dir), PADDLE_JOB_ID=args.job_id)
        log = open(os.path.join(args.log_dir, f"workerlog.{rank}"), "wb")
        logs.append(log)
        if rank == 0:
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            t = threading.Thread(target=_pump, args=(proc.stdout, [log, sys.stdout.buffer]), daemon=True)
            t.start()
            pumps.append(t)
        else:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        procs.append(proc)
    code = 0
    try:
        while True:
            codes = [p.poll() for p in procs]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                code = failed[0]
                break
            if all(c == 0 for c in codes):
                break
            time.sleep(0.05)
    except KeyboardInterrupt:
        code = 130
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        for t in pumps:
            t.join(timeout=5)
        for log in logs:
            log.close()
    if code:
        print(f"LAUNCH ERROR a worker exited with code {code}; see {args.log_dir}/workerlog.*",
              file=sys.stderr, flush=True)
        sys.exit(code)
