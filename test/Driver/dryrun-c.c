/* C sources go to clang 19 with the pass plugin; a C++ -std= is not theirs.
 *
 * RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -o %t.o -std=c11 -std=c++17 \
 * RUN:   | FileCheck %s -DCLANG=%clang_c -DLIB=%klaraptor_lib -DCUDA=%cuda_path \
 * RUN:       -DRTINC=%rt_include -DSRC=%s -DOBJ=%t.o
 * CHECK: {{^}}[[CLANG]] -x c -fpass-plugin=[[LIB]]/KlaraptorPlugin.so -std=c11 -isystem [[CUDA]]/include -I[[RTINC]] -c [[SRC]] -o [[OBJ]]{{$}}
 * CHECK-NOT: {{.}}
 */
int answer(void) { return 42; }
