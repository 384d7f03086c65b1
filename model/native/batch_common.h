/* What the batched steps share (attend_rows.c, step_ops.c, eval_step.c): one query's attention over a
 * row of keys, greedy's pick of a row's largest logit, a row's residual + layer norm. Static, so each file
 * gets its own inlined copy. */
#ifndef AE_BATCH_COMMON_H
#define AE_BATCH_COMMON_H

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
 * the next's products (one key at a time measured 12.7 ns a key, the horizontal add's latency). The last
 * group repeats its last key where fewer than four are left, so every key's score is summed the same way
 * whatever n is: a sentence's scores do not depend on how much padding its batch gives it. */
static void key_scores(const float *q, const float *k, int d_k, int n, long pos, float scale, float *scores) {
    int t = 0;
#ifdef AE_AVX512
    if (d_k % 16 == 0) {
        for (; t < n; t += 4) {
            const int last = n - 1;
            const float *k0 = k + (size_t)t * pos, *k1 = k + (size_t)(t + 1 < n ? t + 1 : last) * pos;
            const float *k2 = k + (size_t)(t + 2 < n ? t + 2 : last) * pos;
            const float *k3 = k + (size_t)(t + 3 < n ? t + 3 : last) * pos;
            __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
            for (int i = 0; i < d_k; i += 16) {
                const __m512 x = _mm512_loadu_ps(q + i);
                a0 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k0 + i), a0);
                a1 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k1 + i), a1);
                a2 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k2 + i), a2);
                a3 = _mm512_fmadd_ps(x, _mm512_loadu_ps(k3 + i), a3);
            }
            float four[4];
            _mm_storeu_ps(four, _mm_mul_ps(hsum16x4(a0, a1, a2, a3), _mm_set1_ps(scale)));
            for (int j = 0; j < 4 && t + j < n; j++) scores[t + j] = four[j];
        }
        return;
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

/* out (d_k) = softmax(q kᵀ/√d_k) v over keys t in [0, n), positions ``pos`` floats apart; allowed: NULL or
 * n bytes, 0 = may not attend; zeros where no key may be seen. scores: room for n + 16 floats. */
static inline void attend_one(const float *q, const float *k, const float *v, const uint8_t *allowed, int d_k,
                              int n, long pos, float *scores, float *out) {
    key_scores(q, k, d_k, n, pos, 1.0f / sqrtf((float)d_k), scores);
    const float total = exp_scores(scores, allowed, n);
    if (total == 0.0f) {
        memset(out, 0, sizeof(float) * (size_t)d_k); /* nothing to attend to */
        return;
    }
    weigh_values(scores, v, d_k, n, pos, 1.0f / total, out);
}

/* Greedy's pick: the index of the largest of x[0..n) other than x[skip] (skip < 0: none). Ties go to the
 * first index, as ``Tensor.argmax``'s; NaN is never picked (a row of NaN gives index 0). */
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

/* x (d) ← LayerNorm(x + y) with gain g and bias b: mean, then the biased variance of the sum (two passes,
 * as the modules' layer norm). */
static inline void add_norm_row(float *xr, const float *yr, const float *g, const float *b, int d, float eps) {
#ifdef AE_AVX512
    if (d % 16 == 0) {
        __m512 sum = _mm512_setzero_ps();
        for (int i = 0; i < d; i += 16) {
            const __m512 s = _mm512_add_ps(_mm512_loadu_ps(xr + i), _mm512_loadu_ps(yr + i));
            _mm512_storeu_ps(xr + i, s);
            sum = _mm512_add_ps(sum, s);
        }
        const __m512 m = _mm512_set1_ps(hsum16(sum) / (float)d);
        __m512 sq = _mm512_setzero_ps();
        for (int i = 0; i < d; i += 16) {
            const __m512 c = _mm512_sub_ps(_mm512_loadu_ps(xr + i), m);
            sq = _mm512_fmadd_ps(c, c, sq);
        }
        const __m512 inv = _mm512_set1_ps(1.0f / sqrtf(hsum16(sq) / (float)d + eps));
        for (int i = 0; i < d; i += 16) {
            const __m512 c = _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(xr + i), m), inv);
            _mm512_storeu_ps(xr + i, _mm512_fmadd_ps(c, _mm512_loadu_ps(g + i), _mm512_loadu_ps(b + i)));
        }
        return;
    }
#endif
    add_norm(xr, yr, g, b, d, eps);
}

#endif
