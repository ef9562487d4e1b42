#include "overlap/descriptor.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// The registry is process-wide; every test uses names of its own.
overlap::KernelDescriptor named(const char* name) {
  overlap::KernelDescriptor descriptor{};
  descriptor.name = name;
  descriptor.source_file = "registry_test.cu";
  return descriptor;
}

TEST(DescriptorRegistry, RegisteredKernelsAreListedInOrderAndFoundByName) {
  static const overlap::KernelDescriptor first = named("registry_test_first");
  static const overlap::KernelDescriptor second = named("registry_test_second");
  const int before = overlap::registered_kernel_count();
  ASSERT_TRUE(overlap::register_kernel(&first));
  ASSERT_TRUE(overlap::register_kernel(&second));
  ASSERT_EQ(overlap::registered_kernel_count(), before + 2);
  EXPECT_EQ(overlap::registered_kernel(before), &first);
  EXPECT_EQ(overlap::registered_kernel(before + 1), &second);
  // Found by content, not by the pointer of the literal.
  const std::string name = "registry_test_second";
  EXPECT_EQ(overlap::find_registered_kernel(name.c_str()), &second);
}

TEST(DescriptorRegistry, ATakenNameIsRefused) {
  static const overlap::KernelDescriptor original = named("registry_test_taken");
  static const overlap::KernelDescriptor impostor = named("registry_test_taken");
  ASSERT_TRUE(overlap::register_kernel(&original));
  const int count = overlap::registered_kernel_count();
  EXPECT_FALSE(overlap::register_kernel(&impostor));
  EXPECT_FALSE(overlap::register_kernel(&original));
  EXPECT_EQ(overlap::registered_kernel_count(), count);
  EXPECT_EQ(overlap::find_registered_kernel("registry_test_taken"), &original);
}

TEST(DescriptorRegistry, InvalidInputsAreRefusedOrAnsweredWithNull) {
  overlap::KernelDescriptor nameless{};
  const int count = overlap::registered_kernel_count();
  EXPECT_FALSE(overlap::register_kernel(nullptr));
  EXPECT_FALSE(overlap::register_kernel(&nameless));
  EXPECT_EQ(overlap::registered_kernel_count(), count);
  EXPECT_EQ(overlap::registered_kernel(-1), nullptr);
  EXPECT_EQ(overlap::registered_kernel(count), nullptr);
  EXPECT_EQ(overlap::find_registered_kernel(nullptr), nullptr);
  EXPECT_EQ(overlap::find_registered_kernel("registry_test_never_registered"), nullptr);
}

} // namespace
