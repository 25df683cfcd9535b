# Sanitizer and fuzzing builds (scripts/test runs both on every CI run; see its header).
#
# COALESCE_SANITIZE=ON: every target of this project is compiled and linked with AddressSanitizer and
#   UndefinedBehaviorSanitizer, stopping at the first report (-fno-sanitize-recover=all). Host C and C++
#   only: the CUDA backend and the viewer are meant to be off in such a build (COALESCE_WITH_CUDA=OFF,
#   COALESCE_WITH_VIEWER=OFF). g++ or clang.
# COALESCE_FUZZ=ON (clang only; implies COALESCE_SANITIZE): our code also gets libFuzzer's coverage
#   instrumentation (-fsanitize=fuzzer-no-link) and tests/fuzz builds one libFuzzer executable per target.
#   The GoogleTest suites of the same build link it too (the sanitizer runtime provides the hooks), so one
#   build directory serves both stages.
# Applied with add_compile_options/add_link_options: included before add_subdirectory, it reaches every
# target of the project and nothing else (GoogleTest, ImGui and the rest are Debian's prebuilt libraries).
option(COALESCE_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer (host code only)" OFF)
option(COALESCE_FUZZ "Build the libFuzzer targets in tests/fuzz (clang only; implies COALESCE_SANITIZE)" OFF)

if(COALESCE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "COALESCE_FUZZ needs clang (libFuzzer); configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "(Debian packages clang and libclang-rt-14-dev)")
  endif()
  set(COALESCE_SANITIZE ON)
endif()

if(COALESCE_SANITIZE)
  if(COALESCE_HAVE_CUDA)
    message(WARNING "COALESCE_SANITIZE instruments host C++ only; configure with -DCOALESCE_WITH_CUDA=OFF")
  endif()
  set(COALESCE_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # Known findings in other projects' code that we compile (toml++), switched off one function at a time:
  # cmake/sanitizer-ignorelist.txt says which and why. g++ has no such list: it loses the one check instead.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    list(APPEND COALESCE_SANITIZER_FLAGS "-fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/cmake/sanitizer-ignorelist.txt")
  else()
    list(APPEND COALESCE_SANITIZER_FLAGS -fno-sanitize=unreachable)
  endif()
  if(COALESCE_FUZZ)
    list(APPEND COALESCE_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${COALESCE_SANITIZER_FLAGS}>")
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
  string(REPLACE ";" " " flags "${COALESCE_SANITIZER_FLAGS}")
  message(STATUS "coalesce: sanitizers on (${flags})")
endif()
