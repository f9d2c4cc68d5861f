"""The library's graph code runs without AutoGraph: it is written with graph ops (tf.where,
tf.cond) and Python loops over Python values, so conversion changes nothing but the build time,
and converting every function a transform calls took most of a long pipeline's build (a
50-transform device stage built in 62 s, 122 s under a profiler with 106 in AutoGraph's
transpiler; 6.6 s without)."""
from __future__ import annotations

import inspect
import sys
from typing import Callable, TypeVar

import tensorflow as tf

F = TypeVar("F", bound=Callable)


def unconverted(fn: F) -> F:
    """`fn` as tf.data, tf.function and a user's converted code call it: without AutoGraph."""
    return tf.autograph.experimental.do_not_convert(fn)


def _in_library(entity) -> bool:
    return entity.__module__.split(".")[0] == "tfgpuaug"


def leave_unconverted(cls: type) -> None:
    """`cls`'s own `__call__` and `apply` (the entry points a user's `Dataset.map` or `tf.function`
    calls) run unconverted, with everything they call, where `cls` is the library's: a user's
    subclass keeps AutoGraph for its own code."""
    if not _in_library(cls):
        return
    for name in ("__call__", "apply"):
        method = cls.__dict__.get(name)
        if method is not None and not hasattr(method, "autograph_info__"):
            setattr(cls, name, unconverted(method))


def leave_functions_unconverted(namespace: dict) -> None:
    """The library's public functions bound in a package namespace (its `globals()`) run
    unconverted when a user's converted code calls them: three functional calls in a user's
    `Dataset.map` built in 1.8-2.0 s, 0.15 s unconverted. The wrapper keeps the function's
    name, docstring and signature (`__wrapped__`)."""
    for name, value in list(namespace.items()):
        if (not name.startswith("_") and inspect.isfunction(value) and not hasattr(value, "autograph_info__")
                and _in_library(value)):
            namespace[name] = unconverted(value)


def share_wrappers_with_submodules() -> None:
    """Where a loaded `tfgpuaug` module binds a function a package namespace exports, it binds
    the namespace's wrapper instead, so a user importing it from its submodule gets the same
    unconverted function. Rebinding, not wrapping each module's functions anew: a wrapper costs
    ~0.45 ms to make, and the package's modules define ~550 public functions."""
    modules = [module for name, module in list(sys.modules.items())
               if module is not None and (name == "tfgpuaug" or name.startswith("tfgpuaug."))]
    wrappers = {}
    for module in modules:
        for value in vars(module).values():
            if inspect.isfunction(value) and hasattr(value, "autograph_info__") and hasattr(value, "__wrapped__"):
                wrappers.setdefault(value.__wrapped__, value)
    for module in modules:
        for name, value in list(vars(module).items()):
            if inspect.isfunction(value) and value in wrappers:
                setattr(module, name, wrappers[value])
