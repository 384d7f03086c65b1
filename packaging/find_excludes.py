"""Write packaging/bundle-excludes.txt: the library modules the app never imports, for PyInstaller to skip.

Why: ``import torch`` alone loads about 1,100 of torch's 2,300 modules (and 400 of sympy's), and the stock
torch hook asks PyInstaller to analyse *all* of them, plus everything they import (jinja2, the inductor's
code generators, ONNX export, ...). On a busy 2-core machine that analysis ran for more than 30 minutes
without finishing. Guessing which sub-packages are unused is how bundles break at run time, so this
script measures instead: it runs the app's real paths (translate, a window ``--screenshot``, a few steps
of training and a translation with the trained model) in child processes, records ``sys.modules`` at the
end of each, and lists every third-party package or module that none of them imported, as the largest
unused sub-trees (``torch._inductor.codegen``, not each of its files).

Run it again after upgrading torch, PySide6, pyqtgraph or numpy, and after adding a feature that needs a
library module the runs below do not reach; then ``make bundle bundle-check``.

    python3 packaging/find_excludes.py            # about 30 s of CPU; writes packaging/bundle-excludes.txt
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "packaging" / "bundle-excludes.txt"
OWN = {"model", "explorer", "attention_explorer", "benchmarks", "tests", "packaging"}

# A child process: run the app's main() with these arguments, then write sys.modules to a file.
RECORD = """
import sys
sys.path.insert(0, sys.argv[1])
out, argv = sys.argv[2], sys.argv[3:]
from explorer.app import main
sys.argv = ["attention-explorer", *argv]
try:
    code = main()
except SystemExit as e:
    code = e.code
with open(out, "w") as f:
    f.write("\\n".join(sorted(sys.modules)))
sys.exit(code)
"""


def runs(tmp: Path) -> list[list[str]]:
    """The app paths whose imports the bundle must hold."""
    run = tmp / "run"
    return [["translate", "I love apples."],
            ["--screenshot", str(tmp / "shot.png"), "--sentence", "I love apples.", "--size", "800x600"],
            ["train", "--task", "reverse", "--preset", "tiny", "--max-steps", "4", "--valid-every", "2",
             "--checkpoint-every", "2", "--out", str(run)],
            ["--model", str(run), "--screenshot", str(tmp / "shot2.png"), "--sentence", "1 2 3"],
            ["translate", "--model", str(run), "3 1 2"],
            # The Hub stack (huggingface_hub, its HTTP client, tqdm): a listing that a loopback server
            # answers with 404, so the run ends in the one-line refusal (exit 2) without any network.
            ["get-model", "nobody/nothing"]]


EXPECTED_EXIT = {"get-model": 2}


def loaded_modules() -> set[str]:
    names: set[str] = set()
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    class NoSuchRepo(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            self.send_response(404)
            self.send_header("X-Error-Code", "RepoNotFound")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), NoSuchRepo)
    Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "OMP_NUM_THREADS": "1",
           "HF_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}"}
    with tempfile.TemporaryDirectory() as tmp:
        for i, argv in enumerate(runs(Path(tmp))):
            out = Path(tmp) / f"modules-{i}.txt"
            r = subprocess.run([sys.executable, "-c", RECORD, str(ROOT), str(out), *argv], cwd=tmp, env=env,
                               capture_output=True, text=True)
            if r.returncode != EXPECTED_EXIT.get(argv[0], 0):
                sys.exit(f"find_excludes: `{' '.join(argv)}` failed ({r.returncode}): {r.stderr.strip()[-500:]}")
            names |= set(out.read_text().split())
    return names


def children(folder: Path) -> dict[str, Path]:
    """Importable names directly inside a package folder: modules, extensions and sub-packages."""
    found: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.is_dir() and (p / "__init__.py").is_file():
            found[p.name] = p
        elif p.is_file() and p.suffix in (".py", ".so") and p.name != "__init__.py" and p.name.isascii():
            found[p.name.split(".")[0]] = p
    return found


def unused_subtrees(name: str, path: Path, loaded: set[str]) -> list[str]:
    """The largest sub-trees of package ``name`` of which no module was imported."""
    out = []
    for child, p in children(path).items():
        full = f"{name}.{child}"
        used = full in loaded or any(m.startswith(full + ".") for m in loaded)
        if not used:
            out.append(full)
        elif p.is_dir():
            out += unused_subtrees(full, p, loaded)
    return out


def main() -> int:
    loaded = loaded_modules()
    site = Path(sysconfig.get_paths()["purelib"])
    excludes = []
    for top, p in children(site).items():
        if top in OWN or top.startswith("_") or not top.isidentifier():
            continue
        if top not in loaded:
            excludes.append(top)  # a whole library the app never imports (jinja2, OpenGL, scipy, ...)
        elif p.is_dir():
            excludes += unused_subtrees(top, p, loaded)
    # An entry for a package this environment lacks (IPython, boto3 on another developer's machine) is
    # kept from the previous list: it is still right where that package is installed.
    import importlib.util  # noqa: PLC0415

    def installed(name: str) -> bool:
        try:
            return importlib.util.find_spec(name.split(".")[0]) is not None
        except (ImportError, ValueError):
            return False

    previous = OUT.read_text(encoding="utf-8").splitlines()[1:] if OUT.is_file() else []
    excludes = sorted(set(excludes) | {e for e in previous if e and not e.startswith("#") and not installed(e)})
    import torch  # noqa: PLC0415 - only for the header: the list belongs to this torch

    header = (f"# Written by packaging/find_excludes.py for torch {torch.__version__}, Python "
              f"{sys.version.split()[0]}: modules no run of the app imported (and the previous list's entries for "
              "packages not installed here). Regenerate after upgrades.\n")
    OUT.write_text(header + "\n".join(sorted(excludes)) + "\n", encoding="utf-8")
    print(f"{len(excludes)} excludes ({len(loaded)} modules loaded) -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
