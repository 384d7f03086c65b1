"""Training: the loop and its controls, batching, toy tasks, checkpoint averaging, and the DDP glue."""
