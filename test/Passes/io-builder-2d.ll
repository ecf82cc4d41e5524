; The IO-builder on a 2-D kernel with two data parameters (R = rows, C =
; cols) and a grid that depends on both: the data function fills a
; [2 x i64] in order, and the hook's grid.y and block.y reach the launch
; through the high halves of the coerced dim3 operands.
;
; The IR is the host side of Inputs/matrix2d.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/matrix2d.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK: @__klaraptor.spec.transpose = private unnamed_addr constant {{.*}}c"klaraptor v1\0Akernel transpose\0A{{.*}}\0Adata R $2\0Adata C $3\0Ablock bx by\0A{{.*}}\0Agrid ceildiv(C, bx)\0Agrid ceildiv(R, by)\0Agrid 1\0A
; CHECK: @__klaraptor.name.transpose = private unnamed_addr constant [20 x i8] c"_Z9transposePfPKfii\00"
; CHECK: @__klaraptor.desc.transpose = internal constant %klaraptor.kernel_desc { i32 48, i32 1, ptr @_Z24__device_stub__transposePfPKfii, ptr @__klaraptor.name.transpose, ptr @__klaraptor.spec.transpose, ptr @__klaraptor_data.transpose, i32 2, i32 0 }

; CHECK-LABEL: define dso_local void @_Z24__device_stub__transposePfPKfii(
; CHECK-NEXT:    %klaraptor.data = alloca [2 x i64], align 8
; CHECK-NEXT:    %klaraptor.info = alloca %klaraptor.launch_info, align 8
; CHECK:         [[ARGS:%[0-9]+]] = alloca ptr, i64 4, align 16
; CHECK:         %klaraptor.data.status = call i32 @__klaraptor_data.transpose(ptr [[ARGS]], ptr %klaraptor.data)
; CHECK-NEXT:    %klaraptor.data.ok = icmp eq i32 %klaraptor.data.status, 0
; CHECK-NEXT:    %data = select i1 %klaraptor.data.ok, ptr %klaraptor.data, ptr null
; CHECK-NEXT:    %num_data = select i1 %klaraptor.data.ok, i32 2, i32 0
; CHECK:         store i32 %num_data, ptr %info.num_data, align 4
; CHECK:         store ptr %data, ptr %info.data, align 8
; CHECK:         %info.grid.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 4, i32 1
; CHECK-NEXT:    store i32 %grid.y, ptr %info.grid.y, align 4
; CHECK:         %info.block.y = getelementptr inbounds %klaraptor.launch_info, ptr %klaraptor.info, i32 0, i32 5, i32 1
; CHECK-NEXT:    store i32 %block.y, ptr %info.block.y, align 4
; CHECK:         %klaraptor.status = call i32 @__klaraptor_rt_launch(ptr @__klaraptor.desc.transpose, ptr %klaraptor.info)
; CHECK-NEXT:    %klaraptor.ok = icmp eq i32 %klaraptor.status, 0
; CHECK:         %new.grid.y = load i32, ptr %info.grid.y, align 4
; CHECK-NEXT:    %launch.grid.y = select i1 %klaraptor.ok, i32 %new.grid.y, i32 %grid.y
; CHECK:         %new.block.y = load i32, ptr %info.block.y, align 4
; CHECK-NEXT:    %launch.block.y = select i1 %klaraptor.ok, i32 %new.block.y, i32 %block.y
; CHECK:         [[GX:%[0-9]+]] = zext i32 %launch.grid.x to i64
; CHECK-NEXT:    [[GY:%[0-9]+]] = zext i32 %launch.grid.y to i64
; CHECK-NEXT:    [[GYS:%[0-9]+]] = shl i64 [[GY]], 32
; CHECK-NEXT:    %grid.xy = or i64 [[GYS]], [[GX]]
; CHECK-NEXT:    [[BX:%[0-9]+]] = zext i32 %launch.block.x to i64
; CHECK-NEXT:    [[BY:%[0-9]+]] = zext i32 %launch.block.y to i64
; CHECK-NEXT:    [[BYS:%[0-9]+]] = shl i64 [[BY]], 32
; CHECK-NEXT:    %block.xy = or i64 [[BYS]], [[BX]]
; CHECK-NEXT:    call noundef i32 @cudaLaunchKernel(ptr noundef @_Z24__device_stub__transposePfPKfii, i64 %grid.xy, i32 %launch.grid.z, i64 %block.xy, i32 %launch.block.z, ptr noundef [[ARGS]],

; R is $2 and C is $3, stored to out[0] and out[1] in the order of the spec.
; CHECK-LABEL: define internal i32 @__klaraptor_data.transpose(ptr %args, ptr %out)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %rows.slot = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK-NEXT:    %rows.addr = load ptr, ptr %rows.slot, align 8
; CHECK-NEXT:    %rows = load i32, ptr %rows.addr, align 4
; CHECK-NEXT:    %rows.i64 = sext i32 %rows to i64
; CHECK-NEXT:    %cols.slot = getelementptr inbounds ptr, ptr %args, i64 3
; CHECK-NEXT:    %cols.addr = load ptr, ptr %cols.slot, align 8
; CHECK-NEXT:    %cols = load i32, ptr %cols.addr, align 4
; CHECK-NEXT:    %cols.i64 = sext i32 %cols to i64
; CHECK-NEXT:    %out.R = getelementptr inbounds i64, ptr %out, i64 0
; CHECK-NEXT:    store i64 %rows.i64, ptr %out.R, align 8
; CHECK-NEXT:    %out.C = getelementptr inbounds i64, ptr %out, i64 1
; CHECK-NEXT:    store i64 %cols.i64, ptr %out.C, align 8
; CHECK-NEXT:    ret i32 0
; CHECK-NEXT:  }

; CHECK-LABEL: define internal void @klaraptor.register()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call i32 @__klaraptor_rt_register_kernel(ptr @__klaraptor.desc.transpose)
; CHECK-NEXT:    ret void

; ModuleID = 'Inputs/matrix2d.cu'
source_filename = "Inputs/matrix2d.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [20 x i8] c"_Z9transposePfPKfii\00", align 1
@1 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]
@.str = private unnamed_addr constant [206 x i8] c"klaraptor v1\0Akernel transpose\0Aloc matrix2d.cu:6:9\0Aparam 2 rows i32\0Aparam 3 cols i32\0Adata R $2\0Adata C $3\0Ablock bx by\0Awhere ((bx * by) <= 1024)\0Agrid ceildiv(C, bx)\0Agrid ceildiv(R, by)\0Agrid 1\0Acandidates pow2\0A\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [19 x i8] c"Inputs/matrix2d.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z24__device_stub__transposePfPKfii, ptr @.str, ptr @.str.1, i32 11, ptr null }], section "llvm.metadata"

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z24__device_stub__transposePfPKfii(ptr noundef %0, ptr noundef %1, i32 noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca %struct.dim3, align 8
  %10 = alloca %struct.dim3, align 8
  %11 = alloca i64, align 8
  %12 = alloca ptr, align 8
  %13 = alloca { i64, i32 }, align 8
  %14 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
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
  %31 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z24__device_stub__transposePfPKfii, i64 %24, i32 %26, i64 %28, i32 %30, ptr noundef %15, i64 noundef %21, ptr noundef %22)
  br label %32

