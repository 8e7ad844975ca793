# ldcc_programs(<prefix> <source dir> <translated dir> <out var>): every *.cu in <source dir> built
# twice, natively as <prefix>_<name>_native and through the translator as <prefix>_<name>_checked.
#   With the translator: the checked source is made at build time by `ldcc --translate-only`, so CI
#   compiles every translated program with nvcc.
#   Runtime-only builds (the GPU machine has no clang): the checked sources come translated from
#   <translated dir> (scripts/translate_corpus.sh fills .gpu/ and gpu_run.sh carries it); a program
#   whose translation is missing is built natively only.
# <out var> lists the names that have both builds; the target <prefix>_programs builds them all
# (`cmake --build . --target eval_programs`: one suite alone, without the tests).
function(ldcc_programs prefix source_dir translated_dir out_var)
  file(GLOB sources CONFIGURE_DEPENDS "${source_dir}/*.cu")
  set(names "")
  foreach(source IN LISTS sources)
    get_filename_component(name "${source}" NAME_WE)
    add_executable(${prefix}_${name}_native "${source}")
    if(LDCC_BUILD_TRANSLATOR)
      set(translated "${CMAKE_CURRENT_BINARY_DIR}/translated/${name}.ldcc.cu")
      add_custom_command(OUTPUT "${translated}"
        COMMAND $<TARGET_FILE:ldcc> --translate-only -std=c++17 "${source}" -o "${translated}"
        DEPENDS "${source}" ldcc
        COMMENT "ldcc --translate-only ${name}.cu" VERBATIM)
    else()
      set(translated "${translated_dir}/${name}.ldcc.cu")
      if(NOT EXISTS "${translated}")
        continue()
      endif()
    endif()
    add_executable(${prefix}_${name}_checked "${translated}")
    target_include_directories(${prefix}_${name}_checked PRIVATE "${source_dir}")
    target_link_libraries(${prefix}_${name}_checked PRIVATE ldruntime)
    list(APPEND names ${name})
  endforeach()
  set(targets "")
  foreach(name IN LISTS names)
    list(APPEND targets ${prefix}_${name}_native ${prefix}_${name}_checked)
  endforeach()
  add_custom_target(${prefix}_programs DEPENDS ${targets})
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()
