/*===- TargetShapeModel.c - a toy model for tests: prefer one block shape ---===*
 *
 * \file
 * Registers, for each kernel named in KLARAPTOR_TEST_MODEL_KERNELS (comma
 * separated), a model whose "predicted time" is the distance of a candidate's
 * block from KLARAPTOR_TEST_MODEL_BLOCK=X,Y,Z:
 *     |log2 bx - log2 X| + |log2 by - log2 Y| + |log2 bz - log2 Z|
 * so the runtime should choose the admissible shape nearest that target. It
 * lets tests check, without a GPU and without fitted models, that the
 * runtime's choice is what the program then launches.
 *===------------------------------------------------------------------------===*/
#include <klaraptor/klaraptor_rt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double Target[3] = {1, 1, 1};

static double predict(void *ctx, const int64_t *data, uint32_t num_data,
                      const klaraptor_candidate *c,
                      const klaraptor_device_info *device) {
  (void)ctx; (void)data; (void)num_data; (void)device;
  double d = 0;
  for (int i = 0; i < 3; ++i)
    d += fabs(log2((double)c->block[i]) - log2(Target[i]));
  return d;
}

__attribute__((constructor)) static void registerTargetShapeModel(void) {
  const char *kernels = getenv("KLARAPTOR_TEST_MODEL_KERNELS");
  const char *block = getenv("KLARAPTOR_TEST_MODEL_BLOCK");
  if (!kernels || !block)
    return;
  if (sscanf(block, "%lf,%lf,%lf", &Target[0], &Target[1], &Target[2]) != 3) {
    fprintf(stderr, "TargetShapeModel: bad KLARAPTOR_TEST_MODEL_BLOCK '%s'\n", block);
    return;
  }
  klaraptor_model m;
  memset(&m, 0, sizeof m);
  m.size = sizeof m;
  m.abi_version = KLARAPTOR_RT_ABI_VERSION;
  m.name = "test-target-shape";
  m.predict = predict;
  char names[1024];
  snprintf(names, sizeof names, "%s", kernels);
  for (char *save = NULL, *k = strtok_r(names, ",", &save); k;
       k = strtok_r(NULL, ",", &save))
    if (klaraptor_register_model(k, &m) != KLARAPTOR_OK)
      fprintf(stderr, "TargetShapeModel: could not register a model for '%s'\n", k);
}
