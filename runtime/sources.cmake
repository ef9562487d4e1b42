# Sources of overlap_runtime. One line per file; several people add here.
set(OVERLAP_RUNTIME_SOURCES
)
