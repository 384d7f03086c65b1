/* The int8 evaluation copy's small per-step operations on a batch of rows, each one call instead of
 * one or two PyTorch calls (~10 µs each of dispatch on one thread, 12-30 a step):
 *
 * - greedy search's pick: the index of each row's largest logit, one column (the padding piece, never a
 *   choice) left out. ``Tensor.argmax`` over 64 rows of 8,000 logits took ~280 µs, ~5 % of an int8
 *   evaluation, and the padding column's -inf is one more call; the loop below reads the logits once.
 *   Ties go to the first index, as ``argmax``'s; NaN is never picked (a row of NaN gives index 0).
 * - a sub-layer's residual and layer norm, x ← LayerNorm(x + y), every row in one call.
 */
#include "batch_common.h"

/* out[r] = argmax over columns ≠ skip of row r of x (rows ``row`` floats apart, n columns); skip < 0: none. */
void ae_argmax_rows(const float *x, int rows, int n, long row, int skip, int64_t *out) {
    for (int r = 0; r < rows; r++) out[r] = argmax_row(x + (size_t)r * row, n, skip);
}

/* x (rows × d, rows ``row`` floats apart) ← LayerNorm(x + y) with gain g and bias b, y contiguous (rows × d). */
void ae_add_norm_rows(float *x, const float *y, const float *g, const float *b, int rows, int d, long row,
                      float eps) {
    for (int r = 0; r < rows; r++) add_norm_row(x + (size_t)r * row, y + (size_t)r * d, g, b, d, eps);
}
