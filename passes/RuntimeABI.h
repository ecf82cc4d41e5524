//===- RuntimeABI.h - the runtime's C ABI as seen from LLVM IR ------------===//
///
/// \file
/// The IR images of the structures and hooks that
/// runtime/include/klaraptor/klaraptor_rt.h declares: `klaraptor_kernel_desc`,
/// `klaraptor_launch_info`, `klaraptor_data_fn` and the `__klaraptor_rt_*`
/// functions. The field lists below mirror the C structures member for
/// member; their sizes and offsets come from the module's DataLayout, which
/// follows the same C layout rules as the host compiler, so the `size` field
/// the pass stores is the C `sizeof` on the module's target
/// (48 and 64 bytes on x86-64, checked by test/Passes/io-builder-abi-layout.c).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_RUNTIMEABI_H
#define KLARAPTOR_PASSES_RUNTIMEABI_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"

namespace klaraptor {

/// Typed access to the runtime ABI in one module.
class RuntimeABI {
public:
  /// KLARAPTOR_RT_ABI_VERSION of the header this file mirrors.
  static constexpr unsigned AbiVersion = 1;

  /// Members of `klaraptor_kernel_desc`, in order.
  enum DescField : unsigned {
    DescSize,       ///< uint32_t size
    DescAbiVersion, ///< uint32_t abi_version
    DescHostHandle, ///< const void *host_handle
    DescDeviceName, ///< const char *device_name
    DescSpec,       ///< const char *spec
    DescDataFn,     ///< klaraptor_data_fn data_fn
    DescNumData,    ///< uint32_t num_data
    DescReserved    ///< uint32_t reserved
  };

  /// Members of `klaraptor_launch_info`, in order.
  enum InfoField : unsigned {
    InfoSize,      ///< uint32_t size
    InfoNumData,   ///< uint32_t num_data
    InfoData,      ///< const int64_t *data
    InfoArgs,      ///< void *const *args
    InfoGrid,      ///< uint32_t grid[3]
    InfoBlock,     ///< uint32_t block[3]
    InfoSharedMem, ///< uint64_t shared_mem
    InfoStream     ///< void *stream
  };

  explicit RuntimeABI(llvm::Module &M);

  /// `%klaraptor.kernel_desc` and `%klaraptor.launch_info`.
  llvm::StructType *kernelDescTy() const { return DescTy; }
  llvm::StructType *launchInfoTy() const { return InfoTy; }
  /// `i32 (ptr args, ptr out)`, the type of a klaraptor_data_fn.
  llvm::FunctionType *dataFnTy() const { return DataFnTy; }

  /// sizeof of the structures on the module's target.
  uint32_t kernelDescSize() const;
  uint32_t launchInfoSize() const;

  /// `i32 __klaraptor_rt_register_kernel(ptr desc)`.
  llvm::FunctionCallee registerKernel() const;
  /// `i32 __klaraptor_rt_launch(ptr desc, ptr info)`.
  llvm::FunctionCallee launch() const;
  /// `i32 __klaraptor_rt_launch_handle(ptr handle, ptr info)`.
  llvm::FunctionCallee launchHandle() const;
  /// `i32 __klaraptor_rt_launch_cufunction(ptr function, ptr info)`.
  llvm::FunctionCallee launchCUfunction() const;
  /// `void __klaraptor_rt_launched(ptr info, i32 status)`: after the launch.
  llvm::FunctionCallee launched() const;

private:
  llvm::Module &M;
  llvm::StructType *DescTy;
  llvm::StructType *InfoTy;
  llvm::FunctionType *DataFnTy;

  llvm::FunctionCallee hook(llvm::StringRef Name, unsigned NumPtrArgs) const;
};

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_RUNTIMEABI_H
