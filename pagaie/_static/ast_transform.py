"""Source-to-source conversion of Python control flow for ``paddle.jit.to_static``.

``to_static`` traces a function with symbolic inputs; plain Python ``if``/``while``
cannot branch on a symbolic value. :func:`convert_function` rewrites a function's
source (``inspect.getsource`` + ``ast``) so that control flow goes through the
runtime helpers of :mod:`pagaie._static.ast_runtime` (imported as ``_jst`` in the
generated code), which run plain Python when the condition is a Python value and
record ``pagaie.cond`` / ``pagaie.while`` graph ops when it is symbolic:

- ``return`` anywhere becomes a flag and a value (``__jst_rf``/``__jst_rv``), the
  statements after a possible return are guarded by ``if not __jst_rf``, and the
  function ends with a single ``return``;
- ``for x in range(...)`` / ``for x in <iterable or tensor>`` become ``while`` loops
  over an index; ``break``/``continue`` become flags in the loop condition and guards;
- ``if`` becomes ``_jst.convert_ifelse(pred, true_fn, false_fn, get, set, names)``
  where the branch functions assign the enclosing function's variables through
  ``nonlocal``, and ``get``/``set`` read and write the variables a branch may assign;
- ``while`` becomes ``_jst.convert_while_loop(cond_fn, body_fn, get, set, names)``;
- ``and``/``or``/``not``, ``a if c else b``, chained comparisons (``a < b < c``) and
  ``assert`` go through helpers (logical ops and run-time checks on symbolic values),
  ``x.shape`` through ``_jst.convert_shape`` (an unknown size bounds loops symbolically), every call through ``_jst.convert_call`` (so called user
  functions and Layers are converted too), ``print`` through ``_jst.convert_print`` and
  ``bool``/``int``/``float`` of one argument through ``_jst.convert_var_dtype`` and
  ``x.numpy()`` through ``_jst.convert_numpy``, ``len``, ``enumerate`` and ``zip``
  through ``_jst.convert_len`` / ``convert_enumerate`` / ``convert_zip`` (a tensor of unknown
  length).

Anything this module cannot rewrite raises :class:`ConversionError`; the caller
then runs the function unconverted (and the trace falls back to eager execution if
it meets data-dependent Python control flow).
"""
from __future__ import annotations

import ast
import copy
import gc
import inspect
import itertools
import textwrap
import types
from typing import Any, Callable

__all__ = ["ConversionError", "convert_function", "transform_source"]

_PREFIX = "__jst_"
_FN = "__jst_fn_"  # generated helper functions: never part of a branch's state
_RET_FLAG, _RET_VAL = "__jst_rf", "__jst_rv"


class ConversionError(Exception):
    """The function uses a construct the converter does not handle."""


# ---- small AST builders ------------------------------------------------------------------
def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _jst(attr: str) -> ast.Attribute:
    return ast.Attribute(value=_name("_jst"), attr=attr, ctx=ast.Load())


def _call(func: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[])


def _assign(target: str | ast.expr, value: ast.expr) -> ast.Assign:
    t = _name(target, True) if isinstance(target, str) else target
    return ast.Assign(targets=[t], value=value)


def _const(v: Any) -> ast.Constant:
    return ast.Constant(value=v)


def _not(e: ast.expr) -> ast.expr:
    return ast.UnaryOp(op=ast.Not(), operand=e)


def _funcdef(name: str, body: list, args: list[str] = ()) -> ast.FunctionDef:
    a = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in args], vararg=None,
                      kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=name, args=a, body=body or [ast.Pass()], decorator_list=[],
                           returns=None, type_comment=None, type_params=[])


def _lambda(body: ast.expr) -> ast.Lambda:
    a = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                      kwarg=None, defaults=[])
    return ast.Lambda(args=a, body=body)


def _located(nodes: list, ref: ast.AST) -> list:
    for n in nodes:
        for sub in ast.walk(n):
            if not hasattr(sub, "lineno") or getattr(sub, "lineno", None) is None:
                ast.copy_location(sub, ref)
    return nodes


