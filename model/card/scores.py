"""The card's measurements: sacrebleu BLEU and chrF of a model on held-out sentences, one change at a time.

Every number the card prints comes from ``measure``: the shipped model greedy and with beam search (α = 0.6
and 0), the run's last checkpoint alone, other models (baselines) on the same sentences, and further held-out
sets. ``floors`` turns the 100-sentence score into the test suite's floor.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from model.checkpoint import LoadedModel, load_model
from model.decoding.batches import translate_many
from model.decoding.decode import MAX_SOURCE_PIECES
from model.decoding.threads import eval_threads
from model.errors import UserError
from model.languages import bleu_tokenizer

PAPER_ALPHA = 0.6  # the length penalty of the paper's section 6.1


@dataclass(frozen=True)
class Score:
    label: str
    sentences: int
    beam: int
    alpha: float
    bleu: float
    chrf: float
    seconds: float
    tokenize: str = "13a"  # sacrebleu's BLEU tokenizer (model.languages.bleu_tokenizer)
    precision: str = "fp32"  # "int8": the int8 evaluation copy translated (model/decoding/int8_eval.py)


def score(loaded: LoadedModel, src: list[str], ref: list[str], beam: int = 1, alpha: float = PAPER_ALPHA,
          label: str = "", progress=None, tokenize: str | None = None, int8: bool = False,
          ) -> tuple[Score, list[str]]:
    """sacrebleu corpus BLEU and chrF of the model's translations of src. BLEU's tokenizer is ``tokenize``
    or the references' language's (``zh`` for Chinese, ``13a`` otherwise: see ``model.languages``).

    int8: translate with the int8 evaluation copy (``evaluate --int8``: ~3× faster with AVX-512 VNNI, its own
    translations, not the fp32 model's); a line past the model's limit is still translated whole in fp32."""
    import sacrebleu
    tokenize = tokenize or bleu_tokenizer(references=ref)
    t0 = time.perf_counter()
    model = loaded.model
    if int8:
        from model.decoding.int8_eval import evaluation_model
        model = evaluation_model(loaded.model)
        if model is None:
            raise UserError("--int8 needs a model on the CPU and PyTorch's int8 kernels, which this machine "
                            "lacks; evaluate without --int8")
    hyps = translate_many(model, loaded.tokenizer, src, beam_size=beam, alpha=alpha,
                          threads=eval_threads(), progress=progress)
    for i in too_long(loaded, src):  # cut at the model's limit above: translated whole, as text mode does
        hyps[i] = whole_line(loaded, src[i], beam, alpha)
    bleu = sacrebleu.corpus_bleu(hyps, [ref], tokenize=tokenize).score
    chrf = sacrebleu.corpus_chrf(hyps, [ref]).score
    return Score(label, len(src), beam, alpha, round(bleu, 2), round(chrf, 2),
                 round(time.perf_counter() - t0, 1), tokenize, "int8" if int8 else "fp32"), hyps


def too_long(loaded: LoadedModel, src: list[str]) -> list[int]:
    """The sources longer than the model takes at once (``MAX_SOURCE_PIECES``): ``translate_many`` keeps
    their first pieces only, as training's validation wants it, which would score a cut translation
    against a whole reference."""
    return [i for i, text in enumerate(src) if len(loaded.tokenizer.encode(text)) > MAX_SOURCE_PIECES]


def whole_line(loaded: LoadedModel, text: str, beam: int, alpha: float) -> str:
    """One long source line translated whole: its sentences, and a sentence past the limit in parts
    (model.paragraphs), joined as the target language writes them; on one line, as the reference is."""
    from model.languages import model_target
    from model.paragraphs.translate_text import translate_text
    result = translate_text(loaded, text, beam_size=beam, alpha=alpha, tgt_lang=model_target(loaded.path) or "de",
                            threads=eval_threads(), confidence=False)
    return result.text.replace("\n", " ")


def floors(s: Score) -> dict[str, float]:
    """Test floors from the 100-pair beam-4 score measured at ship time.

    Half the BLEU and 80% of the chrF: a broken load, tokenizer or decoder scores about 0 and fails, while
    float differences between CPU math libraries (which flip a few beam choices) stay far above the floor.
    """
    return {"bleu_100": round(0.5 * s.bleu, 1), "chrf_100": round(0.8 * s.chrf, 1)}


def baseline_key(i: int) -> str:
    return "baseline_greedy" if i == 0 else f"baseline{i + 1}_greedy"


def measure(model_dir: Path, raw_dir: Path | None, test_src: list[str], test_ref: list[str],
            beam_limit: int, baselines: list[tuple[Path, str]] | None = None,
            extra_sets: dict[str, tuple[list[str], list[str]]] | None = None, progress=None) -> dict[str, Score]:
    """The card's scores. Each comparison changes one thing against the shipped model on the same sentences.

    The first test set gets every comparison; each of ``extra_sets`` (another held-out test, e.g. the
    previous model's) gets greedy and beam 4 for the shipped model and greedy for each baseline, under keys
    prefixed with its name.
    """
    shipped = load_model(model_dir)
    n = min(beam_limit, len(test_src))
    src_b, ref_b = test_src[:n], test_ref[:n]
    label = "shipped (averaged)"
    greedy = score(shipped, test_src, test_ref, 1, label=label, progress=progress)[0]
    out = {
        "greedy": greedy,
        # Greedy on the beam rows' sentences: the same run when they are all the test sentences.
        "greedy_b": greedy if n == len(test_src) else score(shipped, src_b, ref_b, 1, label=label)[0],
        "beam": score(shipped, src_b, ref_b, 4, PAPER_ALPHA, label=label, progress=progress)[0],
        "beam_a0": score(shipped, src_b, ref_b, 4, 0.0, label=label, progress=progress)[0],
        "beam_100": score(shipped, test_src[:100], test_ref[:100], 4, PAPER_ALPHA, label=label)[0],
    }
    if raw_dir is not None:
        raw = load_model(raw_dir)
        out["raw_greedy"] = score(raw, test_src, test_ref, 1, label=f"last checkpoint alone ({raw_dir.name})")[0]
    others = [(load_model(folder), lbl) for folder, lbl in baselines or []]
    for i, (other, lbl) in enumerate(others):  # other models on the same sentences, e.g. the previously
        # shipped one: keys baseline_greedy, baseline2_greedy, ...
        out[baseline_key(i)] = score(other, test_src, test_ref, 1, label=lbl)[0]
    for name, (src, ref) in (extra_sets or {}).items():
        for i, (other, lbl) in enumerate(others):
            out[f"{name}_{baseline_key(i)}"] = score(other, src, ref, 1, label=lbl, progress=progress)[0]
        out[f"{name}_greedy"] = score(shipped, src, ref, 1, label=label, progress=progress)[0]
        out[f"{name}_beam"] = score(shipped, src, ref, 4, PAPER_ALPHA, label=label, progress=progress)[0]
    return out
