// The real registrar's check that a cached range still holds the buffer it registered: plain
// system calls on memory this test maps, so no GPU.
#include "overlap/CudaPageRegistrar.h"
#include "overlap/PageRange.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>

namespace {

class CudaPageRegistrarTest : public ::testing::Test {
protected:
  void SetUp() override {
    page_ = overlap::hostPageSize();
    bytes_ = 16384 * page_; // sampled, not checked page by page
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    base_ = static_cast<char*>(p);
  }
  void TearDown() override {
    if (base_)
      munmap(base_, bytes_);
  }
  // Maps [offset, offset + bytes) of the range again, fresh and not yet touched.
  void mapAgain(std::size_t offset, std::size_t bytes) {
    ASSERT_EQ(mmap(base_ + offset, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
              base_ + offset);
  }

  overlap::CudaPageRegistrar registrar_;
  std::size_t page_ = 0;
  std::size_t bytes_ = 0;
  char* base_ = nullptr;
};

TEST_F(CudaPageRegistrarTest, WrittenPagesAreResident) {
  std::memset(base_, 1, bytes_);
  EXPECT_TRUE(registrar_.pagesResident(base_, bytes_));
  EXPECT_TRUE(registrar_.pagesResident(base_ + page_, 3 * page_));
}

TEST_F(CudaPageRegistrarTest, AnUnmappedPageAnywhereIsFound) {
  std::memset(base_, 1, bytes_);
  const std::size_t hole = 1237 * page_; // between the sampled pages
  ASSERT_EQ(munmap(base_ + hole, page_), 0);
  EXPECT_FALSE(registrar_.pagesResident(base_, bytes_));
  EXPECT_TRUE(registrar_.pagesResident(base_, hole));
  EXPECT_TRUE(registrar_.pagesResident(base_ + hole + page_, bytes_ - hole - page_));
  mapAgain(hole, page_); // so that TearDown unmaps one range
}

TEST_F(CudaPageRegistrarTest, ARangeMappedAgainAndNotWrittenIsNotResident) {
  std::memset(base_, 1, bytes_);
  mapAgain(0, bytes_);
  EXPECT_FALSE(registrar_.pagesResident(base_, bytes_));
  std::memset(base_, 2, bytes_ / 2); // half written: the sample sees the rest
  EXPECT_FALSE(registrar_.pagesResident(base_, bytes_));
  std::memset(base_ + bytes_ / 2, 2, bytes_ / 2);
  EXPECT_TRUE(registrar_.pagesResident(base_, bytes_));
}

TEST_F(CudaPageRegistrarTest, ASmallRangeIsCheckedPageByPage) {
  std::memset(base_, 1, 8 * page_);
  mapAgain(5 * page_, page_);
  EXPECT_FALSE(registrar_.pagesResident(base_, 8 * page_));
  base_[5 * page_] = 1;
  EXPECT_TRUE(registrar_.pagesResident(base_, 8 * page_));
}

} // namespace