# ---- analysis ----------------------------------------------------------------------------
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(nodes: list) -> Any:
    """Nodes of ``nodes`` without descending into nested scopes (yields the scope nodes)."""
    stack = list(reversed(nodes))
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(n))))


def assigned_names(nodes: list) -> list[str]:
    """Names the statements bind in the current scope (nested generated functions'
    ``nonlocal`` declarations count: they assign the enclosing variables)."""
    out: dict[str, None] = {}
    for n in _walk_scope(nodes):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out[n.id] = None
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[n.name] = None
            if isinstance(n, ast.FunctionDef):
                for st in ast.walk(n):
                    if isinstance(st, ast.Nonlocal):
                        for nm in st.names:
                            out[nm] = None
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                out[(a.asname or a.name).split(".")[0]] = None
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out[n.name] = None
        elif isinstance(n, ast.NamedExpr):
            out[n.target.id] = None
    return [k for k in out if not k.startswith(_FN)]


def _contains(nodes: list, kinds: tuple, stop_at_loops: bool) -> bool:
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, _SCOPES):
            continue
        if stop_at_loops and isinstance(n, (ast.For, ast.While, ast.AsyncFor)):
            stack.extend(n.orelse)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False


_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "add",
                       "setdefault", "popitem", "discard", "sort", "reverse"})


def _side_effects(nodes: list) -> tuple[bool, list[str]]:
    """(stores into attributes/items or in-place tensor calls?, names of containers mutated)."""
    impure, receivers = False, {}
    for n in _walk_scope(nodes):
        if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            impure = True
        elif isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Call) and isinstance(f.func, ast.Attribute) and \
                    f.func.attr == "convert_call" and f.args:
                f = f.args[0]  # already wrapped by the call conversion
            if not isinstance(f, ast.Attribute):
                continue
            if f.attr.endswith("_") and not f.attr.startswith("_"):
                impure = True  # x.add_(...), x.zero_(): in-place updates
            elif f.attr in _MUTATORS and isinstance(f.value, ast.Name):
                receivers[f.value.id] = None
    return impure, [r for r in receivers if not r.startswith(_PREFIX)]


def _always_returns(stmts: list) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


