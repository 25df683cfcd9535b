# Picks the CUDA compiler and default architectures; included before project() because nvcc's own default
# (sm_75) is filled in as soon as the CUDA language is enabled.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(COALESCE_NVCC nvcc HINTS /usr/local/cuda/bin)
  if(COALESCE_NVCC)
    set(CMAKE_CUDA_COMPILER "${COALESCE_NVCC}" CACHE FILEPATH "CUDA compiler")
  endif()
endif()
# Turing to Hopper as machine code, plus compute_90 PTX so newer GPUs can JIT it.
set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90" CACHE STRING "CUDA architectures to build")
