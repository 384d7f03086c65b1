import math

import torch

from model.layers import PositionalEncoding, sinusoidal_table


def test_matches_paper_formula():
    d = 16
    pe = sinusoidal_table(50, d)
    for pos in (0, 1, 7, 49):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert math.isclose(pe[pos, 2 * i].item(), math.sin(angle), abs_tol=1e-6)
            assert math.isclose(pe[pos, 2 * i + 1].item(), math.cos(angle), abs_tol=1e-6)


def test_shift_is_a_fixed_linear_map():
    """PE(pos + k) = M_k · PE(pos) for all pos, with M_k a block rotation independent of pos (section 3.5)."""
    d, k = 32, 5
    pe = sinusoidal_table(200, d).double()
    m = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        w = 1 / 10000 ** (2 * i / d)
        c, s = math.cos(w * k), math.sin(w * k)
        m[2 * i, 2 * i], m[2 * i, 2 * i + 1] = c, s  # sin(a+b) = sin a cos b + cos a sin b
        m[2 * i + 1, 2 * i], m[2 * i + 1, 2 * i + 1] = -s, c  # cos(a+b) = cos a cos b - sin a sin b
    shifted = pe[:-k] @ m.t()
    torch.testing.assert_close(shifted, pe[k:], atol=1e-5, rtol=0)
    # the same M_k holds far from the origin too (it depends on k only)
    far = sinusoidal_table(5000, d).double()
    torch.testing.assert_close(far[4000:4100] @ m.t(), far[4000 + k:4100 + k], atol=1e-5, rtol=0)


def test_any_length_and_offsets():
    pe = PositionalEncoding(8)
    long = pe(3000)  # longer than the initial table: grows instead of failing
    assert long.shape == (3000, 8)
    torch.testing.assert_close(pe(4, offset=2990), long[2990:2994])
    torch.testing.assert_close(long[2999], sinusoidal_table(3000, 8)[2999])
    assert "table" not in pe.state_dict()  # never saved in checkpoints


def test_table_grown_while_decoding_stays_usable_for_training():
    from model.config import preset
    from model.transformer import Transformer
    model = Transformer(preset("tiny", vocab_size=30, dropout=0.0))
    with torch.inference_mode():
        model.positional(600)  # a long translation grows the table inside inference mode
    assert not model.positional.table.is_inference()
    src, tgt = torch.randint(4, 30, (2, 300)), torch.randint(4, 30, (2, 300))
    loss, _ = model(src, tgt[:, :-1], target=tgt[:, 1:])
    loss.backward()  # would raise "Inference tensors cannot be saved for backward" otherwise
    assert model.embedding.weight.grad is not None
