"""Harvest the ``>>>`` examples of real Paddle 3.3.1's docstrings into a JSON file.

Usage::

    python tests/audit_docs/harvest.py [--out tests/audit_docs/out/examples.json]

Each public name of the API inventory (tests/data/paddle-3.3.1-public-api.json)
is resolved on the installed ``paddle`` package; its docstring is split into code blocks
(consecutive ``>>>`` statements, with their expected output).  Identical blocks shared by
several names (``paddle.abs`` and ``Tensor.abs``) are kept once, under the first name.

Doctest directives (Paddle uses xdoctest-style ones):

* ``+REQUIRES(env:GPU|XPU|DISTRIBUTED|...)`` anywhere in a block: the block is skipped;
* ``+SKIP(reason)``: statements are still run when the reason is only about unstable output
  (random values, addresses...), since we compare real outputs; when the reason names
  hardware, compilation or a missing package they are dropped.  A directive on a line of its
  own applies to the following statements until ``-SKIP``; inline, to its statement only.
* blocks that need the network (datasets, pretrained weights) are skipped as well.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import warnings
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
# (a copy of the shared Paddle 3.3.1 API inventory, kept with the tests)
API_JSON = os.path.join(os.path.dirname(HERE), "data", "paddle-3.3.1-public-api.json")
DEFAULT_OUT = os.path.join(HERE, "out", "examples.json")

_DIRECTIVE = re.compile(r"#\s*doctest:\s*(.*)$")
_HW_SKIP = re.compile(r"cuda|gpu|xpu|a100|v100|compile|install|distribut|download|network|"
                      r"flash|nccl|npu|custom|mlu|ipu|cinn|multi.?card|multi.?device", re.I)
_NETWORK = re.compile(r"pretrained\s*=\s*True|\bdatasets?\.(?!Dataset\b)[A-Z]\w*\(|"
                      r"paddle\.text\.(?:Conll05st|Imdb|Imikolov|Movielens|UCIHousing|WMT14|WMT16)|"
                      r"\b(?:MNIST|FashionMNIST|Cifar10|Cifar100|Flowers|VOC2012|UCIHousing|"
                      r"Conll05st|Imdb|Imikolov|Movielens|WMT14|WMT16)\(|get_weights_path|"
                      r"download|hub\.load|hub\.list|hub\.help|init_parallel_env|fleet\.init|"
                      r"distributed\.launch|spawn\(", re.I)


def _directives(comment: str) -> list[tuple[str, str, str]]:
    """[(sign, name, arg)] of a ``doctest:`` comment, e.g. ('+', 'SKIP', 'Random output')."""
    out = []
    for m in re.finditer(r"([+-])\s*([A-Z_]+)\s*(?:\(([^)]*)\))?", comment):
        out.append((m.group(1), m.group(2), (m.group(3) or "").strip("'\" ")))
    return out


def _strip_prompt(line: str) -> str:
    return line[4:] if len(line) > 3 and line[3] == " " else line[3:]


def parse_blocks(doc: str) -> list[list[dict[str, str]]]:
    """Split a docstring into blocks; each block a list of {'src', 'want'} statements."""
    blocks: list[list[dict[str, str]]] = []
    cur: list[dict[str, str]] | None = None
    lines = doc.splitlines()
    i, indent = 0, None
    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        ind = len(raw) - len(raw.lstrip())
        if s.startswith(">>>"):
            if cur is None or (indent is not None and ind != indent):
                cur = []
                blocks.append(cur)
                indent = ind
            src = [_strip_prompt(raw[ind:])]
            i += 1
            while i < len(lines) and lines[i].strip().startswith("...") and \
                    (lines[i].strip() == "..." or lines[i].strip().startswith("... ")) and \
                    len(lines[i]) - len(lines[i].lstrip()) == ind:
                src.append(_strip_prompt(lines[i][ind:]))
                i += 1
            want = []
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(">>>"):
                want.append(lines[i][ind:] if lines[i][:ind].strip() == "" else lines[i].strip())
                i += 1
            cur.append({"src": "\n".join(src), "want": "\n".join(want)})
            continue
        if s and cur is not None:
            cur, indent = None, None          # prose after a block ends it
        i += 1
    return blocks


def apply_directives(block: list[dict[str, str]]) -> tuple[list[dict[str, str]] | None, str]:
    """Filter a block per its doctest directives; (None, reason) when it must be skipped."""
    text = "\n".join(st["src"] for st in block)
    if _NETWORK.search(text):
        return None, "network"
    out, skipping = [], False
    for st in block:
        m = _DIRECTIVE.search(st["src"])
        own_line = m is not None and st["src"].strip().startswith("#")
        inline_skip = False
        if m:
            for sign, name, arg in _directives(m.group(1)):
                if name == "REQUIRES" and "CPU" not in arg.upper():
                    return None, f"requires {arg}"
                if name == "SKIP":
                    hw = bool(_HW_SKIP.search(arg))
                    if own_line:
                        skipping = sign == "+" and hw
                    elif sign == "+" and hw:
                        inline_skip = True
        if own_line:
            continue
        if skipping or inline_skip:
            continue
        out.append(st)
    if not out:
        return None, "empty"
    return out, ""


def _resolve(root: Any, path: str) -> Any:
    obj = root
    for part in path.split(".") if path else []:
        obj = getattr(obj, part)
    return obj


def harvest() -> dict[str, Any]:
    warnings.simplefilter("ignore")
    import paddle

    inv = json.load(open(API_JSON))
    seen: set[str] = set()
    examples, skipped = [], []
    for mod_key, mod in inv["modules"].items():
        try:
            owner = _resolve(paddle, mod["path"])
        except Exception:
            continue
        prefix = "paddle." + mod["path"] if mod["path"] else "paddle"
        for name in sorted(mod["names"]):
            try:
                obj = getattr(owner, name)
            except Exception:
                continue
            doc = getattr(obj, "__doc__", None)
            if not isinstance(doc, str) or ">>>" not in doc:
                continue
            api = f"{prefix}.{name}"
            for bi, block in enumerate(parse_blocks(doc)):
                key = hashlib.sha1("\n".join(s["src"] for s in block).encode()).hexdigest()
                if key in seen:
                    continue
                seen.add(key)
                kept, why = apply_directives(block)
                ex_id = f"{api}#{bi}"
                if kept is None:
                    skipped.append({"id": ex_id, "reason": why})
                    continue
                examples.append({"id": ex_id, "api": api, "module": mod_key.split(":")[0],
                                 "stmts": kept})
    return {"examples": examples, "skipped": skipped}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    data = harvest()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(data, f, indent=0)
    print(f"{len(data['examples'])} examples, {len(data['skipped'])} skipped -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
