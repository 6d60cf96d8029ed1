"""A protobuf schema for Paddle's legacy program files (``.pdmodel``), built at import time.

The legacy file is one serialized ``ProgramDesc`` message. Only the fields a reader
needs are declared here; every field is ``optional`` (proto2) and enumerations are
plain integers, so unknown values or fields added by newer writers never make the
parse fail. The schema is written from the wire layout itself:

- ``ProgramDesc``: 1 blocks (repeated ``BlockDesc``)
- ``BlockDesc``: 1 idx, 2 parent_idx, 3 vars (``VarDesc``), 4 ops (``OpDesc``)
- ``VarDesc``: 1 name, 2 type (``VarType``), 3 persistable, 6 stop_gradient
- ``VarType``: 1 type code, 3 dense tensor description (``DenseTensorDesc``)
- ``DenseTensorDesc``: 1 tensor (``TensorDesc``), 2 lod level
- ``TensorDesc``: 1 data type code, 2 dims
- ``OpDesc``: 1 inputs, 2 outputs (``Slot``: 1 parameter name, 2 argument names),
  3 type, 4 attrs (``Attr``)
- ``Attr``: 1 name, 2 kind, then one value field per kind (see :data:`ATTR_FIELDS`)
- ``Scalar``: 1 kind, 2 bool, 3 int, 4 float, 5 complex (``Complex``: 1 real, 2 imag)
"""
from __future__ import annotations

from typing import Any

__all__ = ["ProgramDesc", "ATTR_FIELDS", "scalar_value"]

# (message, [(field name, number, kind, repeated, message type)]) in dependency order.
_OPT, _REP = 1, 3
_T = {"int32": 5, "int64": 3, "float": 2, "double": 1, "bool": 8, "string": 9, "message": 11}
_SCHEMA = [
    ("Complex", [("r", 1, "double", False, None), ("i", 2, "double", False, None)]),
    ("Scalar", [("kind", 1, "int32", False, None), ("b", 2, "bool", False, None),
                ("i", 3, "int64", False, None), ("r", 4, "double", False, None),
                ("c", 5, "message", False, "Complex")]),
    ("TensorDesc", [("data_type", 1, "int32", False, None), ("dims", 2, "int64", True, None)]),
    ("DenseTensorDesc", [("tensor", 1, "message", False, "TensorDesc"),
                         ("lod_level", 2, "int32", False, None)]),
    ("VarType", [("type", 1, "int32", False, None),
                 ("dense_tensor", 3, "message", False, "DenseTensorDesc")]),
    ("Attr", [("name", 1, "string", False, None), ("kind", 2, "int32", False, None),
              ("i", 3, "int32", False, None), ("f", 4, "float", False, None),
              ("s", 5, "string", False, None), ("ints", 6, "int32", True, None),
              ("floats", 7, "float", True, None), ("strings", 8, "string", True, None),
              ("b", 10, "bool", False, None), ("bools", 11, "bool", True, None),
              ("block_idx", 12, "int32", False, None), ("l", 13, "int64", False, None),
              ("blocks_idx", 14, "int32", True, None), ("longs", 15, "int64", True, None),
              ("float64s", 16, "double", True, None), ("var_name", 17, "string", False, None),
              ("vars_name", 18, "string", True, None), ("float64", 19, "double", False, None),
              ("scalar", 20, "message", False, "Scalar"),
              ("scalars", 21, "message", True, "Scalar")]),
    ("Slot", [("parameter", 1, "string", False, None), ("arguments", 2, "string", True, None)]),
    ("OpDesc", [("inputs", 1, "message", True, "Slot"), ("outputs", 2, "message", True, "Slot"),
                ("type", 3, "string", False, None), ("attrs", 4, "message", True, "Attr")]),
    ("VarDesc", [("name", 1, "string", False, None), ("type", 2, "message", False, "VarType"),
                 ("persistable", 3, "bool", False, None),
                 ("stop_gradient", 6, "bool", False, None)]),
    ("BlockDesc", [("idx", 1, "int32", False, None), ("parent_idx", 2, "int32", False, None),
                   ("vars", 3, "message", True, "VarDesc"), ("ops", 4, "message", True, "OpDesc")]),
    ("ProgramDesc", [("blocks", 1, "message", True, "BlockDesc")]),
]

# Attribute kind -> the field holding its value.
ATTR_FIELDS = {0: "i", 1: "f", 2: "s", 3: "ints", 4: "floats", 5: "strings", 6: "b", 7: "bools",
               8: "block_idx", 9: "l", 10: "blocks_idx", 11: "longs", 12: "float64s",
               13: "var_name", 14: "vars_name", 15: "float64", 16: "scalar", 17: "scalars"}


def _build() -> Any:
    from google.protobuf import descriptor_pb2, descriptor_pool
    try:
        from google.protobuf.message_factory import GetMessageClass
    except ImportError:  # protobuf < 4
        from google.protobuf.message_factory import MessageFactory
        GetMessageClass = MessageFactory().GetPrototype  # noqa: N806

    fdp = descriptor_pb2.FileDescriptorProto(name="pagaie_paddle_framework.proto",
                                             package="pagaie_paddle", syntax="proto2")
    for msg, fields in _SCHEMA:
        m = fdp.message_type.add(name=msg)
        for fname, number, kind, repeated, mtype in fields:
            f = m.field.add(name=fname, number=number, type=_T[kind], label=_REP if repeated else _OPT)
            if mtype:
                f.type_name = f".pagaie_paddle.{mtype}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return GetMessageClass(pool.FindMessageTypeByName("pagaie_paddle.ProgramDesc"))


ProgramDesc = _build()


def scalar_value(s: Any) -> Any:
    """The Python value of a ``Scalar`` message."""
    kind = s.kind
    if kind == 1:
        return bool(s.b)
    if kind == 2:
        return int(s.i)
    if kind == 4:
        return complex(s.c.r, s.c.i)
    return float(s.r)
