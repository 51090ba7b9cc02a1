// Module NcursesTerminal.
