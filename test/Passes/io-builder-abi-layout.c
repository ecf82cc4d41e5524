// The layouts of klaraptor_rt.h's structures on the host target, which the
// IO-builder's IR images (passes/RuntimeABI.h) must match: the pass stores
// size 48 in each descriptor and 64 in each launch info (io-builder-1d.ll)
// and addresses the members in this order; io-builder-e2e.test checks that C
// code reads what the pass wrote.
//
// RUN: %clang_c -std=c11 -I%rt_include %s -o %t
// RUN: %t | FileCheck %s
#include "klaraptor/klaraptor_rt.h"

#include <stddef.h>
#include <stdio.h>

#define FIELD(T, F) printf(#T "." #F " %zu %zu\n", offsetof(T, F), sizeof(((T *)0)->F))

int main(void) {
  // CHECK: klaraptor_kernel_desc 48
  printf("klaraptor_kernel_desc %zu\n", sizeof(klaraptor_kernel_desc));
  // CHECK-NEXT: klaraptor_kernel_desc.size 0 4
  FIELD(klaraptor_kernel_desc, size);
  // CHECK-NEXT: klaraptor_kernel_desc.abi_version 4 4
  FIELD(klaraptor_kernel_desc, abi_version);
  // CHECK-NEXT: klaraptor_kernel_desc.host_handle 8 8
  FIELD(klaraptor_kernel_desc, host_handle);
  // CHECK-NEXT: klaraptor_kernel_desc.device_name 16 8
  FIELD(klaraptor_kernel_desc, device_name);
  // CHECK-NEXT: klaraptor_kernel_desc.spec 24 8
  FIELD(klaraptor_kernel_desc, spec);
  // CHECK-NEXT: klaraptor_kernel_desc.data_fn 32 8
  FIELD(klaraptor_kernel_desc, data_fn);
  // CHECK-NEXT: klaraptor_kernel_desc.num_data 40 4
  FIELD(klaraptor_kernel_desc, num_data);
  // CHECK-NEXT: klaraptor_kernel_desc.reserved 44 4
  FIELD(klaraptor_kernel_desc, reserved);

  // CHECK-NEXT: klaraptor_launch_info 64
  printf("klaraptor_launch_info %zu\n", sizeof(klaraptor_launch_info));
  // CHECK-NEXT: klaraptor_launch_info.size 0 4
  FIELD(klaraptor_launch_info, size);
  // CHECK-NEXT: klaraptor_launch_info.num_data 4 4
  FIELD(klaraptor_launch_info, num_data);
  // CHECK-NEXT: klaraptor_launch_info.data 8 8
  FIELD(klaraptor_launch_info, data);
  // CHECK-NEXT: klaraptor_launch_info.args 16 8
  FIELD(klaraptor_launch_info, args);
  // CHECK-NEXT: klaraptor_launch_info.grid 24 12
  FIELD(klaraptor_launch_info, grid);
  // CHECK-NEXT: klaraptor_launch_info.block 36 12
  FIELD(klaraptor_launch_info, block);
  // CHECK-NEXT: klaraptor_launch_info.shared_mem 48 8
  FIELD(klaraptor_launch_info, shared_mem);
  // CHECK-NEXT: klaraptor_launch_info.stream 56 8
  FIELD(klaraptor_launch_info, stream);
  return 0;
}
