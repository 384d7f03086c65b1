/* Attention of queries that each see one row of keys, for a batch of rows: a batched search step's self-
 * and cross-attention (one new query per row), and the int8 evaluation copy's encoder self-attention (a
 * sentence's T queries share its keys). softmax(q kᵀ/√d_k) v per query and head.
 *
 * Why C: through PyTorch a batched step's attention is one SDPA call per sub-layer, and for one query
 * against a handful of keys its per-head overhead dominates: measured 250-380 µs a call for 64 rows of
 * 8 heads and ~20 keys (one thread), 27-35 % of an int8 evaluation over held-out sentences, where the
 * arithmetic (64·8·20·32·2 multiply-adds ≈ 0.6 M) takes a few µs. Here every row and head is one loop.
 * An encoder batch (64 sentences of ~12 pieces) likewise took SDPA ~1.7 ms a layer.
 *
 * Layout: q (R, H, d_k), query rows ``q_row`` floats apart; query row r reads keys of row r / group
 * (group = 1 for a step, T for an encoder batch of T positions). k and v (R / group, H, n, d_k) with rows
 * ``kv_row`` and heads ``kv_head`` and positions ``kv_pos`` floats apart (a key/value cache's buffer is
 * longer than the n keys it holds so far; cross-attention's keys are a transposed view of the projection,
 * positions H·d_k apart); mask: NULL, or (R / group, n) bytes ``mask_row`` apart, 0 = may not attend (a
 * source's padding). A query whose keys are all masked gets zeros. out: (R, H·d_k), contiguous.
 * new_k, new_v: NULL, or a step's new key and value (R, H, d_k), rows ``new_row`` floats apart (group 1),
 * written into position n − 1 of each row's keys and values before attending: the cache's append and the
 * attention are then one call (two copies less a layer and step).
 */
#include "step_common.h"

#ifdef AE_AVX512
/* The four sums of a0 … a3 at once: pairs of lanes interleaved and added, twice, leave each 128-bit quarter
 * holding a part of all four sums; then the quarters are added. 9 instructions for four sums, against
 * four ``hsum16`` of 7 each (whose lane order differs: the scores agree with SDPA's to ~1e-7 either way). */
static inline __m128 hsum16x4(__m512 a0, __m512 a1, __m512 a2, __m512 a3) {
    const __m512 s01 = _mm512_add_ps(_mm512_unpacklo_ps(a0, a1), _mm512_unpackhi_ps(a0, a1));
    const __m512 s23 = _mm512_add_ps(_mm512_unpacklo_ps(a2, a3), _mm512_unpackhi_ps(a2, a3));
    const __m512 s = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(s01), _mm512_castps_pd(s23))),
                                   _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(s01), _mm512_castps_pd(s23))));
    const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(s),
                                   _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(s), 1)));
    return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}
#endif

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
            _mm_storeu_ps(scores + t, _mm_mul_ps(hsum16x4(a0, a1, a2, a3), _mm_set1_ps(scale)));
        }
    }
#endif
    for (; t < n; t++) scores[t] = dot(q, k + (size_t)t * pos, d_k) * scale;
}

#ifdef AE_AVX512
/* e^x for 16 lanes x ≤ 0 (scores less their maximum); lanes below -87 (e^x < 1.7e-38, or a masked -inf)
 * give 0. x = n·ln2 + r with |r| ≤ ln2/2, e^r by Cephes' degree-5 polynomial for expf (about 1 ulp), times
 * 2^n. Scalar expf for every key measured ~40 % of this file's time for 20 keys. */
static inline __m512 exp16(__m512 x) {
    const __mmask16 live = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.0f), _CMP_GT_OQ);
    x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);  /* ln2 in two parts: r exact */
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    return _mm512_maskz_mov_ps(live, _mm512_scalef_ps(p, n));
}
#endif

