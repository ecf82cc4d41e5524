; The data function of a kernel whose data expressions multiply, divide, take
; a remainder, round a quotient up and short-circuit. Every '*' is checked
; for overflow, every '/', '%' and ceildiv by a divisor that may be 0 or -1 is
; guarded, and a failing check returns 1 before the operation runs; a
; division inside the right operand of '&&' is evaluated, and guarded, only
; when the left operand is true. ceildiv by the constant 256 needs no guard.
;
; The IR is the host side of Inputs/arith.cu, generated (in test/Passes) by
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang /dev/null Inputs/arith.cu -o -
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder -S %s \
; RUN:   | FileCheck %s

; CHECK: @__klaraptor.desc.tiles = internal constant %klaraptor.kernel_desc { i32 48, i32 1, ptr @_Z20__device_stub__tilesPfli, ptr @__klaraptor.name.tiles, ptr @__klaraptor.spec.tiles, ptr @__klaraptor_data.tiles, i32 5, i32 0 }

; CHECK-LABEL: define internal i32 @__klaraptor_data.tiles(ptr %args, ptr %out)
; CHECK-NEXT:  entry:
; $1 is an i64: no extension.
; CHECK-NEXT:    %n.slot = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK-NEXT:    %n.addr = load ptr, ptr %n.slot, align 8
; CHECK-NEXT:    %n = load i64, ptr %n.addr, align 8
; CHECK-NEXT:    %tile.slot = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK-NEXT:    %tile.addr = load ptr, ptr %tile.slot, align 8
; CHECK-NEXT:    %tile = load i32, ptr %tile.addr, align 4
; CHECK-NEXT:    %tile.i64 = sext i32 %tile to i64
; T = $1 * $2
; CHECK-NEXT:    [[MUL:%[0-9]+]] = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %n, i64 %tile.i64)
; CHECK-NEXT:    %T = extractvalue { i64, i1 } [[MUL]], 0
; CHECK-NEXT:    %mul.ovf = extractvalue { i64, i1 } [[MUL]], 1
; CHECK-NEXT:    br i1 %mul.ovf, label %error, label %mul.ok
; CHECK-EMPTY:
; Q = $1 / $2
; CHECK-NEXT:  mul.ok:
; CHECK-NEXT:    %div.zero = icmp eq i64 %tile.i64, 0
; CHECK-NEXT:    %div.min = icmp eq i64 %n, -9223372036854775808
; CHECK-NEXT:    %div.minus1 = icmp eq i64 %tile.i64, -1
; CHECK-NEXT:    [[MINDIV:%[0-9]+]] = and i1 %div.min, %div.minus1
; CHECK-NEXT:    %div.bad = or i1 %div.zero, [[MINDIV]]
; CHECK-NEXT:    br i1 %div.bad, label %error, label %div.ok
; CHECK-EMPTY:
; CHECK-NEXT:  div.ok:
; CHECK-NEXT:    %Q = sdiv i64 %n, %tile.i64
; C = ceildiv($1, $2): q + (r != 0 && a, b of one sign)
; CHECK-NEXT:    %div.zero1 = icmp eq i64 %tile.i64, 0
; CHECK-NEXT:    %div.min2 = icmp eq i64 %n, -9223372036854775808
; CHECK-NEXT:    %div.minus13 = icmp eq i64 %tile.i64, -1
; CHECK-NEXT:    [[MINDIV:%[0-9]+]] = and i1 %div.min2, %div.minus13
; CHECK-NEXT:    %div.bad4 = or i1 %div.zero1, [[MINDIV]]
; CHECK-NEXT:    br i1 %div.bad4, label %error, label %div.ok5
; CHECK-EMPTY:
; CHECK-NEXT:  div.ok5:
; CHECK-NEXT:    %ceildiv.q = sdiv i64 %n, %tile.i64
; CHECK-NEXT:    %ceildiv.r = srem i64 %n, %tile.i64
; CHECK-NEXT:    %ceildiv.inexact = icmp ne i64 %ceildiv.r, 0
; CHECK-NEXT:    [[XOR:%[0-9]+]] = xor i64 %n, %tile.i64
; CHECK-NEXT:    %ceildiv.samesign = icmp sgt i64 [[XOR]], -1
; CHECK-NEXT:    [[UP:%[0-9]+]] = and i1 %ceildiv.inexact, %ceildiv.samesign
; CHECK-NEXT:    [[UP64:%[0-9]+]] = zext i1 [[UP]] to i64
; CHECK-NEXT:    %C = add nsw i64 %ceildiv.q, [[UP64]]
; E = ($2 != 0) && (($1 % $2) == 0): the remainder only on the right.
; CHECK-NEXT:    [[NZ:%[0-9]+]] = icmp ne i64 %tile.i64, 0
; CHECK-NEXT:    %cmp = zext i1 [[NZ]] to i64
; CHECK-NEXT:    %and.lhs = icmp ne i64 %cmp, 0
; CHECK-NEXT:    br i1 %and.lhs, label %and.rhs, label %and.end
; CHECK-EMPTY:
; CHECK-NEXT:  and.rhs:
; CHECK-NEXT:    %div.zero6 = icmp eq i64 %tile.i64, 0
; CHECK-NEXT:    %div.min7 = icmp eq i64 %n, -9223372036854775808
; CHECK-NEXT:    %div.minus18 = icmp eq i64 %tile.i64, -1
; CHECK-NEXT:    [[MINDIV:%[0-9]+]] = and i1 %div.min7, %div.minus18
; CHECK-NEXT:    %div.bad9 = or i1 %div.zero6, [[MINDIV]]
; CHECK-NEXT:    br i1 %div.bad9, label %error, label %div.ok10
; CHECK-EMPTY:
; CHECK-NEXT:  div.ok10:
; CHECK-NEXT:    %rem = srem i64 %n, %tile.i64
; CHECK-NEXT:    [[EQ:%[0-9]+]] = icmp eq i64 %rem, 0
; CHECK-NEXT:    %cmp11 = zext i1 [[EQ]] to i64
; CHECK-NEXT:    %and.rhs.nz = icmp ne i64 %cmp11, 0
; CHECK-NEXT:    br label %and.end
; CHECK-EMPTY:
; CHECK-NEXT:  and.end:
; CHECK-NEXT:    %and = phi i1 [ false, %div.ok5 ], [ %and.rhs.nz, %div.ok10 ]
; CHECK-NEXT:    %E = zext i1 %and to i64
; H = ceildiv($1, 256): no guard.
; CHECK-NEXT:    %ceildiv.q12 = sdiv i64 %n, 256
; CHECK-NEXT:    %ceildiv.r13 = srem i64 %n, 256
; CHECK-NEXT:    %ceildiv.inexact14 = icmp ne i64 %ceildiv.r13, 0
; CHECK-NEXT:    [[XOR:%[0-9]+]] = xor i64 %n, 256
; CHECK-NEXT:    %ceildiv.samesign15 = icmp sgt i64 [[XOR]], -1
; CHECK-NEXT:    [[UP:%[0-9]+]] = and i1 %ceildiv.inexact14, %ceildiv.samesign15
; CHECK-NEXT:    [[UP64:%[0-9]+]] = zext i1 [[UP]] to i64
; CHECK-NEXT:    %H = add nsw i64 %ceildiv.q12, [[UP64]]
; Only now, with every value known, the stores.
; CHECK-NEXT:    %out.T = getelementptr inbounds i64, ptr %out, i64 0
; CHECK-NEXT:    store i64 %T, ptr %out.T, align 8
; CHECK-NEXT:    %out.Q = getelementptr inbounds i64, ptr %out, i64 1
; CHECK-NEXT:    store i64 %Q, ptr %out.Q, align 8
; CHECK-NEXT:    %out.C = getelementptr inbounds i64, ptr %out, i64 2
; CHECK-NEXT:    store i64 %C, ptr %out.C, align 8
; CHECK-NEXT:    %out.E = getelementptr inbounds i64, ptr %out, i64 3
; CHECK-NEXT:    store i64 %E, ptr %out.E, align 8
; CHECK-NEXT:    %out.H = getelementptr inbounds i64, ptr %out, i64 4
; CHECK-NEXT:    store i64 %H, ptr %out.H, align 8
; CHECK-NEXT:    ret i32 0
; CHECK-EMPTY:
; CHECK-NEXT:  error:
; CHECK-NEXT:    ret i32 1
; CHECK-NEXT:  }

