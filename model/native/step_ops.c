/* The int8 evaluation copy's small per-step operations on a batch of rows, each one call instead of
 * one or two PyTorch calls (~10 µs each of dispatch on one thread, 12-30 a step):
 *
 * - greedy search's pick: the index of each row's largest logit, one column (the padding piece, never a
 *   choice) left out. ``Tensor.argmax`` over 64 rows of 8,000 logits took ~280 µs, ~5 % of an int8
 *   evaluation, and the padding column's -inf is one more call; the loop below reads the logits once.
 *   Ties go to the first index, as ``argmax``'s; NaN is never picked (a row of NaN gives index 0).
 * - a sub-layer's residual and layer norm, x ← LayerNorm(x + y), every row in one call.
 */
#include "step_common.h"

static int64_t argmax_row(const float *x, int n, int skip) {
    float best = -INFINITY;
    int64_t at = 0;
    int i = 0;
#ifdef AE_AVX512
    if (n >= 16) {
        /* Sixteen running maxima and where each was first seen; a lane takes a later value only if it is
         * strictly larger, so each lane keeps its first index of its maximum. */
        __m512 top = _mm512_set1_ps(-INFINITY);
        __m512i where = _mm512_setzero_si512(), idx = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                                          12, 13, 14, 15);
        const __m512i step = _mm512_set1_epi32(16);
        for (; i + 16 <= n; i += 16, idx = _mm512_add_epi32(idx, step)) {
            const __m512 v = _mm512_loadu_ps(x + i);
            __mmask16 up = _mm512_cmp_ps_mask(v, top, _CMP_GT_OQ);
            if (skip >= i && skip < i + 16) up &= (__mmask16)~(1u << (skip - i));
            top = _mm512_mask_mov_ps(top, up, v);
            where = _mm512_mask_mov_epi32(where, up, idx);
        }
        float tops[16];
        int32_t wheres[16];
        _mm512_storeu_ps(tops, top);
        _mm512_storeu_si512(wheres, where);
        for (int l = 0; l < 16; l++)
            if (tops[l] > best || (tops[l] == best && tops[l] != -INFINITY && wheres[l] < at)) {
                best = tops[l];
                at = wheres[l];
            }
    }
#endif
    for (; i < n; i++)
        if (i != skip && x[i] > best) {
            best = x[i];
            at = i;
        }
    return at;
}

/* out[r] = argmax over columns ≠ skip of row r of x (rows ``row`` floats apart, n columns); skip < 0: none. */
void ae_argmax_rows(const float *x, int rows, int n, long row, int skip, int64_t *out) {
    for (int r = 0; r < rows; r++) out[r] = argmax_row(x + (size_t)r * row, n, skip);
}

/* x (rows × d, rows ``row`` floats apart) ← LayerNorm(x + y) with gain g and bias b, y contiguous
 * (rows × d). Mean, then the biased variance of the sum (two passes, as the modules' layer norm). */
void ae_add_norm_rows(float *x, const float *y, const float *g, const float *b, int rows, int d, long row,
                      float eps) {
    for (int r = 0; r < rows; r++) {
        float *xr = x + (size_t)r * row;
        const float *yr = y + (size_t)r * d;
        int i = 0;
#ifdef AE_AVX512
        if (d % 16 == 0) {
            __m512 sum = _mm512_setzero_ps();
            for (; i < d; i += 16) {
                const __m512 s = _mm512_add_ps(_mm512_loadu_ps(xr + i), _mm512_loadu_ps(yr + i));
                _mm512_storeu_ps(xr + i, s);
                sum = _mm512_add_ps(sum, s);
            }
            const float mean = hsum16(sum) / (float)d;
            const __m512 m = _mm512_set1_ps(mean);
            __m512 sq = _mm512_setzero_ps();
            for (i = 0; i < d; i += 16) {
                const __m512 c = _mm512_sub_ps(_mm512_loadu_ps(xr + i), m);
                sq = _mm512_fmadd_ps(c, c, sq);
            }
            const __m512 inv = _mm512_set1_ps(1.0f / sqrtf(hsum16(sq) / (float)d + eps));
            for (i = 0; i < d; i += 16) {
                const __m512 c = _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(xr + i), m), inv);
                _mm512_storeu_ps(xr + i, _mm512_fmadd_ps(c, _mm512_loadu_ps(g + i), _mm512_loadu_ps(b + i)));
            }
            continue;
        }
#endif
        add_norm(xr, yr, g, b, d, eps);
    }
}
