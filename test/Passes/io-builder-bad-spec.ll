; A '#pragma klaraptor' encoding the pass cannot parse is an error at the
; kernel's stub, naming the kernel and what is wrong. Hand-written modules,
; one error each (opt stops at the first); io-builder-bad-spec.cu shows clang
; reporting several.
;
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/syntax.ll 2>&1 | FileCheck %s --check-prefix=SYNTAX
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/version.ll 2>&1 | FileCheck %s --check-prefix=VERSION
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/nodata.ll 2>&1 | FileCheck %s --check-prefix=NODATA
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/twice.ll 2>&1 | FileCheck %s --check-prefix=TWICE

; SYNTAX: error: {{.*}}in function _Z21__device_stub__brokeni void (i32): invalid '#pragma klaraptor' encoding of kernel 'broken': spec line 4: unexpected character ')' at column 13
; VERSION: error: {{.*}}in function _Z21__device_stub__futurev void (): invalid '#pragma klaraptor' encoding of kernel 'future': spec line 1: expected 'klaraptor v1', found 'klaraptor v9'
; NODATA: error: {{.*}}in function _Z19__device_stub__sizei void (i32): invalid '#pragma klaraptor' encoding of kernel 'size': spec line {{[0-9]+}}: no 'data' line
; TWICE: error: {{.*}}in function _Z20__device_stub__twicei void (i32): kernel '_Z20__device_stub__twicei' has more than one '#pragma klaraptor' annotation

;--- syntax.ll
@spec = private unnamed_addr constant [85 x i8] c"klaraptor v1\0Akernel broken\0Aparam 0 n i32\0Adata N ($0 +)\0Ablock bx\0Agrid ceildiv(N, bx)\0A\00", section "llvm.metadata"
@file = private unnamed_addr constant [7 x i8] c"bad.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z21__device_stub__brokeni, ptr @spec, ptr @file, i32 3, ptr null }], section "llvm.metadata"

define void @_Z21__device_stub__brokeni(i32 %n) {
  ret void
}

;--- version.ll
@spec = private unnamed_addr constant [34 x i8] c"klaraptor v9\0Akernel future\0Ablock\0A\00", section "llvm.metadata"
@file = private unnamed_addr constant [7 x i8] c"bad.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z21__device_stub__futurev, ptr @spec, ptr @file, i32 3, ptr null }], section "llvm.metadata"

define void @_Z21__device_stub__futurev() {
  ret void
}

;--- nodata.ll
@spec = private unnamed_addr constant [56 x i8] c"klaraptor v1\0Akernel size\0Aparam 0 n i32\0Ablock bx\0Agrid 1\0A\00", section "llvm.metadata"
@file = private unnamed_addr constant [7 x i8] c"bad.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z19__device_stub__sizei, ptr @spec, ptr @file, i32 3, ptr null }], section "llvm.metadata"

define void @_Z19__device_stub__sizei(i32 %n) {
  ret void
}

;--- twice.ll
@spec = private unnamed_addr constant [67 x i8] c"klaraptor v1\0Akernel twice\0Aparam 0 n i32\0Adata N $0\0Ablock bx\0Agrid N\0A\00", section "llvm.metadata"
@file = private unnamed_addr constant [7 x i8] c"bad.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z20__device_stub__twicei, ptr @spec, ptr @file, i32 3, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @_Z20__device_stub__twicei, ptr @spec, ptr @file, i32 4, ptr null }], section "llvm.metadata"

define void @_Z20__device_stub__twicei(i32 %n) {
  ret void
}
