/* One greedy decoding step of a post-LN Transformer decoder, int8 weights, for drafting.
 *
 * Why C: a step of the built-in model is ~60 small operations on one row. Through PyTorch each costs a
 * kernel launch of 5-40 µs (SDPA for one query: ~40 µs), so a step took ~1.5 ms, while its arithmetic
 * (~6 M multiply-adds on ~6 MB of int8 weights held in cache) takes ~0.1-0.2 ms. Here the step is one
 * call. It only drafts: model/decoding/speculative.py checks every drafted piece with the fp32 model,
 * so this code decides how much work a check gets, never which translation or map comes out.
 *
 * Products: weights are int8 rows with one fp32 scale per row; the input row is quantised to 14-bit
 * integers with one scale (relative error ~1e-4, far below the weights' own rounding), multiplied in
 * 16-bit pairs summed to 32 bits (AVX2 vpmaddwd, or AVX-512 VNNI vpdpwssd; 14 bits keep every sum below
 * 2^31 up to rows of 8,192).
 *
 * Called through ctypes (model/native/engine.py, ``NativeDraft``), which passes flat arrays of sizes and
 * pointers in the order of step_common.h's enum and of the comment above ``ae_step``.
 */
#include "step_common.h"

#define Q_MAX 16383.0f /* 14 bits: 2 * 127 * 16383 * (K / 16) < 2^31 for K <= 8192 */

typedef struct {
    const int8_t *w;    /* (n, k) */
    const float *scale; /* (n,) */
    const float *bias;  /* (n,) or NULL */
} Q8;

/* x (k) → int16 q (k) and its scale: x ≈ q * scale. */
static float quantise(const float *x, int16_t *q, int k) {
    float amax = 0.0f;
    for (int i = 0; i < k; i++) amax = fmaxf(amax, fabsf(x[i]));
    if (amax == 0.0f) {
        memset(q, 0, sizeof(int16_t) * (size_t)k);
        return 0.0f;
    }
    const float inv = Q_MAX / amax;
    for (int i = 0; i < k; i++) q[i] = (int16_t)lrintf(x[i] * inv);
    return amax / Q_MAX;
}

#ifdef __AVX2__
static inline int32_t hsum(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
#endif

/* Integer dot products of rows [r0, r1) of w with q; k is a multiple of 16. Integer sums are exact, so
 * every path below gives the same numbers; the widest the CPU has does most rows. */
static void dots(const int8_t *w, const int16_t *q, int32_t *out, int r0, int r1, int k) {
    int r = r0;
#if defined(__AVX512BW__) && defined(__AVX512VNNI__)
    /* AVX-512 VNNI: one vpdpwssd multiplies 32 pairs and adds them in, where AVX2 takes a multiply-add and
     * an add for 16. */
    for (; k % 32 == 0 && r + 4 <= r1; r += 4) {
        const int8_t *w0 = w + (size_t)r * k, *w1 = w0 + k, *w2 = w1 + k, *w3 = w2 + k;
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        for (int i = 0; i < k; i += 32) {
            const __m512i x = _mm512_loadu_si512((const void *)(q + i));
            a0 = _mm512_dpwssd_epi32(a0, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(w0 + i))), x);
            a1 = _mm512_dpwssd_epi32(a1, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(w1 + i))), x);
            a2 = _mm512_dpwssd_epi32(a2, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(w2 + i))), x);
            a3 = _mm512_dpwssd_epi32(a3, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(w3 + i))), x);
        }
        out[r] = _mm512_reduce_add_epi32(a0), out[r + 1] = _mm512_reduce_add_epi32(a1);
        out[r + 2] = _mm512_reduce_add_epi32(a2), out[r + 3] = _mm512_reduce_add_epi32(a3);
    }
#endif
#ifdef __AVX2__
    for (; r + 4 <= r1; r += 4) {
        const int8_t *w0 = w + (size_t)r * k, *w1 = w0 + k, *w2 = w1 + k, *w3 = w2 + k;
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        for (int i = 0; i < k; i += 16) {
            const __m256i x = _mm256_loadu_si256((const __m256i *)(q + i));
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w0 + i))), x));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w1 + i))), x));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w2 + i))), x));
            a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w3 + i))), x));
        }
        out[r] = hsum(a0), out[r + 1] = hsum(a1), out[r + 2] = hsum(a2), out[r + 3] = hsum(a3);
    }
#endif
    for (; r < r1; r++) {
        const int8_t *wr = w + (size_t)r * k;
        int32_t acc = 0;
        for (int i = 0; i < k; i++) acc += (int32_t)wr[i] * (int32_t)q[i];
        out[r] = acc;
    }
}

