# exocheck in a project's own tests (find_package(exocheck) includes this file).
#
#   exocheck_add_exploration(<name> TARGET <target> [ARGS <arg>...] [OPTIONS <explore option>...]
#                            [BOUNDED_OK])
# A ctest test <name> that explores <target> (built by the project, linked with exocheck::hook or
# a CAF program) with `exocheck explore`: it passes when the exploration is complete with no bug,
# and fails on a bug (exit 1) or an error (exit 2). Stopped by a limit before the end (exit 3) it
# fails too, unless BOUNDED_OK, when it is reported as skipped. In ${CMAKE_CURRENT_BINARY_DIR}/exocheck/
# are its JUnit report (<name>-junit.xml) and its folder (<name>/: summary.json, bug-N.trace and
# bug-N.txt for each bug): keep them as the CI job's artifacts.
#
#   exocheck_record_tests(<test>... [DIRECTORY <dir>] [CAF])
# Runs the project's ordinary ctest tests with recording on: every process of theirs that carries
# exocheck's hook (with CAF, every CAF program: the adapter is preloaded) records the order of its
# actors' deliveries to <dir> (default ${CMAKE_BINARY_DIR}/exocheck-recordings). After them, the
# test exocheck-recordings makes a trace of each failed run in <dir>/traces (`exocheck record
# --from`), which `exocheck replay` reproduces, and removes the logs of the runs that passed.
include_guard(GLOBAL)

function(exocheck_add_exploration name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "BOUNDED_OK" "TARGET" "ARGS;OPTIONS")
  if(NOT arg_TARGET)
    message(FATAL_ERROR "exocheck_add_exploration(${name}): TARGET <target> is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "exocheck_add_exploration(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/exocheck/${name}")
  add_test(NAME ${name}
           COMMAND "${EXOCHECK_EXECUTABLE}" explore --out "${out}" --junit "${out}-junit.xml" ${arg_OPTIONS} --
                   "$<TARGET_FILE:${arg_TARGET}>" ${arg_ARGS})
  # explore replaces its --out folder as it ends: the JUnit report lives beside it.
  set_tests_properties(${name} PROPERTIES ATTACHED_FILES_ON_FAIL "${out}-junit.xml;${out}/summary.json" LABELS exocheck)
  if(arg_BOUNDED_OK)
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 3)
  endif()
endfunction()

function(exocheck_record_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "CAF" "DIRECTORY" "")
  set(tests ${arg_UNPARSED_ARGUMENTS})
  if(NOT tests)
    message(FATAL_ERROR "exocheck_record_tests: name at least one test")
  endif()
  set(dir "${arg_DIRECTORY}")
  if(NOT dir)
    set(dir "${CMAKE_BINARY_DIR}/exocheck-recordings")
  endif()
  foreach(test IN LISTS tests)
    # "%p": each process of the test writes a log of its own.
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "EXOCHECK_RECORD=${dir}/${test}-%p.log")
    if(arg_CAF)
      if(NOT TARGET exocheck::caf)
        message(FATAL_ERROR "exocheck_record_tests(CAF): this exocheck was built without CAF (no exocheck::caf)")
      endif()
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:exocheck::caf>")
    endif()
    set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED exocheck-recordings)
  endforeach()
  if(NOT TEST exocheck-recordings-clean)
    file(MAKE_DIRECTORY "${dir}")
    # Before: logs of an earlier ctest run are not this one's.
    add_test(NAME exocheck-recordings-clean COMMAND "${CMAKE_COMMAND}" -E rm -rf "${dir}")
    add_test(NAME exocheck-recordings-setup COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}")
    add_test(NAME exocheck-recordings
             COMMAND "${CMAKE_COMMAND}" -D "EXOCHECK_EXECUTABLE=${EXOCHECK_EXECUTABLE}" -D "DIRECTORY=${dir}" -P
                     "${_exocheck_testing_dir}/exocheckRecordings.cmake")
    set_tests_properties(exocheck-recordings-clean PROPERTIES FIXTURES_SETUP exocheck-recordings)
    set_tests_properties(exocheck-recordings-setup PROPERTIES FIXTURES_SETUP exocheck-recordings
                                                              DEPENDS exocheck-recordings-clean)
    set_tests_properties(exocheck-recordings PROPERTIES FIXTURES_CLEANUP exocheck-recordings LABELS exocheck)
  endif()
endfunction()

set(_exocheck_testing_dir "${CMAKE_CURRENT_LIST_DIR}")