# ---- the function transformer ------------------------------------------------------------
class _FunctionConverter:
    """Rewrites one function scope (nested user functions get their own converter)."""

    def __init__(self, counter: itertools.count) -> None:
        self.counter = counter
        self.nonlocal_names: dict[str, None] = {}
        self.declared: set[str] = set()  # global/nonlocal in the user's function
        self.declared_global: set[str] = set()

    def fresh(self, what: str) -> str:
        return f"{_PREFIX}{what}_{next(self.counter)}"

    def fresh_fn(self, what: str) -> str:
        return f"{_FN}{what}_{next(self.counter)}"

    # -- entry -----------------------------------------------------------------------------
    def convert(self, fn: ast.FunctionDef) -> ast.FunctionDef:
        for n in _walk_scope(fn.body):
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
                raise ConversionError("generators and coroutines are not converted")
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                self.declared.update(n.names)
            if isinstance(n, ast.Global):
                self.declared_global.update(n.names)
            if isinstance(n, (ast.For, ast.While)) and n.orelse:
                raise ConversionError("loops with an 'else' clause are not converted")
            if isinstance(n, (ast.AsyncFor, ast.AsyncWith)):
                raise ConversionError("async statements are not converted")
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        params |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
        local = {n.id for n in _walk_scope(fn.body) if isinstance(n, ast.Name)
                 and isinstance(n.ctx, ast.Store)} - params - self.declared
        fn.body = _mark_side_effects(fn.body, local)
        # Nested user functions: their own scope.
        fn.body = self._nested(fn.body)
        body = self._returns(fn)
        body = self._loops(body)
        body = [_Expressions().visit(s) for s in body]
        body = self._control(body)
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        if fn.args.vararg:
            params.add(fn.args.vararg.arg)
        if fn.args.kwarg:
            params.add(fn.args.kwarg.arg)
        init = [_assign(n, _jst("UNDEFINED")) for n in self.nonlocal_names
                if n not in params and n not in self.declared]
        fn.body = _located(init, fn) + body
        fn.decorator_list = []
        return fn

    def _nested(self, stmts: list) -> list:
        for n in _walk_scope(stmts):
            if isinstance(n, ast.FunctionDef):
                try:
                    _FunctionConverter(self.counter).convert(n)
                except ConversionError:
                    pass  # left as written
        return stmts

    # -- returns ---------------------------------------------------------------------------
    def _returns(self, fn: ast.FunctionDef) -> list:
        body = fn.body
        nested_return = any(_contains([s], (ast.Return,), False) for s in body
                            if isinstance(s, (ast.If, ast.For, ast.While, ast.With, ast.Try)))
        if not nested_return:
            return body
        if not _always_returns(body):
            body = body + [ast.copy_location(ast.Return(value=None), body[-1])]
        new = [_assign(_RET_FLAG, _const(False)), _assign(_RET_VAL, _jst("UNDEFINED"))]
        new += self._ret_stmts(body, False)
        new.append(ast.Return(value=_call(_jst("return_value"), _name(_RET_VAL))))
        return _located(new, body[0])

    def _ret_stmts(self, stmts: list, in_loop: bool) -> list:
        out: list = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Return):
                val = s.value if s.value is not None else _const(None)
                out += _located([_assign(_RET_VAL, val), _assign(_RET_FLAG, _const(True))]
                                + ([ast.Break()] if in_loop else []), s)
                return out
            if not _contains([s], (ast.Return,), False) or isinstance(s, _SCOPES):
                out.append(s)
                continue
            is_loop = isinstance(s, (ast.For, ast.While))
            if isinstance(s, ast.If):
                s.body = self._ret_stmts(s.body, in_loop)
                s.orelse = self._ret_stmts(s.orelse, in_loop)
            elif is_loop:
                s.body = self._ret_stmts(s.body, True)
            elif isinstance(s, ast.With):
                s.body = self._ret_stmts(s.body, in_loop)
            elif isinstance(s, ast.Try):
                s.body = self._ret_stmts(s.body, in_loop)
                for h in s.handlers:
                    h.body = self._ret_stmts(h.body, in_loop)
                s.orelse = self._ret_stmts(s.orelse, in_loop)
                s.finalbody = self._ret_stmts(s.finalbody, in_loop)
            else:
                raise ConversionError(f"'return' inside {type(s).__name__} is not converted")
            out.append(s)
            rest = stmts[i + 1:]
            if in_loop:
                if is_loop:  # the inner loop only broke out of itself
                    out += _located([ast.If(test=_name(_RET_FLAG), body=[ast.Break()], orelse=[])], s)
                out += self._ret_stmts(rest, in_loop)
            elif rest:
                out += _located([ast.If(test=_not(_name(_RET_FLAG)),
                                        body=self._ret_stmts(rest, in_loop), orelse=[])], s)
            return out
        return out

    # -- loops (bottom-up): for -> while, break/continue -> flags --------------------------
    def _bottom_up(self, stmts: list, rules: tuple) -> list:
        """Rewrite the nested blocks of each statement first, then the statement itself with
        the first ``(type, method)`` rule it matches (the method returns the replacement
        statements); nested function and class scopes are left alone."""
        out: list = []
        for s in stmts:
            if isinstance(s, _SCOPES):
                out.append(s)
                continue
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self._bottom_up(getattr(s, field), rules))
            if isinstance(s, ast.Try):
                for h in s.handlers:
                    h.body = self._bottom_up(h.body, rules)
            rule = next((fn for kind, fn in rules if isinstance(s, kind)), None)
            out += rule(s) if rule is not None else [s]
        return out

    def _loops(self, stmts: list) -> list:
        return self._bottom_up(stmts, ((ast.While, self._while), (ast.For, self._for)))

    def _flags(self, body: list) -> tuple[str | None, str | None, list]:
        brk = self.fresh("brk") if _contains(body, (ast.Break,), True) else None
        cont = self.fresh("cont") if _contains(body, (ast.Continue,), True) else None
        if brk or cont:
            body = self._bc_stmts(body, brk, cont)
        if cont:
            body = [_assign(cont, _const(False))] + body
        return brk, cont, body

    def _guard(self, brk: str | None, cont: str | None) -> ast.expr:
        names = [n for n in (brk, cont) if n]
        test: ast.expr = _name(names[0]) if len(names) == 1 else \
            ast.BoolOp(op=ast.Or(), values=[_name(n) for n in names])
        return _not(test)

    def _bc_stmts(self, stmts: list, brk: str | None, cont: str | None) -> list:
        out: list = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Break):
                out.append(ast.copy_location(_assign(brk, _const(True)), s))
                return out
            if isinstance(s, ast.Continue):
                out.append(ast.copy_location(_assign(cont, _const(True)), s))
                return out
            if isinstance(s, _SCOPES) or isinstance(s, (ast.For, ast.While)) or \
                    not _contains([s], (ast.Break, ast.Continue), True):
                out.append(s)
                continue
            if isinstance(s, ast.If):
                s.body = self._bc_stmts(s.body, brk, cont)
                s.orelse = self._bc_stmts(s.orelse, brk, cont)
            elif isinstance(s, ast.With):
                s.body = self._bc_stmts(s.body, brk, cont)
            elif isinstance(s, ast.Try):
                s.body = self._bc_stmts(s.body, brk, cont)
                for h in s.handlers:
                    h.body = self._bc_stmts(h.body, brk, cont)
                s.orelse = self._bc_stmts(s.orelse, brk, cont)
            else:
                raise ConversionError(f"'break'/'continue' inside {type(s).__name__} is not converted")
            out.append(s)
            rest = stmts[i + 1:]
            if rest:
                out.append(ast.copy_location(ast.If(test=self._guard(brk, cont),
                                                    body=self._bc_stmts(rest, brk, cont), orelse=[]), s))
            return out
        return out

    def _while(self, s: ast.While) -> list:
        brk, _, body = self._flags(s.body)
        pre = []
        test = s.test
        if brk:
            pre.append(_assign(brk, _const(False)))
            test = ast.BoolOp(op=ast.And(), values=[test, _not(_name(brk))])
        return _located(pre + [ast.While(test=test, body=body, orelse=[])], s)

    def _for(self, s: ast.For) -> list:
        brk, _, body = self._flags(s.body)
        it, seq, n = self.fresh("it"), self.fresh("seq"), self.fresh("n")
        flag = _name(brk) if brk else _const(False)
        if brk:
            body = [ast.If(test=_not(_name(brk)), body=body, orelse=[])]
        pre = [_assign(brk, _const(False))] if brk else []
        itr = s.iter
        is_range = (isinstance(itr, ast.Call) and isinstance(itr.func, ast.Name) and itr.func.id == "range"
                    and not itr.keywords and 1 <= len(itr.args) <= 3
                    and not any(isinstance(a, ast.Starred) for a in itr.args))
        if is_range:
            pre.append(ast.Assign(targets=[ast.Tuple(elts=[_name(it, True), _name(n, True), _name(seq, True)],
                                                     ctx=ast.Store())],
                                  value=_call(_jst("range_args"), *itr.args)))
            test = _call(_jst("range_cond"), _name(it), _name(n), _name(seq), flag)
            head = [_assign(s.target, _name(it)),
                    _assign(it, ast.BinOp(left=_name(it), op=ast.Add(), right=_name(seq)))]
        else:
            pair = ast.Tuple(elts=[_name(seq, True), _name(n, True)], ctx=ast.Store())
            pre.append(ast.Assign(targets=[pair], value=_call(_jst("for_prepare"), itr)))
            pre.append(_assign(it, _const(0)))
            test = _call(_jst("for_cond"), _name(seq), _name(it), _name(n), flag)
            head = [_assign(s.target, _call(_jst("for_item"), _name(seq), _name(it))),
                    _assign(it, ast.BinOp(left=_name(it), op=ast.Add(), right=_const(1)))]
        return _located(pre + [ast.While(test=test, body=head + body, orelse=[])], s)

    # -- if / while -> runtime calls (bottom-up) -------------------------------------------
    def _state_fns(self, names: list[str]) -> tuple[list, str, str]:
        get_n, set_n = self.fresh_fn("get"), self.fresh_fn("set")
        tup = ast.Tuple(elts=[_name(n) for n in names], ctx=ast.Load())
        getter = _funcdef(get_n, [ast.Return(value=tup)])
        decl = self._decls(names)
        store = ast.Tuple(elts=[_name(n, True) for n in names], ctx=ast.Store())
        setter = _funcdef(set_n, decl + ([ast.Assign(targets=[store], value=_name("__jst_values"))]
                                         if names else [ast.Pass()]), ["__jst_values"])
        return [getter, setter], get_n, set_n

    def _decls(self, names: list[str]) -> list:
        glob = [n for n in names if n in self.declared_global]
        loc = [n for n in names if n not in self.declared_global]
        for n in loc:
            self.nonlocal_names.setdefault(n, None)
        out: list = []
        if glob:
            out.append(ast.Global(names=glob))
        if loc:
            out.append(ast.Nonlocal(names=loc))
        return out

    def _control(self, stmts: list) -> list:
        return self._bottom_up(stmts, ((ast.If, self._if), (ast.While, self._while_call)))

    def _if(self, s: ast.If) -> list:
        names = assigned_names(s.body + s.orelse)
        tn, fnn = self.fresh_fn("true"), self.fresh_fn("false")
        tdef = _funcdef(tn, self._decls(names) + s.body)
        fdef = _funcdef(fnn, self._decls(names) + (s.orelse or [ast.Pass()]))
        state, get_n, set_n = self._state_fns(names)
        call = ast.Expr(value=_call(_jst("convert_ifelse"), s.test, _name(tn), _name(fnn), _name(get_n),
                                    _name(set_n), ast.Tuple(elts=[_const(n) for n in names], ctx=ast.Load()),
                                    *self._effects(s.body + s.orelse)))
        return _located([tdef, fdef] + state + [call], s)

    def _effects(self, stmts: list) -> list:
        impure, receivers = _side_effects(stmts)
        mut = _lambda(ast.Tuple(elts=[_name(r) for r in receivers], ctx=ast.Load()))
        return [_const(not impure), mut]

    def _while_call(self, s: ast.While) -> list:
        names = assigned_names(s.body + [ast.Expr(value=s.test)])
        cn, bn = self.fresh_fn("cond"), self.fresh_fn("body")
        cdef = _funcdef(cn, [ast.Return(value=s.test)])
        bdef = _funcdef(bn, self._decls(names) + s.body)
        state, get_n, set_n = self._state_fns(names)
        call = ast.Expr(value=_call(_jst("convert_while_loop"), _name(cn), _name(bn), _name(get_n),
                                    _name(set_n), ast.Tuple(elts=[_const(n) for n in names], ctx=ast.Load()),
                                    *self._effects(s.body)))
        return _located([cdef, bdef] + state + [call], s)


