; A launch entry point whose IR signature is not the x86-64 one the pass
; knows (a dim3 passed some other way, another ABI) is an error: rewriting its
; operands blindly could change what the launch computes. Hand-written
; modules, one error each.
;
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/runtime.ll 2>&1 | FileCheck %s --check-prefix=RUNTIME
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/ptsz.ll 2>&1 | FileCheck %s --check-prefix=PTSZ
; RUN: not %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -disable-output %t/driver.ll 2>&1 | FileCheck %s --check-prefix=DRIVER
; A declaration nobody calls is no error.
; RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
; RUN:   -S %t/uncalled.ll 2>&1 | FileCheck %s --check-prefix=UNCALLED

; RUNTIME: error: {{.*}}in function launch i32 (ptr, ptr, ptr): unsupported signature of 'cudaLaunchKernel': expected 'i32 (ptr, i64, i32, i64, i32, ptr, i64, ptr)', found 'i32 (ptr, ptr, ptr, ptr, i64, ptr)'
; PTSZ: error: {{.*}}in function launch i32 (ptr, i64, ptr): unsupported signature of 'cudaLaunchKernel_ptsz': expected 'i32 (ptr, i64, i32, i64, i32, ptr, i64, ptr)', found 'i32 (ptr, i64, i64, ptr, i64, ptr)'
; DRIVER: error: {{.*}}in function launch i32 (ptr, ptr): unsupported signature of 'cuLaunchKernel': expected 'i32 (ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)', found 'i32 (ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr)'
; UNCALLED-NOT: error
; UNCALLED: declare i32 @cudaLaunchKernel(ptr, ptr, ptr, ptr, i64, ptr)

;--- runtime.ll
declare i32 @cudaLaunchKernel(ptr, ptr, ptr, ptr, i64, ptr)

define i32 @launch(ptr %kernel, ptr %dims, ptr %args) {
  %r = call i32 @cudaLaunchKernel(ptr %kernel, ptr %dims, ptr %dims, ptr %args, i64 0, ptr null)
  ret i32 %r
}

;--- ptsz.ll
declare i32 @cudaLaunchKernel_ptsz(ptr, i64, i64, ptr, i64, ptr)

define i32 @launch(ptr %kernel, i64 %dims, ptr %args) {
  %r = call i32 @cudaLaunchKernel_ptsz(ptr %kernel, i64 %dims, i64 %dims, ptr %args, i64 0, ptr null)
  ret i32 %r
}

;--- driver.ll
declare i32 @cuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr)

define i32 @launch(ptr %f, ptr %params) {
  %r = call i32 @cuLaunchKernel(ptr %f, i64 1, i64 1, i64 1, i64 32, i64 1, i64 1, i32 0, ptr null, ptr %params, ptr null)
  ret i32 %r
}

;--- uncalled.ll
declare i32 @cudaLaunchKernel(ptr, ptr, ptr, ptr, i64, ptr)
