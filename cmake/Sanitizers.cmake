# Sanitizer builds (issue 4):
#   cmake -S . -B build-asan -G Ninja -DUNFAD_SANITIZE=address,undefined
# builds unfad, its libraries and its tests with -fsanitize=<list> (g++ or
# clang++). The LLVM/Clang shared libraries are not instrumented; ASan works
# with them, and LeakSanitizer reports from inside them are suppressed by
# cmake/lsan.supp (scripts/sanitize.sh sets LSAN_OPTIONS). UBSan stops at the
# first report (-fno-sanitize-recover), so a report fails the test.
#
# Included from the top-level CMakeLists.txt before any target is defined.
set(UNFAD_SANITIZE "" CACHE STRING
    "Build with these sanitizers, comma-separated (e.g. address,undefined); empty: none")

if(UNFAD_SANITIZE)
  set(_unfad_san_flags "-fsanitize=${UNFAD_SANITIZE}" -fno-omit-frame-pointer)
  if(UNFAD_SANITIZE MATCHES "undefined")
    # vptr checks need the type info of every polymorphic base; the Clang
    # classes unfad derives from (ASTConsumer, ...) come from an uninstrumented
    # library, so leave vptr out rather than report false positives.
    list(APPEND _unfad_san_flags -fno-sanitize-recover=all -fno-sanitize=vptr)
  endif()
  add_compile_options(${_unfad_san_flags})
  add_link_options(${_unfad_san_flags})
  set(UNFAD_LSAN_SUPPRESSIONS "${CMAKE_CURRENT_LIST_DIR}/lsan.supp" CACHE INTERNAL "")
  message(STATUS "unfad: building with ${_unfad_san_flags}")
  unset(_unfad_san_flags)
endif()

# libFuzzer (test/fuzz/frontend_fuzzer.cpp): with clang++, every library gets
# coverage instrumentation (-fsanitize=fuzzer-no-link) so that the fuzzer is
# guided by unfad's own code; test/fuzz/CMakeLists.txt links the harness with
# -fsanitize=fuzzer.
option(UNFAD_LIBFUZZER "Build the libFuzzer harness test/fuzz/frontend_fuzzer.cpp (needs clang++-19)" OFF)
if(UNFAD_LIBFUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "UNFAD_LIBFUZZER needs clang++ (-DCMAKE_CXX_COMPILER=clang++-19)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
