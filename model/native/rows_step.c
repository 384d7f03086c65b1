/* One decoding step of a post-LN Transformer decoder for several rows at once, in fp32: beam search's step.
 *
 * Why C: a beam-4 step of the built-in model through PyTorch is ~60 small operations on 4 rows, ~4 ms
 * here, most of it each operation's fixed cost; its arithmetic is ~23 M multiply-adds on ~23 MB of fp32
 * weights. Here the step is one call. Unlike the draft (draft_step.c) this step decides the search: its
 * products are fp32, as the model's, and differ from PyTorch's only in the order of summation (~1e-6
 * relative). Asked to, it also writes each row's attention weights, the numbers that weighed the values:
 * a translation's maps are then the search's own (model/decoding/beam_maps.py), with no second pass.
 *
 * Products read the model's own weights as PyTorch keeps them, (n, k) row-major: nothing is copied or
 * repacked, so a model is ready at once and a change to its weights (the live probe's training) is seen.
 *
 * Called through ctypes (model/native/rows.py, ``NativeRows``), which passes flat arrays of sizes and
 * pointers in the order of step_common.h's enum and of the comment above ``ae_rows_step``.
 */
#include "step_common.h"

#define BLOCK 4 /* rows of x multiplied together with three weight rows */

typedef struct {
    const float *w;    /* (n, k) */
    const float *bias; /* (n,) or NULL */
} F32;

/* y (R, n) = x (R, k) Wᵀ + b for R rows of x, over weight rows [j0, j1), W weight rows at a time, in
 * vectors of 16 lanes (AVX-512) or 8 (AVX2) where k is whole blocks of them, else through ``dot``. Each
 * weight row is read once for all R rows; each x block is loaded once for W products (loads are what
 * limits the loop otherwise). W × R accumulators: 3 × 4 or 2 × 6, 12 of AVX2's 16 vector registers (W, R
 * literals at every call, so the loops unroll into registers).
 *
 * The step's ~23 MB of weights do not stay in cache between steps (measured: ~20 GB/s from memory), and
 * the hardware prefetcher alone left the loop waiting on them: asking for the weights PREFETCH floats
 * ahead halved a beam-4 step's products (1.56-2.3 → 0.94-0.96 ms; 1,024-2,048 measured alike).
 *
 * Every output is the same sum in the same order, whatever W and R: the vector loop's lanes then their
 * sum (``dot`` for the rows left over adds the same way), so a row gets the same bits alone as in a pass. */
#define PREFETCH 1536
#define WIDE 6 /* the most rows of x a call takes (with W = 2) */
/* The loop at one vector width: VEC, of L lanes, and its zero, load, fused multiply-add and lane sum. */
#define BLOCK_LOOP(VEC, L, ZERO, LOAD, FMA, HSUM)                                                           \
    for (; k % L == 0 && j + W <= j1; j += W) {                                                             \
        const float *w = m->w + (size_t)j * k;                                                              \
        VEC acc[3][WIDE];                                                                                   \
        for (int v = 0; v < W; v++)                                                                         \
            for (int r = 0; r < R; r++) acc[v][r] = ZERO();                                                 \
        for (int i = 0; i < k; i += L) {                                                                    \
            VEC wv[3];                                                                                      \
            for (int v = 0; v < W; v++) {                                                                   \
                /* Past the matrix's end this names memory never read: a prefetch cannot fault. */          \
                _mm_prefetch((const char *)(w + (size_t)v * k + i + PREFETCH), _MM_HINT_T0);                \
                wv[v] = LOAD(w + (size_t)v * k + i);                                                        \
            }                                                                                               \
            for (int r = 0; r < R; r++) {                                                                   \
                const VEC xr = LOAD(x + (size_t)r * k + i);                                                 \
                for (int v = 0; v < W; v++) acc[v][r] = FMA(xr, wv[v], acc[v][r]);                          \
            }                                                                                               \
        }                                                                                                   \
        for (int r = 0; r < R; r++)                                                                         \
            for (int v = 0; v < W; v++)                                                                     \
                y[(size_t)r * n + j + v] = HSUM(acc[v][r]) + (m->bias ? m->bias[j + v] : 0.0f);             \
    }

static inline __attribute__((always_inline)) void block(const F32 *m, const float *x, float *y, int W, int R,
                                                        int j0, int j1, int n, int k) {
    int j = j0;
#ifdef AE_AVX512
    /* Where the CPU has AVX-512 and k is whole blocks of 16: a cache line of each weight row at a time. */
    BLOCK_LOOP(__m512, 16, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_fmadd_ps, hsum16)
#endif
#if defined(__AVX2__) && defined(__FMA__)
    BLOCK_LOOP(__m256, 8, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_fmadd_ps, hsum8)
#endif
    for (; j < j1; j++) { /* the last rows when the range is not a multiple of W, or no AVX2 */
        for (int r = 0; r < R; r++)
            y[(size_t)r * n + j] = dot(x + (size_t)r * k, m->w + (size_t)j * k, k) + (m->bias ? m->bias[j] : 0.0f);
    }
}

