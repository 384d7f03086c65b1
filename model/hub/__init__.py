"""Real pretrained translation models from the Hugging Face Hub: a curated list (catalogue), the local
cache they live in (cache), and a resumable, cancellable download (download) with one-line failures (errors).

Nothing here runs at start-up or without the user asking: the window and ``get-model`` call it."""