_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                       "setdefault", "popitem", "add", "discard", "sort", "reverse"})


def _store_root(target: ast.expr) -> tuple:
    """``(object expression, attribute name or None, root name)`` of an attribute or item
    store (``a.b.c = v``: ``a.b``, ``'c'``, ``a``); ``(None, None, None)`` otherwise."""
    if not isinstance(target, (ast.Attribute, ast.Subscript)):
        return None, None, None
    root = target.value
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if not isinstance(root, ast.Name):
        return None, None, None
    return target.value, (target.attr if isinstance(target, ast.Attribute) else None), root.id


def _mark_side_effects(stmts: list, local: set) -> list:
    """Before each store into (or mutating method call on) an object the function does not
    own (reached from a parameter, a global or a closure variable), a
    ``_jst.note_side_effect(obj, attr)`` call: Paddle's default mode runs such Python side
    effects on every call, so a call's trace that meets one runs eagerly instead."""
    out: list = []
    for st in stmts:
        for field in ("body", "orelse", "finalbody"):
            if not isinstance(st, _SCOPES) and isinstance(getattr(st, field, None), list):
                setattr(st, field, _mark_side_effects(getattr(st, field), local))
        for h in getattr(st, "handlers", None) or []:
            h.body = _mark_side_effects(h.body, local)
        targets: list = []
        if isinstance(st, ast.Assign):
            targets = [t for t in st.targets]
        elif isinstance(st, (ast.AugAssign, ast.AnnAssign)):
            targets = [st.target]
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and st.value.func.attr in _MUTATORS:
            targets = [ast.Subscript(value=st.value.func.value, slice=_const(0), ctx=ast.Store())]
        for t in targets:
            obj, attr, root = _store_root(t)
            if obj is not None and root not in local and root != "_jst" and not root.startswith(_PREFIX):
                note = ast.Expr(value=_call(_jst("note_side_effect"), copy.deepcopy(obj), _const(attr)))
                out.append(ast.fix_missing_locations(ast.copy_location(note, st)))
                break
        out.append(st)
    return out


