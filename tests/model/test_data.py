import numpy as np
import pytest

from model.errors import CorpusError
from model.training.data import Encoded, collate, make_batches, read_parallel, read_tsv, split


def test_parallel_files_skip_and_report(tmp_path):
    (tmp_path / "a.en").write_text("Hello .\n\nGood day\n" + "x" * 2000 + "\nfine\n", encoding="utf-8")
    (tmp_path / "a.de").write_text("Hallo .\nleer\n\nlang\ngut\n", encoding="utf-8")
    c = read_parallel(tmp_path / "a.en", tmp_path / "a.de")
    assert c.pairs == [("Hello .", "Hallo ."), ("fine", "gut")]
    assert c.skipped == [(2, "empty source"), (3, "empty target"), (4, "longer than 1000 characters")]
    assert "skipped 3 (line 2: empty source" in c.report()


def test_parallel_errors(tmp_path):
    with pytest.raises(CorpusError, match="not found"):
        read_parallel(tmp_path / "x", tmp_path / "y")
    (tmp_path / "a").write_text("1\n2\n")
    (tmp_path / "b").write_text("1\n")
    with pytest.raises(CorpusError, match="has 2 lines but .* has 1"):
        read_parallel(tmp_path / "a", tmp_path / "b")
    (tmp_path / "latin").write_bytes("ok\nGr\xfc\xdfe\n".encode("latin-1"))
    (tmp_path / "c").write_text("1\n2\n")
    with pytest.raises(CorpusError, match="not UTF-8 text .*line 2"):
        read_parallel(tmp_path / "latin", tmp_path / "c")
    (tmp_path / "empty1").write_text("\n\n")
    (tmp_path / "empty2").write_text("\n\n")
    with pytest.raises(CorpusError, match="no usable sentence pairs"):
        read_parallel(tmp_path / "empty1", tmp_path / "empty2")


def test_tsv(tmp_path):
    (tmp_path / "c.tsv").write_text("a\tb\nno tab here\nc\td\te\n\tx\nOdd\u200b  text\tok\n", encoding="utf-8")
    c = read_tsv(tmp_path / "c.tsv")
    assert c.pairs == [("a", "b"), ("Odd text", "ok")]
    assert [n for n, _ in c.skipped] == [2, 3, 4]
    (tmp_path / "bin.tsv").write_bytes(b"\x00\x01\x02")
    with pytest.raises(CorpusError, match="binary"):
        read_tsv(tmp_path / "bin.tsv")


def test_split_is_deterministic_and_disjoint():
    pairs = [(f"s{i % 900}", f"t{i}") for i in range(1000)]  # some repeated sources
    tr1, va1 = split(pairs, 50, seed=3)
    tr2, va2 = split(pairs, 50, seed=3)
    assert (tr1, va1) == (tr2, va2) and len(va1) == 50
    assert not {s for s, _ in va1} & {s for s, _ in tr1}
    assert split(pairs, 50, seed=4)[1] != va1


def test_token_batches_respect_budget_and_cover_everything():
    rng = np.random.default_rng(0)
    src = [np.arange(rng.integers(2, 30), dtype=np.int32) + 4 for _ in range(500)]
    # target lengths follow source lengths, as in real translation data
    tgt = [np.arange(max(2, len(s) + rng.integers(-2, 3)), dtype=np.int32) + 4 for s in src]
    data = Encoded(src, tgt)
    batches = make_batches(data, 600, seed=1, epoch=0)
    seen = np.concatenate(batches)
    assert sorted(seen.tolist()) == list(range(500))
    padding = 0
    for b in batches:
        s, t = collate(data, b, 0)
        assert s.size + t.size <= 600 or len(b) == 1
        padding += (s == 0).sum() + (t == 0).sum()
    real = sum(len(x) for x in src) + sum(len(x) for x in tgt)
    assert padding / real < 0.15  # length bucketing keeps padding small
    assert all(np.array_equal(a, b) for a, b in zip(batches, make_batches(data, 600, seed=1, epoch=0)))
    assert any(not np.array_equal(a, b) for a, b in zip(batches, make_batches(data, 600, seed=1, epoch=1)))


def _lengths_data(n: int, seed: int = 0) -> Encoded:
    rng = np.random.default_rng(seed)
    src = [np.arange(rng.integers(3, 13), dtype=np.int32) + 4 for _ in range(n)]
    return Encoded(src, [np.arange(len(s) + 2, dtype=np.int32) + 4 for s in src])


def _filled(data: Encoded, b: np.ndarray, budget: int) -> float:
    s, t = collate(data, b, 0)
    return (s.size + t.size) / budget


def test_part_filled_batches_are_carried_over_chunk_ends():
    # 64-token budget → chunks of 200 pairs: 25 chunks, each of which used to end in a part-filled batch
    data = _lengths_data(5000)
    batches = make_batches(data, 64, seed=3, epoch=0)
    assert sorted(np.concatenate(batches).tolist()) == list(range(5000))
    assert all(_filled(data, b, 64) <= 1.0 for b in batches)
    under_half = [b for b in batches if _filled(data, b, 64) < 0.5]
    assert len(under_half) <= 1  # only the very last leftover of the epoch may be small


def test_unsorted_batches_mix_lengths():
    data = _lengths_data(3000)
    lens = np.array([len(s) for s in data.src])
    sorted_b = make_batches(data, 400, seed=2, epoch=0)
    mixed_b = make_batches(data, 400, seed=2, epoch=0, sort=False)
    assert sorted(np.concatenate(mixed_b).tolist()) == list(range(3000))
    assert all(_filled(data, b, 400) <= 1.0 for b in mixed_b)
    def spread(bs):  # mean length range inside a batch
        return np.mean([np.ptp(lens[b]) for b in bs if len(b) > 1])
    assert spread(sorted_b) <= 1.0
    assert spread(mixed_b) >= 5.0
    assert all(np.array_equal(a, b) for a, b in
               zip(mixed_b, make_batches(data, 400, seed=2, epoch=0, sort=False)))