/* y (rows, n) = x (rows, k) Wᵀ + b, BLOCK rows at a time (the row count a literal, so each is unrolled).
 * Past BLOCK rows the weight is taken TILE rows at a time, every block of rows through each tile while it
 * is in cache, rather than the whole weight read from memory again per block. Each output is the same
 * sum in the same order whatever the number of rows: a row gets the same bits alone as in a pass. */
#define TILE 48 /* weight rows: 48 KB of a 256-wide fp32 weight, well inside the 512 KB-1 MB L2 */
static void product(const F32 *m, const float *x, float *y, int rows, int n, int k) {
    const int tile = rows > BLOCK ? TILE : n;
    for (int j0 = 0; j0 < n; j0 += tile) {
        const int j1 = j0 + tile < n ? j0 + tile : n;
        for (int r0 = 0; r0 < rows;) {
            const float *xs = x + (size_t)r0 * k;
            float *ys = y + (size_t)r0 * n;
            const int left = rows - r0;  /* six at a time while five or more are left, then 1-4 */
            const int take = left >= WIDE ? WIDE : left == WIDE - 1 ? WIDE - 1 : left < BLOCK ? left : BLOCK;
            switch (take) {
            case 1: block(m, xs, ys, 3, 1, j0, j1, n, k); break;
            case 2: block(m, xs, ys, 3, 2, j0, j1, n, k); break;
            case 3: block(m, xs, ys, 3, 3, j0, j1, n, k); break;
            case 4: block(m, xs, ys, 3, 4, j0, j1, n, k); break;
            case 5: block(m, xs, ys, 2, 5, j0, j1, n, k); break; /* six rows of x read each weight once, */
            default: block(m, xs, ys, 2, 6, j0, j1, n, k); break; /* not twice as 4 + 2 (2.6-3.0 → 2.1-2.4 ms) */
            }
            r0 += take;
        }
    }
}

/* y (rows, n) = x (rows, k) Wᵀ + b: the inference products of a model's passes (model/packed_linear.py);
 * k a multiple of 8. */
void ae_product(const float *x, const float *w, const float *bias, float *y, int rows, int n, int k) {
    const F32 m = {w, bias};
    product(&m, x, y, rows, n, k);
}

/* Each head's output times its multiplier, where W^O will read it (as MultiHeadAttention.forward does:
 * a multiplier of 1 changes no bit, so an ablation that removes nothing equals the plain search). */
static void scale_heads(float *a, const float *mask, int heads, int d_k) {
    if (mask == NULL) return;
    for (int h = 0; h < heads; h++)
        for (int i = 0; i < d_k; i++) a[h * d_k + i] *= mask[h];
}

/* Pointers, in this order: embedding (V, D), positions (CAPACITY, D), output weight (V, D), output bias
 * or NULL, scratch (see rows.py), self- and cross-attention head multipliers (N_LAYERS, H) or NULL (an
 * ablation: model/decoding/ablation.py); then per layer: six products (w, bias: qkv, self_out, cross_q,
 * cross_out, ff_in, ff_out: 12 pointers), three norms (g, b: 6), cross k, cross v (H, SRC_LEN, d_k) shared
 * by every row, self k, self v (rows, H, CAPACITY, d_k). */
#define HEAD 7
#define PER_LAYER 22

/* Feed tokens[r] at ``position`` to row r (its caches hold the positions before it); write each row's
 * next-piece logits to logits (rows, V), padding −∞. self_maps (rows, N_LAYERS, H, position + 1) and
 * cross_maps (rows, N_LAYERS, H, SRC_LEN): NULL, or where each row's attention weights are written.
 * Returns 0, or −1 for a position or token out of range. */
