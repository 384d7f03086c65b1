/* A batched greedy step of the int8 evaluation model (``evaluate --int8``) in one call: every decoder layer,
 * the output table and each row's pick, for all rows of a batch.
 *
 * Why: through PyTorch such a step is ~25 fbgemm products and ~20 more calls, each with its fixed cost
 * (measured: ~1.1 ms a step whatever the rows, ~40 % of an evaluation's decoding), and fbgemm's products
 * of ~40 rows ran at ~85 G multiply-adds/s. The product below (AVX-512 VNNI, u8 × s8 in 32-bit sums) ran
 * at 170-200 G for 16-128 rows of the built-in model's shapes, and the step has one fixed cost.
 *
 * Products: weights are int8 rows with one fp32 scale per output (the PyTorch int8 copy's rounding,
 * model/decoding/int8.py), packed for vpdpbusd (``pack_int8`` in model/native/eval_engine.py: per 16
 * outputs, per 4 inputs, 64 bytes). Each input row is quantised on its own, symmetric, to
 * [-127, 127] (scale max|x| / 127) and offset by 128 into unsigned bytes; the offset comes back out through
 * the weights' column sums. So a row's numbers never depend on the other rows of its batch (fbgemm's
 * dynamic products quantise all rows with one scale), as CTranslate2's int8 does.
 *
 * Rows and slots: a batch keeps a slot per sentence for its caches, cross-attention keys and mask; the
 * rows still decoding are given as their slots, so a sentence that ends just leaves the list (no copy).
 *
 * Called through ctypes (model/native/eval_engine.py), which passes flat arrays of sizes and pointers in
 * the order of the enum and of the comment above ``ae_eval_step``.
 */
#include "batch_common.h"

#if defined(__AVX512VNNI__) && defined(__AVX512BW__) && defined(AE_AVX512)
#define AE_VNNI 1
#endif

enum { E_D, E_H, E_DK, E_FF, E_V, E_VP, E_L, E_S, E_CAP, E_PAD, E_SLOTS, E_N };
enum { P_EMB, P_PE, P_MASK, P_OUT, P_SCRATCH = P_OUT + 4, P_XQ, P_SX, P_HEAD };
enum { L_QKV, L_SELF_OUT = 4, L_CROSS_Q = 8, L_CROSS_OUT = 12, L_FF1 = 16, L_FF2 = 20, L_NORMS = 24,
       L_SELF_K = 30, L_SELF_V, L_CROSS_K, L_CROSS_V, L_PER_LAYER };

int ae_eval_supported(void) {
#ifdef AE_VNNI
    return 1;
#else
    return 0;
#endif
}

#ifdef AE_VNNI
/* x (m, k) → xq (m, k) unsigned bytes, x ≈ (xq − 128) · sx[r]; k a multiple of 16. */
static void quantise_rows(const float *x, int m, int k, uint8_t *xq, float *sx) {
    for (int r = 0; r < m; r++) {
        const float *xr = x + (size_t)r * k;
        __m512 top = _mm512_setzero_ps();
        for (int i = 0; i < k; i += 16) top = _mm512_max_ps(top, _mm512_abs_ps(_mm512_loadu_ps(xr + i)));
        const float amax = _mm512_reduce_max_ps(top);
        const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
        sx[r] = s;
        const __m512 inv = _mm512_set1_ps(1.0f / s);
        const __m512i offset = _mm512_set1_epi32(128);
        for (int i = 0; i < k; i += 16) {
            const __m512i q = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(xr + i), inv)); /* nearest, even */
            _mm_storeu_si128((__m128i *)(xq + (size_t)r * k + i), _mm512_cvtepi32_epi8(_mm512_add_epi32(q, offset)));
        }
    }
}

/* y (m, n) = (xq − 128) Wᵀ · sx[r] · scale[j] + bias[j], ReLU after if ``relu``; W packed (n / 16, k / 4, 64)
 * with column sums ``colsum``. Four rows × 64 outputs a block: 16 sums in registers, each weight vector
 * loaded once for four rows, each input word broadcast once for four weight vectors. xq holds whole
 * blocks of four rows (the last block's extra rows are read, never stored). */
