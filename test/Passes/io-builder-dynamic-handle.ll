; Launches whose kernel the pass cannot name at compile time go through
; __klaraptor_rt_launch_handle with the handle, data == NULL and
; num_data == 0; the runtime finds the kernel's descriptor by its handle and
; computes the data from info.args itself. Here: the cudaLaunchKernel<T>
; template of cuda_runtime.h (its handle is a parameter) and a C-API call
; with a pointer known at run time. The stub of a kernel defined here without
; an annotation keeps its launch as it is, and with no annotated kernel there
; is no descriptor and no constructor.
;
; The IR is the host side of Inputs/dynamic.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/dynamic.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK-NOT: __klaraptor.desc
; CHECK-NOT: klaraptor.register
; CHECK-LABEL: define dso_local void @_Z20__device_stub__plainPi(
; CHECK-NOT:     klaraptor
; CHECK:         call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__plainPi, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr noundef %{{[0-9]+}}, i64 noundef %{{[0-9]+}}, ptr noundef %{{[0-9]+}}){{$}}

; The template: the handle is the wrapper's first parameter.
; CHECK-LABEL: define internal noundef i32 @_ZL16cudaLaunchKernelIFvPiEE9cudaErrorPT_4dim3S5_PPvmP11CUstream_st(
; CHECK-NEXT:    %klaraptor.info = alloca %klaraptor.launch_info, align 8
; CHECK-NOT:     %klaraptor.data
; CHECK:         [[H:%[0-9]+]] = load ptr, ptr
; CHECK:         [[ARGS:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT:    [[SHMEM:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[STREAM:%[0-9]+]] = load ptr, ptr
; CHECK:         %info.size = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 0
; CHECK-NEXT:    store i32 64, ptr %info.size, align 4
; CHECK-NEXT:    %info.num_data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 1
; CHECK-NEXT:    store i32 0, ptr %info.num_data, align 4
; CHECK-NEXT:    %info.data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 2
; CHECK-NEXT:    store ptr null, ptr %info.data, align 8
; CHECK-NEXT:    %info.args = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 3
; CHECK-NEXT:    store ptr [[ARGS]], ptr %info.args, align 8
; CHECK:         store i64 [[SHMEM]], ptr %info.shared_mem, align 8
; CHECK:         store ptr [[STREAM]], ptr %info.stream, align 8
; CHECK-NEXT:    %klaraptor.status = call i32 @__klaraptor_rt_launch_handle(ptr [[H]], ptr %klaraptor.info)
; CHECK-NEXT:    %klaraptor.ok = icmp eq i32 %klaraptor.status, 0
; CHECK:         call i32 @cudaLaunchKernel(ptr noundef [[H]], i64 %grid.xy, i32 %launch.grid.z, i64 %block.xy, i32 %launch.block.z, ptr noundef [[ARGS]], i64 noundef %launch.shared_mem, ptr noundef [[STREAM]]), !klaraptor.instrumented

; The C entry point with a kernel pointer from the caller.
; CHECK-LABEL: define dso_local void @_Z10viaPointerPKvPPvP11CUstream_st(
; CHECK-NEXT:    %klaraptor.info = alloca %klaraptor.launch_info, align 8
; CHECK:         [[H:%[0-9]+]] = load ptr, ptr
; CHECK:         %klaraptor.status = call i32 @__klaraptor_rt_launch_handle(ptr [[H]], ptr %klaraptor.info)
; CHECK:         call i32 @cudaLaunchKernel(ptr noundef [[H]], i64 %grid.xy, i32 %launch.grid.z, i64 %block.xy, i32 %launch.block.z, ptr noundef %{{[0-9]+}}, i64 noundef %launch.shared_mem{{[0-9]*}}, ptr noundef %{{[0-9]+}}), !klaraptor.instrumented

; CHECK: declare i32 @__klaraptor_rt_launch_handle(ptr, ptr)
; CHECK-NOT: declare i32 @__klaraptor_rt_launch(ptr, ptr)
; CHECK-NOT: declare i32 @__klaraptor_rt_register_kernel(

; ModuleID = 'Inputs/dynamic.cu'
source_filename = "Inputs/dynamic.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [11 x i8] c"_Z5plainPi\00", align 1
@1 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z20__device_stub__plainPi(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.dim3, align 8
  %4 = alloca %struct.dim3, align 8
  %5 = alloca i64, align 8
  %6 = alloca ptr, align 8
  %7 = alloca { i64, i32 }, align 8
  %8 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %2, align 8
  %9 = alloca ptr, i64 1, align 16
  %10 = getelementptr ptr, ptr %9, i32 0
  store ptr %2, ptr %10, align 8
  %11 = call i32 @__cudaPopCallConfiguration(ptr %3, ptr %4, ptr %5, ptr %6)
  %12 = load i64, ptr %5, align 8
  %13 = load ptr, ptr %6, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %7, ptr align 8 %3, i64 12, i1 false)
  %14 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 0
  %15 = load i64, ptr %14, align 8
  %16 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 1
  %17 = load i32, ptr %16, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %8, ptr align 8 %4, i64 12, i1 false)
  %18 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 0
  %19 = load i64, ptr %18, align 8
  %20 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 1
  %21 = load i32, ptr %20, align 8
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__plainPi, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z11viaTemplatePi(ptr noundef %0) #2 {
  %2 = alloca ptr, align 8
  %3 = alloca [1 x ptr], align 8
  %4 = alloca %struct.dim3, align 4
  %5 = alloca %struct.dim3, align 4
  %6 = alloca { i64, i32 }, align 4
  %7 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %2, align 8
  store ptr %2, ptr %3, align 8
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %4, i32 noundef 4, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %5, i32 noundef 64, i32 noundef 1, i32 noundef 1)
  %8 = getelementptr inbounds [1 x ptr], ptr %3, i64 0, i64 0
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %6, ptr align 4 %4, i64 12, i1 false)
  %9 = getelementptr inbounds { i64, i32 }, ptr %6, i32 0, i32 0
  %10 = load i64, ptr %9, align 4
  %11 = getelementptr inbounds { i64, i32 }, ptr %6, i32 0, i32 1
  %12 = load i32, ptr %11, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %7, ptr align 4 %5, i64 12, i1 false)
  %13 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 0
  %14 = load i64, ptr %13, align 4
  %15 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 1
  %16 = load i32, ptr %15, align 4
  %17 = call noundef i32 @_ZL16cudaLaunchKernelIFvPiEE9cudaErrorPT_4dim3S5_PPvmP11CUstream_st(ptr noundef @_Z20__device_stub__plainPi, i64 %10, i32 %12, i64 %14, i32 %16, ptr noundef %8, i64 noundef 0, ptr noundef null)
  ret void
}

; Function Attrs: mustprogress noinline uwtable
define internal noundef i32 @_ZL16cudaLaunchKernelIFvPiEE9cudaErrorPT_4dim3S5_PPvmP11CUstream_st(ptr noundef %0, i64 %1, i32 %2, i64 %3, i32 %4, ptr noundef %5, i64 noundef %6, ptr noundef %7) #2 {
  %9 = alloca %struct.dim3, align 4
  %10 = alloca { i64, i32 }, align 4
  %11 = alloca %struct.dim3, align 4
  %12 = alloca { i64, i32 }, align 4
  %13 = alloca ptr, align 8
  %14 = alloca ptr, align 8
  %15 = alloca i64, align 8
  %16 = alloca ptr, align 8
  %17 = alloca %struct.dim3, align 4
  %18 = alloca %struct.dim3, align 4
  %19 = alloca { i64, i32 }, align 4
  %20 = alloca { i64, i32 }, align 4
  %21 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 0
  store i64 %1, ptr %21, align 4
  %22 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 1
  store i32 %2, ptr %22, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %10, i64 12, i1 false)
  %23 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  store i64 %3, ptr %23, align 4
  %24 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  store i32 %4, ptr %24, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 4 %12, i64 12, i1 false)
  store ptr %0, ptr %13, align 8
  store ptr %5, ptr %14, align 8
  store i64 %6, ptr %15, align 8
  store ptr %7, ptr %16, align 8
  %25 = load ptr, ptr %13, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %17, ptr align 4 %9, i64 12, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %18, ptr align 4 %11, i64 12, i1 false)
  %26 = load ptr, ptr %14, align 8
  %27 = load i64, ptr %15, align 8
  %28 = load ptr, ptr %16, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %19, ptr align 4 %17, i64 12, i1 false)
  %29 = getelementptr inbounds { i64, i32 }, ptr %19, i32 0, i32 0
  %30 = load i64, ptr %29, align 4
  %31 = getelementptr inbounds { i64, i32 }, ptr %19, i32 0, i32 1
  %32 = load i32, ptr %31, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %20, ptr align 4 %18, i64 12, i1 false)
  %33 = getelementptr inbounds { i64, i32 }, ptr %20, i32 0, i32 0
  %34 = load i64, ptr %33, align 4
  %35 = getelementptr inbounds { i64, i32 }, ptr %20, i32 0, i32 1
  %36 = load i32, ptr %35, align 4
  %37 = call i32 @cudaLaunchKernel(ptr noundef %25, i64 %30, i32 %32, i64 %34, i32 %36, ptr noundef %26, i64 noundef %27, ptr noundef %28)
  ret i32 %37
}

