; klaraptor-device-names gives each kernel and variable registration whose
; name the embedded fatbin lacks the fatbin's name for the same entity:
; clang's `_ZL8internalPf` (a static kernel) is nvcc's `_Z8internalPf`,
; clang's `_ZN12_GLOBAL__N_16hiddenEPf` (an anonymous namespace) is nvcc's
; name unique to the file, a static `__constant__` `_ZL6coeffs` is `coeffs`,
; an anonymous namespace's `__device__` variable gets nvcc's `_INTERNAL_`
; name; names the fatbin has (plain, extern "C") stay.
;
; The IR is the host side of Inputs/device-names.cu with a PTX-only fatbin,
; generated (in test/Passes) by
;   nvcc -fatbin --no-compress -gencode arch=compute_90,code=compute_90 \
;     Inputs/device-names.cu -o dn.fatbin
;   %host_cuda -S -emit-llvm -O0 -Xclang -disable-O0-optnone \
;     -Xclang -fcuda-include-gpubinary -Xclang dn.fatbin Inputs/device-names.cu -o -
; (the cubin path: device-names-cubin.test).
;
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names \
; RUN:   -pass-remarks=klaraptor -S %s -o - 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks
; A second run changes nothing more.
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names,klaraptor-device-names \
; RUN:   -S %s -o - | FileCheck %s

