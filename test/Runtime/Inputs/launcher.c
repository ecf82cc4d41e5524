/*===- launcher.c - a C program that drives libklaraptor_rt ----------------===*
 *
 * \file
 * Registers a hand-made descriptor for a 1-D kernel "saxpy" (pow2
 * candidates, grid ceildiv(N, bx)) and a model that prefers block x = T,
 * then launches once per argument and prints what the runtime decided.
 *
 *   launcher [--inject] [--no-model] [--bad-spec] [--target T] [--args]
 *            [--decisions] [--last-error] [--range FIRST COUNT] N[:BX] ...
 *
 * --inject     H100 limits through the test hook instead of asking CUDA
 * --args       pass the data through the argument array (data_fn)
 * --last-error print what cudaGetLastError returns after the launches
 * --model-name NAME  the model's name (default "closest")
 * --range      also launch N = FIRST, FIRST + 1, ... (COUNT launches)
 *===------------------------------------------------------------------------===*/
#include "RuntimeInternal.h"
#include "klaraptor/klaraptor_rt.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char GoodSpec[] = "klaraptor v1\n"
                               "kernel saxpy\n"
                               "loc launcher.c:1:1\n"
                               "param 3 n i64\n"
                               "data N $3\n"
                               "block bx\n"
                               "grid ceildiv(N, bx)\n"
                               "candidates pow2\n";
static const char BadSpec[] = "klaraptor v1\nkernel saxpy\ndata N $3\n";

static int dataFromArgs(void *const *Args, int64_t *Out) {
  Out[0] = *(const int64_t *)Args[3];
  return 0;
}

static double Target = 128;
static double predict(void *Ctx, const int64_t *Data, uint32_t NumData,
                      const klaraptor_candidate *C,
                      const klaraptor_device_info *D) {
  (void)Ctx;
  (void)Data;
  (void)NumData;
  (void)D;
  return fabs((double)C->block[0] - Target) + 1;
}

static char Stub; /* stands for the host stub */

static const char *statusName(klaraptor_status S) {
  switch (S) {
  case KLARAPTOR_OK: return "OK";
  case KLARAPTOR_UNCHANGED: return "UNCHANGED";
  case KLARAPTOR_ERR_BAD_ARGUMENT: return "ERR_BAD_ARGUMENT";
  case KLARAPTOR_ERR_BAD_SPEC: return "ERR_BAD_SPEC";
  case KLARAPTOR_ERR_EVAL: return "ERR_EVAL";
  case KLARAPTOR_ERR_NO_DEVICE: return "ERR_NO_DEVICE";
  case KLARAPTOR_ERR_ABI: return "ERR_ABI";
  }
  return "?";
}

static void launch(const klaraptor_kernel_desc *Desc, int64_t N, unsigned Bx,
                   int ViaArgs) {
  klaraptor_launch_info L;
  void *Args[4] = {NULL, NULL, NULL, &N};
  memset(&L, 0, sizeof(L));
  L.size = sizeof(L);
  if (ViaArgs) {
    L.args = Args;
  } else {
    L.num_data = 1;
    L.data = &N;
  }
  L.block[0] = Bx;
  L.block[1] = L.block[2] = 1;
  L.grid[0] = (unsigned)((N + Bx - 1) / Bx);
  L.grid[1] = L.grid[2] = 1;
  klaraptor_status S = __klaraptor_rt_launch(Desc, &L);
  printf("launch N=%lld: %s block %ux%ux%u grid %ux%ux%u\n", (long long)N,
         statusName(S), L.block[0], L.block[1], L.block[2], L.grid[0],
         L.grid[1], L.grid[2]);
}

int main(int argc, char **argv) {
  int Inject = 0, NoModel = 0, Bad = 0, ViaArgs = 0, Decisions = 0,
      LastError = 0;
  const char *ModelName = "closest";
  long long RangeFirst = 0, RangeCount = 0;
  int I = 1;
  for (; I < argc && strncmp(argv[I], "--", 2) == 0; ++I) {
    if (!strcmp(argv[I], "--inject"))
      Inject = 1;
    else if (!strcmp(argv[I], "--no-model"))
      NoModel = 1;
    else if (!strcmp(argv[I], "--bad-spec"))
      Bad = 1;
    else if (!strcmp(argv[I], "--args"))
      ViaArgs = 1;
    else if (!strcmp(argv[I], "--decisions"))
      Decisions = 1;
    else if (!strcmp(argv[I], "--last-error"))
      LastError = 1;
    else if (!strcmp(argv[I], "--range") && I + 2 < argc) {
      RangeFirst = atoll(argv[++I]);
      RangeCount = atoll(argv[++I]);
    } else if (!strcmp(argv[I], "--model-name") && I + 1 < argc)
      ModelName = argv[++I];
    else if (!strcmp(argv[I], "--target") && I + 1 < argc)
      Target = atof(argv[++I]);
    else {
      fprintf(stderr, "launcher: unknown option '%s'\n", argv[I]);
      return 2;
    }
  }

  klaraptor_kernel_desc Desc;
  memset(&Desc, 0, sizeof(Desc));
  Desc.size = sizeof(Desc);
  Desc.abi_version = KLARAPTOR_RT_ABI_VERSION;
  Desc.host_handle = &Stub;
  Desc.device_name = "_Z5saxpyPfPKffl";
  Desc.spec = Bad ? BadSpec : GoodSpec;
  Desc.data_fn = dataFromArgs;
  Desc.num_data = 1;
  printf("register: %s\n", statusName(__klaraptor_rt_register_kernel(&Desc)));

  if (!NoModel) {
    klaraptor_model M;
    memset(&M, 0, sizeof(M));
    M.size = sizeof(M);
    M.abi_version = KLARAPTOR_RT_ABI_VERSION;
    M.name = ModelName;
    M.predict = predict;
    printf("model: %s\n", statusName(klaraptor_register_model("saxpy", &M)));
  }

  if (Inject) {
    klaraptor_device_info D;
    memset(&D, 0, sizeof(D));
    D.size = sizeof(D);
    snprintf(D.name, sizeof(D.name), "injected H100");
    D.max_threads_per_block = 1024;
    D.max_block_dim[0] = D.max_block_dim[1] = 1024;
    D.max_block_dim[2] = 64;
    D.max_grid_dim[0] = 2147483647;
    D.max_grid_dim[1] = D.max_grid_dim[2] = 65535;
    D.warp_size = 32;
    D.sm_count = 132;
    printf("inject: %s\n",
           statusName(klaraptor_rt_internal_set_device_limits(&D)));
  }

  for (long long R = 0; R < RangeCount; ++R)
    launch(&Desc, RangeFirst + R, 256, ViaArgs);
  for (; I < argc; ++I) {
    char *End = NULL;
    int64_t N = strtoll(argv[I], &End, 10);
    unsigned Bx = 256;
    if (End && *End == ':')
      Bx = (unsigned)strtoul(End + 1, NULL, 10);
    launch(&Desc, N, Bx, ViaArgs);
  }
  if (Decisions)
    printf("decisions: %llu\n",
           (unsigned long long)klaraptor_rt_internal_decision_count());
  if (LastError) {
    int (*GetLastError)(void) =
        (int (*)(void))dlsym(RTLD_DEFAULT, "cudaGetLastError");
    printf("last error: %d\n", GetLastError ? GetLastError() : -1);
  }
  return 0;
}
