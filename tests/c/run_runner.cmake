# Runs takt-runner on one input and checks the outcome.
#   cmake -DRUNNER=path -DINPUT=path -DEXPECT_RC=n [-DEXPECT_STDERR=regex]
#         [-DEXPECT_STDOUT=regex] -P run_runner.cmake
# A malformed input must give exit code 2, a message on stderr and no trace
# (-DALLOW_STDOUT=1: the input parsed but the kernel refused it mid-way).
execute_process(COMMAND ${RUNNER} ${INPUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failed 0)
if(NOT rc STREQUAL EXPECT_RC)
  message(SEND_ERROR "exit code ${rc}, expected ${EXPECT_RC}")
  math(EXPR failed "${failed} + 1")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
  message(SEND_ERROR "stderr does not match '${EXPECT_STDERR}':\n${err}")
  math(EXPR failed "${failed} + 1")
endif()
if(EXPECT_RC STREQUAL "2" AND NOT ALLOW_STDOUT AND NOT out STREQUAL "")
  message(SEND_ERROR "a refused input wrote to stdout:\n${out}")
  math(EXPR failed "${failed} + 1")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  message(SEND_ERROR "stdout does not match '${EXPECT_STDOUT}'")
  math(EXPR failed "${failed} + 1")
endif()
if(failed EQUAL 0)
  message("1 passed, 0 failed")
else()
  message("0 passed, ${failed} failed")
endif()
