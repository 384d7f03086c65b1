/* What both native steps share (draft_step.c, rows_step.c): the sizes' order, layer norm, attention of one
 * query row, the activations. Static, so each file gets its own inlined copy. */
#ifndef AE_STEP_COMMON_H
#define AE_STEP_COMMON_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

/* The sizes array both steps take, in this order (model/native/engine.py builds it). */
enum { D_MODEL, N_HEADS, D_K, D_FF, VOCAB, N_LAYERS, SRC_LEN, CAPACITY, PAD_ID, ACTIVATION, N_DIMS };
enum { ACT_RELU, ACT_SWISH, ACT_GELU };

#ifdef __AVX2__
static inline float hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
#endif
#if defined(__AVX512F__) && defined(__AVX2__)
/* Sixteen lanes: the two halves added, then as hsum8. One order for every sum of 16-lane vectors. */
static inline float hsum16(__m512 v) {
    const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    return hsum8(_mm256_add_ps(_mm512_castps512_ps256(v), hi));
}
#define AE_AVX512 1
#endif

/* a · b over n floats. Vectorised where n is whole blocks of 16 (AVX-512) or 8 (d_k of every model here):
 * without -ffast-math the compiler may not reorder a sum, so it would not vectorise this loop itself. The
 * lanes are those of rows_step.c's ``block`` for the same n, so a product's rows agree bit for bit. */
static inline float dot(const float *a, const float *b, int n) {
    int i = 0;
    float s = 0.0f;
#ifdef AE_AVX512
    if (n % 16 == 0) {
        __m512 acc = _mm512_setzero_ps();
        for (; i < n; i += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), acc);
        return hsum16(acc);
    }
#endif
#if defined(__AVX2__) && defined(__FMA__)
    if (n % 8 == 0) {
        __m256 acc = _mm256_setzero_ps();
        for (; i < n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc);
        return hsum8(acc);
    }
#endif
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

/* x = LayerNorm(x + y) with gain g, bias b (biased variance, as torch). */
static void add_norm(float *x, const float *y, const float *g, const float *b, int d, float eps) {
    float mean = 0.0f;
    for (int i = 0; i < d; i++) {
        x[i] += y[i];
        mean += x[i];
    }
    mean /= (float)d;
    float var = 0.0f;
    for (int i = 0; i < d; i++) var += (x[i] - mean) * (x[i] - mean);
    const float inv = 1.0f / sqrtf(var / (float)d + eps);
    for (int i = 0; i < d; i++) x[i] = (x[i] - mean) * inv * g[i] + b[i];
}

/* out (H·d_k) = softmax(q kᵀ/√d_k) v per head, over keys k, v (H, stride, d_k) rows [0, n). weights:
 * NULL, or (H, n) where each head's attention weights are written, the very numbers that weigh v. */
static void attend(const float *q, const float *k, const float *v, int heads, int d_k, int n, int stride,
                   float *scores, float *out, float *weights) {
    const float scale = 1.0f / sqrtf((float)d_k);
    for (int h = 0; h < heads; h++) {
        const float *qh = q + h * d_k, *kh = k + (size_t)h * stride * d_k, *vh = v + (size_t)h * stride * d_k;
        float top = -INFINITY;
        for (int t = 0; t < n; t++) {
            scores[t] = dot(qh, kh + (size_t)t * d_k, d_k) * scale;
            top = fmaxf(top, scores[t]);
        }
        float total = 0.0f;
        for (int t = 0; t < n; t++) total += (scores[t] = expf(scores[t] - top));
        float *oh = out + h * d_k;
        memset(oh, 0, sizeof(float) * (size_t)d_k);
        for (int t = 0; t < n; t++) {
            const float p = scores[t] / total;
            if (weights != NULL) weights[(size_t)h * n + t] = p;
            for (int i = 0; i < d_k; i++) oh[i] += p * vh[(size_t)t * d_k + i];
        }
    }
}

static void activate(float *x, int n, int kind) {
    for (int i = 0; i < n; i++) {
        if (kind == ACT_RELU) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
        else if (kind == ACT_SWISH) x[i] = x[i] / (1.0f + expf(-x[i]));
        else x[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678118654752f));
    }
}

#endif
