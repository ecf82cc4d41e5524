; The IO-builder on an annotated 1-D kernel: its data function, descriptor
; and constructor, and the hook before the stub's cudaLaunchKernel, whose grid
; and block become the hook's. A kernel without annotation is left alone.
;
; The IR is the host side of Inputs/saxpy.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/saxpy.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; The runtime's structures, member for member as in klaraptor_rt.h.
; CHECK: %klaraptor.kernel_desc = type { i32, i32, ptr, ptr, ptr, ptr, i32, i32 }
; CHECK: %klaraptor.launch_info = type { i32, i32, ptr, ptr, [3 x i32], [3 x i32], i64, ptr }

; The spec (a copy: annotation strings are not emitted), the device symbol
; from __cudaRegisterFunction, and the descriptor: size 48, ABI 1, the stub,
; both strings, the data function and one data parameter.
; CHECK: @__klaraptor.spec.saxpy = private unnamed_addr constant [143 x i8] c"klaraptor v1\0Akernel saxpy\0Aloc saxpy.cu:6:9\0Aparam 3 n i32\0Adata N $3\0A{{.*}}\0Acandidates pow2\0A\00", align 1
; CHECK: @__klaraptor.name.saxpy = private unnamed_addr constant [16 x i8] c"_Z5saxpyPfPKffi\00", align 1
; CHECK: @__klaraptor.desc.saxpy = internal constant %klaraptor.kernel_desc { i32 48, i32 1, ptr @_Z20__device_stub__saxpyPfPKffi, ptr @__klaraptor.name.saxpy, ptr @__klaraptor.spec.saxpy, ptr @__klaraptor_data.saxpy, i32 1, i32 0 }, align 8
; CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }, { i32, ptr, ptr } { i32 65535, ptr @klaraptor.register, ptr null }]
; CHECK-NOT: __klaraptor.desc.plain