; CHECK-DAG: @[[INTERNAL:__klaraptor.device_name[.0-9]*]] = private unnamed_addr constant [14 x i8] c"_Z8internalPf\00", align 1
; CHECK-DAG: @[[HIDDEN:__klaraptor.device_name[.0-9]*]] = private unnamed_addr constant [64 x i8] c"_ZN48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f6hiddenEPf\00", align 1
; CHECK-DAG: @[[COEFFS:__klaraptor.device_name[.0-9]*]] = private unnamed_addr constant [7 x i8] c"coeffs\00", align 1
; CHECK-DAG: @[[COUNTER:__klaraptor.device_name[.0-9]*]] = private unnamed_addr constant [111 x i8] c"_ZN46_INTERNAL_c75523ed_15_device_names_cu_acc5a52f48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f7counterE\00", align 1
; CHECK-LABEL: define internal void @__cuda_register_globals
; CHECK: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__plainPf, ptr @0, ptr @0,
; CHECK: call i32 @__cudaRegisterFunction(ptr %0, ptr @__device_stub__unmangled, ptr @1, ptr @1,
; CHECK: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__readsPf, ptr @2, ptr @2,
; CHECK: call i32 @__cudaRegisterFunction(ptr %0, ptr @_ZL23__device_stub__internalPf, ptr @[[INTERNAL]], ptr @[[INTERNAL]],
; CHECK: call i32 @__cudaRegisterFunction(ptr %0, ptr @_ZN12_GLOBAL__N_121__device_stub__hiddenEPf, ptr @[[HIDDEN]], ptr @[[HIDDEN]],
; CHECK: call void @__cudaRegisterVar(ptr %0, ptr @shared_coeffs, ptr @5, ptr @5,
; CHECK: call void @__cudaRegisterVar(ptr %0, ptr @_ZL6coeffs, ptr @[[COEFFS]], ptr @[[COEFFS]],
; CHECK: call void @__cudaRegisterVar(ptr %0, ptr @_ZN12_GLOBAL__N_17counterE, ptr @[[COUNTER]], ptr @[[COUNTER]],
; CHECK-NOT: __klaraptor.device_name

; REMARK: remark: <unknown>:0:0: kernel '_ZL8internalPf' is '_Z8internalPf' in the fatbin: registered under that name
; REMARK-NEXT: remark: <unknown>:0:0: kernel '_ZN12_GLOBAL__N_16hiddenEPf' is '_ZN48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f6hiddenEPf' in the fatbin: registered under that name
; REMARK-NEXT: remark: <unknown>:0:0: variable '_ZL6coeffs' is 'coeffs' in the fatbin: registered under that name
; REMARK-NEXT: remark: <unknown>:0:0: variable '_ZN12_GLOBAL__N_17counterE' is '_ZN46_INTERNAL_c75523ed_15_device_names_cu_acc5a52f48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f7counterE' in the fatbin: registered under that name
; REMARK-NOT: remark

; ModuleID = 'Inputs/device-names.cu'
source_filename = "Inputs/device-names.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

@shared_coeffs = internal global [4 x float] undef, align 16
@_ZL6coeffs = internal global [4 x float] undef, align 16
@_ZN12_GLOBAL__N_17counterE = internal global i32 undef, align 4
@symbols = dso_local global [3 x ptr] [ptr @_ZL6coeffs, ptr @shared_coeffs, ptr @_ZN12_GLOBAL__N_17counterE], align 16
@0 = private unnamed_addr constant [11 x i8] c"_Z5plainPf\00", align 1
@1 = private unnamed_addr constant [10 x i8] c"unmangled\00", align 1
@2 = private unnamed_addr constant [11 x i8] c"_Z5readsPf\00", align 1
@3 = private unnamed_addr constant [15 x i8] c"_ZL8internalPf\00", align 1
@4 = private unnamed_addr constant [28 x i8] c"_ZN12_GLOBAL__N_16hiddenEPf\00", align 1
@5 = private unnamed_addr constant [14 x i8] c"shared_coeffs\00", align 1
@6 = private unnamed_addr constant [11 x i8] c"_ZL6coeffs\00", align 1
@7 = private unnamed_addr constant [27 x i8] c"_ZN12_GLOBAL__N_17counterE\00", align 1
@8 = private constant [1240 x i8] c"P\EDU\BA\01\00\10\00\C8\04\00\00\00\00\00\00\01\00\01\01P\00\00\00x\04\00\00\00\00\00\00\00\00\00\00@\00\00\00\00\00\09\00Z\00\00\00\00\00\00\00\00\00\00\00\11\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00H\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0A\0A\0A\0A\0A\0A\0A\0A.version 9.0\0A.target sm_90\0A.address_size 64\0A\0A.const .align 4 .b8 coeffs[16];\0A.const .align 4 .b8 shared_coeffs[16];\0A.global .align 4 .u32 _ZN46_INTERNAL_c75523ed_15_device_names_cu_acc5a52f48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f7counterE;\0A\0A.entry _Z8internalPf(\0A.param .u64 _Z8internalPf_param_0\0A)\0A{\0A\0A\0A\0Aret;\0A\0A}\0A\0A.visible .entry _Z5plainPf(\0A.param .u64 _Z5plainPf_param_0\0A)\0A{\0A\0A\0A\0Aret;\0A\0A}\0A\0A.visible .entry unmangled(\0A.param .u64 unmangled_param_0\0A)\0A{\0A\0A\0A\0Aret;\0A\0A}\0A\0A.visible .entry _Z5readsPf(\0A.param .u64 _Z5readsPf_param_0\0A)\0A{\0A.reg .f32 %f<6>;\0A.reg .b32 %r<2>;\0A.reg .b64 %rd<3>;\0A\0A\0Ald.param.u64 %rd1, [_Z5readsPf_param_0];\0Acvta.to.global.u64 %rd2, %rd1;\0Ald.const.f32 %f1, [coeffs];\0Ald.const.f32 %f2, [shared_coeffs];\0Aadd.f32 %f3, %f1, %f2;\0Ald.global.u32 %r1, [_ZN46_INTERNAL_c75523ed_15_device_names_cu_acc5a52f48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f7counterE];\0Acvt.rn.f32.s32 %f4, %r1;\0Aadd.f32 %f5, %f3, %f4;\0Ast.global.f32 [%rd2], %f5;\0Aret;\0A\0A}\0A.entry _ZN48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f6hiddenEPf(\0A.param .u64 _ZN48_GLOBAL__N__c75523ed_15_device_names_cu_acc5a52f6hiddenEPf_param_0\0A)\0A{\0A\0A\0A\0Aret;\0A\0A}\0A\0A\00\00", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @8, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z20__device_stub__plainPf(ptr noundef %0) #0 {
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
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__plainPf, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @__device_stub__unmangled(ptr noundef %0) #0 {
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
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @__device_stub__unmangled, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

; Function Attrs: mustprogress noinline norecurse uwtable
define dso_local void @_Z20__device_stub__readsPf(ptr noundef %0) #0 {
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
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__readsPf, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

; Function Attrs: mustprogress noinline uwtable
define dso_local void @_Z6launchPf(ptr noundef %0) #2 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.dim3, align 4
  %4 = alloca %struct.dim3, align 4
  %5 = alloca { i64, i32 }, align 4
  %6 = alloca { i64, i32 }, align 4
  %7 = alloca %struct.dim3, align 4
  %8 = alloca %struct.dim3, align 4
  %9 = alloca { i64, i32 }, align 4
  %10 = alloca { i64, i32 }, align 4
  %11 = alloca %struct.dim3, align 4
  %12 = alloca %struct.dim3, align 4
  %13 = alloca { i64, i32 }, align 4
  %14 = alloca { i64, i32 }, align 4
  %15 = alloca %struct.dim3, align 4
  %16 = alloca %struct.dim3, align 4
  %17 = alloca { i64, i32 }, align 4
  %18 = alloca { i64, i32 }, align 4
  %19 = alloca %struct.dim3, align 4
  %20 = alloca %struct.dim3, align 4
  %21 = alloca { i64, i32 }, align 4
  %22 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %2, align 8
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %3, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %4, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %5, ptr align 4 %3, i64 12, i1 false)
  %23 = getelementptr inbounds { i64, i32 }, ptr %5, i32 0, i32 0
  %24 = load i64, ptr %23, align 4
  %25 = getelementptr inbounds { i64, i32 }, ptr %5, i32 0, i32 1
  %26 = load i32, ptr %25, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %6, ptr align 4 %4, i64 12, i1 false)
  %27 = getelementptr inbounds { i64, i32 }, ptr %6, i32 0, i32 0
  %28 = load i64, ptr %27, align 4
  %29 = getelementptr inbounds { i64, i32 }, ptr %6, i32 0, i32 1
  %30 = load i32, ptr %29, align 4
  %31 = call i32 @__cudaPushCallConfiguration(i64 %24, i32 %26, i64 %28, i32 %30, i64 noundef 0, ptr noundef null)
  %32 = icmp ne i32 %31, 0
  br i1 %32, label %35, label %33

33:                                               ; preds = %1
  %34 = load ptr, ptr %2, align 8
  call void @_ZL23__device_stub__internalPf(ptr noundef %34) #5
  br label %35

35:                                               ; preds = %33, %1
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %7, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %8, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %7, i64 12, i1 false)
  %36 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 0
  %37 = load i64, ptr %36, align 4
  %38 = getelementptr inbounds { i64, i32 }, ptr %9, i32 0, i32 1
  %39 = load i32, ptr %38, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %10, ptr align 4 %8, i64 12, i1 false)
  %40 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 0
  %41 = load i64, ptr %40, align 4
  %42 = getelementptr inbounds { i64, i32 }, ptr %10, i32 0, i32 1
  %43 = load i32, ptr %42, align 4
  %44 = call i32 @__cudaPushCallConfiguration(i64 %37, i32 %39, i64 %41, i32 %43, i64 noundef 0, ptr noundef null)
  %45 = icmp ne i32 %44, 0
  br i1 %45, label %48, label %46

46:                                               ; preds = %35
  %47 = load ptr, ptr %2, align 8
  call void @_ZN12_GLOBAL__N_121__device_stub__hiddenEPf(ptr noundef %47) #5
  br label %48

48:                                               ; preds = %46, %35
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %11, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %12, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %13, ptr align 4 %11, i64 12, i1 false)
  %49 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 0
  %50 = load i64, ptr %49, align 4
  %51 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 1
  %52 = load i32, ptr %51, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %12, i64 12, i1 false)
  %53 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 0
  %54 = load i64, ptr %53, align 4
  %55 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 1
  %56 = load i32, ptr %55, align 4
  %57 = call i32 @__cudaPushCallConfiguration(i64 %50, i32 %52, i64 %54, i32 %56, i64 noundef 0, ptr noundef null)
  %58 = icmp ne i32 %57, 0
  br i1 %58, label %61, label %59

