// A __managed__ variable: klaraptor-clang++ refuses it (errors.test).
__managed__ int total;
__global__ void add(int n) { atomicAdd(&total, n); }
int main() {
  total = 1;
  add<<<1, 4>>>(3);
  return total;
}