/* y (n) = x (k) Wᵀ + b, through int8 W and 14-bit x. */
static void product(const Q8 *m, const float *x, float *y, int n, int k, int16_t *q, int32_t *acc) {
    const float sx = quantise(x, q, k);
    dots(m->w, q, acc, 0, n, k);
    for (int r = 0; r < n; r++) y[r] = (float)acc[r] * (m->scale[r] * sx) + (m->bias ? m->bias[r] : 0.0f);
}

/* Pointers, in this order: embedding (V, D) fp32, positions (CAPACITY, D), output Q8 (w, scale, bias),
 * scratch fp32 (see engine.py), scratch int16, scratch int32; then per layer: six Q8 (qkv, self_out,
 * cross_q, cross_out, ff_in, ff_out: 18 pointers), three norms (g, b: 6), cross k, cross v (H, SRC_LEN,
 * d_k), self k, self v (H, CAPACITY, d_k). */
#define HEAD 8
#define PER_LAYER 28

/* Feed ``token`` at ``position`` (the caches hold positions before it); returns the argmax of the next
 * piece's logits (padding excluded), writes the logits to ``logits`` unless NULL. */
int ae_step(const int64_t *dims, void *const *p, const float *fparams, int position, int token, float *logits) {
    const int d = (int)dims[D_MODEL], heads = (int)dims[N_HEADS], d_k = (int)dims[D_K], d_ff = (int)dims[D_FF];
    const int vocab = (int)dims[VOCAB], layers = (int)dims[N_LAYERS], src = (int)dims[SRC_LEN];
    const int cap = (int)dims[CAPACITY], pad = (int)dims[PAD_ID], act = (int)dims[ACTIVATION];
    const float eps = fparams[0], embed_scale = fparams[1];
    if (position < 0 || position >= cap || token < 0 || token >= vocab) return -1;

    float *x = (float *)p[5], *qkv = x + d, *a = qkv + 3 * d, *y = a + d, *h = y + d, *scores = h + d_ff;
    int16_t *q = (int16_t *)p[6];
    int32_t *acc = (int32_t *)p[7];
    const float *emb = (const float *)p[0] + (size_t)token * d, *pe = (const float *)p[1] + (size_t)position * d;
    for (int i = 0; i < d; i++) x[i] = emb[i] * embed_scale + pe[i];

    for (int l = 0; l < layers; l++) {
        void *const *lp = p + HEAD + l * PER_LAYER;
        Q8 m[6];
        for (int j = 0; j < 6; j++) m[j] = (Q8){(const int8_t *)lp[3 * j], (const float *)lp[3 * j + 1],
                                               (const float *)lp[3 * j + 2]};
        const float **norms = (const float **)(lp + 18);
        const float *ck = (const float *)lp[24], *cv = (const float *)lp[25];
        float *sk = (float *)lp[26], *sv = (float *)lp[27];

        /* Masked self-attention: this position's key and value join the cache; its query sees them all. */
        product(&m[0], x, qkv, 3 * d, d, q, acc);
        for (int hh = 0; hh < heads; hh++) {
            memcpy(sk + ((size_t)hh * cap + position) * d_k, qkv + d + hh * d_k, sizeof(float) * (size_t)d_k);
            memcpy(sv + ((size_t)hh * cap + position) * d_k, qkv + 2 * d + hh * d_k, sizeof(float) * (size_t)d_k);
        }
        attend(qkv, sk, sv, heads, d_k, position + 1, cap, scores, a, NULL);
        product(&m[1], a, y, d, d, q, acc);
        add_norm(x, y, norms[0], norms[1], d, eps);
        /* Encoder-decoder attention over the source's keys and values (fp32, computed once a sentence). */
        product(&m[2], x, qkv, d, d, q, acc);
        attend(qkv, ck, cv, heads, d_k, src, src, scores, a, NULL);
        product(&m[3], a, y, d, d, q, acc);
        add_norm(x, y, norms[2], norms[3], d, eps);
        /* Feed-forward. */
        product(&m[4], x, h, d_ff, d, q, acc);
        activate(h, d_ff, act);
        product(&m[5], h, y, d, d_ff, q, acc);
        add_norm(x, y, norms[4], norms[5], d, eps);
    }

    const Q8 out = {(const int8_t *)p[2], (const float *)p[3], (const float *)p[4]};
    const float sx = quantise(x, q, d);
    dots(out.w, q, acc, 0, vocab, d);
    int best = -1;
    float top = -INFINITY;
    for (int r = 0; r < vocab; r++) {
        const float z = (float)acc[r] * (out.scale[r] * sx) + (out.bias ? out.bias[r] : 0.0f);
        if (logits) logits[r] = r == pad ? -INFINITY : z;
        if (r != pad && z > top) top = z, best = r;
    }
    return best;
}