59:                                               ; preds = %48
  %60 = load ptr, ptr %2, align 8
  call void @_Z20__device_stub__plainPf(ptr noundef %60) #5
  br label %61

61:                                               ; preds = %59, %48
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %15, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %16, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %17, ptr align 4 %15, i64 12, i1 false)
  %62 = getelementptr inbounds { i64, i32 }, ptr %17, i32 0, i32 0
  %63 = load i64, ptr %62, align 4
  %64 = getelementptr inbounds { i64, i32 }, ptr %17, i32 0, i32 1
  %65 = load i32, ptr %64, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %18, ptr align 4 %16, i64 12, i1 false)
  %66 = getelementptr inbounds { i64, i32 }, ptr %18, i32 0, i32 0
  %67 = load i64, ptr %66, align 4
  %68 = getelementptr inbounds { i64, i32 }, ptr %18, i32 0, i32 1
  %69 = load i32, ptr %68, align 4
  %70 = call i32 @__cudaPushCallConfiguration(i64 %63, i32 %65, i64 %67, i32 %69, i64 noundef 0, ptr noundef null)
  %71 = icmp ne i32 %70, 0
  br i1 %71, label %74, label %72

72:                                               ; preds = %61
  %73 = load ptr, ptr %2, align 8
  call void @__device_stub__unmangled(ptr noundef %73) #5
  br label %74