static void product(const uint8_t *xq, const float *sx, int m, int k, const int8_t *w, const int32_t *colsum,
                    const float *scale, const float *bias, int n, int relu, float *y) {
    const int groups = k / 4, blocks = n / 16;
    for (int jb = 0; jb < blocks; jb += 4) {
        const int nc = blocks - jb < 4 ? blocks - jb : 4;
        const int8_t *wb = w + (size_t)jb * groups * 64;
        for (int r0 = 0; r0 < m; r0 += 4) {
            __m512i acc[4][4];
            for (int a = 0; a < 4; a++)
                for (int c = 0; c < 4; c++) acc[a][c] = _mm512_setzero_si512();
            const uint8_t *x0 = xq + (size_t)r0 * k;
            for (int g = 0; g < groups; g++) {
                __m512i wv[4];
                for (int c = 0; c < 4; c++)
                    wv[c] = c < nc ? _mm512_loadu_si512((const void *)(wb + ((size_t)c * groups + g) * 64))
                                   : _mm512_setzero_si512();
                for (int a = 0; a < 4; a++) {
                    int32_t word;
                    memcpy(&word, x0 + (size_t)a * k + 4 * g, sizeof word);
                    const __m512i xb = _mm512_set1_epi32(word);
                    for (int c = 0; c < 4; c++) acc[a][c] = _mm512_dpbusd_epi32(acc[a][c], xb, wv[c]);
                }
            }
            for (int a = 0; a < 4 && r0 + a < m; a++) {
                const __m512 sr = _mm512_set1_ps(sx[r0 + a]);
                for (int c = 0; c < nc; c++) {
                    const int j = (jb + c) * 16;
                    const __m512i offset = _mm512_slli_epi32(_mm512_loadu_si512((const void *)(colsum + j)), 7);
                    __m512 v = _mm512_cvtepi32_ps(_mm512_sub_epi32(acc[a][c], offset));
                    const __m512 b = bias != NULL ? _mm512_loadu_ps(bias + j) : _mm512_setzero_ps();
                    v = _mm512_fmadd_ps(v, _mm512_mul_ps(sr, _mm512_loadu_ps(scale + j)), b);
                    if (relu) v = _mm512_max_ps(v, _mm512_setzero_ps());
                    _mm512_storeu_ps(y + (size_t)(r0 + a) * n + j, v);
                }
            }
        }
    }
}

/* One product through pointers p[0..3] = packed weights, column sums, scales, bias (NULL: none). */
static void apply(void *const *p, const float *x, int m, int k, int n, int relu, uint8_t *xq, float *sx, float *y) {
    quantise_rows(x, m, k, xq, sx);
    product(xq, sx, m, k, (const int8_t *)p[0], (const int32_t *)p[1], (const float *)p[2], (const float *)p[3], n,
            relu, y);
}
#endif

/* y = the product p of x (m, k), as in the step; for tests (model/native/eval_engine.py). 0, or -1 where
 * this build has no VNNI kernel. */
int ae_eval_product(void *const *p, const float *x, int m, int k, int n, int relu, uint8_t *xq, float *sx,
                    float *y) {
#ifdef AE_VNNI
    apply(p, x, m, k, n, relu, xq, sx, y);
    return 0;
#else
    (void)p, (void)x, (void)m, (void)k, (void)n, (void)relu, (void)xq, (void)sx, (void)y;
    return -1;
#endif
}

/* Feed tokens[r] at ``position`` to the rows r < rows, whose slots are slot[r]; next[r] ← the argmax of
 * the next piece's logits (the padding piece never). Returns 0; -1 without the VNNI kernel, -2 for a
 * token or slot out of range or no room in the caches.
 *
 * p: P_HEAD pointers (embedding (V, D), positions (CAP, D), source mask (SLOTS, S) bytes or NULL, the output
 * table's four, scratch floats, xq bytes, sx floats), then L_PER_LAYER per layer: six products of four
 * (W^{QKV}, self W^O, cross W^Q, cross W^O, W1, W2), the three norms' gain and bias, the self-attention
 * caches K and V (SLOTS, H, CAP, d_k), the cross-attention K and V (SLOTS, H, S, d_k).
 * fp: layer norm eps, embedding scale. Scratch: SLOTS × (6·D + D_FF + V_P) + CAP + S + 32 floats; xq:
 * ⌈SLOTS/4⌉·4 × max(D, D_FF) bytes; sx: as many floats as xq has rows. */
