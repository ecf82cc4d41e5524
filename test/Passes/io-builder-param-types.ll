; Kernel parameters of every integer type a spec may name: the data function
; loads each with its own width and alignment from args[k] and extends it to
; i64, sign-extending i8/i16/i32 and zero-extending u8/u16/u32; i64 and u64
; are used as they are.
;
; The IR is the host side of Inputs/param-types.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/param-types.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK: @__klaraptor.desc.widths = internal constant %klaraptor.kernel_desc { i32 48, i32 1, ptr @_Z21__device_stub__widthsljsahtmi, ptr @__klaraptor.name.widths, ptr @__klaraptor.spec.widths, ptr @__klaraptor_data.widths, i32 8, i32 0 }
; CHECK-LABEL: define dso_local void @_Z21__device_stub__widthsljsahtmi(
; CHECK-NEXT:    %klaraptor.data = alloca [8 x i64], align 8
; CHECK:         %num_data = select i1 %klaraptor.data.ok, i32 8, i32 0

; CHECK-LABEL: define internal i32 @__klaraptor_data.widths(ptr %args, ptr %out)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a.slot = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK-NEXT:    %a.addr = load ptr, ptr %a.slot, align 8
; CHECK-NEXT:    %a = load i64, ptr %a.addr, align 8
; CHECK-NEXT:    %b.slot = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK-NEXT:    %b.addr = load ptr, ptr %b.slot, align 8
; CHECK-NEXT:    %b = load i32, ptr %b.addr, align 4
; CHECK-NEXT:    %b.i64 = zext i32 %b to i64
; CHECK-NEXT:    %c.slot = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK-NEXT:    %c.addr = load ptr, ptr %c.slot, align 8
; CHECK-NEXT:    %c = load i16, ptr %c.addr, align 2
; CHECK-NEXT:    %c.i64 = sext i16 %c to i64
; CHECK-NEXT:    %d.slot = getelementptr inbounds ptr, ptr %args, i64 3
; CHECK-NEXT:    %d.addr = load ptr, ptr %d.slot, align 8
; CHECK-NEXT:    %d = load i8, ptr %d.addr, align 1
; CHECK-NEXT:    %d.i64 = sext i8 %d to i64
; CHECK-NEXT:    %e.slot = getelementptr inbounds ptr, ptr %args, i64 4
; CHECK-NEXT:    %e.addr = load ptr, ptr %e.slot, align 8
; CHECK-NEXT:    %e = load i8, ptr %e.addr, align 1
; CHECK-NEXT:    %e.i64 = zext i8 %e to i64
; CHECK-NEXT:    %f.slot = getelementptr inbounds ptr, ptr %args, i64 5
; CHECK-NEXT:    %f.addr = load ptr, ptr %f.slot, align 8
; CHECK-NEXT:    %f = load i16, ptr %f.addr, align 2
; CHECK-NEXT:    %f.i64 = zext i16 %f to i64
; CHECK-NEXT:    %g.slot = getelementptr inbounds ptr, ptr %args, i64 6
; CHECK-NEXT:    %g.addr = load ptr, ptr %g.slot, align 8
; CHECK-NEXT:    %g = load i64, ptr %g.addr, align 8
; CHECK-NEXT:    %h.slot = getelementptr inbounds ptr, ptr %args, i64 7
; CHECK-NEXT:    %h.addr = load ptr, ptr %h.slot, align 8
; CHECK-NEXT:    %h = load i32, ptr %h.addr, align 4
; CHECK-NEXT:    %h.i64 = sext i32 %h to i64
; CHECK-NEXT:    %out.A = getelementptr inbounds i64, ptr %out, i64 0
; CHECK-NEXT:    store i64 %a, ptr %out.A, align 8
; CHECK-NEXT:    %out.B = getelementptr inbounds i64, ptr %out, i64 1
; CHECK-NEXT:    store i64 %b.i64, ptr %out.B, align 8
; CHECK-NEXT:    %out.C = getelementptr inbounds i64, ptr %out, i64 2
; CHECK-NEXT:    store i64 %c.i64, ptr %out.C, align 8
; CHECK-NEXT:    %out.D = getelementptr inbounds i64, ptr %out, i64 3
; CHECK-NEXT:    store i64 %d.i64, ptr %out.D, align 8
; CHECK-NEXT:    %out.E = getelementptr inbounds i64, ptr %out, i64 4
; CHECK-NEXT:    store i64 %e.i64, ptr %out.E, align 8
; CHECK-NEXT:    %out.F = getelementptr inbounds i64, ptr %out, i64 5
; CHECK-NEXT:    store i64 %f.i64, ptr %out.F, align 8
; CHECK-NEXT:    %out.G = getelementptr inbounds i64, ptr %out, i64 6
; CHECK-NEXT:    store i64 %g, ptr %out.G, align 8
; CHECK-NEXT:    %out.H = getelementptr inbounds i64, ptr %out, i64 7
; CHECK-NEXT:    store i64 %h.i64, ptr %out.H, align 8
; CHECK-NEXT:    ret i32 0
; CHECK-NEXT:  }

