"""``--kind``, ``--layer`` and ``--head`` of the command line, applied to the window's attention panel.

They need the model's shape, so they are applied when the first translation arrives, and checked against
it: a layer or head out of range is one clear line (the screenshot's exit code 2), never a traceback.
"""

from __future__ import annotations


def apply_state_once(window, args, on_error) -> None:
    """Select --kind/--layer/--head when the first translation arrives (they need its shape)."""
    if not (args.kind or args.layer or args.head):
        return

    def apply(_translation) -> None:
        window.controller.translation_ready.disconnect(apply)
        try:
            select_state(window, args)
        except ValueError as exc:
            on_error(str(exc))

    window.controller.translation_ready.connect(apply)


def select_state(window, args) -> None:
    """Apply the 1-based --kind/--layer/--head to the attention panel, checking the model's shape."""
    info = window.controller.info
    kind, layer, head = current_state(window.attention_panel)
    if args.layer is not None:
        if info is not None and args.layer > info.n_layers:
            raise ValueError(f"--layer {args.layer} is out of range: the model has {info.n_layers}")
        layer = args.layer - 1
    if args.head is not None:
        if info is not None and args.head > info.n_heads:
            raise ValueError(f"--head {args.head} is out of range: the model has {info.n_heads}")
        head = args.head - 1
    window.attention_panel.set_state(args.kind or kind, layer, head)


def current_state(panel) -> tuple[str, int, int]:
    """(kind, layer, head) the panel shows now, 0-based."""
    kind, layer, head, _mean = panel.state()
    return kind, layer, head
