# cmake -DSCAN=<ldcc-scan> -DINPUTS=<inputs dir> -P scan_errors.cmake
# ldcc-scan must fail cleanly (exit 1, not a signal) and say where.

function(expect_failure file regex)
  execute_process(COMMAND "${SCAN}" "${file}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "1")
    message(FATAL_ERROR "ldcc-scan ${file}: expected exit code 1, got '${rc}'\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  if(NOT err MATCHES "${regex}")
    message(FATAL_ERROR "ldcc-scan ${file}: stderr does not match '${regex}':\n${err}")
  endif()
  message(STATUS "ok: ${file} -> exit ${rc}")
endfunction()

# A missing file: named first, like a compiler names an unreadable input.
expect_failure("${INPUTS}/does_not_exist.cu"
               "does_not_exist\\.cu: fatal error: no such file or directory")
# A syntax error: clang's own diagnostic, with file:line:col, and the source line.
expect_failure("${INPUTS}/syntax_error.cu"
               "syntax_error\\.cu:4:[0-9]+: error: expected ';'")
