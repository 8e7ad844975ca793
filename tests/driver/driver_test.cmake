# cmake -DCASE=<case> -DLDCC=<ldcc> -DINPUTS=<inputs dir> -DWORK=<scratch dir>
#       -DSOURCE_DIR=<ldcc source tree> -DFAKE_NVCC=<fake_nvcc.sh>
#       [-DMAKE=<make>] [-DGENERATOR=<cmake generator>] [-DMAKE_PROGRAM=<its program>]
#       -P driver_test.cmake
#
# One behaviour of the ldcc driver per CASE, asserted on exit codes, exact messages and the
# files produced. GPU-free: programs are built, never run. Every case runs in a fresh
# WORK directory with TMPDIR inside it, so a temporary file ldcc leaves behind fails it.

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/tmp")
set(ENV{TMPDIR} "${WORK}/tmp")
unset(ENV{LDCC_NVCC})

function(fail)
  string(JOIN "" msg ${ARGN})
  message(FATAL_ERROR "driver.${CASE}: ${msg}")
endfunction()

# run(<prefix> <command...>): runs in WORK; sets <prefix>_rc, <prefix>_out, <prefix>_err.
function(run prefix)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${prefix}_rc "${rc}" PARENT_SCOPE)
  set(${prefix}_out "${out}" PARENT_SCOPE)
  set(${prefix}_err "${err}" PARENT_SCOPE)
endfunction()

function(expect_rc prefix expected)
  if(NOT "${${prefix}_rc}" STREQUAL "${expected}")
    fail("expected exit code ${expected}, got '${${prefix}_rc}'\nstdout:\n${${prefix}_out}\n"
         "stderr:\n${${prefix}_err}")
  endif()
endfunction()

function(expect_match what text regex)
  if(NOT text MATCHES "${regex}")
    fail("${what} does not match '${regex}':\n${text}")
  endif()
endfunction()

function(expect_no_match what text regex)
  if(text MATCHES "${regex}")
    fail("${what} matches '${regex}' but must not:\n${text}")
  endif()
endfunction()

function(expect_elf file)
  if(NOT EXISTS "${file}")
    fail("${file} was not produced")
  endif()
  file(READ "${file}" magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "7f454c46")
    fail("${file} is not an ELF file (starts with ${magic})")
  endif()
endfunction()

# ldcc removes its temporary directory, whatever happened.
function(expect_no_temporaries)
  file(GLOB left "${WORK}/tmp/*")
  if(left)
    fail("temporary files left behind: ${left}")
  endif()
endfunction()

string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" INPUTS_RE "${INPUTS}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" SOURCE_RE "${SOURCE_DIR}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" WORK_RE "${WORK}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" LDCC_RE "${LDCC}")

if(CASE STREQUAL "version")
  # ldcc's line, then nvcc's own --version output (CMake's compiler detection parses it).
  run(v "${LDCC}" --version)
  expect_rc(v 0)
  expect_match("stdout" "${v_out}" "^ldcc [0-9]+\\.[0-9]+ - value-based data-race checking for CUDA \\(compiles with [^\n]*nvcc\\)\n")
  expect_match("stdout" "${v_out}" "\nnvcc: NVIDIA \\(R\\) Cuda compiler driver\n")
  expect_match("stdout" "${v_out}" "Cuda compilation tools, release [0-9]+\\.[0-9]+, V[0-9]+\\.[0-9]+\\.[0-9]+")
  if(NOT v_err STREQUAL "")
    fail("unexpected stderr:\n${v_err}")
  endif()

