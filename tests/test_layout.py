"""The package's import graph: no cycle, and every module imports downward.

The layers, lowest first: the validation of parameters (``_param_validation``)
and of data (``_validation/``), the paper data, the result helpers and the
results' summaries and frames (``_summary``); the engine (``_mlcm/``); the
public functions on the matrix and how sure they are (``_uncertainty/``; the
accumulator's batch checks, ``_batch_checks``, beside it); the thresholds
(``_thresholds/``), the displays (``_plot/``) and the classifier comparison
(``compare/``); what a person reads and keeps (``_reporting/``: the report
object, its tables and page), which packages those; the public API
(``__init__``); the command line (``_cli/``, ``__main__``), which uses the
public API as a user would. A module may import from its own layer or a lower
one only; a folder is one room of one layer.
"""

import ast
from pathlib import Path

import pytest

import sklearn_mlcm

PACKAGE = Path(sklearn_mlcm.__file__).parent

LAYERS = [
    {"_param_validation", "_validation", "_paper_data", "_results", "_summary"},
    {"_mlcm"},
    {
        "_statistics",
        "_confusion",
        "_scores",
        "_report",
        "_accumulator",
        "_batch_checks",
        "_uncertainty",
    },
    {"_thresholds", "_plot", "compare"},
    {"_reporting"},
    {"__init__"},
    {"_cli", "__main__"},
]

#: At most this many modules directly in the package (``__init__`` and
#: ``__main__`` included); every other idea has a folder of its own.
MAX_ROOT_MODULES = 12

#: At most this many lines of code in a function (:func:`_code_lines`): a
#: longer one does several steps, each of which can be a function.
MAX_FUNCTION_LINES = 150

#: At most this many lines in a module: a longer one serves several callers.
MAX_MODULE_LINES = 1200


def _module_name(path):
    relative = path.relative_to(PACKAGE).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path):
    """The package modules imported by one file, as dotted names."""
    parts = _module_name(path).split(".")
    package = parts if path.name == "__init__.py" else parts[:-1]
    if path.name == "__init__.py" and path.parent == PACKAGE:
        package = []
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.startswith("sklearn_mlcm"):
                target = node.module.split(".")[1:]
            else:
                continue
            if not target:  # "from . import x" or "from sklearn_mlcm import x"
                target = ["__init__"]
            found.add(".".join(target))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sklearn_mlcm."):
                    found.add(alias.name.split(".", 1)[1])
    return found


def _graph():
    modules = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    graph = {}
    for name, path in modules.items():
        targets = set()
        for target in _imports(path):
            # "from ._mlcm._dispatch import x" -> the module _mlcm._dispatch
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def _layer(module):
    top = module.split(".")[0]
    for level, names in enumerate(LAYERS):
        if top in names:
            return level
    raise AssertionError(f"module {module} is in no layer of test_layout.LAYERS")


def test_import_graph_has_no_cycle():
    """No module imports, directly or not, a module that imports it."""
    graph = _graph()
    state = {}

    def visit(node, path):
        state[node] = "open"
        for target in graph[node]:
            if state.get(target) == "open":
                cycle = [*path[path.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])


def test_modules_import_downward():
    """A module imports from its own layer or a lower one only."""
    graph = _graph()
    upward = [
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if _layer(target) > _layer(module)
    ]
    assert not upward, upward


def test_engine_imports_only_validation():
    """The engine (_mlcm/) imports nothing from the public modules above it."""
    graph = _graph()
    for module, targets in graph.items():
        if module.startswith("_mlcm"):
            outside = {t.split(".")[0] for t in targets if not t.startswith("_mlcm")}
            assert outside <= {"_validation", "_param_validation"}, (module, outside)


def test_package_root_holds_few_modules():
    """The package's root holds at most MAX_ROOT_MODULES modules: a new idea
    gets a folder (or joins one) instead of another root module."""
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


def test_folders_say_what_they_hold():
    """Every folder's __init__.py has a docstring naming each of its modules
    and saying what the folder may import."""
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, init
        modules = [p.stem for p in init.parent.glob("_*.py") if p.stem != "__init__"]
        missing = [m for m in modules if f"``{m}``" not in doc and f"{m}`" not in doc]
        assert not missing, (init.parent.name, missing)
        assert "import" in doc, init


def test_every_module_is_in_a_layer():
    """A new top-level module must be placed in a layer of this test."""
    for module in _graph():
        _layer(module)


def _code_lines(function, lines):
    """The lines of code of ``function`` (an ``ast`` node of a module of
    ``lines``): those of its body, neither blank nor a comment, its docstring
    left out; the lines of the functions it defines count."""
    body = function.body
    if ast.get_docstring(function, clean=False) is not None:
        body = body[1:]
    if not body:
        return 0
    code = lines[body[0].lineno - 1 : function.end_lineno]
    return sum(1 for line in code if line.strip() and not line.strip().startswith("#"))


def _module_lines(path):
    return len(path.read_text(encoding="utf-8").splitlines())


def test_code_lines_leave_out_docstring_blanks_and_comments():
    """A function's lines of code are the lines of its body that hold code."""
    source = (
        "def f(a,\n"
        "      b):\n"
        '    """Doc.\n'
        "\n"
        '    More doc."""\n'
        "    # a comment\n"
        "    x = a\n"
        "\n"
        "    def g():\n"
        "        return b  # counted\n"
        "    return x + g()\n"
    )
    function = ast.parse(source).body[0]
    assert _code_lines(function, source.splitlines()) == 4


def test_functions_are_short():
    """No function has more than MAX_FUNCTION_LINES lines of code: a long one
    is split into its steps, each a function."""
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n_lines = _code_lines(node, lines)
                if n_lines > MAX_FUNCTION_LINES:
                    where = path.relative_to(PACKAGE.parent)
                    long.append(f"{where}:{node.lineno} {node.name}: {n_lines} lines")
    assert not long, long


def test_modules_are_short():
    """No module has more than MAX_MODULE_LINES lines: a long one serves
    several callers, and is split by them."""
    long = [
        f"{path.relative_to(PACKAGE.parent)}: {n_lines} lines"
        for path in sorted(PACKAGE.rglob("*.py"))
        if (n_lines := _module_lines(path)) > MAX_MODULE_LINES
    ]
    assert not long, long
