; cudaLaunchKernelExC (what cuda_runtime.h's cudaLaunchKernelEx template
; calls) is instrumented by handle, cuLaunchKernelEx by CUfunction: the launch gets a copy of the program's
; cudaLaunchConfig_t with the hook's grid, block and dynamic shared memory
; (the program's own structure is never written), a null configuration stays
; null, and a configuration with launch attributes (clusters, cooperative
; launches may tie the grid to the block) is kept by a null handle.
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s | FileCheck %s
; A second run adds nothing.
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder,klaraptor-io-builder -S %s \
; RUN:   | FileCheck --check-prefix=TWICE %s
; TWICE-COUNT-1: call i32 @__klaraptor_rt_launch_handle(
; TWICE-NOT: call i32 @__klaraptor_rt_launch_handle(
; TWICE-COUNT-1: call i32 @__klaraptor_rt_launch_cufunction(
; TWICE-NOT: call i32 @__klaraptor_rt_launch_cufunction(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.cudaLaunchConfig_st = type { %struct.dim3, %struct.dim3, i64, ptr, ptr, i32 }
%struct.dim3 = type { i32, i32, i32 }

; CHECK: @__klaraptor.null_config = private unnamed_addr constant { [3 x i32], [3 x i32], i64, ptr, ptr, i32 } zeroinitializer, align 8
; CHECK: @__klaraptor.null_cu_config = private unnamed_addr constant { [3 x i32], [3 x i32], i32, ptr, ptr, i32 } zeroinitializer, align 8

; CHECK-LABEL: define i32 @launch_ex(ptr %config, ptr %kernel, ptr %args)
; CHECK:         %klaraptor.config = alloca { [3 x i32], [3 x i32], i64, ptr, ptr, i32 }, align 8
; CHECK:         %config.null = icmp eq ptr %config, null
; CHECK-NEXT:    %config.src = select i1 %config.null, ptr @__klaraptor.null_config, ptr %config
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 %klaraptor.config, ptr align 8 %config.src, i64 56, i1 false)
; CHECK:         %num_attrs = load i32, ptr %config.num_attrs
; CHECK-NEXT:    [[ATTRS:%.+]] = icmp ne i32 %num_attrs, 0
; CHECK-NEXT:    %keep = or i1 %config.null, [[ATTRS]]
; CHECK-NEXT:    %handle = select i1 %keep, ptr null, ptr %kernel
; CHECK:         store ptr %args, ptr %info.args
; CHECK:         %klaraptor.status = call i32 @__klaraptor_rt_launch_handle(ptr %handle, ptr %klaraptor.info)
; CHECK:         store i32 %launch.grid.x, ptr %config.grid.x
; CHECK:         store i32 %launch.block.x, ptr %config.block.x
; CHECK:         store i64 %launch.shared_mem, ptr %config.shared
; CHECK-NEXT:    %config1 = select i1 %config.null, ptr %config, ptr %klaraptor.config
; CHECK-NEXT:    %r = call i32 @cudaLaunchKernelExC(ptr %config1, ptr %kernel, ptr %args), !klaraptor.instrumented
; CHECK-NEXT:    call void @__klaraptor_rt_launched(ptr %klaraptor.info, i32 %r)
; CHECK-NEXT:    ret i32 %r
define i32 @launch_ex(ptr %config, ptr %kernel, ptr %args) {
  %r = call i32 @cudaLaunchKernelExC(ptr %config, ptr %kernel, ptr %args)
  ret i32 %r
}

declare i32 @cudaLaunchKernelExC(ptr, ptr, ptr)

; CUlaunchConfig: the same shape with a 32-bit shared memory size, which the
; hook sees widened and the copy gets truncated.
; CHECK-LABEL: define i32 @launch_cu_ex(ptr %config, ptr %f, ptr %params)
; CHECK:         %klaraptor.config = alloca { [3 x i32], [3 x i32], i32, ptr, ptr, i32 }, align 8
; CHECK:         %config.src = select i1 %config.null, ptr @__klaraptor.null_cu_config, ptr %config
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 %klaraptor.config, ptr align 8 %config.src, i64 56, i1 false)
; CHECK:         %config.shared_mem = load i32, ptr %config.shared
; CHECK-NEXT:    %shared_mem = zext i32 %config.shared_mem to i64
; CHECK:         %function = select i1 %keep, ptr null, ptr %f
; CHECK:         %klaraptor.status = call i32 @__klaraptor_rt_launch_cufunction(ptr %function, ptr %klaraptor.info)
; CHECK:         %launch.config.shared_mem = trunc i64 %launch.shared_mem to i32
; CHECK-NEXT:    store i32 %launch.config.shared_mem, ptr %config.shared
; CHECK:         %r = call i32 @cuLaunchKernelEx(ptr %config1, ptr %f, ptr %params, ptr null), !klaraptor.instrumented
; CHECK-NEXT:    call void @__klaraptor_rt_launched(ptr %klaraptor.info, i32 %r)
define i32 @launch_cu_ex(ptr %config, ptr %f, ptr %params) {
  %r = call i32 @cuLaunchKernelEx(ptr %config, ptr %f, ptr %params, ptr null)
  ret i32 %r
}

declare i32 @cuLaunchKernelEx(ptr, ptr, ptr, ptr)