; Function Attrs: mustprogress noinline nounwind uwtable
define linkonce_odr dso_local void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %0, i32 noundef %1, i32 noundef %2, i32 noundef %3) unnamed_addr #3 comdat align 2 {
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
  store i32 %1, ptr %6, align 4
  store i32 %2, ptr %7, align 4
  store i32 %3, ptr %8, align 4
  %9 = load ptr, ptr %5, align 8
  %10 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 0
  %11 = load i32, ptr %6, align 4
  store i32 %11, ptr %10, align 4
  %12 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 1
  %13 = load i32, ptr %7, align 4
  store i32 %13, ptr %12, align 4
  %14 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 2
  %15 = load i32, ptr %8, align 4
  store i32 %15, ptr %14, align 4
  ret void
}

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z10viaPointerPKvPPvP11CUstream_st(ptr noundef %0, ptr noundef %1, ptr noundef %2) #2 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca %struct.dim3, align 4
  %8 = alloca %struct.dim3, align 4
  %9 = alloca { i64, i32 }, align 4
  %10 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store ptr %2, ptr %6, align 8
  %11 = load ptr, ptr %4, align 8
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %7, i32 noundef 8, i32 noundef 2, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %8, i32 noundef 32, i32 noundef 4, i32 noundef 2)
  %12 = load ptr, ptr %5, align 8
  %13 = load ptr, ptr %6, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %7, i64 12, i1 false)
  %14 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 0
  %15 = load i64, ptr %14, align 4
  %16 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 1
  %17 = load i32, ptr %16, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %10, ptr align 4 %8, i64 12, i1 false)
  %18 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 0
  %19 = load i64, ptr %18, align 4
  %20 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 1
  %21 = load i32, ptr %20, align 4
  %22 = call i32 @cudaLaunchKernel(ptr noundef %11, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %12, i64 noundef 128, ptr noundef %13)
  ret void
}

