; Data parameters from fields of a structure passed by value (the spec's
; 'param INDEX.OFFSET' lines): the data function reads kernel parameter k's
; storage through args[k] and the field at its byte offset there, with
; alignment 1 (a packed structure's fields may be anywhere: rows at byte 1,
; cols at 5, depth at 13); a plain parameter after it is read as before.
;
; The IR is the host side of Inputs/struct-fields.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/struct-fields.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK: @__klaraptor.desc.fields = internal constant %klaraptor.kernel_desc { i32 48, i32 1, ptr @_Z21__device_stub__fields5Shapei, ptr @__klaraptor.name.fields, ptr @__klaraptor.spec.fields, ptr @__klaraptor_data.fields, i32 4, i32 0 }

; CHECK-LABEL: define internal i32 @__klaraptor_data.fields(ptr %args, ptr %out)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %s.rows.slot = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK-NEXT:    %s.rows.addr = load ptr, ptr %s.rows.slot, align 8
; CHECK-NEXT:    %s.rows.field = getelementptr inbounds i8, ptr %s.rows.addr, i64 1
; CHECK-NEXT:    %s.rows = load i32, ptr %s.rows.field, align 1
; CHECK-NEXT:    %s.rows.i64 = sext i32 %s.rows to i64
; CHECK-NEXT:    %s.cols.slot = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK-NEXT:    %s.cols.addr = load ptr, ptr %s.cols.slot, align 8
; CHECK-NEXT:    %s.cols.field = getelementptr inbounds i8, ptr %s.cols.addr, i64 5
; CHECK-NEXT:    %s.cols = load i64, ptr %s.cols.field, align 1
; CHECK-NEXT:    %s.depth.slot = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK-NEXT:    %s.depth.addr = load ptr, ptr %s.depth.slot, align 8
; CHECK-NEXT:    %s.depth.field = getelementptr inbounds i8, ptr %s.depth.addr, i64 13
; CHECK-NEXT:    %s.depth = load i16, ptr %s.depth.field, align 1
; CHECK-NEXT:    %s.depth.i64 = sext i16 %s.depth to i64
; CHECK-NEXT:    %n.slot = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK-NEXT:    %n.addr = load ptr, ptr %n.slot, align 8
; CHECK-NEXT:    %n = load i32, ptr %n.addr, align 4
; CHECK-NEXT:    %n.i64 = sext i32 %n to i64
; CHECK-NEXT:    %out.R = getelementptr inbounds i64, ptr %out, i64 0
; CHECK-NEXT:    store i64 %s.rows.i64, ptr %out.R, align 8
; CHECK-NEXT:    %out.C = getelementptr inbounds i64, ptr %out, i64 1
; CHECK-NEXT:    store i64 %s.cols, ptr %out.C, align 8
; CHECK-NEXT:    %out.D = getelementptr inbounds i64, ptr %out, i64 2
; CHECK-NEXT:    store i64 %s.depth.i64, ptr %out.D, align 8
; CHECK-NEXT:    %out.N = getelementptr inbounds i64, ptr %out, i64 3
; CHECK-NEXT:    store i64 %n.i64, ptr %out.N, align 8
; CHECK-NEXT:    ret i32 0
; CHECK-NEXT:  }

; ModuleID = 'Inputs/struct-fields.cu'
source_filename = "Inputs/struct-fields.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Shape = type <{ i8, i32, i64, i16 }>
%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [17 x i8] c"_Z6fields5Shapei\00", align 1
@1 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]
@.str = private unnamed_addr constant [243 x i8] c"klaraptor v1\0Akernel fields\0Aloc struct-fields.cu:15:9\0Aparam 0.1 s.rows i32\0Aparam 0.5 s.cols i64\0Aparam 0.13 s.depth i16\0Aparam 1 n i32\0Adata R $0.1\0Adata C $0.5\0Adata D $0.13\0Adata N $1\0Ablock bx\0Agrid ceildiv((((R * C) * D) + N), bx)\0Acandidates pow2\0A\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [24 x i8] c"Inputs/struct-fields.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z21__device_stub__fields5Shapei, ptr @.str, ptr @.str.1, i32 22, ptr null }], section "llvm.metadata"

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z21__device_stub__fields5Shapei(ptr noundef byval(%struct.Shape) align 8 %0, i32 noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca %struct.dim3, align 8
  %5 = alloca %struct.dim3, align 8
  %6 = alloca i64, align 8
  %7 = alloca ptr, align 8
  %8 = alloca { i64, i32 }, align 8
  %9 = alloca { i64, i32 }, align 8
  store i32 %1, ptr %3, align 4
  %10 = alloca ptr, i64 2, align 16
  %11 = getelementptr ptr, ptr %10, i32 0
  store ptr %0, ptr %11, align 8
  %12 = getelementptr ptr, ptr %10, i32 1
  store ptr %3, ptr %12, align 8
  %13 = call i32 @__cudaPopCallConfiguration(ptr %4, ptr %5, ptr %6, ptr %7)
  %14 = load i64, ptr %6, align 8
  %15 = load ptr, ptr %7, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %8, ptr align 8 %4, i64 12, i1 false)
  %16 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 0
  %17 = load i64, ptr %16, align 8
  %18 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 1
  %19 = load i32, ptr %18, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %9, ptr align 8 %5, i64 12, i1 false)
  %20 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 0
  %21 = load i64, ptr %20, align 8
  %22 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 1
  %23 = load i32, ptr %22, align 8
  %24 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z21__device_stub__fields5Shapei, i64 %17, i32 %19, i64 %21, i32 %23, ptr noundef %10, i64 noundef %14, ptr noundef %15)
  br label %25

25:                                               ; preds = %2
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z3run5Shape(ptr noundef byval(%struct.Shape) align 8 %0) #2 {
  %2 = alloca %struct.dim3, align 4
  %3 = alloca %struct.dim3, align 4
  %4 = alloca { i64, i32 }, align 4
  %5 = alloca { i64, i32 }, align 4
  %6 = alloca %struct.Shape, align 8
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %2, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %3, i32 noundef 32, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %4, ptr align 4 %2, i64 12, i1 false)
  %7 = getelementptr inbounds { i64, i32 }, ptr %4, i32 0, i32 0
  %8 = load i64, ptr %7, align 4
  %9 = getelementptr inbounds { i64, i32 }, ptr %4, i32 0, i32 1
  %10 = load i32, ptr %9, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %5, ptr align 4 %3, i64 12, i1 false)
  %11 = getelementptr inbounds { i64, i32 }, ptr %5, i32 0, i32 0
  %12 = load i64, ptr %11, align 4
  %13 = getelementptr inbounds { i64, i32 }, ptr %5, i32 0, i32 1
  %14 = load i32, ptr %13, align 4
  %15 = call i32 @__cudaPushCallConfiguration(i64 %8, i32 %10, i64 %12, i32 %14, i64 noundef 0, ptr noundef null)
  %16 = icmp ne i32 %15, 0
  br i1 %16, label %18, label %17

17:                                               ; preds = %1
  call void @llvm.memcpy.p0.p0.i64(ptr align 1 %6, ptr align 8 %0, i64 15, i1 false)
  call void @_Z21__device_stub__fields5Shapei(ptr noundef byval(%struct.Shape) align 8 %6, i32 noundef 3) #5
  br label %18

18:                                               ; preds = %17, %1
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
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z21__device_stub__fields5Shapei, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
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
