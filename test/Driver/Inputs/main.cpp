// Plain C++ calling into kernel.cu, for the driver tests.
void launchSaxpy(float *y, const float *x, float a, int n);

int main() {
  launchSaxpy(nullptr, nullptr, 2.0f, 0);
  return 0;
}
