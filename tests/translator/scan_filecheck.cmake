# cmake -DSCAN=<ldcc-scan> -DFILECHECK=<FileCheck> -DINPUT=<file.cu> -P scan_filecheck.cmake
# Runs "ldcc-scan INPUT | FileCheck INPUT": the expected output is the // CHECK: lines in
# the input itself.
execute_process(COMMAND "${SCAN}" "${INPUT}"
                COMMAND "${FILECHECK}" --dump-input=fail "${INPUT}"
                RESULTS_VARIABLE rcs)
list(GET rcs 0 scan_rc)
list(GET rcs 1 check_rc)
if(NOT scan_rc EQUAL 0)
  message(FATAL_ERROR "ldcc-scan ${INPUT} exited with ${scan_rc}")
endif()
if(NOT check_rc EQUAL 0)
  message(FATAL_ERROR "FileCheck failed on ${INPUT}")
endif()
