; A driver-API launch, cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem,
; stream, params, extra), is instrumented in any module, annotated kernels or
; not (the kernel may be annotated in another translation unit; the runtime
; resolves the CUfunction by name and keeps the launch of a function it does
; not know): __klaraptor_rt_launch_cufunction(f, info) with data == NULL and
; info.args = params, then the six dims of the call become the hook's when it
; returned KLARAPTOR_OK.
;
; The IR is Inputs/driver.cpp, generated (in test/Passes) by
;   %clangxx -I%cuda_path/include -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     Inputs/driver.cpp -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK-LABEL: define dso_local noundef i32 @_Z6launchP9CUfunc_stPPvP11CUstream_stj(
; CHECK-NEXT:    %klaraptor.info = alloca %klaraptor.launch_info, align 8
; CHECK:         [[F:%[0-9]+]] = load ptr, ptr
; CHECK:         [[GX:%[0-9]+]] = udiv i32 %{{[0-9]+}}, 128
; CHECK-NEXT:    [[STREAM:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT:    [[PARAMS:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT:    %info.size = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 0
; CHECK-NEXT:    store i32 64, ptr %info.size, align 4
; CHECK-NEXT:    %info.num_data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 1
; CHECK-NEXT:    store i32 0, ptr %info.num_data, align 4
; CHECK-NEXT:    %info.data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 2
; CHECK-NEXT:    store ptr null, ptr %info.data, align 8
; CHECK-NEXT:    %info.args = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 3
; CHECK-NEXT:    store ptr [[PARAMS]], ptr %info.args, align 8
; CHECK-NEXT:    %info.grid.x = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 0
; CHECK-NEXT:    store i32 [[GX]], ptr %info.grid.x, align 4
; CHECK-NEXT:    %info.grid.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 1
; CHECK-NEXT:    store i32 1, ptr %info.grid.y, align 4
; CHECK-NEXT:    %info.grid.z = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 2
; CHECK-NEXT:    store i32 1, ptr %info.grid.z, align 4
; CHECK-NEXT:    %info.block.x = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 0
; CHECK-NEXT:    store i32 128, ptr %info.block.x, align 4
; CHECK-NEXT:    %info.block.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 1
; CHECK-NEXT:    store i32 1, ptr %info.block.y, align 4
; CHECK-NEXT:    %info.block.z = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 2
; CHECK-NEXT:    store i32 1, ptr %info.block.z, align 4
; The i32 shmem operand, widened.
; CHECK-NEXT:    %info.shared_mem = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 6
; CHECK-NEXT:    store i64 256, ptr %info.shared_mem, align 8
; CHECK-NEXT:    %info.stream = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 7
; CHECK-NEXT:    store ptr [[STREAM]], ptr %info.stream, align 8
; CHECK-NEXT:    %klaraptor.status = call i32 @__klaraptor_rt_launch_cufunction(ptr [[F]], ptr %klaraptor.info)
; CHECK-NEXT:    %klaraptor.ok = icmp eq i32 %klaraptor.status, 0
; CHECK-NEXT:    %new.grid.x = load i32, ptr %info.grid.x, align 4
; CHECK-NEXT:    %launch.grid.x = select i1 %klaraptor.ok, i32 %new.grid.x, i32 [[GX]]
; CHECK-NEXT:    %new.grid.y = load i32, ptr %info.grid.y, align 4
; CHECK-NEXT:    %launch.grid.y = select i1 %klaraptor.ok, i32 %new.grid.y, i32 1
; CHECK-NEXT:    %new.grid.z = load i32, ptr %info.grid.z, align 4
; CHECK-NEXT:    %launch.grid.z = select i1 %klaraptor.ok, i32 %new.grid.z, i32 1
; CHECK-NEXT:    %new.block.x = load i32, ptr %info.block.x, align 4
; CHECK-NEXT:    %launch.block.x = select i1 %klaraptor.ok, i32 %new.block.x, i32 128
; CHECK-NEXT:    %new.block.y = load i32, ptr %info.block.y, align 4
; CHECK-NEXT:    %launch.block.y = select i1 %klaraptor.ok, i32 %new.block.y, i32 1
; CHECK-NEXT:    %new.block.z = load i32, ptr %info.block.z, align 4
; CHECK-NEXT:    %launch.block.z = select i1 %klaraptor.ok, i32 %new.block.z, i32 1
; CHECK-NEXT:    %new.shared_mem = load i64, ptr %info.shared_mem, align 8
; CHECK-NEXT:    %launch.shared_mem = select i1 %klaraptor.ok, i64 %new.shared_mem, i64 256
; CHECK-NEXT:    %launch.shared_mem.u32 = trunc i64 %launch.shared_mem to i32
; CHECK-NEXT:    call i32 @cuLaunchKernel(ptr noundef [[F]], i32 noundef %launch.grid.x, i32 noundef %launch.grid.y, i32 noundef %launch.grid.z, i32 noundef %launch.block.x, i32 noundef %launch.block.y, i32 noundef %launch.block.z, i32 noundef %launch.shared_mem.u32, ptr noundef [[STREAM]], ptr noundef [[PARAMS]], ptr noundef null), !klaraptor.instrumented
; CHECK: declare i32 @__klaraptor_rt_launch_cufunction(ptr, ptr)

; ModuleID = 'Inputs/driver.cpp'
source_filename = "Inputs/driver.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: mustprogress noinline uwtable
define dso_local noundef i32 @_Z6launchP9CUfunc_stPPvP11CUstream_stj(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %9 = load ptr, ptr %5, align 8
  %10 = load i32, ptr %8, align 4
  %11 = add i32 %10, 127
  %12 = udiv i32 %11, 128
  %13 = load ptr, ptr %7, align 8
  %14 = load ptr, ptr %6, align 8
  %15 = call i32 @cuLaunchKernel(ptr noundef %9, i32 noundef %12, i32 noundef 1, i32 noundef 1, i32 noundef 128, i32 noundef 1, i32 noundef 1, i32 noundef 256, ptr noundef %13, ptr noundef %14, ptr noundef null)
  ret i32 %15
}

declare i32 @cuLaunchKernel(ptr noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef) #1

attributes #0 = { mustprogress noinline uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
