"""PyInstaller hook for torch in the desktop bundle; it takes the place of pyinstaller-hooks-contrib's.

That hook lists every one of torch's ~2,300 modules as a hidden import, so PyInstaller analyses the
compiler stack (inductor, dynamo's backends), ONNX export, the test utilities and all they import; on this
project's busy 2-core machine that analysis never finished. This one lists only the torch modules that
no run of the app left unimported (packaging/bundle-excludes.txt, written by find_excludes.py), and only
the shared libraries of torch/lib (the CPU build has no CUDA libraries to find).
"""

from pathlib import Path

from PyInstaller.utils.hooks import collect_data_files, collect_submodules, get_package_paths

_EXCLUDES = Path(__file__).resolve().parents[1] / "bundle-excludes.txt"
_SKIP = tuple(line.strip() for line in _EXCLUDES.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#"))


def _kept(name: str) -> bool:
    return not any(name == s or name.startswith(s + ".") for s in _SKIP)


# torch reads its own sources at run time (TorchScript, inspect on decorated functions): keep the .py too.
module_collection_mode = "pyz+py"
warn_on_missing_hiddenimports = False

# Modules torch imports by name at run time (torch.ops, backends) that static analysis cannot see.
hiddenimports = collect_submodules("torch", filter=_kept)

_TORCH = Path(get_package_paths("torch")[1])
datas = [(src, dest) for src, dest in collect_data_files(
    "torch", excludes=["**/*.h", "**/*.hpp", "**/*.cuh", "**/*.cpp", "**/*.pyi", "**/*.cmake", "include/**",
                       "share/**"])
         if _kept(".".join(Path(dest).parts))]

# libtorch_global_deps and the other libraries torch loads with dlopen, which dependency analysis misses;
# not the libraries of torch's own C++ tests and examples (jitbackend_test, torchbind_test, ...).
_EXAMPLES = ("test", "backend_with_compiler", "aoti_custom_ops")
binaries = [(str(p), "torch/lib") for p in sorted((_TORCH / "lib").glob("*.so*"))
            if not any(word in p.name for word in _EXAMPLES)]

# Links to torch/lib's libraries at the bundle's top level make torch look for its libraries there.
bindepend_symlink_suppression = ["**/torch/lib/*.so*"]
