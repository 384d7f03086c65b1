"""What every feature shares and none owns: translation (tr), the theme, scrolling, recent models, the empty
state, the GUI-thread garbage collector, the platform check, colour maps, form fields and the flow layout.
It imports no feature package."""
