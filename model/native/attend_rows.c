/* Attention of one new query per row for a batch of rows: a batched search step's self- and
 * cross-attention, softmax(q kᵀ/√d_k) v per row and head.
 *
 * Why C: through PyTorch a batched step's attention is one SDPA call per sub-layer, and for one query
 * against a handful of keys its per-head overhead dominates: measured 250-380 µs a call for 64 rows of
 * 8 heads and ~20 keys (one thread), 27-35 % of an int8 evaluation over held-out sentences, where the
 * arithmetic (64·8·20·32·2 multiply-adds ≈ 0.6 M) takes a few µs. Here every row and head is one loop.
 *
 * Layout: q (B, H, d_k) rows ``q_row`` floats apart; k and v (B, H, n, d_k) with rows ``kv_row`` and heads
 * ``kv_head`` and positions ``kv_pos`` floats apart (a key/value cache's buffer is longer than the n keys it
 * holds so far; cross-attention's keys are a transposed view of the projection, positions H·d_k apart); mask:
 * NULL, or (B, n) bytes ``mask_row`` apart, 0 = may not attend (a source's padding). A row whose keys are
 * all masked gets zeros. out: (B, H·d_k), contiguous.
 */
#include "step_common.h"

/* scores[t] = (q · k_t) · scale for keys t in [0, n), positions ``pos`` floats apart. With AVX-512 and
 * d_k a multiple of 16, four keys at a time: four independent sums, so one key's horizontal add overlaps
 * the next's products (one key at a time measured 12.7 ns a key, the horizontal add's latency). */
static void key_scores(const float *q, const float *k, int d_k, int n, long pos, float scale, float *scores) {
    int t = 0;
#ifdef AE_AVX512
    if (d_k % 16 == 0) {
        for (; t + 4 <= n; t += 4) {
            const float *k0 = k + (size_t)t * pos, *k1 = k0 + pos, *k2 = k1 + pos, *k3 = k2 + pos;
            __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
            for (int i = 0; i < d_k; i += 16) {
                const __m512 x = _mm512_loadu_ps(q + i);
                a0 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k0 + i), a0);
                a1 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k1 + i), a1);
                a2 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k2 + i), a2);
                a3 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k3 + i), a3);
            }
            scores[t] = hsum16(a0) * scale;
            scores[t + 1] = hsum16(a1) * scale;
            scores[t + 2] = hsum16(a2) * scale;
            scores[t + 3] = hsum16(a3) * scale;
        }
    }
#endif
    for (; t < n; t++) scores[t] = dot(q, k + (size_t)t * pos, d_k) * scale;
}

void ae_attend_rows(const float *q, const float *k, const float *v, const uint8_t *mask, int rows, int heads,
                    int d_k, int n, long q_row, long kv_row, long kv_head, long kv_pos, long mask_row, float *out) {
    const float scale = 1.0f / sqrtf((float)d_k);
    float scores[n > 0 ? n : 1];
    for (int b = 0; b < rows; b++) {
        const uint8_t *allowed = mask == NULL ? NULL : mask + (size_t)b * mask_row;
        for (int h = 0; h < heads; h++) {
            const float *qh = q + (size_t)b * q_row + (size_t)h * d_k;
            const float *kh = k + (size_t)b * kv_row + (size_t)h * kv_head;
            const float *vh = v + (size_t)b * kv_row + (size_t)h * kv_head;
            float *oh = out + ((size_t)b * heads + h) * d_k;
            key_scores(qh, kh, d_k, n, kv_pos, scale, scores);
            float top = -INFINITY;
            for (int t = 0; t < n; t++) {
                if (allowed != NULL && !allowed[t]) scores[t] = -INFINITY;
                top = fmaxf(top, scores[t]);
            }
            memset(oh, 0, sizeof(float) * (size_t)d_k);
            if (top == -INFINITY) continue; /* nothing to attend to */
            float total = 0.0f;
            for (int t = 0; t < n; t++) total += (scores[t] = expf(scores[t] - top));
            const float inv = 1.0f / total;
            for (int t = 0; t < n; t++) {
                if (scores[t] == 0.0f) continue;
                const float p = scores[t] * inv;
                const float *vt = vh + (size_t)t * kv_pos;
                for (int i = 0; i < d_k; i++) oh[i] += p * vt[i];
            }
        }
    }
}
