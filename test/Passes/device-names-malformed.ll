; klaraptor-device-names on fatbins it cannot read: a fatbin whose header
; claims more bytes than the module holds, an entry that runs past its end,
; and a PTX entry without an `.entry`. Nothing is renamed and nothing
; crashes: the registrations keep clang's names. (Fatbin layout:
; profiler/emu/cudart/FatBinary.h.)
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names -S %t/oversized.ll -o - | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names -S %t/truncated-entry.ll -o - | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names -S %t/no-entry.ll -o - | FileCheck %s
; The same layout with an `.entry` that demangles as the registration does
; is read, and renames it.
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-device-names -S %t/renamed.ll -o - | FileCheck --check-prefix=RENAMED %s
; RENAMED: @__klaraptor.device_name = private unnamed_addr constant [10 x i8] c"_Z4stepPf\00"
; RENAMED: call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @__klaraptor.device_name, ptr @__klaraptor.device_name,
; CHECK: call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @name, ptr @name,
; CHECK-NOT: __klaraptor.device_name

;--- oversized.ll
; Header: magic 0xBA55ED50, version 1, header size 16, then 2^33 bytes.
@fatbin = private constant [16 x i8] c"\50\ED\55\BA\01\00\10\00\00\00\00\00\02\00\00\00", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }
@name = private constant [11 x i8] c"_ZL4stepPf\00"
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
define void @stub(ptr %p) { ret void }
define void @reg(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

;--- truncated-entry.ll
; One PTX entry header (64 bytes) whose payload of 4096 bytes is not there.
@fatbin = private constant [80 x i8] c"\50\ED\55\BA\01\00\10\00\40\00\00\00\00\00\00\00\01\00\01\01\40\00\00\00\00\10\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\5A\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }
@name = private constant [11 x i8] c"_ZL4stepPf\00"
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
define void @stub(ptr %p) { ret void }
define void @reg(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

;--- no-entry.ll
; A well-formed fatbin with one PTX entry of 16 bytes that names no kernel.
@fatbin = private constant [96 x i8] c"\50\ED\55\BA\01\00\10\00\50\00\00\00\00\00\00\00\01\00\01\01\40\00\00\00\10\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\5A\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00.version 8.8\0A\00\00\00", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }
@name = private constant [11 x i8] c"_ZL4stepPf\00"
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
define void @stub(ptr %p) { ret void }
define void @reg(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

;--- renamed.ll
; One PTX entry of 32 bytes: `.entry _Z4stepPf(`.
@fatbin = private constant [112 x i8] c"\50\ED\55\BA\01\00\10\00\60\00\00\00\00\00\00\00\01\00\01\01\40\00\00\00\20\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\5A\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00.entry _Z4stepPf(\0A\00\00\00\00\00\00\00\00\00\00\00\00\00\00", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }
@name = private constant [11 x i8] c"_ZL4stepPf\00"
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
define void @stub(ptr %p) { ret void }
define void @reg(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}
