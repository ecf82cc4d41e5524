/* Plain C, for the driver tests. */
int plainAnswer(void) { return 42; }
