// An annotated kernel and its launcher, compiled by the driver tests.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void launchSaxpy(float *y, const float *x, float a, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(y, x, a, n);
}
