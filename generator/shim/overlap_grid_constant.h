// CUDA's __grid_constant__ (host_defines.h spells it __attribute__((grid_constant))) is unknown to
// Clang before 20, which then warns at every kernel parameter that carries it. The generator parses
// host-side only and its entry points take such parameters by value without the qualifier, so the
// macro is defined away where Clang lacks the attribute. Force-included by the generator alone.
#pragma once

#if defined(__grid_constant__) && !__has_attribute(grid_constant)
#undef __grid_constant__
#define __grid_constant__
#endif
