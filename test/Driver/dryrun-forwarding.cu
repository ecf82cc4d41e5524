// Which flags reach which command. Preprocessor flags, -std, -O and -g go to
// nvcc (translated) and clang; flags the driver does not know go to clang
// unchanged, at compile and link time, and never to nvcc. Arguments are
// printed shell-quoted.
//
// RUN: %klaraptor-clangxx --klaraptor-dryrun %s -o %t.exe \
// RUN:     -I/inc/a -I /inc/b -DFOO=1 -D BAR -UBAZ -isystem /sys/inc -include %S/Inputs/main.cpp \
// RUN:     -std=gnu++2a -O3 -g -Wall -fno-exceptions '-DMSG="hello world"' \
// RUN:     -Xclang -fno-pch-timestamp -mllvm -some-option -MD -MF %t.d \
// RUN:     -Xcuda-ptxas -v -Xnvcc --use_fast_math \
// RUN:   | FileCheck %s -DRTINC=%rt_include -DD=%t.d
//
// CHECK: nvcc -fatbin --no-compress -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 -std=c++20 -O3 -lineinfo -I/inc/a -I/inc/b -DFOO=1 -DBAR -UBAZ -isystem /sys/inc -include {{[^ ]+}}/Inputs/main.cpp '-DMSG="hello world"' -Xptxas -v -I[[RTINC]] --extended-lambda --expt-relaxed-constexpr --use_fast_math {{[^ ]+}}/dryrun-forwarding.cu -o {{[^ ]+}}.fatbin{{$}}
// CHECK-NEXT: clang++ -x cuda {{.*}} -Xclang {{[^ ]+}}.fatbin -std=gnu++2a -I/inc/a -I/inc/b -DFOO=1 -DBAR -UBAZ -isystem /sys/inc -include {{[^ ]+}}/Inputs/main.cpp -O3 -g -Wall -fno-exceptions '-DMSG="hello world"' -Xclang -fno-pch-timestamp -mllvm -some-option -MD -MF [[D]] -I[[RTINC]] -c {{[^ ]+}}/dryrun-forwarding.cu -o {{[^ ]+}}.o{{$}}
// The link sees the flags clang would see at link time, not the
// preprocessor's.
// CHECK-NEXT: clang++ {{[^ ]+}}.o -Wall -fno-exceptions -o {{[^ ]+}}.exe -L{{.*}} -lpthread{{$}}
// CHECK-NOT: {{.}}

// -g0 after -g: no -lineinfo. The last -O wins; nvcc gets the levels it knows.
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -g -g0 -O1 -Ofast | FileCheck %s --check-prefix=G0
// G0: nvcc
// G0-NOT: -lineinfo
// G0-SAME: -O3
// G0-NOT: -lineinfo
// G0: clang++ {{.*}} -g -g0 -O1 -Ofast

// clang-only preprocessor flags keep their argument and skip nvcc.
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -iquote /quote-dir -include-pch %t.pch \
// RUN:     -isystem-after /after-dir -idirafter /dirafter-dir | FileCheck %s --check-prefix=CLANG-ONLY
// CLANG-ONLY: nvcc
// CLANG-ONLY-NOT: {{-dir( |$)}}
// CLANG-ONLY: clang++ -x cuda {{.*}} -iquote /quote-dir -include-pch {{[^ ]+}}.pch -isystem-after /after-dir -idirafter /dirafter-dir -I

// nvcc has no C++23: device code is compiled as C++20, with a warning.
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -std=c++23 2>&1 | FileCheck %s --check-prefix=STD23
// STD23: klaraptor-clang++: warning: nvcc does not support '-std=c++23': device code is compiled as c++20
// STD23: nvcc {{.*}} -std=c++20
// STD23: clang++ {{.*}} -std=c++23

// Extra nvcc flags from the environment come before -Xnvcc ones.
// RUN: env KLARAPTOR_NVCC_FLAGS='--extra-device-vectorization -Xptxas -O2' \
// RUN:   %klaraptor-clangxx --klaraptor-dryrun -c %s -Xnvcc -res-usage | FileCheck %s --check-prefix=NVFLAGS
// NVFLAGS: nvcc {{.*}} --extra-device-vectorization -Xptxas -O2 -res-usage {{[^ ]+}}/dryrun-forwarding.cu
// NVFLAGS-NOT: clang++ {{.*}}-res-usage

// Response files are read as GNU tools read them.
// RUN: echo '-DFROM_RSP "-DSPACED=a b" -c' > %t.rsp
// RUN: %klaraptor-clangxx --klaraptor-dryrun @%t.rsp %s | FileCheck %s --check-prefix=RSP
// RUN: %klaraptor-clangxx --klaraptor-dryrun @%t.rsp %s | FileCheck %s --check-prefix=RSP-NOLINK
// RSP: nvcc {{.*}} -DFROM_RSP '-DSPACED=a b'
// RSP: clang++ {{.*}} -DFROM_RSP '-DSPACED=a b' {{.*}} -c
// RSP-NOLINK-NOT: -lklaraptor_rt

__global__ void empty() {}