elseif(CASE STREQUAL "missing_file")
  run(m "${LDCC}" -c does_not_exist.cu -o x.o)
  expect_rc(m 1)
  if(NOT m_err STREQUAL "ldcc: error: no such file or directory: 'does_not_exist.cu'\n")
    fail("expected exactly one error line naming the file, got:\n${m_err}")
  endif()
  if(NOT m_out STREQUAL "")
    fail("unexpected stdout:\n${m_out}")
  endif()
  # A missing object is reported the same way, and each missing input once.
  run(m2 "${LDCC}" gone.o "${INPUTS}/app.cu" gone.cu -o app)
  expect_rc(m2 1)
  if(NOT m2_err STREQUAL "ldcc: error: no such file or directory: 'gone.o'\nldcc: error: no such file or directory: 'gone.cu'\n")
    fail("expected two error lines, got:\n${m2_err}")
  endif()
  expect_no_temporaries()

elseif(CASE STREQUAL "bad_mode")
  run(b "${LDCC}" --mode=fast -c "${INPUTS}/app.cu")
  expect_rc(b 1)
  if(NOT b_err STREQUAL "ldcc: error: --mode: unknown mode 'fast' (expected check, deterministic or off)\n")
    fail("expected exactly one error line, got:\n${b_err}")
  endif()
  file(GLOB produced "${WORK}/*.o")
  if(produced)
    fail("nothing must be compiled after a bad option: ${produced}")
  endif()

elseif(CASE STREQUAL "syntax_error")
  # clang's diagnostic, file:line:col, from the translator; no crash, no nvcc run.
  run(s "${LDCC}" -c "${INPUTS}/syntax_error.cu" -o broken.o)
  if(s_rc STREQUAL "0" OR NOT s_rc MATCHES "^[0-9]+$" OR s_rc GREATER 127)
    fail("expected a non-zero exit code (not a signal), got '${s_rc}'\n${s_err}")
  endif()
  expect_match("stderr" "${s_err}" "syntax_error\\.cu:4:[0-9]+: error: ")
  expect_no_match("stderr" "${s_err}" "Stack dump|PLEASE submit a bug report")
  if(EXISTS "${WORK}/broken.o")
    fail("broken.o must not be produced")
  endif()
  expect_no_temporaries()

elseif(CASE STREQUAL "unchecked_warning")
  # A kernel the translator refuses still compiles; one warning names it, the line of the
  # construct and the reason.
  run(u "${LDCC}" -c "${INPUTS}/unchecked.cu" -o unchecked.o)
  expect_rc(u 0)
  expect_match("stderr" "${u_err}" "^${INPUTS_RE}/unchecked\\.cu:4: warning: ldcc: kernel 'stepped' runs unchecked: [^\n]+\n$")
  expect_elf("${WORK}/unchecked.o")
  expect_no_temporaries()

elseif(CASE STREQUAL "translate_only")
  run(t "${LDCC}" --translate-only -o out.cu "${INPUTS}/app.cu")
  expect_rc(t 0)
  if(NOT EXISTS "${WORK}/out.cu")
    fail("out.cu was not written")
  endif()
  file(READ "${WORK}/out.cu" translated)
  expect_match("out.cu" "${translated}" "__global__ void fill\\(")
  expect_match("out.cu" "${translated}" "#[ \t]*line[ \t]+[0-9]+[ \t]+\"${INPUTS_RE}/app\\.cu\"")
  file(GLOB produced RELATIVE "${WORK}" "${WORK}/*")
  list(REMOVE_ITEM produced tmp out.cu)
  if(produced)
    fail("--translate-only must only write out.cu, also found: ${produced}")
  endif()
  # Without -o: the same text on stdout.
  run(t2 "${LDCC}" --translate-only "${INPUTS}/app.cu")
  expect_rc(t2 0)
  if(NOT t2_out STREQUAL translated)
    fail("--translate-only without -o must print the translation on stdout")
  endif()
  # It takes one CUDA input.
  run(t3 "${LDCC}" --translate-only "${INPUTS}/app.cu" "${INPUTS}/app.cu")
  expect_rc(t3 1)
  expect_match("stderr" "${t3_err}" "^ldcc: error: --translate-only takes exactly one CUDA input[^\n]*\n$")
  expect_no_temporaries()