; CHECK-LABEL: define dso_local void @_Z20__device_stub__saxpyPfPKffi(
; CHECK-NEXT:    %klaraptor.data = alloca [1 x i64], align 8
; CHECK-NEXT:    %klaraptor.info = alloca %klaraptor.launch_info, align 8
; CHECK:         [[ARGS:%[0-9]+]] = alloca ptr, i64 4, align 16
; CHECK:         call i32 @__cudaPopCallConfiguration(
; CHECK-NEXT:    [[SHMEM:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[STREAM:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT:    call void @llvm.memcpy
; CHECK-NEXT:    getelementptr
; CHECK-NEXT:    [[GXY:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    getelementptr
; CHECK-NEXT:    [[GZ:%[0-9]+]] = load i32, ptr
; CHECK-NEXT:    call void @llvm.memcpy
; CHECK-NEXT:    getelementptr
; CHECK-NEXT:    [[BXY:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    getelementptr
; CHECK-NEXT:    [[BZ:%[0-9]+]] = load i32, ptr
; Data first; on failure the runtime gets data == NULL and num_data == 0.
; CHECK-NEXT:    %klaraptor.data.status = call i32 @__klaraptor_data.saxpy(ptr [[ARGS]], ptr %klaraptor.data)
; CHECK-NEXT:    %klaraptor.data.ok = icmp eq i32 %klaraptor.data.status, 0
; CHECK-NEXT:    %data = select i1 %klaraptor.data.ok, ptr %klaraptor.data, ptr null
; CHECK-NEXT:    %num_data = select i1 %klaraptor.data.ok, i32 1, i32 0
; dim3 arrives as (i64 x | y << 32, i32 z).
; CHECK-NEXT:    %grid.x = trunc i64 [[GXY]] to i32
; CHECK-NEXT:    [[GHI:%[0-9]+]] = lshr i64 [[GXY]], 32
; CHECK-NEXT:    %grid.y = trunc i64 [[GHI]] to i32
; CHECK-NEXT:    %block.x = trunc i64 [[BXY]] to i32
; CHECK-NEXT:    [[BHI:%[0-9]+]] = lshr i64 [[BXY]], 32
; CHECK-NEXT:    %block.y = trunc i64 [[BHI]] to i32
; CHECK-NEXT:    %info.size = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 0
; CHECK-NEXT:    store i32 64, ptr %info.size, align 4
; CHECK-NEXT:    %info.num_data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 1
; CHECK-NEXT:    store i32 %num_data, ptr %info.num_data, align 4
; CHECK-NEXT:    %info.data = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 2
; CHECK-NEXT:    store ptr %data, ptr %info.data, align 8
; CHECK-NEXT:    %info.args = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 3
; CHECK-NEXT:    store ptr [[ARGS]], ptr %info.args, align 8
; CHECK-NEXT:    %info.grid.x = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 0
; CHECK-NEXT:    store i32 %grid.x, ptr %info.grid.x, align 4
; CHECK-NEXT:    %info.grid.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 1
; CHECK-NEXT:    store i32 %grid.y, ptr %info.grid.y, align 4
; CHECK-NEXT:    %info.grid.z = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 2
; CHECK-NEXT:    store i32 [[GZ]], ptr %info.grid.z, align 4
; CHECK-NEXT:    %info.block.x = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 0
; CHECK-NEXT:    store i32 %block.x, ptr %info.block.x, align 4
; CHECK-NEXT:    %info.block.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 1
; CHECK-NEXT:    store i32 %block.y, ptr %info.block.y, align 4
; CHECK-NEXT:    %info.block.z = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 2
; CHECK-NEXT:    store i32 [[BZ]], ptr %info.block.z, align 4
; CHECK-NEXT:    %info.shared_mem = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 6
; CHECK-NEXT:    store i64 [[SHMEM]], ptr %info.shared_mem, align 8
; CHECK-NEXT:    %info.stream = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 7
; CHECK-NEXT:    store ptr [[STREAM]], ptr %info.stream, align 8
; CHECK-NEXT:    %klaraptor.status = call i32 @__klaraptor_rt_launch(ptr @__klaraptor.desc.saxpy, ptr %klaraptor.info)
; The hook's grid and block only when it returned KLARAPTOR_OK.
; CHECK-NEXT:    %klaraptor.ok = icmp eq i32 %klaraptor.status, 0
; CHECK-NEXT:    %new.grid.x = load i32, ptr %info.grid.x, align 4
; CHECK-NEXT:    %launch.grid.x = select i1 %klaraptor.ok, i32 %new.grid.x, i32 %grid.x
; CHECK-NEXT:    %new.grid.y = load i32, ptr %info.grid.y, align 4
; CHECK-NEXT:    %launch.grid.y = select i1 %klaraptor.ok, i32 %new.grid.y, i32 %grid.y
; CHECK-NEXT:    %new.grid.z = load i32, ptr %info.grid.z, align 4
; CHECK-NEXT:    %launch.grid.z = select i1 %klaraptor.ok, i32 %new.grid.z, i32 [[GZ]]
; CHECK-NEXT:    %new.block.x = load i32, ptr %info.block.x, align 4
; CHECK-NEXT:    %launch.block.x = select i1 %klaraptor.ok, i32 %new.block.x, i32 %block.x
; CHECK-NEXT:    %new.block.y = load i32, ptr %info.block.y, align 4
; CHECK-NEXT:    %launch.block.y = select i1 %klaraptor.ok, i32 %new.block.y, i32 %block.y
; CHECK-NEXT:    %new.block.z = load i32, ptr %info.block.z, align 4
; CHECK-NEXT:    %launch.block.z = select i1 %klaraptor.ok, i32 %new.block.z, i32 [[BZ]]
; The dynamic shared memory too: the pragma's shared(...) gives each shape
; its own.
; CHECK-NEXT:    %new.shared_mem = load i64, ptr %info.shared_mem, align 8
; CHECK-NEXT:    %launch.shared_mem = select i1 %klaraptor.ok, i64 %new.shared_mem, i64 [[SHMEM]]
; CHECK-NEXT:    [[X:%[0-9]+]] = zext i32 %launch.grid.x to i64
; CHECK-NEXT:    [[Y:%[0-9]+]] = zext i32 %launch.grid.y to i64
; CHECK-NEXT:    [[YS:%[0-9]+]] = shl i64 [[Y]], 32
; CHECK-NEXT:    %grid.xy = or i64 [[YS]], [[X]]
; CHECK-NEXT:    [[X:%[0-9]+]] = zext i32 %launch.block.x to i64
; CHECK-NEXT:    [[Y:%[0-9]+]] = zext i32 %launch.block.y to i64
; CHECK-NEXT:    [[YS:%[0-9]+]] = shl i64 [[Y]], 32
; CHECK-NEXT:    %block.xy = or i64 [[YS]], [[X]]
; CHECK-NEXT:    [[RC:%[0-9]+]] = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__saxpyPfPKffi, i64 %grid.xy, i32 %launch.grid.z, i64 %block.xy, i32 %launch.block.z, ptr noundef [[ARGS]], i64 noundef %launch.shared_mem, ptr noundef [[STREAM]]), !klaraptor.instrumented
; The after-launch hook, with the same info and the launch's result.
; CHECK-NEXT:    call void @__klaraptor_rt_launched(ptr %klaraptor.info, i32 [[RC]])

; CHECK-LABEL: define dso_local void @_Z20__device_stub__plainPi(
; CHECK-NOT:     klaraptor
; CHECK:         call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__plainPi, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr noundef %{{[0-9]+}}, i64 noundef %{{[0-9]+}}, ptr noundef %{{[0-9]+}}){{$}}
; CHECK-NEXT:    br label

; The data function: $3 is an i32, read through args[3] and sign-extended.
; CHECK-LABEL: define internal i32 @__klaraptor_data.saxpy(ptr %args, ptr %out)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %n.slot = getelementptr inbounds ptr, ptr %args, i64 3
; CHECK-NEXT:    %n.addr = load ptr, ptr %n.slot, align 8
; CHECK-NEXT:    %n = load i32, ptr %n.addr, align 4
; CHECK-NEXT:    %n.i64 = sext i32 %n to i64
; CHECK-NEXT:    %out.N = getelementptr inbounds i64, ptr %out, i64 0
; CHECK-NEXT:    store i64 %n.i64, ptr %out.N, align 8
; CHECK-NEXT:    ret i32 0
; CHECK-NEXT:  }

; CHECK-LABEL: define internal void @klaraptor.register()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call i32 @__klaraptor_rt_register_kernel(ptr @__klaraptor.desc.saxpy)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
; CHECK: declare i32 @__klaraptor_rt_register_kernel(ptr)
; CHECK: declare i32 @__klaraptor_rt_launch(ptr, ptr)

; ModuleID = 'Inputs/saxpy.cu'
source_filename = "Inputs/saxpy.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [16 x i8] c"_Z5saxpyPfPKffi\00", align 1
@1 = private unnamed_addr constant [11 x i8] c"_Z5plainPi\00", align 1
@2 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @2, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]
@.str = private unnamed_addr constant [143 x i8] c"klaraptor v1\0Akernel saxpy\0Aloc saxpy.cu:6:9\0Aparam 3 n i32\0Adata N $3\0Ablock bx\0Awhere (bx <= N)\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Acandidates pow2\0A\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [16 x i8] c"Inputs/saxpy.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z20__device_stub__saxpyPfPKffi, ptr @.str, ptr @.str.1, i32 9, ptr null }], section "llvm.metadata"

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z20__device_stub__saxpyPfPKffi(ptr noundef %0, ptr noundef %1, float noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca float, align 4
  %8 = alloca i32, align 4
  %9 = alloca %struct.dim3, align 8
  %10 = alloca %struct.dim3, align 8
  %11 = alloca i64, align 8
  %12 = alloca ptr, align 8
  %13 = alloca { i64, i32 }, align 8
  %14 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store float %2, ptr %7, align 4
  store i32 %3, ptr %8, align 4
  %15 = alloca ptr, i64 4, align 16
  %16 = getelementptr ptr, ptr %15, i32 0
  store ptr %5, ptr %16, align 8
  %17 = getelementptr ptr, ptr %15, i32 1
  store ptr %6, ptr %17, align 8
  %18 = getelementptr ptr, ptr %15, i32 2
  store ptr %7, ptr %18, align 8
  %19 = getelementptr ptr, ptr %15, i32 3
  store ptr %8, ptr %19, align 8
  %20 = call i32 @__cudaPopCallConfiguration(ptr %9, ptr %10, ptr %11, ptr %12)
  %21 = load i64, ptr %11, align 8
  %22 = load ptr, ptr %12, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %13, ptr align 8 %9, i64 12, i1 false)
  %23 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 0
  %24 = load i64, ptr %23, align 8
  %25 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 1
  %26 = load i32, ptr %25, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %14, ptr align 8 %10, i64 12, i1 false)
  %27 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 0
  %28 = load i64, ptr %27, align 8
  %29 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 1
  %30 = load i32, ptr %29, align 8
  %31 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__saxpyPfPKffi, i64 %24, i32 %26, i64 %28, i32 %30, ptr noundef %15, i64 noundef %21, ptr noundef %22)
  br label %32

32:                                               ; preds = %4
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

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

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z3runPfPKfiPi(ptr noundef %0, ptr noundef %1, i32 noundef %2, ptr noundef %3) #2 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca ptr, align 8
  %9 = alloca %struct.dim3, align 4
  %10 = alloca %struct.dim3, align 4
  %11 = alloca { i64, i32 }, align 4
  %12 = alloca { i64, i32 }, align 4
  %13 = alloca %struct.dim3, align 4
  %14 = alloca %struct.dim3, align 4
  %15 = alloca { i64, i32 }, align 4
  %16 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
  store ptr %3, ptr %8, align 8
  %17 = load i32, ptr %7, align 4
  %18 = add nsw i32 %17, 255
  %19 = sdiv i32 %18, 256
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %9, i32 noundef %19, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %10, i32 noundef 256, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 4 %9, i64 12, i1 false)
  %20 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 0
  %21 = load i64, ptr %20, align 4
  %22 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 1
  %23 = load i32, ptr %22, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %12, ptr align 4 %10, i64 12, i1 false)
  %24 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  %25 = load i64, ptr %24, align 4
  %26 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  %27 = load i32, ptr %26, align 4
  %28 = call i32 @__cudaPushCallConfiguration(i64 %21, i32 %23, i64 %25, i32 %27, i64 noundef 0, ptr noundef null)
  %29 = icmp ne i32 %28, 0
  br i1 %29, label %34, label %30