int ae_rows_step(const int64_t *dims, void *const *p, const float *fparams, int position, int rows,
                 const int64_t *tokens, float *logits, float *self_maps, float *cross_maps) {
    const int d = (int)dims[D_MODEL], heads = (int)dims[N_HEADS], d_k = (int)dims[D_K], d_ff = (int)dims[D_FF];
    const int vocab = (int)dims[VOCAB], layers = (int)dims[N_LAYERS], src = (int)dims[SRC_LEN];
    const int cap = (int)dims[CAPACITY], pad = (int)dims[PAD_ID], act = (int)dims[ACTIVATION];
    const float eps = fparams[0], embed_scale = fparams[1];
    if (position < 0 || position >= cap || rows < 1) return -1;
    for (int r = 0; r < rows; r++)
        if (tokens[r] < 0 || tokens[r] >= vocab) return -1;

    float *x = (float *)p[4], *qkv = x + (size_t)rows * d, *a = qkv + (size_t)rows * 3 * d;
    float *y = a + (size_t)rows * d, *h = y + (size_t)rows * d, *scores = h + (size_t)rows * d_ff;
    const float *pe = (const float *)p[1] + (size_t)position * d;
    const float *self_mask = (const float *)p[5], *cross_mask = (const float *)p[6];
    for (int r = 0; r < rows; r++) {
        const float *emb = (const float *)p[0] + (size_t)tokens[r] * d;
        for (int i = 0; i < d; i++) x[(size_t)r * d + i] = emb[i] * embed_scale + pe[i];
    }

    for (int l = 0; l < layers; l++) {
        void *const *lp = p + HEAD + l * PER_LAYER;
        F32 m[6];
        for (int j = 0; j < 6; j++) m[j] = (F32){(const float *)lp[2 * j], (const float *)lp[2 * j + 1]};
        const float **norms = (const float **)(lp + 12);
        const float *ck = (const float *)lp[18], *cv = (const float *)lp[19];
        float *sk = (float *)lp[20], *sv = (float *)lp[21];
        const size_t row_cache = (size_t)heads * cap * d_k; /* one row's self cache */

        /* Masked self-attention: each row's key and value join its own cache; its query sees them all. */
        product(&m[0], x, qkv, rows, 3 * d, d);
        for (int r = 0; r < rows; r++) {
            const float *row = qkv + (size_t)r * 3 * d;
            float *kr = sk + r * row_cache, *vr = sv + r * row_cache;
            for (int hh = 0; hh < heads; hh++) {
                memcpy(kr + ((size_t)hh * cap + position) * d_k, row + d + hh * d_k, sizeof(float) * (size_t)d_k);
                memcpy(vr + ((size_t)hh * cap + position) * d_k, row + 2 * d + hh * d_k, sizeof(float) * (size_t)d_k);
            }
            attend(row, kr, vr, heads, d_k, position + 1, cap, scores, a + (size_t)r * d,
                   self_maps ? self_maps + ((size_t)r * layers + l) * heads * (position + 1) : NULL);
            scale_heads(a + (size_t)r * d, self_mask ? self_mask + (size_t)l * heads : NULL, heads, d_k);
        }
        product(&m[1], a, y, rows, d, d);
        for (int r = 0; r < rows; r++) add_norm(x + (size_t)r * d, y + (size_t)r * d, norms[0], norms[1], d, eps);
        /* Encoder-decoder attention over the source's keys and values (computed once a sentence). */
        product(&m[2], x, qkv, rows, d, d);
        for (int r = 0; r < rows; r++) {
            attend(qkv + (size_t)r * d, ck, cv, heads, d_k, src, src, scores, a + (size_t)r * d,
                   cross_maps ? cross_maps + ((size_t)r * layers + l) * heads * src : NULL);
            scale_heads(a + (size_t)r * d, cross_mask ? cross_mask + (size_t)l * heads : NULL, heads, d_k);
        }
        product(&m[3], a, y, rows, d, d);
        for (int r = 0; r < rows; r++) add_norm(x + (size_t)r * d, y + (size_t)r * d, norms[2], norms[3], d, eps);
        /* Feed-forward. */
        product(&m[4], x, h, rows, d_ff, d);
        activate(h, rows * d_ff, act);
        product(&m[5], h, y, rows, d, d_ff);
        for (int r = 0; r < rows; r++) add_norm(x + (size_t)r * d, y + (size_t)r * d, norms[4], norms[5], d, eps);
    }

    const F32 out = {(const float *)p[2], (const float *)p[3]};
    product(&out, x, logits, rows, vocab, d);
    for (int r = 0; r < rows; r++) logits[(size_t)r * vocab + pad] = -INFINITY; /* padding is never a choice */
    return 0;
}

/* Row r continues the hypothesis of row index[r]: copy each layer's self caches, positions [0, filled).
 * Returns 0, or −1 (nothing copied) for a row or a fill out of range. */
int ae_rows_reorder(const int64_t *dims, void *const *p, int rows, const int64_t *index, int filled, float *spare) {
    const int heads = (int)dims[N_HEADS], d_k = (int)dims[D_K], layers = (int)dims[N_LAYERS];
    const int cap = (int)dims[CAPACITY];
    if (filled < 0 || filled > cap) return -1;
    for (int r = 0; r < rows; r++)
        if (index[r] < 0 || index[r] >= rows) return -1;
    const size_t row_cache = (size_t)heads * cap * d_k, span = sizeof(float) * (size_t)filled * d_k;
    for (int l = 0; l < layers; l++) {
        for (int kv = 0; kv < 2; kv++) {
            float *cache = (float *)p[HEAD + l * PER_LAYER + 20 + kv];
            /* Through ``spare`` (rows × one row's cache): a row may be read after another was written. */
            for (int r = 0; r < rows; r++)
                for (int hh = 0; hh < heads; hh++)
                    memcpy(spare + r * row_cache + (size_t)hh * cap * d_k,
                           cache + (size_t)index[r] * row_cache + (size_t)hh * cap * d_k, span);
            for (int r = 0; r < rows; r++)
                for (int hh = 0; hh < heads; hh++)
                    memcpy(cache + r * row_cache + (size_t)hh * cap * d_k, spare + r * row_cache + (size_t)hh * cap * d_k,
                           span);
        }
    }
    return 0;
}
