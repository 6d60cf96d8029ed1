"""The interpreter's prebuilt argument builders give what the generic template fill gives."""
import torch

from pagaie._static.interpreter import _fill, _filler, _Slot


def test_filler_matches_fill_on_nested_templates():
    slots = [torch.tensor(float(i)) for i in range(6)]
    templates = [
        _Slot(3),
        (_Slot(0), 2.5, None, "mean"),
        (_Slot(1), _Slot(2)),
        ([_Slot(4), _Slot(5)], 0),
        {"axis": [0, 1], "weight": _Slot(2), "name": None},
        ((1, 2), {"a": (_Slot(0), [3])}),
        (1, 2, 3),
        7,
    ]
    for t in templates:
        want, got = _fill(t, slots), _filler(t)(slots)
        assert type(got) is type(want) and repr(got) == repr(want), t


def test_lists_and_dicts_are_new_objects_on_every_call():
    # a kernel that changes a list or dict argument must not change the next call's
    t = ([1, 2], {"k": [3]}, _Slot(0))
    fill = _filler(t)
    first = fill([torch.zeros(1)])
    first[0].append(99)
    first[1]["k"].append(98)
    second = fill([torch.zeros(1)])
    assert second[0] == [1, 2] and second[1] == {"k": [3]}
