#pragma once
// Hands the C library's free memory back to the system. An agent's heap swings: a report of
// backtrack requests, a Work message of routed ones, a lease's session destroyed at its end are
// each tens of megabytes made and freed on one thread or another, and glibc keeps what a thread's
// arena once held (it gives back only the top of a heap), so the agent's RSS rose to its largest
// swing on every arena and stayed there, growing with the job though little was in use.

namespace exocheck::agent {

/// Returns the free pages of every arena to the system (glibc's malloc_trim); nothing elsewhere.
/// It walks the free chunks: call it now and then, not per allocation.
void release_free_memory();

}  // namespace exocheck::agent