; ModuleID = 'Inputs/arith.cu'
source_filename = "Inputs/arith.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@0 = private unnamed_addr constant [13 x i8] c"_Z5tilesPfli\00", align 1
@1 = private constant [0 x i8] zeroinitializer, section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]
@.str = private unnamed_addr constant [240 x i8] c"klaraptor v1\0Akernel tiles\0Aloc arith.cu:6:9\0Aparam 1 n i64\0Aparam 2 tile i32\0Adata T ($1 * $2)\0Adata Q ($1 / $2)\0Adata C ceildiv($1, $2)\0Adata E (($2 != 0) && (($1 % $2) == 0))\0Adata H ceildiv($1, 256)\0Ablock bx\0Agrid ceildiv(C, bx)\0Acandidates warp\0A\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [16 x i8] c"Inputs/arith.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z20__device_stub__tilesPfli, ptr @.str, ptr @.str.1, i32 12, ptr null }], section "llvm.metadata"

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z20__device_stub__tilesPfli(ptr noundef %0, i64 noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  %7 = alloca %struct.dim3, align 8
  %8 = alloca %struct.dim3, align 8
  %9 = alloca i64, align 8
  %10 = alloca ptr, align 8
  %11 = alloca { i64, i32 }, align 8
  %12 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %4, align 8
  store i64 %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %13 = alloca ptr, i64 3, align 16
  %14 = getelementptr ptr, ptr %13, i32 0
  store ptr %4, ptr %14, align 8
  %15 = getelementptr ptr, ptr %13, i32 1
  store ptr %5, ptr %15, align 8
  %16 = getelementptr ptr, ptr %13, i32 2
  store ptr %6, ptr %16, align 8
  %17 = call i32 @__cudaPopCallConfiguration(ptr %7, ptr %8, ptr %9, ptr %10)
  %18 = load i64, ptr %9, align 8
  %19 = load ptr, ptr %10, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %11, ptr align 8 %7, i64 12, i1 false)
  %20 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 0
  %21 = load i64, ptr %20, align 8
  %22 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 1
  %23 = load i32, ptr %22, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %12, ptr align 8 %8, i64 12, i1 false)
  %24 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  %25 = load i64, ptr %24, align 8
  %26 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  %27 = load i32, ptr %26, align 8
  %28 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__tilesPfli, i64 %21, i32 %23, i64 %25, i32 %27, ptr noundef %13, i64 noundef %18, ptr noundef %19)
  br label %29

