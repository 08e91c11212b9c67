# Reading traces for people and checking replays: the timeline printer and the replay comparison.
# Included from agent/CMakeLists.txt; paths are relative to this file so the include site does not matter.
add_library(exocheck_inspect STATIC ${CMAKE_CURRENT_LIST_DIR}/src/timeline.cpp ${CMAKE_CURRENT_LIST_DIR}/src/replay_check.cpp)
target_include_directories(exocheck_inspect PUBLIC ${CMAKE_CURRENT_LIST_DIR}/include)
target_link_libraries(exocheck_inspect PUBLIC exocheck_proto exocheck_trace_file PRIVATE exocheck_endings)
