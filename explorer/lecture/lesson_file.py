"""Lesson files: a teacher's prepared views, replayed slide by slide (lecture mode, issue 21).

A lesson is a small JSON file a person can read and edit:

    {"format": "attention-explorer-lesson", "version": 1,
     "slides": [{"title": "Who looks at whom", "sentence": "I have no time.", "beam": 4,
                 "view": "head", "kind": "cross", "layer": 4, "head": 5}]}

Layers and heads count from 1, as the window shows them. Optional per slide: "title", "beam" (1–8,
default 4), "mean" (the mean over heads), "cell" ([query, key], 0-based as the formula walkthrough
numbers them: the cell it works when its dock is open), "position" and "shift" (the clock view's),
"step" (the Step by step tab's decoding step, from 1; view "steps").
Optional for the whole lesson: "model", the built-in model it was made with ("en-zh") or the Hub model
("Helsinki-NLP/opus-mt-en-zh", from the Hugging Face cache): the player opens that model first, so a
lesson on "I love apples." → "我爱苹果。" never plays on the German model.
Reading checks the whole file, and the layers and heads against the model in use, before anything
changes, and says what is wrong in one line. Writing is atomic (model.files.write_atomic): a crash
leaves the old lesson or the new one. Nothing here imports Qt.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

from model.files import write_atomic
from model.records import KINDS
from model.safe_json import loads

FORMAT = "attention-explorer-lesson"
VERSION = 1
VIEWS = ("head", "grid", "lines", "pe", "clock", "steps")  # explorer.window.display.VIEWS
MAX_SENTENCE = 2000  # characters; a lesson is for a class, not a corpus
MAX_BEAM = 8  # the translate panel's limit
MAX_BYTES = 1 << 20  # a lesson of a thousand slides is ~200 kB; a 3 GiB file is not read whole to find out


class LessonError(ValueError):
    """A lesson file that cannot be used; the message is one line for a person."""


@dataclass(frozen=True)
class Slide:
    """One view to return to. ``layer`` and ``head`` are 1-based, as in the file."""

    sentence: str
    view: str
    kind: str
    layer: int
    head: int
    mean: bool = False
    beam: int = 4
    title: str = ""
    cell: tuple[int, int] | None = None  # the formula walkthrough's (query, key), 0-based
    position: int | None = None  # the clock view's position and shift k
    shift: int | None = None
    step: int | None = None  # the Step tab's decoding step, 1-based as its slider shows it

    def to_dict(self) -> dict:
        """The slide as written to the file: defaults and unset optional fields left out."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("sentence", "view", "kind", "layer", "head") or value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