29:                                               ; preds = %3
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z3runPfli(ptr noundef %0, i64 noundef %1, i32 noundef %2) #2 {
  %4 = alloca ptr, align 8
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  %7 = alloca %struct.dim3, align 4
  %8 = alloca %struct.dim3, align 4
  %9 = alloca { i64, i32 }, align 4
  %10 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %4, align 8
  store i64 %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %7, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %8, i32 noundef 32, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %7, i64 12, i1 false)
  %11 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 0
  %12 = load i64, ptr %11, align 4
  %13 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 1
  %14 = load i32, ptr %13, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %10, ptr align 4 %8, i64 12, i1 false)
  %15 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 0
  %16 = load i64, ptr %15, align 4
  %17 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 1
  %18 = load i32, ptr %17, align 4
  %19 = call i32 @__cudaPushCallConfiguration(i64 %12, i32 %14, i64 %16, i32 %18, i64 noundef 0, ptr noundef null)
  %20 = icmp ne i32 %19, 0
  br i1 %20, label %25, label %21

21:                                               ; preds = %3
  %22 = load ptr, ptr %4, align 8
  %23 = load i64, ptr %5, align 8
  %24 = load i32, ptr %6, align 4
  call void @_Z20__device_stub__tilesPfli(ptr noundef %22, i64 noundef %23, i32 noundef %24) #5
  br label %25

25:                                               ; preds = %21, %3
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
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__tilesPfli, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
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