int ae_eval_step(const int64_t *dims, void *const *p, const float *fp, int rows, const int32_t *slot,
                 const int64_t *tokens, int position, int64_t *next) {
#ifdef AE_VNNI
    const int d = (int)dims[E_D], heads = (int)dims[E_H], d_k = (int)dims[E_DK], d_ff = (int)dims[E_FF];
    const int vocab = (int)dims[E_V], vp = (int)dims[E_VP], layers = (int)dims[E_L], s_len = (int)dims[E_S];
    const int cap = (int)dims[E_CAP], pad = (int)dims[E_PAD], slots = (int)dims[E_SLOTS];
    if (position < 0 || position >= cap || rows < 0 || rows > slots) return -2;
    for (int r = 0; r < rows; r++)
        if (tokens[r] < 0 || tokens[r] >= vocab || slot[r] < 0 || slot[r] >= slots) return -2;
    const float eps = fp[0], embed_scale = fp[1];
    float *x = (float *)p[P_SCRATCH], *qkv = x + (size_t)slots * d, *att = qkv + (size_t)slots * 3 * d;
    float *y = att + (size_t)slots * d, *hidden = y + (size_t)slots * d, *logits = hidden + (size_t)slots * d_ff;
    float *scores = logits + (size_t)slots * vp;
    uint8_t *xq = (uint8_t *)p[P_XQ];
    float *sx = (float *)p[P_SX];
    const float *emb = (const float *)p[P_EMB], *pe = (const float *)p[P_PE] + (size_t)position * d;
    const uint8_t *mask = (const uint8_t *)p[P_MASK];

    for (int r = 0; r < rows; r++) { /* x = E[token] · √d + PE[position] */
        const float *e = emb + (size_t)tokens[r] * d;
        for (int i = 0; i < d; i++) x[(size_t)r * d + i] = e[i] * embed_scale + pe[i];
    }
    for (int l = 0; l < layers; l++) {
        void *const *lp = p + P_HEAD + (size_t)l * L_PER_LAYER;
        const float *norm[6];
        for (int i = 0; i < 6; i++) norm[i] = (const float *)lp[L_NORMS + i];
        float *self_k = (float *)lp[L_SELF_K], *self_v = (float *)lp[L_SELF_V];
        const float *cross_k = (const float *)lp[L_CROSS_K], *cross_v = (const float *)lp[L_CROSS_V];

        apply(lp + L_QKV, x, rows, d, 3 * d, 0, xq, sx, qkv); /* (rows, 3D): Q, K, V */
        for (int r = 0; r < rows; r++)
            for (int h = 0; h < heads; h++) {
                const size_t at = ((size_t)slot[r] * heads + h) * cap * d_k;
                const float *row = qkv + (size_t)r * 3 * d + (size_t)h * d_k;
                memcpy(self_k + at + (size_t)position * d_k, row + d, sizeof(float) * (size_t)d_k);
                memcpy(self_v + at + (size_t)position * d_k, row + 2 * d, sizeof(float) * (size_t)d_k);
                attend_one(row, self_k + at, self_v + at, NULL, d_k, position + 1, d_k, scores,
                           att + (size_t)r * d + (size_t)h * d_k);
            }
        apply(lp + L_SELF_OUT, att, rows, d, d, 0, xq, sx, y);
        for (int r = 0; r < rows; r++) add_norm_row(x + (size_t)r * d, y + (size_t)r * d, norm[0], norm[1], d, eps);

        apply(lp + L_CROSS_Q, x, rows, d, d, 0, xq, sx, qkv); /* (rows, D): the queries */
        for (int r = 0; r < rows; r++) {
            const uint8_t *allowed = mask == NULL ? NULL : mask + (size_t)slot[r] * s_len;
            for (int h = 0; h < heads; h++) {
                const size_t at = ((size_t)slot[r] * heads + h) * s_len * d_k;
                attend_one(qkv + (size_t)r * d + (size_t)h * d_k, cross_k + at, cross_v + at, allowed, d_k, s_len,
                           d_k, scores, att + (size_t)r * d + (size_t)h * d_k);
            }
        }
        apply(lp + L_CROSS_OUT, att, rows, d, d, 0, xq, sx, y);
        for (int r = 0; r < rows; r++) add_norm_row(x + (size_t)r * d, y + (size_t)r * d, norm[2], norm[3], d, eps);

        apply(lp + L_FF1, x, rows, d, d_ff, 1, xq, sx, hidden); /* max(0, x W1 + b1) */
        apply(lp + L_FF2, hidden, rows, d_ff, d, 0, xq, sx, y);
        for (int r = 0; r < rows; r++) add_norm_row(x + (size_t)r * d, y + (size_t)r * d, norm[4], norm[5], d, eps);
    }
    apply(p + P_OUT, x, rows, d, vp, 0, xq, sx, logits);
    for (int r = 0; r < rows; r++) next[r] = argmax_row(logits + (size_t)r * vp, vocab, pad);
    return 0;
#else
    (void)dims, (void)p, (void)fp, (void)rows, (void)slot, (void)tokens, (void)position, (void)next;
    return -1;
#endif
}
