; Every way the pass is registered (llvm-tutor style): by name, and at the
; start of the default pipelines, -O0 included, before the inliner. Each way
; runs it once per module, and a second run over an instrumented module adds
; nothing. The input is the IR of io-builder-1d.ll (annotated saxpy, plain).
;
; By name, twice in a row: one descriptor, one constructor, one hook.
; RUN: %opt -load-pass-plugin=%plugin \
; RUN:   -passes=klaraptor-io-builder,klaraptor-io-builder -S %S/io-builder-1d.ll \
; RUN:   | FileCheck %s --check-prefix=ONCE
; At the start of default<O0> and default<O2>.
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O0>' -S \
; RUN:   %S/io-builder-1d.ll | FileCheck %s --check-prefix=ONCE
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' -S \
; RUN:   %S/io-builder-1d.ll | FileCheck %s --check-prefix=ONCE
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O0>' \
; RUN:   -debug-pass-manager -disable-output %S/io-builder-1d.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PM
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' \
; RUN:   -debug-pass-manager -disable-output %S/io-builder-1d.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefixes=PM,PM-O2
; Without the plugin, nothing of the sort.
; RUN: %opt -passes='default<O2>' -S %S/io-builder-1d.ll \
; RUN:   | FileCheck %s --check-prefix=NONE

; ONCE: @__klaraptor.desc.saxpy = internal constant
; ONCE-NOT: @__klaraptor.desc
; ONCE: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }]
; ONCE-SAME: @klaraptor.register
; ONCE-NOT: @klaraptor.register
; ONCE: call i32 @__klaraptor_rt_launch(ptr {{(nonnull )?}}@__klaraptor.desc.saxpy,
; ONCE-NOT: call i32 @__klaraptor_rt_launch(
; ONCE: call i32 @__klaraptor_rt_register_kernel(ptr {{(nonnull )?}}@__klaraptor.desc.saxpy)
; ONCE-NOT: call i32 @__klaraptor_rt_register_kernel(

; PM-NOT: InlinerPass
; PM: Running pass: klaraptor::IOBuilderPass on [module]
; PM-NOT: klaraptor::IOBuilderPass
; PM-O2: Running pass: InlinerPass
; PM-O2-NOT: klaraptor::IOBuilderPass

; NONE-NOT: klaraptor_rt