elseif(CASE STREQUAL "compile_link")
  # One step, from another directory: app.cu's #include "helper.h" resolves next to it.
  run(c "${LDCC}" "${INPUTS}/app.cu" -o app)
  expect_rc(c 0)
  expect_elf("${WORK}/app")
  expect_no_temporaries()

elseif(CASE STREQUAL "compile_then_link")
  run(c "${LDCC}" -O2 -c "${INPUTS}/app.cu" -o app.o)
  expect_rc(c 0)
  expect_elf("${WORK}/app.o")
  run(l "${LDCC}" app.o -o app)
  expect_rc(l 0)
  expect_elf("${WORK}/app")
  expect_no_temporaries()

elseif(CASE STREQUAL "include_dirs")
  # Quoted includes resolve next to the original source; angle includes do not look there
  # (inputs/shadow/math.h would break <cmath>), exactly as with nvcc.
  run(i "${LDCC}" -c "${INPUTS}/shadow/uses_cmath.cu" -o uses_cmath.o)
  expect_rc(i 0)
  expect_elf("${WORK}/uses_cmath.o")
  expect_no_temporaries()

elseif(CASE STREQUAL "verbose")
  run(v "${LDCC}" -v "${INPUTS}/app.cu" -o app)
  expect_rc(v 0)
  set(all "${v_out}${v_err}")
  expect_match("output" "${all}" "ldcc: translate ${INPUTS_RE}/app\\.cu -> [^\n]*/ldcc-[^/\n]*/app\\.cu \\(--mode=check\\)\n")
  # The nvcc command: the source's directory first, then ldcc's includes, the user's flags
  # (-v included), the translated file, and the runtime libraries at the end of the link.
  expect_match("output" "${all}" "\nldcc: [^\n]*nvcc -Xcompiler=-iquote,${INPUTS_RE} -I${SOURCE_RE}/ldruntime/include -I${SOURCE_RE}/kernels/include -v [^\n]*/ldcc-[^/\n]*/app\\.cu -o app [^\n]*libldruntime\\.a [^\n]*libldcc_runtime_core\\.a [^\n]*libldcc_kernels\\.a [^\n]*libldcc_check_reference\\.a -lcuda\n")
  # nvcc got -v: its own command trace is there.
  expect_match("output" "${all}" "#\\$ TOP=")
  expect_match("output" "${all}" "#\\$ LIBRARIES=")
  expect_elf("${WORK}/app")
  expect_no_temporaries()