class _Expressions(ast.NodeTransformer):
    """``and``/``or``/``not``, conditional expressions, calls and ``print``."""

    _KEEP = frozenset({"super", "isinstance", "issubclass", "len", "range", "locals", "globals",
                       "vars", "type", "getattr", "setattr", "hasattr", "id", "iter", "next",
                       "enumerate", "zip", "list", "tuple", "dict", "set", "int", "float", "bool",
                       "str", "min", "max", "abs", "sum", "map", "filter", "sorted", "reversed",
                       "callable", "hash", "repr", "format", "object", "slice"})

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # nested scopes were converted on their own

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        helper = "convert_logical_and" if isinstance(node.op, ast.And) else "convert_logical_or"
        expr = node.values[-1]
        for v in reversed(node.values[:-1]):
            expr = _call(_jst(helper), _lambda(v), _lambda(expr))
        return ast.copy_location(expr, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call(_jst("convert_logical_not"), node.operand), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr == "shape" and isinstance(node.ctx, ast.Load):
            return ast.copy_location(_call(_jst("convert_shape"), node.value), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1:
            return node
        ops = ast.Tuple(elts=[_const(type(o).__name__) for o in node.ops], ctx=ast.Load())
        operands = ast.Tuple(elts=[_lambda(c) for c in node.comparators], ctx=ast.Load())
        return ast.copy_location(_call(_jst("convert_compare_chain"), _lambda(node.left), ops,
                                       operands), node)

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        self.generic_visit(node)
        msg = _lambda(node.msg) if node.msg is not None else _const(None)
        return ast.copy_location(ast.Expr(value=_call(_jst("convert_assert"), node.test, msg)), node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(_call(_jst("convert_ifexp"), node.test, _lambda(node.body),
                                       _lambda(node.orelse)), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name):
            if f.id == "print":
                node.func = _jst("convert_print")
                return node
            plain = not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
            if f.id == "len" and len(node.args) == 1 and plain:
                # ``len(x)`` of an unknown size: the shape op, as ``x.shape[0]``
                return ast.copy_location(_call(_jst("convert_len"), node.args[0]), node)
            if f.id == "zip" and not node.keywords:
                node.func = ast.copy_location(_jst("convert_zip"), f)
                return node
            if f.id == "enumerate" and not any(isinstance(a, ast.Starred) for a in node.args):
                # ``enumerate(x)`` of a symbolic tensor iterates as ``for`` over the tensor does
                node.func = ast.copy_location(_jst("convert_enumerate"), f)
                return node
            if f.id in ("bool", "int", "float") and len(node.args) == 1 and not node.keywords \
                    and not isinstance(node.args[0], ast.Starred):
                # ``float(x)`` of a symbolic tensor: a cast, as Paddle's AST mode does
                return ast.copy_location(_call(_jst("convert_var_dtype"), node.args[0],
                                               _const(f.id)), node)
            if f.id in self._KEEP or f.id.startswith(_PREFIX) or f.id == "_jst":
                return node
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "_jst":
            return node
        if isinstance(f, ast.Attribute) and f.attr == "numpy" and not node.args and not node.keywords:
            # ``x.numpy()`` of a symbolic tensor is the tensor itself with full_graph=True (Paddle's
            # AST mode drops the call)
            return ast.copy_location(_call(_jst("convert_numpy"), f.value), node)
        node.func = ast.copy_location(_call(_jst("convert_call"), f), f)
        return node


# ---- entry points ------------------------------------------------------------------------
def transform_source(tree: ast.FunctionDef) -> ast.FunctionDef:
    """Convert one parsed function definition in place (see the module docstring)."""
    return _FunctionConverter(itertools.count()).convert(tree)


def _parse(src: str) -> ast.Module:
    """``ast.parse``, held away from CPython 3.11's spurious SystemError ("AST constructor
    recursion depth mismatch"), seen when its depth bookkeeping is disturbed while it builds
    the tree: the collector is held off meanwhile and a failed parse is tried once more."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        try:
            return ast.parse(src)
        except SystemError:
            return ast.parse(src)
    finally:
        if enabled:
            gc.enable()


def _source_of(fn: Callable) -> tuple[ast.FunctionDef, str, int]:
    try:
        lines, first = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or "<unknown>"
    except (OSError, TypeError) as exc:
        raise ConversionError(f"the source of {fn.__qualname__} is not available ({exc})") from None
    src = textwrap.dedent("".join(lines))
    try:
        mod = _parse(src)
    except SyntaxError as exc:
        raise ConversionError(f"the source of {fn.__qualname__} does not parse alone ({exc})") from None
    if len(mod.body) != 1 or not isinstance(mod.body[0], ast.FunctionDef) or \
            mod.body[0].name != fn.__name__:
        raise ConversionError(f"{fn.__qualname__} is not a plain function definition")
    ast.increment_lineno(mod, first - 1)
    return mod.body[0], filename, first


_CACHE: dict[Any, Callable] = {}


def convert_function(fn: types.FunctionType, runtime: Any) -> Callable:
    """The converted version of plain function ``fn`` (cached per code object).

    Args:
        fn: a Python function (not a bound method).
        runtime: the module the generated code calls as ``_jst``.

    Raises:
        ConversionError: when the function cannot be converted.
    """
    # the source read is the innermost function's (inspect follows __wrapped__), so its
    # globals and closure are the ones to compile against (a keyword-alias wrapper's are not)
    fn = inspect.unwrap(fn)
    key = (fn.__code__, id(fn.__globals__))
    code = _CACHE.get(key)
    if code is None:
        tree, filename, _ = _source_of(fn)
        tree = transform_source(tree)
        freevars = list(fn.__code__.co_freevars)
        factory = _funcdef("__jst_factory", [tree, ast.Return(value=_name(tree.name))],
                           ["_jst"] + freevars)
        module = ast.Module(body=[factory], type_ignores=[])
        ast.fix_missing_locations(module)
        try:
            compiled = compile(module, filename, "exec")
        except SyntaxError as exc:
            raise ConversionError(f"the converted source of {fn.__qualname__} does not compile "
                                  f"({exc})") from None
        fac_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
        code = next(c for c in fac_code.co_consts if isinstance(c, types.CodeType) and c.co_name == tree.name)
        _CACHE[key] = code
        _SOURCES[code] = ast.unparse(tree)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["_jst"] = types.CellType(runtime)
    try:
        closure = tuple(cells[n] for n in code.co_freevars)
    except KeyError as exc:
        raise ConversionError(f"{fn.__qualname__}: unexpected free variable {exc}") from None
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__dict__.update(fn.__dict__)
    new.__jst_original__ = fn
    return new


_SOURCES: dict[types.CodeType, str] = {}


def converted_source(fn: Callable) -> str:
    """The source the converter generated for ``fn`` (for ``StaticFunction.code``)."""
    orig = getattr(fn, "__jst_original__", fn)
    code = _CACHE.get((orig.__code__, id(orig.__globals__)))
    return _SOURCES.get(code, "")