74:                                               ; preds = %72, %61
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %19, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %20, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %21, ptr align 4 %19, i64 12, i1 false)
  %75 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 0
  %76 = load i64, ptr %75, align 4
  %77 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 1
  %78 = load i32, ptr %77, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %22, ptr align 4 %20, i64 12, i1 false)
  %79 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 0
  %80 = load i64, ptr %79, align 4
  %81 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 1
  %82 = load i32, ptr %81, align 4
  %83 = call i32 @__cudaPushCallConfiguration(i64 %76, i32 %78, i64 %80, i32 %82, i64 noundef 0, ptr noundef null)
  %84 = icmp ne i32 %83, 0
  br i1 %84, label %87, label %85

85:                                               ; preds = %74
  %86 = load ptr, ptr %2, align 8
  call void @_Z20__device_stub__readsPf(ptr noundef %86) #5
  br label %87

87:                                               ; preds = %85, %74
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

; Function Attrs: mustprogress noinline norecurse uwtable
define internal void @_ZL23__device_stub__internalPf(ptr noundef %0) #0 {
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
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_ZL23__device_stub__internalPf, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

; Function Attrs: mustprogress noinline norecurse uwtable
define internal void @_ZN12_GLOBAL__N_121__device_stub__hiddenEPf(ptr noundef %0) #0 {
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
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_ZN12_GLOBAL__N_121__device_stub__hiddenEPf, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

define internal void @__cuda_register_globals(ptr %0) {
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__plainPf, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %3 = call i32 @__cudaRegisterFunction(ptr %0, ptr @__device_stub__unmangled, ptr @1, ptr @1, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %4 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__readsPf, ptr @2, ptr @2, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %5 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_ZL23__device_stub__internalPf, ptr @3, ptr @3, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %6 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_ZN12_GLOBAL__N_121__device_stub__hiddenEPf, ptr @4, ptr @4, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  call void @__cudaRegisterVar(ptr %0, ptr @shared_coeffs, ptr @5, ptr @5, i32 0, i64 16, i32 1, i32 0)
  call void @__cudaRegisterVar(ptr %0, ptr @_ZL6coeffs, ptr @6, ptr @6, i32 0, i64 16, i32 1, i32 0)
  call void @__cudaRegisterVar(ptr %0, ptr @_ZN12_GLOBAL__N_17counterE, ptr @7, ptr @7, i32 0, i64 4, i32 0, i32 0)
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
