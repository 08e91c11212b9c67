#pragma once
// Everything a program written against the exocheck actor API needs.

#include "exocheck/actor.hpp"
#include "exocheck/check.hpp"
#include "exocheck/choice.hpp"
#include "exocheck/future.hpp"
#include "exocheck/lock.hpp"
#include "exocheck/message.hpp"
#include "exocheck/monitor.hpp"
#include "exocheck/system.hpp"