/* scores[0..n) ← e^(scores − max), masked keys 0; returns their sum (0 when every key is masked). */
static float exp_scores(float *scores, const uint8_t *allowed, int n) {
    float top = -INFINITY;
    for (int t = 0; t < n; t++) {
        if (allowed != NULL && !allowed[t]) scores[t] = -INFINITY;
        top = fmaxf(top, scores[t]);
    }
    if (top == -INFINITY) return 0.0f;
    float total = 0.0f;
    int t = 0;
#ifdef AE_AVX512
    const __m512 shift = _mm512_set1_ps(top);
    __m512 sum = _mm512_setzero_ps();
    for (; t < n; t += 16) {
        const __mmask16 in = n - t >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - t)) - 1);
        const __m512 e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(in, scores + t), shift));
        _mm512_mask_storeu_ps(scores + t, in, e);
        sum = _mm512_add_ps(sum, _mm512_maskz_mov_ps(in, e));
    }
    total = hsum16(sum);
#endif
    for (; t < n; t++) total += (scores[t] = expf(scores[t] - top));
    return total;
}

/* out (d_k) = Σ_t p_t v_t · inv, keys ``pos`` floats apart. With AVX-512, 32 numbers of out at a time in
 * registers (the scalar loop stores out at every key: it may alias v). */
static void weigh_values(const float *p, const float *v, int d_k, int n, long pos, float inv, float *out) {
    int i = 0;
#ifdef AE_AVX512
    for (; i + 32 <= d_k; i += 32) {
        __m512 a0 = _mm512_setzero_ps(), a1 = a0;
        for (int t = 0; t < n; t++) {
            const __m512 w = _mm512_set1_ps(p[t]);
            const float *vt = v + (size_t)t * pos + i;
            a0 = _mm512_fmadd_ps(w, _mm512_loadu_ps(vt), a0);
            a1 = _mm512_fmadd_ps(w, _mm512_loadu_ps(vt + 16), a1);
        }
        const __m512 s = _mm512_set1_ps(inv);
        _mm512_storeu_ps(out + i, _mm512_mul_ps(a0, s));
        _mm512_storeu_ps(out + i + 16, _mm512_mul_ps(a1, s));
    }
#endif
    for (; i < d_k; i++) {
        float a = 0.0f;
        for (int t = 0; t < n; t++) a += p[t] * v[(size_t)t * pos + i];
        out[i] = a * inv;
    }
}

void ae_attend_rows(const float *q, float *k, float *v, const uint8_t *mask, int rows, int heads, int d_k, int n,
                    int group, long q_row, long kv_row, long kv_head, long kv_pos, long mask_row,
                    const float *new_k, const float *new_v, long new_row, float *out) {
    const float scale = 1.0f / sqrtf((float)d_k);
    float scores[n > 0 ? n + 16 : 16];
    for (int r = 0; r < rows; r++) {
        const int b = r / group;
        const uint8_t *allowed = mask == NULL ? NULL : mask + (size_t)b * mask_row;
        for (int h = 0; h < heads; h++) {
            const float *qh = q + (size_t)r * q_row + (size_t)h * d_k;
            float *kh = k + (size_t)b * kv_row + (size_t)h * kv_head;
            float *vh = v + (size_t)b * kv_row + (size_t)h * kv_head;
            float *oh = out + ((size_t)r * heads + h) * d_k;
            if (new_k != NULL) { /* a step's own key and value, into the cache's last position */
                const size_t at = (size_t)(n - 1) * kv_pos, from = (size_t)r * new_row + (size_t)h * d_k;
                memcpy(kh + at, new_k + from, sizeof(float) * (size_t)d_k);
                memcpy(vh + at, new_v + from, sizeof(float) * (size_t)d_k);
            }
            key_scores(qh, kh, d_k, n, kv_pos, scale, scores);
            const float total = exp_scores(scores, allowed, n);
            if (total == 0.0f) {
                memset(oh, 0, sizeof(float) * (size_t)d_k); /* nothing to attend to */
                continue;
            }
            weigh_values(scores, vh, d_k, n, kv_pos, 1.0f / total, oh);
        }
    }
}