32:                                               ; preds = %4
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z3runPfPKfii(ptr noundef %0, ptr noundef %1, i32 noundef %2, i32 noundef %3) #2 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca %struct.dim3, align 4
  %10 = alloca %struct.dim3, align 4
  %11 = alloca { i64, i32 }, align 4
  %12 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
  store i32 %3, ptr %8, align 4
  %13 = load i32, ptr %8, align 4
  %14 = add nsw i32 %13, 15
  %15 = sdiv i32 %14, 16
  %16 = load i32, ptr %7, align 4
  %17 = add nsw i32 %16, 15
  %18 = sdiv i32 %17, 16
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %9, i32 noundef %15, i32 noundef %18, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %10, i32 noundef 16, i32 noundef 16, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 4 %9, i64 12, i1 false)
  %19 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 0
  %20 = load i64, ptr %19, align 4
  %21 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 1
  %22 = load i32, ptr %21, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %12, ptr align 4 %10, i64 12, i1 false)
  %23 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  %24 = load i64, ptr %23, align 4
  %25 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  %26 = load i32, ptr %25, align 4
  %27 = call i32 @__cudaPushCallConfiguration(i64 %20, i32 %22, i64 %24, i32 %26, i64 noundef 0, ptr noundef null)
  %28 = icmp ne i32 %27, 0
  br i1 %28, label %34, label %29

29:                                               ; preds = %4
  %30 = load ptr, ptr %5, align 8
  %31 = load ptr, ptr %6, align 8
  %32 = load i32, ptr %7, align 4
  %33 = load i32, ptr %8, align 4
  call void @_Z24__device_stub__transposePfPKfii(ptr noundef %30, ptr noundef %31, i32 noundef %32, i32 noundef %33) #5
  br label %34

34:                                               ; preds = %29, %4
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
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z24__device_stub__transposePfPKfii, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
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
