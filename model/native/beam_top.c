/* Beam search's choice: the n best sums scores[r] + logp[r, t] over k rows × V pieces, in one pass.
 *
 * Why C: ranking a beam-4 step's 32,000 sums through PyTorch (the sum, topk over the flattened sums, the
 * row and piece of each index) took ~0.1 ms a step, 55-70 µs of it topk, which sorts its way to the top
 * 8 for any k; a short beam-4 translation spent ~1.7 ms in ``Beam.advance``, as much as its encoder's
 * products. Here one pass keeps the n best so far and compares 16 (or 8) sums at a time with the worst of
 * them: once the first few pieces are seen, almost no sum beats it.
 *
 * The sums are the same fp32 additions as PyTorch's ``scores[:, None] + logp``, so the same numbers are
 * ranked. Equal sums keep the lower flat index first (torch.topk leaves their order unspecified).
 * Called through ctypes by ``NativeRows.best`` (model/native/rows.py).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

/* Put v (at flat index i) into top/at, sorted best first, holding *filled ≤ n; v beats the worst if full. */
static void insert(float *top, int64_t *at, int *filled, int n, float v, int64_t i) {
    int j = *filled < n ? (*filled)++ : n - 1; /* the slot freed: a new one, or the worst's */
    for (; j > 0 && top[j - 1] < v; j--) {       /* strictly: an equal sum seen earlier stays ahead */
        top[j] = top[j - 1];
        at[j] = at[j - 1];
    }
    top[j] = v;
    at[j] = i;
}

#ifdef __AVX2__
/* The sums s + row[i] a vector compare flagged in ``hit`` (bit i: above the worst kept, or NaN), in order:
 * each kept if it still beats the worst (an earlier one may have raised it). −1 at a NaN. */
static int take(unsigned hit, float s, const float *row, int64_t base, float *top, int64_t *at, int *filled, int n) {
    for (int i = 0; hit; i++, hit >>= 1) {
        if (!(hit & 1)) continue;
        const float x = s + row[i];
        if (x != x) return -1;
        if (x > top[n - 1]) insert(top, at, filled, n, x, base + i);
    }
    return 0;
}
#endif

/* Returns how many were written (min(n, rows × vocab)), or −1 if a sum is NaN (the caller ranks in
 * PyTorch, whose topk orders NaN its own way). */
int ae_beam_top(const float *logp, const float *scores, int rows, int vocab, int n, float *top, int64_t *at) {
    int filled = 0;
    if (n < 1) return 0;
    for (int r = 0; r < rows; r++) {
        const float s = scores[r], *row = logp + (size_t)r * vocab;
        const int64_t base = (int64_t)r * vocab;
        int t = 0;
        for (; t < vocab && filled < n; t++) { /* the first n sums all get in */
            const float v = s + row[t];
            if (v != v) return -1;
            insert(top, at, &filled, n, v, base + t);
        }
#ifdef __AVX512F__
        for (; t + 16 <= vocab; t += 16) {
            const __m512 v = _mm512_add_ps(_mm512_set1_ps(s), _mm512_loadu_ps(row + t));
            /* "not ≤ the worst kept": above it, or NaN */
            const unsigned hit = _mm512_cmp_ps_mask(v, _mm512_set1_ps(top[n - 1]), _CMP_NLE_UQ);
            if (hit && take(hit, s, row + t, base + t, top, at, &filled, n) < 0) return -1;
        }
#endif
#ifdef __AVX2__
        for (; t + 8 <= vocab; t += 8) {
            const __m256 v = _mm256_add_ps(_mm256_set1_ps(s), _mm256_loadu_ps(row + t));
            const unsigned hit = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_set1_ps(top[n - 1]), _CMP_NLE_UQ));
            if (hit && take(hit, s, row + t, base + t, top, at, &filled, n) < 0) return -1;
        }
#endif
        for (; t < vocab; t++) {
            const float v = s + row[t];
            if (v != v) return -1;
            if (v > top[n - 1]) insert(top, at, &filled, n, v, base + t);
        }
    }
    return filled;
}
