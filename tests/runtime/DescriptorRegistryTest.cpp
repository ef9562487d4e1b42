#include "overlap/Descriptor.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// The registry is process-wide; every test uses names of its own.
overlap::KernelDescriptor named(const char* name) {
  overlap::KernelDescriptor descriptor{};
  descriptor.name = name;
  descriptor.sourceFile = "registry_test.cu";
  return descriptor;
}

TEST(DescriptorRegistry, RegisteredKernelsAreListedInOrderAndFoundByName) {
  static const overlap::KernelDescriptor first = named("registry_test_first");
  static const overlap::KernelDescriptor second = named("registry_test_second");
  const int before = overlap::registeredKernelCount();
  ASSERT_TRUE(overlap::registerKernel(&first));
  ASSERT_TRUE(overlap::registerKernel(&second));
  ASSERT_EQ(overlap::registeredKernelCount(), before + 2);
  EXPECT_EQ(overlap::registeredKernel(before), &first);
  EXPECT_EQ(overlap::registeredKernel(before + 1), &second);
  // Found by content, not by the pointer of the literal.
  const std::string name = "registry_test_second";
  EXPECT_EQ(overlap::findRegisteredKernel(name.c_str()), &second);
}

TEST(DescriptorRegistry, ATakenNameIsRefused) {
  static const overlap::KernelDescriptor original = named("registry_test_taken");
  static const overlap::KernelDescriptor impostor = named("registry_test_taken");
  ASSERT_TRUE(overlap::registerKernel(&original));
  const int count = overlap::registeredKernelCount();
  EXPECT_FALSE(overlap::registerKernel(&impostor));
  EXPECT_FALSE(overlap::registerKernel(&original));
  EXPECT_EQ(overlap::registeredKernelCount(), count);
  EXPECT_EQ(overlap::findRegisteredKernel("registry_test_taken"), &original);
}

TEST(DescriptorRegistry, InvalidInputsAreRefusedOrAnsweredWithNull) {
  overlap::KernelDescriptor nameless{};
  const int count = overlap::registeredKernelCount();
  EXPECT_FALSE(overlap::registerKernel(nullptr));
  EXPECT_FALSE(overlap::registerKernel(&nameless));
  EXPECT_EQ(overlap::registeredKernelCount(), count);
  EXPECT_EQ(overlap::registeredKernel(-1), nullptr);
  EXPECT_EQ(overlap::registeredKernel(count), nullptr);
  EXPECT_EQ(overlap::findRegisteredKernel(nullptr), nullptr);
  EXPECT_EQ(overlap::findRegisteredKernel("registry_test_never_registered"), nullptr);
}

} // namespace