elseif(CASE STREQUAL "nvcc_command")
  # $LDCC_NVCC replaces nvcc; the exact command line; nvcc's exit code is ldcc's.
  set(ENV{LDCC_NVCC} "${FAKE_NVCC}")
  set(ENV{FAKE_NVCC_LOG} "${WORK}/args.txt")
  set(ENV{FAKE_NVCC_EXIT} 3)
  run(n "${LDCC}" -O3 -DLDCC_TEST_FLAG=1 -Xcompiler -fPIC -c "${INPUTS}/app.cu" -o app.o)
  expect_rc(n 3)
  file(STRINGS "${WORK}/args.txt" args)
  list(LENGTH args count)
  if(NOT count EQUAL 11)
    fail("expected 11 arguments, got ${count}: ${args}")
  endif()
  list(GET args 0 a0)
  list(GET args 1 a1)
  list(GET args 2 a2)
  list(SUBLIST args 3 4 flags)
  list(GET args 7 a7)
  list(GET args 8 a8)
  list(SUBLIST args 9 2 tail)
  if(NOT a0 STREQUAL "-Xcompiler=-iquote,${INPUTS}" OR NOT a1 STREQUAL "-I${SOURCE_DIR}/ldruntime/include" OR
     NOT a2 STREQUAL "-I${SOURCE_DIR}/kernels/include")
    fail("include directories: ${args}")
  endif()
  if(NOT flags STREQUAL "-O3;-DLDCC_TEST_FLAG=1;-Xcompiler;-fPIC" OR NOT a7 STREQUAL "-c" OR
     NOT tail STREQUAL "-o;app.o")
    fail("user flags: ${args}")
  endif()
  if(NOT a8 MATCHES "^${WORK_RE}/tmp/ldcc-[^/]+/app\\.cu$")
    fail("the translated file must keep its basename in ldcc's temporary directory: ${a8}")
  endif()
  # A link adds the runtime libraries and -lcuda after the user's arguments.
  set(ENV{FAKE_NVCC_EXIT} 0)
  file(WRITE "${WORK}/a.o" "")
  run(l "${LDCC}" a.o -o app -lm)
  expect_rc(l 0)
  file(STRINGS "${WORK}/args.txt" args)
  list(LENGTH args count)
  list(SUBLIST args 0 4 head)
  list(GET args -1 last)
  if(NOT head STREQUAL "a.o;-o;app;-lm" OR NOT last STREQUAL "-lcuda" OR NOT count EQUAL 9 OR
     NOT args MATCHES "libldruntime\\.a;[^;]*libldcc_runtime_core\\.a;[^;]*libldcc_kernels\\.a;[^;]*libldcc_check_reference\\.a;-lcuda$")
    fail("link command: ${args}")
  endif()
  expect_no_temporaries()

elseif(CASE STREQUAL "depfile")
  # nvcc writes the temporary path; ldcc puts the user's back.
  run(d "${LDCC}" -MD -MT obj.o -MF app.d -c "${INPUTS}/app.cu" -o app.o)
  expect_rc(d 0)
  file(READ "${WORK}/app.d" dep)
  expect_match("app.d" "${dep}" "^obj\\.o : ${INPUTS_RE}/app\\.cu ")
  expect_match("app.d" "${dep}" "${INPUTS_RE}/helper\\.h")
  expect_no_match("app.d" "${dep}" "${WORK_RE}/tmp/")
  # -MD without -MF: next to the -o file.
  run(d2 "${LDCC}" -MD -c "${INPUTS}/app.cu" -o other.o)
  expect_rc(d2 0)
  file(READ "${WORK}/other.d" dep2)
  expect_match("other.d" "${dep2}" "^other\\.o : ${INPUTS_RE}/app\\.cu ")
  expect_no_match("other.d" "${dep2}" "${WORK_RE}/tmp/")
  # -M: to stdout.
  run(d3 "${LDCC}" -M "${INPUTS}/app.cu")
  expect_rc(d3 0)
  expect_match("stdout" "${d3_out}" "^app\\.o : ${INPUTS_RE}/app\\.cu ")
  expect_no_match("stdout" "${d3_out}" "${WORK_RE}/tmp/")
  expect_no_temporaries()

elseif(CASE STREQUAL "keep")
  file(MAKE_DIRECTORY "${WORK}/out")
  run(k "${LDCC}" --keep "${INPUTS}/app.cu" -o out/app)
  expect_rc(k 0)
  if(NOT EXISTS "${WORK}/out/app.ldcc.cu")
    fail("--keep must leave out/app.ldcc.cu")
  endif()
  expect_match("stderr" "${k_err}" "ldcc: kept the translation of ${INPUTS_RE}/app\\.cu in out/app\\.ldcc\\.cu\n")
  expect_elf("${WORK}/out/app")
  expect_no_temporaries()

