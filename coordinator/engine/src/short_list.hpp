#pragma once
// The tree's short lists (a node's backtrack and done sets, a step's sends and clock): most hold
// a handful of keys, so they are kept inline, and a new node or step costs no allocation for them
// (Explorer::complete runs under the session's lock, once per execution).

#include <cstddef>

#include <boost/container/small_vector.hpp>

namespace exocheck::engine {

/// A list of up to N elements kept inline, longer ones on the heap.
template <class T, std::size_t N>
using ShortList = boost::container::small_vector<T, N>;

}  // namespace exocheck::engine