def _int(slide: dict, name: str, lo: int, hi: int | None, where: str) -> int | None:
    value = slide.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise LessonError(f"{where}: '{name}' must be a whole number, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        raise LessonError(f"{where}: '{name}' {value} is out of range ({lo}–{hi if hi is not None else '…'})")
    return value


def parse_slide(raw, index: int, n_layers: int, n_heads: int) -> Slide:
    """Check one slide (``index`` 0-based) against the model's ``n_layers`` and ``n_heads``."""
    where = f"slide {index + 1}"
    if not isinstance(raw, dict):
        raise LessonError(f"{where} is not an object of fields")
    missing = [name for name in ("sentence", "view", "kind", "layer", "head") if name not in raw]
    if missing:
        raise LessonError(f"{where} lacks {', '.join(repr(m) for m in missing)}")
    sentence, title = raw["sentence"], raw.get("title", "")
    if not isinstance(sentence, str) or not sentence.strip() or len(sentence) > MAX_SENTENCE:
        raise LessonError(f"{where}: 'sentence' must be a text of 1–{MAX_SENTENCE} characters")
    if not isinstance(title, str):
        raise LessonError(f"{where}: 'title' must be a text")
    if raw["view"] not in VIEWS:
        raise LessonError(f"{where}: unknown view {raw['view']!r}; expected one of {', '.join(VIEWS)}")
    if raw["kind"] not in KINDS:
        raise LessonError(f"{where}: unknown attention kind {raw['kind']!r}; expected one of {', '.join(KINDS)}")
    for name, limit, noun in (("layer", n_layers, "layers"), ("head", n_heads, "heads")):
        value = raw[name]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= limit:
            raise LessonError(f"{where}: {name} {value!r} is out of range: the model has {limit} {noun} "
                              "(numbered from 1)")
    if not isinstance(raw.get("mean", False), bool):
        raise LessonError(f"{where}: 'mean' must be true or false")
    cell = raw.get("cell")
    if cell is not None and not (isinstance(cell, list) and len(cell) == 2 and all(
            isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in cell)):
        raise LessonError(f"{where}: 'cell' must be [query, key], two whole numbers from 0")
    beam = _int(raw, "beam", 1, MAX_BEAM, where)
    return Slide(sentence=sentence.strip(), view=raw["view"], kind=raw["kind"], layer=raw["layer"],
                 head=raw["head"], mean=raw.get("mean", False), beam=4 if beam is None else beam,
                 title=title, cell=tuple(cell) if cell is not None else None,
                 position=_int(raw, "position", 0, None, where), shift=_int(raw, "shift", 1, None, where),
                 step=_int(raw, "step", 1, None, where))


def _data(text: str) -> dict:
    """The lesson's JSON object: depth, number sizes and syntax checked (model.safe_json), one line each."""
    try:
        data = loads(text, "@", LessonError, max_depth=8)
    except LessonError as exc:
        why = str(exc).replace("@ is not valid JSON", "not JSON").replace("@ is not a file of this app: ", "")
        raise LessonError(f"not a lesson file: {why}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LessonError(f"not a lesson file: it lacks \"format\": \"{FORMAT}\"")
    return data


def lesson_model(text: str) -> str:
    """The model a lesson was made with (``"model": "en-zh"`` or a Hub repository id), or "" when it names
    none."""
    model = _data(text).get("model", "")
    if not isinstance(model, str) or len(model) > 200:
        raise LessonError("'model' must name a built-in model, e.g. \"en-zh\", or a Hub model, e.g. "
                          "\"Helsinki-NLP/opus-mt-en-zh\"")
    return model


def parse_lesson(text: str, n_layers: int, n_heads: int) -> tuple[Slide, ...]:
    """Every slide of a lesson file's text, or LessonError naming the first problem."""
    data = _data(text)
    version = data.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        raise LessonError(f"lesson format version {version!r} "
                          + (f"is newer than this app reads ({VERSION}): update the app" if newer
                             else f"is not one this app reads ({VERSION})"))
    slides = data.get("slides")
    if not isinstance(slides, list) or not slides:
        raise LessonError("the lesson has no slides (\"slides\" must be a non-empty list)")
    return tuple(parse_slide(raw, i, n_layers, n_heads) for i, raw in enumerate(slides))


def read_lesson_text(path: Path | str) -> str:
    """The lesson file's text, read only when it is of a lesson's size and UTF-8."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise LessonError(f"{path.name}: is a folder, not a lesson file")
        if size > MAX_BYTES:
            raise LessonError(f"{path.name}: {size / 2**20:.0f} MiB is too large for a lesson file (at most "
                              f"{MAX_BYTES // 2**20} MiB); it was not read")
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise LessonError(f"{path.name}: no such file") from None
    except UnicodeDecodeError:
        raise LessonError(f"{path.name}: not a lesson file: not UTF-8 text") from None
    except OSError as exc:
        raise LessonError(f"{path.name}: cannot be read ({exc.strerror or exc})") from None


def read_lesson_model(path: Path | str) -> str:
    """``lesson_model`` of the file at ``path``; LessonError's message starts with the file's name."""
    path = Path(path)
    text = read_lesson_text(path)
    try:
        return lesson_model(text)
    except LessonError as exc:
        raise LessonError(f"{path.name}: {exc}") from None


def read_lesson(path: Path | str, n_layers: int, n_heads: int) -> tuple[Slide, ...]:
    """The slides of the lesson at ``path``; LessonError's message starts with the file's name."""
    path = Path(path)
    text = read_lesson_text(path)
    try:
        return parse_lesson(text, n_layers, n_heads)
    except LessonError as exc:
        raise LessonError(f"{path.name}: {exc}") from None


def dump_lesson(slides, model: str = "") -> str:
    head = {"format": FORMAT, "version": VERSION, **({"model": model} if model else {})}
    return json.dumps({**head, "slides": [s.to_dict() for s in slides]}, indent=2, ensure_ascii=False) + "\n"


def append_slide(path: Path | str, slide: Slide, n_layers: int, n_heads: int, model: str = "") -> int:
    """Add ``slide`` at the end of the lesson at ``path`` (a new lesson when there is no file); returns
    the number of slides now. A file that is there but not a valid lesson is left as it is. ``model``: the
    built-in model in use, recorded for a new lesson (an existing one keeps its own)."""
    path = Path(path)
    slides = read_lesson(path, n_layers, n_heads) if path.exists() else ()
    if path.exists():
        model = read_lesson_model(path)
    write_atomic(path, dump_lesson((*slides, slide), model))
    return len(slides) + 1
