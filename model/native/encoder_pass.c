/* The encoder's pass over one short sentence (section 3.1: N post-LN layers of self-attention and
 * feed-forward), in one call, with each layer's attention weights if asked.
 *
 * Why C: the pass of a 6-piece sentence through the modules took ~2.2 ms on the 2-core machine, half of
 * it the products (already native: ae_product) and half PyTorch's fixed cost per operation (~45 module
 * calls, ~100 tensor operations); a short beam-4 translation is ~19 ms, CTranslate2's ~16 (#32). Here the
 * same layers run in one call: the products through the same kernel, attention, layer norms and the
 * activation as the rows step computes them (step_common.h).
 *
 * The numbers are the fp32 model's with sums in this code's order: ~1e-7 from the modules' (softmax's exp
 * and the division by √d_k are computed alike but not bit for bit). ``Transformer.encode`` takes this path
 * whenever it applies (model/native/encoder.py), so every pass over one input still agrees bit for bit.
 */
#include "step_common.h"

void ae_product(const float *x, const float *w, const float *bias, float *y, int rows, int n, int k);

/* Pointers, in this order: the source's embedding table (V, D), positions (≥ n, D), scratch (encoder.py
 * sizes it), encoder head multipliers (N_LAYERS, H) or NULL (an ablation); then per layer: four products
 * (w, bias: qkv, out, ff_in, ff_out: 8 pointers) and two norms (g, b: 4). */
#define ENC_HEAD 4
#define ENC_PER_LAYER 12

/* Encode tokens[0, n) into x (n, D); maps: NULL, or (N_LAYERS, H, n, n) where each layer's attention weights
 * are written, the very numbers that weighed the values. Every key is a real piece (no padding). Returns
 * 0, or −1 for a token outside the table. */
int ae_encode(const int64_t *dims, void *const *p, const float *fparams, int n, const int64_t *tokens, float *x,
              float *maps) {
    const int d = (int)dims[D_MODEL], heads = (int)dims[N_HEADS], d_k = (int)dims[D_K], d_ff = (int)dims[D_FF];
    const int vocab = (int)dims[VOCAB], layers = (int)dims[N_LAYERS], act = (int)dims[ACTIVATION];
    const float eps = fparams[0], embed_scale = fparams[1];
    if (n < 1) return -1;
    for (int i = 0; i < n; i++)
        if (tokens[i] < 0 || tokens[i] >= vocab) return -1;

    float *qkv = (float *)p[2], *keys = qkv + (size_t)n * 3 * d, *values = keys + (size_t)n * d;
    float *a = values + (size_t)n * d, *y = a + (size_t)n * d, *h = y + (size_t)n * d;
    float *scores = h + (size_t)n * d_ff, *weights = scores + n; /* weights: one query's (H, n) */
    const float *table = (const float *)p[0], *pe = (const float *)p[1], *head_mask = (const float *)p[3];
    for (int i = 0; i < n; i++) /* embedding × √d_model + the sinusoid of its position (section 3.4, 3.5) */
        for (int j = 0; j < d; j++) x[(size_t)i * d + j] = table[(size_t)tokens[i] * d + j] * embed_scale + pe[(size_t)i * d + j];

    for (int l = 0; l < layers; l++) {
        void *const *lp = p + ENC_HEAD + l * ENC_PER_LAYER;
        const float **w = (const float **)lp, **norms = (const float **)(lp + 8);
        ae_product(x, w[0], w[1], qkv, n, 3 * d, d);
        /* Keys and values head by head, (H, n, d_k), the layout ``attend`` reads. */
        for (int i = 0; i < n; i++)
            for (int hh = 0; hh < heads; hh++) {
                memcpy(keys + ((size_t)hh * n + i) * d_k, qkv + (size_t)i * 3 * d + d + hh * d_k, sizeof(float) * d_k);
                memcpy(values + ((size_t)hh * n + i) * d_k, qkv + (size_t)i * 3 * d + 2 * d + hh * d_k,
                       sizeof(float) * d_k);
            }
        for (int i = 0; i < n; i++) {
            float *ai = a + (size_t)i * d;
            attend(qkv + (size_t)i * 3 * d, keys, values, heads, d_k, n, n, scores, ai, maps ? weights : NULL);
            if (maps)
                for (int hh = 0; hh < heads; hh++)
                    memcpy(maps + (((size_t)l * heads + hh) * n + i) * n, weights + (size_t)hh * n, sizeof(float) * n);
            if (head_mask)
                for (int hh = 0; hh < heads; hh++)
                    for (int j = 0; j < d_k; j++) ai[hh * d_k + j] *= head_mask[l * heads + hh];
        }
        ae_product(a, w[2], w[3], y, n, d, d);
        for (int i = 0; i < n; i++) add_norm(x + (size_t)i * d, y + (size_t)i * d, norms[0], norms[1], d, eps);
        ae_product(x, w[4], w[5], h, n, d_ff, d);
        activate(h, n * d_ff, act);
        ae_product(h, w[6], w[7], y, n, d, d_ff);
        for (int i = 0; i < n; i++) add_norm(x + (size_t)i * d, y + (size_t)i * d, norms[2], norms[3], d, eps);
    }
    return 0;
}
