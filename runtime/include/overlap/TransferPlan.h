// Which element ranges a streamed call copies, on behalf of which chunk, and which other chunks'
// copies each chunk's kernel must wait for. Pure host logic, so that the copy-once rule for halos
// (paper 001 §VII: buoydiff needs levels k-1 and k, "CUDA events are used to delay the computation
// until all inputs have been moved") is unit-tested without a GPU.
#pragma once

#include "overlap/KernelTypes.h"

#include <vector>

namespace overlap {

// Sorts the sections and merges the ones that overlap or touch; empty sections are dropped.
std::vector<Section> mergeSections(std::vector<Section> sections);

// What one array needs in a call cut into chunks, every section already clipped to the array.
struct ArrayTransferNeeds {
  bool copyIn = false;                       // host -> device before a kernel reads the elements
  bool copyOut = false;                      // device -> host after the kernels wrote them
  std::vector<Section> broadcast;            // independent of the chunk: moved once per call
  std::vector<std::vector<Section>> chunked; // [chunk] -> that chunk's sections (may be empty)
};

struct ArrayCopy {
  int array = 0;
  Section elements;
};

struct ChunkTransfers {
  // Elements of this chunk's sections that neither the broadcast copies nor an earlier chunk
  // copied in already. Merged per array, so one memcpy per contiguous range.
  std::vector<ArrayCopy> copyIn;
  // Earlier chunks whose copyIn holds the rest of this chunk's sections, ascending.
  std::vector<int> waitsFor;
  // Some later chunk lists this one in waitsFor: its copyIn must be followed by an event.
  bool awaited = false;
  // This chunk's chunked sections of the arrays that are copied out (they tile the arrays, which
  // the generator guarantees for outputs, so no element is copied out twice).
  std::vector<ArrayCopy> copyOut;
};

struct TransferPlan {
  std::vector<ArrayCopy> broadcastIn;  // before every chunk
  std::vector<ChunkTransfers> chunks;  // in chunk order
  std::vector<ArrayCopy> broadcastOut; // after every kernel finished
};

// Chunks are planned in index order: chunk c copies what chunks 0..c-1 did not. Every element a
// chunk needs is then either its own copy, a broadcast copy (every kernel waits for those), or a
// copy of a chunk in waitsFor. needs[i].chunked must have chunkCount entries for copyIn or
// copyOut arrays. Without shareAcrossChunks (the out-of-core ring, DeviceLayout.h, where an
// earlier chunk's copy lies in another slot or was overwritten) every chunk copies all of its
// sections itself and waits for none.
TransferPlan planTransfers(const std::vector<ArrayTransferNeeds>& needs, int chunkCount,
                           bool shareAcrossChunks = true);

} // namespace overlap
