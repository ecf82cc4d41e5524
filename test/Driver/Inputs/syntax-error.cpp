// Does not compile: the driver must pass clang's diagnostic through.
int main() { return undeclaredName; }
