// B+tree point queries, one thread block per query: at every level the block's threads compare
// the query key with one key of the current node each, count with __syncthreads_count how many
// keys are <= the query, and follow that child; at the leaf the thread holding an equal key
// returns the record. The kernel takes no query count: the grid has one block per query.
//
// Modeled on: Rodinia 3.1, cuda/b+tree/kernel/kernel_gpu_cuda_wrapper.cu and
// kernel/kernel_gpu_cuda.cu (findK: knode and record structs, currKnode / offset arrays per
// query, one block per query and one thread per key slot, height levels). Written anew for this
// corpus; the node layout and the child selection are this file's own.
//
// Exercises: user structs (knode holding arrays and a bool, record) by pointer; long scalars;
// no length parameter: param(long count, long records_elem) host-only parameters, a bare
// `offset` (offset mode without a chunk-length parameter), grid: len; two broadcast inputs
// (the tree, the records); the file's macro ORDER in launch; a read-write per-query array (copy); prepare (random nodes are not a
// tree).
#include <overlap/annotate.h>

#define ORDER 32 // key slots per node = threads per block

typedef struct knode {
  int num_keys;            // keys in use
  bool is_leaf;
  int keys[ORDER];         // sorted
  int indices[ORDER + 1];  // internal: children (num_keys + 1); leaf: record of each key
} knode;

typedef struct record {
  int value;
} record;

OVERLAP_KERNEL(param(long count, long records_elem)
               partition(count) offset
               extent(knodesD: knodes_elem) extent(recordsD: records_elem)
               extent(currKnodeD, offsetD, keysD, ansD: count)
               copyin(knodesD, recordsD, keysD[lo:hi])
               copy(currKnodeD[lo:hi])
               copyout(offsetD[lo:hi], ansD[lo:hi])
               launch(grid: len, block: ORDER)
               tune(height = 2, knodes_elem = 1057, records_elem = 32768, count = 1048576))
__global__ void findK(long height, const knode *__restrict__ knodesD, long knodes_elem,
                      const record *__restrict__ recordsD, long *__restrict__ currKnodeD,
                      long *__restrict__ offsetD, const int *__restrict__ keysD,
                      record *__restrict__ ansD) {
  __shared__ int foundSlot;
  const int thid = threadIdx.x;
  const int bid = blockIdx.x;
  const int key = keysD[bid];

  long node = currKnodeD[bid];
  for (long level = 0; level < height; ++level) {
    const knode *current = knodesD + node;
    const int notGreater =
        __syncthreads_count(thid < current->num_keys && current->keys[thid] <= key);
    const long child = current->indices[notGreater];
    if (child < knodes_elem)
      node = child;
  }

  if (thid == 0)
    foundSlot = -1;
  __syncthreads();
  const knode *leaf = knodesD + node;
  if (thid < leaf->num_keys && leaf->keys[thid] == key)
    foundSlot = thid; // keys of a node are distinct: one writer at most
  __syncthreads();

  if (thid == 0) {
    currKnodeD[bid] = node;
    offsetD[bid] = foundSlot;
    ansD[bid].value = foundSlot >= 0 ? recordsD[leaf->indices[foundSlot]].value : -1;
  }
}
