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
#include "batch_common.h"

void ae_attend_rows(const float *q, float *k, float *v, const uint8_t *mask, int rows, int heads, int d_k, int n,
                    int group, long q_row, long kv_row, long kv_head, long kv_pos, long mask_row,
                    const float *new_k, const float *new_v, long new_row, float *out) {
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
            attend_one(qh, kh, vh, allowed, d_k, n, kv_pos, scores, oh);
        }
    }
}
