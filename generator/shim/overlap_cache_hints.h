// Clang's CUDA headers (16-19) declare __ldg but none of the other cache-hint loads and stores
// that nvcc's sm_32_intrinsics.h has (__ldcg, __ldca, __ldcs, __ldlu, __ldcv; __stwb, __stcg,
// __stcs, __stwt), which kernels such as llm.c's call throughout: without them the generator
// would refuse valid kernels. It parses host-side only, so declarations suffice: one template per
// function, for the scalar and vector types nvcc overloads it on (a non-template declaration of a
// newer Clang is preferred where both exist). A store's value converts to the pointee as nvcc's
// overloads let it (the second parameter is not deduced). Force-included by the generator alone.
#pragma once

namespace overlap_cache_hints {
template <class T> struct Identity { using Type = T; };
} // namespace overlap_cache_hints

#define OVERLAP_CACHE_HINT_LOAD(name)                                                              \
  template <class T> __attribute__((device)) T name(const T* address);
#define OVERLAP_CACHE_HINT_STORE(name)                                                             \
  template <class T>                                                                               \
  __attribute__((device)) void name(T* address,                                                    \
                                    typename overlap_cache_hints::Identity<T>::Type value);

OVERLAP_CACHE_HINT_LOAD(__ldcg)
OVERLAP_CACHE_HINT_LOAD(__ldca)
OVERLAP_CACHE_HINT_LOAD(__ldcs)
OVERLAP_CACHE_HINT_LOAD(__ldlu)
OVERLAP_CACHE_HINT_LOAD(__ldcv)
OVERLAP_CACHE_HINT_STORE(__stwb)
OVERLAP_CACHE_HINT_STORE(__stcg)
OVERLAP_CACHE_HINT_STORE(__stcs)
OVERLAP_CACHE_HINT_STORE(__stwt)

#undef OVERLAP_CACHE_HINT_LOAD
#undef OVERLAP_CACHE_HINT_STORE
