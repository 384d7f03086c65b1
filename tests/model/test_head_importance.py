"""Head importance (Michel et al. 2019) on the tiny reverse-task model: reproducible, equal to scoring
translations made one by one with the head removed, and the cache returns the same numbers."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from model.analysis.importance import head_importance
from model.checkpoint import load_model
from model.cli.commands import main
from model.decoding.ablation import parse_heads
from model.decoding.batches import translate_many
from tests.model.test_head_ablation import zeroed_by_hand

SRC = ["3 1 4 1 5", "9 2 6", "2 7 1 8 2", "5 3 5 8"]
REF = [" ".join(reversed(s.split())) for s in SRC]


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


@pytest.fixture(scope="module")
def first(loaded, tmp_path_factory):
    cache = tmp_path_factory.mktemp("importance") / "cache.json"
    calls = []
    result = head_importance(loaded, SRC, REF, progress=lambda d, t: calls.append((d, t)), cache=cache)
    return result, cache, calls


def _bleu_by_hand(loaded, spec):
    """Score of the model whose W^O columns for the heads in spec are zeroed (no head masks at all)."""
    cfg = loaded.config
    model = zeroed_by_hand(loaded.model, parse_heads(spec, cfg.n_layers, cfg.n_heads))
    hyps = translate_many(model, loaded.tokenizer, SRC, beam_size=1)
    return sacrebleu.corpus_bleu(hyps, [REF]).score, sacrebleu.corpus_chrf(hyps, [REF]).score


def test_importance_numbers(loaded, first):
    result, _, calls = first
    n = 3 * loaded.config.n_layers * loaded.config.n_heads
    assert result.sentences == 4 and not result.cached
    assert len(result.heads) == len(result.curve) == n
    # Reported after each group of ablations decoded together: rising to every pass.
    assert calls[-1] == (1 + 2 * n, 1 + 2 * n) and [d for d, _ in calls] == sorted({d for d, _ in calls})
    assert [h.head for h in result.heads[:2]] == ["enc:1.1", "enc:1.2"] and result.heads[-1].head == "cross:2.4"
    # The numbers equal scoring the model with the head's output zeroed by hand.
    assert (result.bleu, result.chrf) == pytest.approx(_bleu_by_hand(loaded, ""), abs=1e-3)
    worst = min(result.heads, key=lambda h: h.bleu)
    assert (worst.bleu, worst.chrf) == pytest.approx(_bleu_by_hand(loaded, worst.head), abs=1e-3)
    # The curve removes heads least important first, and its last point has every head removed.
    alone = {h.head: h.bleu for h in result.heads}
    assert [alone[h.head] for h in result.curve] == sorted(alone.values(), reverse=True)
    all_heads = ",".join(h.head for h in result.curve)
    assert result.curve[-1].bleu == pytest.approx(_bleu_by_hand(loaded, all_heads)[0], abs=1e-3)
    assert result.curve[0].bleu == max(alone.values())


def test_batched_ablation_gives_the_hypotheses_and_drops_of_one_at_a_time(loaded, first):
    """Many ablations as one batch (per-row head masks, a shared encoder pass) change nothing: the same
    hypotheses, string for string, and so the same BLEU drops, as removing one head at a time."""
    from model.analysis.batched_ablation import decode_ablations
    from model.analysis.importance import _score
    from model.decoding.ablation import head_masks
    cfg, model, tok = loaded.config, loaded.model, loaded.tokenizer
    # 70 sentences: two sentence batches (64 + 6), as translate_many makes them.
    texts = [" ".join(str((i * 7 + j * 3) % 10) for j in range(2 + i % 6)) for i in range(70)]
    ablations = [[], [("encoder", 0, 1)], [("decoder", 1, 2)], [("cross", 0, 0)], [("cross", 1, 3)],
                 [("encoder", 1, 3), ("cross", 0, 0)], [("decoder", 0, 0), ("decoder", 0, 1), ("cross", 1, 1)]]
    done = []
    batched = decode_ablations(model, tok, texts, ablations, rows=128, progress=done.append)  # 2 per group
    assert done[-1] == len(ablations) and len(done) == 4  # 4 without the encoder (2 groups), 3 with it (2)
    for removed, hyps in zip(ablations, batched):
        alone = translate_many(model, tok, texts, beam_size=1, head_masks=head_masks(removed, cfg.n_layers,
                                                                                     cfg.n_heads))
        assert hyps == alone, removed
    # head_importance's per-head scores are exactly those of translating with that head's mask alone.
    result, _, _ = first
    for h in result.heads:
        masks = head_masks(parse_heads(h.head, cfg.n_layers, cfg.n_heads), cfg.n_layers, cfg.n_heads)
        assert (h.bleu, h.chrf) == _score(translate_many(model, tok, SRC, beam_size=1, head_masks=masks), REF)


def test_reproducible_and_cached(loaded, first, tmp_path, capsys):
    result, cache, _ = first
    again = head_importance(loaded, SRC, REF)  # no cache: computed afresh
    assert again.to_json() == result.to_json()
    hit = head_importance(loaded, SRC, REF, progress=lambda d, t: pytest.fail("a cache hit translates nothing"),
                          cache=cache)
    assert hit.cached and hit.heads == result.heads and hit.curve == result.curve and hit.bleu == result.bleu
    stored = json.loads(cache.read_text(encoding="utf-8"))
    assert len(stored) == 1
    # Other data is another key: it is computed and stored beside the first.
    head_importance(loaded, SRC[:2], REF[:2], cache=cache)
    assert len(json.loads(cache.read_text(encoding="utf-8"))) == 2
    # The CLI reads the same cache.
    src, ref = tmp_path / "s.txt", tmp_path / "r.txt"
    src.write_text("\n".join(SRC) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    assert main(["heads", "importance", "--model", str(loaded.path), "--src", str(src), "--ref", str(ref),
                 "--cache", str(cache), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cached"] and out["heads"] == result.to_json()["heads"]
    ref.write_text("one line\n", encoding="utf-8")
    assert main(["heads", "importance", "--model", str(loaded.path), "--src", str(src), "--ref", str(ref)]) == 2
    assert "must be aligned" in capsys.readouterr().err


def test_cancel_stops_the_run_and_stores_nothing(loaded, tmp_path):
    from model.analysis.held_out import Cancelled
    cache = tmp_path / "cache.json"
    passes = []
    with pytest.raises(Cancelled):
        head_importance(loaded, SRC, REF, progress=lambda d, t: passes.append(d), cache=cache,
                        should_stop=lambda: len(passes) >= 2)
    # Stopped within the third group of ablations, before it reported; nothing cached.
    assert len(passes) == 2 and passes[-1] < 1 + 2 * 3 * loaded.config.n_layers * loaded.config.n_heads
    assert not cache.exists()


def test_progress_eta():
    from model.records.research import AnalysisProgress, format_eta
    p = AnalysisProgress("importance", 4, 10, 8.0)
    assert p.eta_s == pytest.approx(12.0) and format_eta(p.eta_s) == "ETA 12 s"
    assert AnalysisProgress("importance", 0, 10, 1.0).eta_s is None and format_eta(None) == "ETA …"
    assert format_eta(125) == "ETA 2 min 05 s"


def test_the_eta_reads_the_recent_pace_when_steps_grow_dearer():
    """Head importance's later groups cost more (the pruning curve); the pace so far alone promised half
    the time left. The ETA takes the slower of the two paces, so a slow first group still counts too."""
    from model.records.research import ProgressClock
    now = [0.0]
    clock = ProgressClock("importance", request_id=7, clock=lambda: now[0])
    seen = []
    for cost in (1.0, 1.0, 1.0, 2.0, 3.0, 4.0):  # seconds for each group of 8 steps
        now[0] += cost
        seen.append(clock(8 * (len(seen) + 1), 80))
    last = seen[-1]
    assert (last.done, last.total, last.elapsed_s, last.request_id) == (48, 80, 12.0, 7)
    assert last.recent_s_per_step == 9.0 / 24  # the last three groups: 2 + 3 + 4 s for 24 steps
    assert last.eta_s == 9.0 / 24 * 32 and last.eta_s > 12.0 / 48 * 32  # not the pace so far's 8 s
    slow_start = ProgressClock("stats", clock=lambda: now[0])
    for done, cost in ((10, 10.0), (20, 1.0), (30, 1.0), (40, 1.0), (50, 1.0)):
        now[0] += cost
        p = slow_start(done, 100)
    assert p.recent_s_per_step == 3.0 / 30 and p.eta_s == 14.0 / 50 * 50  # the slower pace: so far's


def test_default_test_set_is_the_models_heldout(loaded, tmp_path, capsys):
    import shutil

    from model.analysis.held_out import load_pairs
    from model.records.research import DEFAULT_SENTENCES
    folder = tmp_path / "model"
    shutil.copytree(loaded.path, folder)
    with pytest.raises(Exception, match="ships no held-out set"):
        load_pairs(folder)
    (folder / "heldout").mkdir()
    many = [f"{i % 10} {(i * 3) % 10} {(i * 7) % 10}" for i in range(DEFAULT_SENTENCES + 50)]
    (folder / "heldout" / "test.en").write_text("\n".join(many) + "\n", encoding="utf-8")
    (folder / "heldout" / "test.de").write_text("\n".join(" ".join(reversed(s.split())) for s in many) + "\n",
                                                encoding="utf-8")
    src, ref = load_pairs(folder)
    # The first 200 lines: line 200 is "9 7 3", its reference "3 7 9".
    assert len(src) == len(ref) == DEFAULT_SENTENCES and src[0] == many[0] and ref[-1] == "3 7 9"
    assert main(["heads", "importance", "--model", str(folder), "--limit", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    direct = head_importance(load_model(folder), many[:3], [" ".join(reversed(s.split())) for s in many[:3]])
    assert out["sentences"] == 3 and out["heads"] == direct.to_json()["heads"]
    assert main(["heads", "importance", "--model", str(folder), "--src", str(folder / "heldout" / "test.en")]) == 2
    assert "give --ref with --src" in capsys.readouterr().err
