# cmake -DLDCC=<ldcc> -DFILECHECK=<FileCheck> -DNVCC=<nvcc> -DREPO=<repo root>
#       -DINPUT=<golden/x.cu> -DWORK_DIR=<dir> -P translate_filecheck.cmake
#
# A translator golden test (hipify-clang style: the expectations are the // CHECK: lines inside
# the input itself):
#   1. ldcc --translate-only -std=c++17 INPUT -o WORK_DIR/x.ldcc.cu      (must exit 0)
#   2. FileCheck INPUT on the translated file                              (// CHECK: lines)
#   3. ldcc's stderr: FileCheck --check-prefix=WARN when INPUT has // WARN: lines, otherwise
#      it must not say that a kernel runs unchecked
#   4. nvcc -std=c++17 -arch=sm_90 -c on the translated file               (must compile)
#
# The translated file contains the input's comments, so each // CHECK: line would match its own
# copy there. FileCheck reads a copy of the translated file in which every FileCheck directive
# comment is blanked out (the line itself stays, so line numbers in --dump-input are the real ones).
foreach(var LDCC FILECHECK NVCC REPO INPUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "translate_filecheck.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED WORK_DIR OR "${WORK_DIR}" STREQUAL "")
  set(WORK_DIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()
get_filename_component(name "${INPUT}" NAME_WE)
file(MAKE_DIRECTORY "${WORK_DIR}")
set(out "${WORK_DIR}/${name}.ldcc.cu")
file(REMOVE "${out}" "${out}.o")

# 1. translate
execute_process(COMMAND "${LDCC}" --translate-only -std=c++17 "${INPUT}" -o "${out}"
                RESULT_VARIABLE ldcc_rc OUTPUT_VARIABLE ldcc_stdout ERROR_VARIABLE ldcc_stderr)
file(WRITE "${out}.stderr" "${ldcc_stderr}")
if(NOT ldcc_rc EQUAL 0)
  message(FATAL_ERROR "ldcc --translate-only ${INPUT} exited with ${ldcc_rc}:\n${ldcc_stdout}${ldcc_stderr}")
endif()
if(NOT EXISTS "${out}")
  message(FATAL_ERROR "ldcc --translate-only ${INPUT} exited with 0 but wrote no ${out}")
endif()

# 2. the translated source against the // CHECK: lines
file(READ "${out}" translated)
string(REGEX REPLACE "//[ \t]*(CHECK|WARN)(-[A-Z]+)?:[^\n]*" "//" translated "${translated}")
file(WRITE "${out}.filecheck" "${translated}")
execute_process(COMMAND "${FILECHECK}" --dump-input=fail "--input-file=${out}.filecheck" "${INPUT}"
                RESULT_VARIABLE check_rc)
if(NOT check_rc EQUAL 0)
  message(FATAL_ERROR "FileCheck failed on the translation of ${INPUT} (${out})")
endif()

# 3. the warnings
file(READ "${INPUT}" input_text)
string(REGEX MATCH "//[ \t]*WARN(-[A-Z]+)?:" has_warn_checks "${input_text}")
if(has_warn_checks)
  execute_process(COMMAND "${FILECHECK}" --dump-input=fail --check-prefix=WARN "--input-file=${out}.stderr"
                          "${INPUT}"
                  RESULT_VARIABLE warn_rc)
  if(NOT warn_rc EQUAL 0)
    message(FATAL_ERROR "FileCheck --check-prefix=WARN failed on ldcc's stderr for ${INPUT}:\n${ldcc_stderr}")
  endif()
elseif(ldcc_stderr MATCHES "runs unchecked")
  message(FATAL_ERROR "ldcc left a kernel of ${INPUT} unchecked, and the input expects none:\n${ldcc_stderr}")
endif()

# 4. the translated source compiles
execute_process(COMMAND "${NVCC}" -std=c++17 -arch=sm_90 -c "-I${REPO}/ldruntime/include"
                        "-I${REPO}/kernels/include" "${out}" -o "${out}.o"
                RESULT_VARIABLE nvcc_rc OUTPUT_VARIABLE nvcc_out ERROR_VARIABLE nvcc_out)
if(NOT nvcc_rc EQUAL 0)
  message(FATAL_ERROR "nvcc could not compile the translation of ${INPUT} (${out}), exit ${nvcc_rc}:\n${nvcc_out}")
endif()
