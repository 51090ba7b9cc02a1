// Module StoreTUI.
