"""The sentence and its translation: the translate panel, the model worker and its controller (load,
translate, compare; newest request wins), the beam dock and live head ablation."""
