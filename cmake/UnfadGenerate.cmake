# unfad_generate(<target> SOURCES <src>... [OUTPUT_DIR <dir>] [OPTIONS <unfad option>...])
#
# Makes <target> compile generated copies of the given sources instead of the
# sources themselves: each copy is the original plus the gradient blocks that
# `unfad` writes after every marked function, with #line directives that point
# diagnostics and debuggers at the original file. The copies live in the build
# tree (default: <target's binary dir>/unfad_generated/<target>/), and are
# regenerated when the source, any header it includes (a depfile), or the
# unfad command changes. The tool sees the target's include directories,
# compile definitions and C++ standard, plus the source's own directory, so
# `#include "..."` next to the source keeps working. Call it in the directory
# that defines <target>.
#
# Also exported: Unfad::unfad (the command), Unfad::headers (<unfad/unfad.h>).
if(COMMAND unfad_generate)
  return()
endif()

if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW) # depfiles of custom commands are relative to the current binary dir
endif()

function(unfad_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OUTPUT_DIR" "SOURCES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "unfad_generate: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "unfad_generate: '${target}' is not a target")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "unfad_generate(${target}): no SOURCES given")
  endif()
  if(NOT TARGET Unfad::unfad)
    message(FATAL_ERROR "unfad_generate: no Unfad::unfad target (find_package(Unfad) or add_subdirectory(unfad) first)")
  endif()
  get_target_property(tgt_source_dir ${target} SOURCE_DIR)
  get_target_property(tgt_binary_dir ${target} BINARY_DIR)
  if(arg_OUTPUT_DIR)
    get_filename_component(out_dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out_dir "${tgt_binary_dir}/unfad_generated/${target}")
  endif()

  # The target's flags, as the compiler sees them (transitively).
  set(inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(std "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(ext "$<TARGET_PROPERTY:${target},CXX_EXTENSIONS>")
  set(flags
    "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>"
    "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>"
    "$<$<BOOL:${std}>:-std=$<IF:$<OR:$<STREQUAL:${ext},>,$<BOOL:${ext}>>,gnu,c>++${std}>")

  get_target_property(tgt_sources ${target} SOURCES)
  if(NOT tgt_sources)
    set(tgt_sources)
  endif()
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
      get_filename_component(rel "${abs}" NAME)
    endif()
    set(out "${out_dir}/${rel}")
    set(dep "${out}.d")
    get_filename_component(src_dir "${abs}" DIRECTORY)
    file(RELATIVE_PATH out_rel "${CMAKE_BINARY_DIR}" "${out}")
    add_custom_command(OUTPUT "${out}"
      COMMAND Unfad::unfad -o "${out}" "--depfile=${dep}" --line-directives ${arg_OPTIONS} "${abs}"
              -- ${flags} "-I${src_dir}"
      DEPENDS "${abs}" "$<TARGET_FILE:Unfad::unfad>"
      DEPFILE "${dep}"
      COMMENT "unfad: generating ${out_rel}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    # The copy includes "..." headers from the original's directory.
    set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${src_dir}")

    # Compile the copy instead of the original.
    set(replaced FALSE)
    set(new_sources)
    foreach(s IN LISTS tgt_sources)
      set(s_abs "${s}")
      if(NOT s MATCHES "^\\$<")
        get_filename_component(s_abs "${s}" ABSOLUTE BASE_DIR "${tgt_source_dir}")
      endif()
      if(s_abs STREQUAL abs)
        if(NOT replaced)
          list(APPEND new_sources "${out}")
        endif()
        set(replaced TRUE)
      else()
        list(APPEND new_sources "${s}")
      endif()
    endforeach()
    if(NOT replaced)
      list(APPEND new_sources "${out}")
    endif()
    set(tgt_sources "${new_sources}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES "${tgt_sources}")
endfunction()