; ModuleID = 'Inputs/param-types.cu'
source_filename = "Inputs/param-types.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [18 x i8] c"_Z6widthsljsahtmi\00", align 1
@1 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]
@.str = private unnamed_addr constant [286 x i8] c"klaraptor v1\0Akernel widths\0Aloc param-types.cu:7:9\0Aparam 0 a i64\0Aparam 1 b u32\0Aparam 2 c i16\0Aparam 3 d i8\0Aparam 4 e u8\0Aparam 5 f u16\0Aparam 6 g u64\0Aparam 7 h i32\0Adata A $0\0Adata B $1\0Adata C $2\0Adata D $3\0Adata E $4\0Adata F $5\0Adata G $6\0Adata H $7\0Ablock bx\0Agrid ceildiv(A, bx)\0Acandidates pow2\0A\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [22 x i8] c"Inputs/param-types.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z21__device_stub__widthsljsahtmi, ptr @.str, ptr @.str.1, i32 13, ptr null }], section "llvm.metadata"

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z21__device_stub__widthsljsahtmi(i64 noundef %0, i32 noundef %1, i16 noundef signext %2, i8 noundef signext %3, i8 noundef zeroext %4, i16 noundef zeroext %5, i64 noundef %6, i32 noundef %7) #0 {
  %9 = alloca i64, align 8
  %10 = alloca i32, align 4
  %11 = alloca i16, align 2
  %12 = alloca i8, align 1
  %13 = alloca i8, align 1
  %14 = alloca i16, align 2
  %15 = alloca i64, align 8
  %16 = alloca i32, align 4
  %17 = alloca %struct.dim3, align 8
  %18 = alloca %struct.dim3, align 8
  %19 = alloca i64, align 8
  %20 = alloca ptr, align 8
  %21 = alloca { i64, i32 }, align 8
  %22 = alloca { i64, i32 }, align 8
  store i64 %0, ptr %9, align 8
  store i32 %1, ptr %10, align 4
  store i16 %2, ptr %11, align 2
  store i8 %3, ptr %12, align 1
  store i8 %4, ptr %13, align 1
  store i16 %5, ptr %14, align 2
  store i64 %6, ptr %15, align 8
  store i32 %7, ptr %16, align 4
  %23 = alloca ptr, i64 8, align 16
  %24 = getelementptr ptr, ptr %23, i32 0
  store ptr %9, ptr %24, align 8
  %25 = getelementptr ptr, ptr %23, i32 1
  store ptr %10, ptr %25, align 8
  %26 = getelementptr ptr, ptr %23, i32 2
  store ptr %11, ptr %26, align 8
  %27 = getelementptr ptr, ptr %23, i32 3
  store ptr %12, ptr %27, align 8
  %28 = getelementptr ptr, ptr %23, i32 4
  store ptr %13, ptr %28, align 8
  %29 = getelementptr ptr, ptr %23, i32 5
  store ptr %14, ptr %29, align 8
  %30 = getelementptr ptr, ptr %23, i32 6
  store ptr %15, ptr %30, align 8
  %31 = getelementptr ptr, ptr %23, i32 7
  store ptr %16, ptr %31, align 8
  %32 = call i32 @__cudaPopCallConfiguration(ptr %17, ptr %18, ptr %19, ptr %20)
  %33 = load i64, ptr %19, align 8
  %34 = load ptr, ptr %20, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %21, ptr align 8 %17, i64 12, i1 false)
  %35 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 0
  %36 = load i64, ptr %35, align 8
  %37 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 1
  %38 = load i32, ptr %37, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %22, ptr align 8 %18, i64 12, i1 false)
  %39 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 0
  %40 = load i64, ptr %39, align 8
  %41 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 1
  %42 = load i32, ptr %41, align 8
  %43 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z21__device_stub__widthsljsahtmi, i64 %36, i32 %38, i64 %40, i32 %42, ptr noundef %23, i64 noundef %33, ptr noundef %34)
  br label %44

44:                                               ; preds = %8
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z3runv() #2 {
  %1 = alloca %struct.dim3, align 4
  %2 = alloca %struct.dim3, align 4
  %3 = alloca { i64, i32 }, align 4
  %4 = alloca { i64, i32 }, align 4
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %1, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %2, i32 noundef 32, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %3, ptr align 4 %1, i64 12, i1 false)
  %5 = getelementptr inbounds { i64, i32 }, ptr %3, i32 0, i32 0
  %6 = load i64, ptr %5, align 4
  %7 = getelementptr inbounds { i64, i32 }, ptr %3, i32 0, i32 1
  %8 = load i32, ptr %7, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %4, ptr align 4 %2, i64 12, i1 false)
  %9 = getelementptr inbounds { i64, i32 }, ptr %4, i32 0, i32 0
  %10 = load i64, ptr %9, align 4
  %11 = getelementptr inbounds { i64, i32 }, ptr %4, i32 0, i32 1
  %12 = load i32, ptr %11, align 4
  %13 = call i32 @__cudaPushCallConfiguration(i64 %6, i32 %8, i64 %10, i32 %12, i64 noundef 0, ptr noundef null)
  %14 = icmp ne i32 %13, 0
  br i1 %14, label %16, label %15

15:                                               ; preds = %0
  call void @_Z21__device_stub__widthsljsahtmi(i64 noundef -1, i32 noundef -294967296, i16 noundef signext -2, i8 noundef signext -3, i8 noundef zeroext -56, i16 noundef zeroext -5536, i64 noundef 5, i32 noundef -6) #5
  br label %16

16:                                               ; preds = %15, %0
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
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z21__device_stub__widthsljsahtmi, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
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
