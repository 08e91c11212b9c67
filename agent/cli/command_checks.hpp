#pragma once
// Checks of the command line shared by the subcommands, each failing with one InputError line.

#include <chrono>
#include <string>

#include <CLI/CLI.hpp>

#include "subject_command.hpp"

namespace exocheck::cli {

/// Fails when words that are neither options nor the subject were given (the subject belongs after "--").
void reject_extra_arguments(const CLI::App& command);

/// Fails unless a subject binary follows "--".
void require_subject(const SubjectCommand& subject, const std::string& command_name);

/// Fails when "--" was given to a command that runs nothing.
void reject_subject(const SubjectCommand& subject, const std::string& command_name);

/// Converts a --timeout in seconds to milliseconds (at least 1).
std::chrono::milliseconds timeout_from_seconds(double seconds);

}  // namespace exocheck::cli
