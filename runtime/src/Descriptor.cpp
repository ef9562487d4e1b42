#include "overlap/Descriptor.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace overlap {
namespace {

// Generated code registers from static initializers of other translation units, so the table is
// created on first use (no static-initialization-order problem) and never destroyed (a kernel may
// still be looked up from another static destructor).
struct Registry {
  std::mutex mutex;
  std::vector<const KernelDescriptor*> kernels;
};

Registry& registry() {
  static Registry* const instance = new Registry;
  return *instance;
}

const KernelDescriptor* findLocked(const Registry& table, const char* name) {
  for (const KernelDescriptor* kernel : table.kernels)
    if (std::strcmp(kernel->name, name) == 0)
      return kernel;
  return nullptr;
}

} // namespace

// Names are unique: a second descriptor under a name that is taken is refused (false), so that a
// lookup by name is never ambiguous. Registering the same descriptor twice is refused the same way.
bool registerKernel(const KernelDescriptor* descriptor) {
  if (descriptor == nullptr || descriptor->name == nullptr)
    return false;
  Registry& table = registry();
  const std::lock_guard<std::mutex> lock(table.mutex);
  if (findLocked(table, descriptor->name) != nullptr)
    return false;
  table.kernels.push_back(descriptor);
  return true;
}

int registeredKernelCount() {
  Registry& table = registry();
  const std::lock_guard<std::mutex> lock(table.mutex);
  return static_cast<int>(table.kernels.size());
}

const KernelDescriptor* registeredKernel(int index) {
  Registry& table = registry();
  const std::lock_guard<std::mutex> lock(table.mutex);
  if (index < 0 || index >= static_cast<int>(table.kernels.size()))
    return nullptr;
  return table.kernels[static_cast<std::size_t>(index)];
}

const KernelDescriptor* findRegisteredKernel(const char* name) {
  if (name == nullptr)
    return nullptr;
  Registry& table = registry();
  const std::lock_guard<std::mutex> lock(table.mutex);
  return findLocked(table, name);
}

} // namespace overlap
