"""File › Get a model…: real pretrained OPUS-MT models from the Hugging Face Hub (a dialog and its worker)."""
