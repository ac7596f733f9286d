"""The user guide's page "From PyTorch and experiment trackers" runs as written.

Its examples are code blocks, not doctests (the docs' doctests run without
torch): this test runs them, in order, in one namespace.
"""

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "doc/user_guide/torch_and_trackers.rst"

for module in ("torch", "torchmetrics", "mlflow", "wandb"):
    pytest.importorskip(
        module,
        reason=f"the page's examples need {module}: "
        "pip install 'sklearn-mlcm[torch,mlflow,wandb]'",
    )


def _python_blocks(text):
    """The ``.. code-block:: python`` blocks of an rst page, dedented."""
    blocks = []
    for match in re.finditer(
        r"^\.\. code-block:: python\n\n((?:    .*\n|\n)+)", text, flags=re.M
    ):
        lines = match.group(1).splitlines()
        blocks.append("\n".join(line[4:] for line in lines) + "\n")
    return blocks


@pytest.mark.filterwarnings("ignore:The ``noload`` loader strategy is deprecated")
def test_torch_and_trackers_page_runs(tmp_path, monkeypatch):
    """Every Python block of the page runs, its assertions hold."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.setenv("WANDB_MODE", "offline")  # the page sets it too
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # the page's Array API section
    blocks = _python_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    namespace = {}
    try:
        for block in blocks:
            exec(compile(block, str(PAGE), "exec"), namespace)
    finally:
        import wandb

        wandb.teardown()
    assert namespace["report"].n_samples == 9
