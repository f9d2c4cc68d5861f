"""The API reference (issue #33): every public function, transform and layer documents each of
its arguments in an Args section, layers show their transform's real signature, and the Sphinx
reference (docs/api) builds with warnings as errors."""
import inspect
import os
import re
import subprocess
import sys

import pytest

import tfgpuaug as tga
from tfgpuaug import augment, data, keras as tga_keras

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Arguments every op wrapper takes that TensorFlow documents (the op's name in the graph).
CONVENTIONAL = {"self", "name", "args", "kwargs"}


def _public_callables():
    for module, names in ((tga, tga.__all__), (augment, augment.__all__), (data, data.__all__)):
        for name in names:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or (inspect.isclass(obj) and issubclass(obj, tga.Transform)):
                yield f"{module.__name__}.{name}", obj


def _documented_args(doc: str) -> set:
    """Names in the Args section, including `a, b: ...` lines that document two at once."""
    section = re.search(r"\n\s*Args:\n(.*?)(?:\n\s*\n\s*[A-Z][a-z]+:\n|\Z)", doc, re.S)
    if not section:
        return set()
    names = set()
    for line in section.group(1).splitlines():
        m = re.match(r"\s+([A-Za-z_][\w, ]*):", line)
        if m:
            names.update(n.strip() for n in m.group(1).split(","))
    return names


PUBLIC = dict(_public_callables())


@pytest.mark.parametrize("qualname", sorted(PUBLIC))
def test_every_argument_is_documented(qualname):
    obj = PUBLIC[qualname]
    if obj is tga.Transform:
        pytest.skip("the base class documents its attributes")
    target = obj.__init__ if inspect.isclass(obj) else obj
    params = [p for p in inspect.signature(target).parameters if p not in CONVENTIONAL and not p.startswith("_")]
    doc = inspect.getdoc(obj) or ""
    missing = [p for p in params if p not in _documented_args("\n" + doc)]
    assert not missing, f"{qualname}: no Args entry for {missing}"


@pytest.mark.parametrize("layer", [cls.__name__ for cls in tga_keras.LAYERS] + ["LetterboxWithInfo"])
def test_layers_have_their_transforms_signature(layer):
    """help() and IDEs show a layer's arguments (it was `(*args, **kwargs)` before)."""
    cls = getattr(tga_keras, layer)
    params = inspect.signature(cls).parameters
    transform = inspect.signature(cls.transform_class.__init__).parameters
    own = [p for p in transform if p != "self"]
    extra = (["height", "width"] if "size" in own else []) + ["value_range", "bounding_box_format", "name", "dtype"]
    assert list(params) == own + [p for p in extra if p not in own]
    assert "name" in params and ("Args:" in (cls.__doc__ or "") or not own)  # no arguments: no Args section


def test_a_misspelt_argument_names_the_public_class():
    with pytest.raises(TypeError, match=r"RandAugment.__init__\(\) got an unexpected keyword argument 'magnitud'"):
        tga.RandAugment(magnitud=3)


def test_the_sphinx_reference_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          os.path.join(ROOT, "docs", "api"), str(tmp_path)],
                         capture_output=True, text=True, timeout=300, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    warnings = [line for line in run.stderr.splitlines() if ": WARNING:" in line or ": ERROR" in line]
    assert run.returncode == 0 and not warnings, "\n".join(warnings) or run.stderr[-2000:]
    html = (tmp_path / "transforms.html").read_text()
    assert "RandomResizedCrop" in html and "max_dct_denom" in html