elseif(CASE STREQUAL "makefile_example")
  set(example "${SOURCE_DIR}/examples/makefile_project")
  run(m "${MAKE}" -f "${example}/Makefile" "BUILD_DIR=${WORK}/build" "NVCC=${LDCC}")
  expect_rc(m 0)
  expect_match("make output" "${m_out}" "${LDCC_RE} [^\n]* -c [^\n]*/reduce\\.cu -o [^\n]*/reduce\\.o")
  expect_match("make output" "${m_out}" "${LDCC_RE} [^\n]*reduce\\.o [^\n]*main\\.o -o [^\n]*/block_sum")
  expect_elf("${WORK}/build/block_sum")
  # The depfile names the real sources, so a second make has nothing to do.
  file(READ "${WORK}/build/reduce.d" dep)
  expect_match("reduce.d" "${dep}" "${SOURCE_RE}/examples/makefile_project/reduce\\.h")
  expect_no_match("reduce.d" "${dep}" "${WORK_RE}/tmp/")
  run(m2 "${MAKE}" -f "${example}/Makefile" "BUILD_DIR=${WORK}/build" "NVCC=${LDCC}")
  expect_rc(m2 0)
  expect_match("second make" "${m2_out}" "Nothing to be done")
  expect_no_temporaries()

elseif(CASE STREQUAL "cmake_example" OR CASE STREQUAL "cmake_example_makefiles")
  # Ninja with bin/ldcc as CMAKE_CUDA_COMPILER; the Makefile generator with
  # bin/ldcc-as-nvcc/nvcc (see translator/CMakeLists.txt for why).
  set(example "${SOURCE_DIR}/examples/cmake_project")
  if(CASE STREQUAL "cmake_example")
    set(compiler "${LDCC}")
    set(gen_args -G "${GENERATOR}")
    if(MAKE_PROGRAM)
      list(APPEND gen_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
    endif()
  else()
    get_filename_component(bindir "${LDCC}" DIRECTORY)
    set(compiler "${bindir}/ldcc-as-nvcc/nvcc")
    set(gen_args -G "Unix Makefiles" "-DCMAKE_MAKE_PROGRAM=${MAKE}")
  endif()
  string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" compiler_re "${compiler}")
  run(c "${CMAKE_COMMAND}" -S "${example}" -B "${WORK}/build" ${gen_args}
      "-DCMAKE_CUDA_COMPILER=${compiler}")
  expect_rc(c 0)
  expect_match("configure output" "${c_out}" "The CUDA compiler identification is NVIDIA [0-9.]+")
  file(GLOB compiler_files "${WORK}/build/CMakeFiles/*/CMakeCUDACompiler.cmake")
  if(NOT compiler_files)
    fail("no CMakeCUDACompiler.cmake after configure")
  endif()
  list(GET compiler_files 0 compiler_file)
  file(READ "${compiler_file}" compiler_info)
  expect_match("${compiler_file}" "${compiler_info}" "set\\(CMAKE_CUDA_COMPILER \"${compiler_re}\"\\)")
  # CMake links CUDA programs with the host linker and the libraries nvcc -v showed it:
  # the ldcc runtime must be among them, both for CUDA-linked targets (HOST_IMPLICIT) and
  # for targets a C++ linker links (IMPLICIT, from CMake's CUDA ABI check).
  expect_match("${compiler_file}" "${compiler_info}" "CMAKE_CUDA_HOST_IMPLICIT_LINK_LIBRARIES \"[^\"]*libldruntime\\.a[^\"]*;cuda\"")
  expect_match("${compiler_file}" "${compiler_info}" "CMAKE_CUDA_IMPLICIT_LINK_LIBRARIES \"[^\"]*libldruntime\\.a[^\"]*;cuda;")
  expect_match("${compiler_file}" "${compiler_info}" "CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES \"[^\"]*/lib")
  run(b "${CMAKE_COMMAND}" --build "${WORK}/build" --verbose)
  expect_rc(b 0)
  expect_match("build output" "${b_out}" "${compiler_re} [^\n]*-c [^\n]*/saxpy\\.cu -o ")
  expect_elf("${WORK}/build/saxpy")
  expect_no_temporaries()

else()
  fail("unknown CASE '${CASE}'")
endif()

message(STATUS "driver.${CASE}: ok")
