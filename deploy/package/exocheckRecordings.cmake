# The test exocheck-recordings (exocheck_record_tests): a trace of each failed run recorded in
# DIRECTORY, made with `exocheck record --from`; the logs of the runs that passed are removed.
#   cmake -D EXOCHECK_EXECUTABLE=... -D DIRECTORY=... -P exocheckRecordings.cmake
file(GLOB logs "${DIRECTORY}/*.log")
set(failed 0)
foreach(log IN LISTS logs)
  execute_process(COMMAND "${EXOCHECK_EXECUTABLE}" record --from "${log}" --out "${DIRECTORY}/traces"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(status EQUAL 0)
    file(REMOVE "${log}")
  elseif(status EQUAL 1)
    math(EXPR failed "${failed} + 1")
    message(STATUS "${log}: ${out}")
  else()
    message(WARNING "${log}: no trace: ${err}")
  endif()
endforeach()
list(LENGTH logs recorded)
message(STATUS "exocheck: ${recorded} recorded runs, ${failed} failed; their traces are in ${DIRECTORY}/traces")