30:                                               ; preds = %4
  %31 = load ptr, ptr %5, align 8
  %32 = load ptr, ptr %6, align 8
  %33 = load i32, ptr %7, align 4
  call void @_Z20__device_stub__saxpyPfPKffi(ptr noundef %31, ptr noundef %32, float noundef 2.000000e+00, i32 noundef %33) #5
  br label %34

34:                                               ; preds = %30, %4
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %13, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %14, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %15, ptr align 4 %13, i64 12, i1 false)
  %35 = getelementptr inbounds { i64, i32 }, ptr %15, i32 0, i32 0
  %36 = load i64, ptr %35, align 4
  %37 = getelementptr inbounds { i64, i32 }, ptr %15, i32 0, i32 1
  %38 = load i32, ptr %37, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %16, ptr align 4 %14, i64 12, i1 false)
  %39 = getelementptr inbounds { i64, i32 }, ptr %16, i32 0, i32 0
  %40 = load i64, ptr %39, align 4
  %41 = getelementptr inbounds { i64, i32 }, ptr %16, i32 0, i32 1
  %42 = load i32, ptr %41, align 4
  %43 = call i32 @__cudaPushCallConfiguration(i64 %36, i32 %38, i64 %40, i32 %42, i64 noundef 0, ptr noundef null)
  %44 = icmp ne i32 %43, 0
  br i1 %44, label %47, label %45

45:                                               ; preds = %34
  %46 = load ptr, ptr %8, align 8
  call void @_Z20__device_stub__plainPi(ptr noundef %46) #5
  br label %47

47:                                               ; preds = %45, %34
  ret void
}

declare i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) #3

; Function Attrs: mustprogress noinline nounwind uwtable
define linkonce_odr dso_local void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %0, i32 noundef %1, i32 noundef %2, i32 noundef %3) unnamed_addr #4 comdat align 2 {
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

define internal void @__cuda_register_globals(ptr %0) {
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__saxpyPfPKffi, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %3 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__plainPi, ptr @1, ptr @1, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
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
attributes #3 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { "uniform-work-group-size"="true" }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.ident = !{!6}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