define internal void @__cuda_register_globals(ptr %0) {
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__plainPi, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)

declare void @__cudaRegisterVar(ptr, ptr, ptr, ptr, i32, i64, i32, i32)

declare void @__cudaRegisterManagedVar(ptr, ptr, ptr, ptr, i64, i32)

declare void @__cudaRegisterSurface(ptr, ptr, ptr, ptr, i32, i32)

declare void @__cudaRegisterTexture(ptr, ptr, ptr, ptr, i32, i32, i32)

declare ptr @__cudaRegisterFatBinary(ptr)

define internal void @__cuda_module_ctor() {
  %1 = call ptr @__cudaRegisterFatBinary(ptr @__cuda_fatbin_wrapper)
  store ptr %1, ptr @__cuda_gpubin_handle, align 8
  call void @__cuda_register_globals(ptr %1)
  call void @__cudaRegisterFatBinaryEnd(ptr %1)
  %2 = call i32 @atexit(ptr @__cuda_module_dtor)
  ret void
}

declare void @__cudaRegisterFatBinaryEnd(ptr)

declare void @__cudaUnregisterFatBinary(ptr)

define internal void @__cuda_module_dtor() {
  %1 = load ptr, ptr @__cuda_gpubin_handle, align 8
  call void @__cudaUnregisterFatBinary(ptr %1)
  ret void
}

declare i32 @atexit(ptr)

attributes #0 = { mustprogress noinline norecurse uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress noinline uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.ident = !{!6}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
