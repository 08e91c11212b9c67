// `exocheck trace view` and `trace export` on real traces: the HTML page as a browser renders it
// (headless Chromium, from the DOM it builds), ShiViz's log against its regex and happens-before,
// Chrome's trace events with a flow per message, Graphviz dot.

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using nlohmann::json;

/// What a trace holds, counted from the file itself: the pictures must show exactly this.
struct TraceShape {
  std::size_t lanes = 0;       ///< main and every actor that appears
  std::size_t deliveries = 0;  ///< messages delivered whose send is in the trace
  std::size_t failed_steps = 0;
};

TraceShape shape_of(const proto::TraceFile& trace) {
  std::set<std::string> actors{"main"}, sent;
  TraceShape shape;
  for (const auto& event : trace.events()) {
    if (event.step() != 0) actors.insert(event.actor());
    for (const auto& created : event.created()) actors.insert(created);
    for (const auto& message : event.sent()) {
      actors.insert(message.receiver());
      sent.insert(message.id());
    }
    if (event.step() != 0 && sent.count(event.message()) != 0) ++shape.deliveries;
    if (event.outcome() != proto::STEP_OK) ++shape.failed_steps;
  }
  shape.lanes = actors.size();
  return shape;
}

std::size_t occurrences(const std::string& text, const std::string& piece) {
  std::size_t count = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + piece.size())) ++count;
  return count;
}

/// Step i happens before step j: program order per actor, send before delivery, creation before
/// the created actor's first step; main's step 0 is concurrent with everything, as in the model.
std::vector<std::vector<bool>> happens_before(const proto::TraceFile& trace) {
  const std::size_t n = static_cast<std::size_t>(trace.events_size());
  std::vector<std::vector<bool>> before(n, std::vector<bool>(n, false));
  std::map<std::string, std::size_t> last_of, sent_at, created_at;
  for (std::size_t j = 1; j < n; ++j) {
    const auto& event = trace.events(static_cast<int>(j));
    auto edge = [&](std::size_t i) {
      before[i][j] = true;
      for (std::size_t k = 1; k < n; ++k) {
        if (before[k][i]) before[k][j] = true;
      }
    };
    if (auto last = last_of.find(event.actor()); last != last_of.end())
      edge(last->second);
    else if (auto created = created_at.find(event.actor()); created != created_at.end())
      edge(created->second);
    if (auto send = sent_at.find(event.message()); send != sent_at.end()) edge(send->second);
    last_of[event.actor()] = j;
    for (const auto& message : event.sent()) sent_at[message.id()] = j;
    for (const auto& created : event.created()) created_at[created] = j;
  }
  return before;
}

bool clock_le(const json& a, const json& b) {
  for (const auto& [host, count] : a.items()) {
    if (!b.contains(host) || b.at(host).get<int>() < count.get<int>()) return false;
  }
  return true;
}

class TracePictures : public ExploreTest {
 protected:
  /// clientserver's atomicity violation, found by exploration: a trace with a failed step.
  std::filesystem::path failing_trace() const {
    const auto result = figures({"--workers", "1"}, "clientserver");
    EXPECT_EQ(result.exit_code, 1) << result.summary.dump(2);
    return dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>();
  }

  /// One run of at least 200 steps and many lanes: minesweeper on 6x6 cells (669 steps, 38 lanes).
  std::filesystem::path long_trace() const {
    const auto run = exocheck(
        {"run", "--", cli_test::subject_path("minesweeper").string(), "--rows", "6", "--cols", "6", "--fixed"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return dir() / "exocheck-run.trace";
  }

  /// The page's DOM after its scripts ran in headless Chromium, and what Chromium logged.
  cli_test::ProcessOutput rendered(const std::filesystem::path& page, const std::string& screenshot) const {
    const auto dom = cli_test::run_program(
        "timeout",
        {"120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000", "--dump-dom", "file://" + page.string()},
        dir().path());
    const auto artifacts = std::filesystem::path(EXOCHECK_TEST_ARTIFACTS_DIR);
    std::filesystem::create_directories(artifacts);
    cli_test::run_program(
        "timeout",
        {"120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1400,1000", "--screenshot=" + (artifacts / screenshot).string(), "file://" + page.string()},
        dir().path());
    return dom;
  }

  static bool have_chromium() { return std::system("command -v chromium >/dev/null 2>&1") == 0; }
};

TEST_F(TracePictures, TheSpaceTimePageDrawsEveryLaneAndMessageAndMarksTheFailingStep) {
  if (!built("clientserver") || !built("minesweeper")) GTEST_SKIP() << "subjects not built";
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (deploy/setup.sh installs it)";
  struct Case {
    std::filesystem::path trace;
    const char* screenshot;
  };
  for (const Case& c :
       {Case{failing_trace(), "trace-view-clientserver.png"}, Case{long_trace(), "trace-view-minesweeper-6x6.png"}}) {
    SCOPED_TRACE(c.trace.string());
    const auto trace = wire::read_trace_file(c.trace);
    const TraceShape shape = shape_of(trace);
    const auto page = dir() / (c.trace.stem().string() + ".html");
    const auto view = exocheck({"trace", "view", c.trace.string(), "-o", page.string()});
    ASSERT_EQ(view.exit_code, 0) << view.err;
    const auto dom = rendered(page, c.screenshot);
    ASSERT_EQ(dom.exit_code, 0) << dom.err;
    // From the browser's side: what the script built, and nothing it complained about.
    EXPECT_EQ(dom.err.find("Uncaught"), std::string::npos) << dom.err;
    EXPECT_EQ(dom.err.find(":ERROR:CONSOLE"), std::string::npos) << dom.err;
    EXPECT_EQ(occurrences(dom.out, "<g class=\"lane\""), shape.lanes);
    EXPECT_EQ(occurrences(dom.out, "class=\"arrow\""), shape.deliveries);
    EXPECT_EQ(occurrences(dom.out, "class=\"box failed"), shape.failed_steps);
    EXPECT_EQ(occurrences(dom.out, "class=\"box"), static_cast<std::size_t>(trace.events_size()));
    EXPECT_NE(dom.out.find("data-lanes=\"" + std::to_string(shape.lanes) + "\""), std::string::npos);
    if (shape.failed_steps > 0) {
      EXPECT_NE(dom.out.find("class=\"failure-label\""), std::string::npos);
    }
    // Every actor's lane head names its type (main's has none).
    EXPECT_EQ(occurrences(dom.out, "class=\"lane-type\">"), shape.lanes) << dom.out.substr(0, 4000);
    EXPECT_EQ(occurrences(dom.out, "class=\"lane-type\"></text>"), 1u);
  }
}

// Timer firings and steps whose handler chose are drawn apart, with what happened in their hover
// text, as the browser has it.
TEST_F(TracePictures, TheSpaceTimePageShowsTimerFiringsAndChoicesInTheHoverText) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (deploy/setup.sh installs it)";
  // The judge actor's form: its failing runs go on to the leaders' heartbeats.
  const auto result = figures({"--strategy", "systematic", "--workers", "1"}, "election", {"--judge-actor"});
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  const auto trace = dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>();
  const auto page = dir() / "election.html";
  ASSERT_EQ(exocheck({"trace", "view", trace.string(), "-o", page.string()}).exit_code, 0);
  const auto dom = rendered(page, "trace-view-election.png");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(dom.err.find("Uncaught"), std::string::npos) << dom.err;
  // A line of each hover text (the page's data holds them too, after a quote).
  EXPECT_EQ(occurrences(dom.out, "\ntimer fired at 150 ms"), 2u);  // each node's election timeout
  EXPECT_EQ(occurrences(dom.out, "\nchose 0 of 2"), 2u);           // each node's draw
  EXPECT_EQ(occurrences(dom.out, "class=\"box timer\""), 4u);      // and each leader's heartbeat: drawn apart
  EXPECT_EQ(occurrences(dom.out, "class=\"box chose\""), 2u);
}

// A step that suffered a fault is drawn apart, and its hover text says what happened.
TEST_F(TracePictures, TheSpaceTimePageShowsACrashInTheHoverText) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (deploy/setup.sh installs it)";
  const auto result = figures({"--workers", "1", "--crash", "1", "--crash-types", "Coordinator"}, "two-phase-commit");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  const auto trace = dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>();
  const auto page = dir() / "two-phase-commit.html";
  ASSERT_EQ(exocheck({"trace", "view", trace.string(), "-o", page.string()}).exit_code, 0);
  const auto dom = rendered(page, "trace-view-two-phase-commit.png");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(dom.err.find("Uncaught"), std::string::npos) << dom.err;
  EXPECT_EQ(occurrences(dom.out, "\nfault: crashed"), 1u);
  EXPECT_EQ(occurrences(dom.out, "class=\"box fault\""), 1u);
}

// A step that notified a specification monitor is drawn apart, the notification in its hover text.
TEST_F(TracePictures, TheSpaceTimePageShowsMonitorNotificationsInTheHoverText) {
  if (!built("monitor-order")) GTEST_SKIP() << "monitor-order not built";
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (deploy/setup.sh installs it)";
  const auto result = figures({"--strategy", "systematic", "--workers", "1"}, "monitor-order");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  const auto trace = dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>();
  const auto page = dir() / "monitor-order.html";
  ASSERT_EQ(exocheck({"trace", "view", trace.string(), "-o", page.string()}).exit_code, 0);
  const auto dom = rendered(page, "trace-view-monitor-order.png");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(dom.err.find("Uncaught"), std::string::npos) << dom.err;
  // The door opened, the alarm armed (the step that fails the monitor), the door shut.
  EXPECT_EQ(occurrences(dom.out, "\nnotified ShutWhenArmed: Opened"), 1u);
  EXPECT_EQ(occurrences(dom.out, "\nnotified ShutWhenArmed: Armed"), 1u);
  EXPECT_EQ(occurrences(dom.out, "\nnotified ShutWhenArmed: Shut"), 1u);
  EXPECT_EQ(occurrences(dom.out, "class=\"box notified\""), 2u);
  EXPECT_EQ(occurrences(dom.out, "class=\"box failed notified\""), 1u);
}

TEST_F(TracePictures, TheLongTraceHasTwoHundredStepsAndManyLanes) {
  if (!built("minesweeper")) GTEST_SKIP() << "minesweeper not built";
  const auto trace = wire::read_trace_file(long_trace());
  EXPECT_GE(trace.events_size(), 201);
  EXPECT_GE(shape_of(trace).lanes, 30u);
}

TEST_F(TracePictures, ShivizLinesMatchTheRegexAndClocksFollowHappensBefore) {
  if (!built("clientserver") || !built("minesweeper")) GTEST_SKIP() << "subjects not built";
  for (const auto& path : {failing_trace(), long_trace()}) {
    const auto trace = wire::read_trace_file(path);
    const auto exported = exocheck({"trace", "export", "--format", "shiviz", path.string()});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    // ShiViz's regex, named groups and all, is printed on stderr; std::regex has no named groups.
    const std::string printed = R"(^(?<host>\S+) (?<clock>\{[^}]*\}) (?<event>.*)$)";
    ASSERT_NE(exported.err.find(printed), std::string::npos) << exported.err;
    const std::regex line_format(R"(^(\S+) (\{[^}]*\}) (.*)$)");
    const auto lines = cli_test::lines_of(exported.out);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(trace.events_size()));
    std::vector<json> clocks;
    std::map<std::string, int> events_of_host;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch match;
      ASSERT_TRUE(std::regex_match(lines[i], match, line_format)) << lines[i];
      const auto clock = json::parse(match[2].str(), nullptr, false);
      ASSERT_FALSE(clock.is_discarded()) << lines[i];
      // A host's own entry counts its events: 1, 2, 3, ...
      EXPECT_EQ(clock.value(match[1].str(), 0), ++events_of_host[match[1].str()]) << lines[i];
      clocks.push_back(clock);
    }
    const auto before = happens_before(trace);
    for (std::size_t i = 1; i < clocks.size(); ++i) {
      for (std::size_t j = 1; j < clocks.size(); ++j) {
        if (i == j) continue;
        EXPECT_EQ(clock_le(clocks[i], clocks[j]), before[i][j]) << "steps " << i << " and " << j;
      }
    }
  }
}

TEST_F(TracePictures, ChromeTraceEventsHaveASliceForEveryStepAndAFlowForEveryMessage) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto path = failing_trace();
  const auto trace = wire::read_trace_file(path);
  const auto exported = exocheck({"trace", "export", "--format", "chrome", path.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto document = json::parse(exported.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << exported.out;
  ASSERT_TRUE(document.at("traceEvents").is_array());
  std::size_t slices = 0;
  std::map<std::uint64_t, int> flow_ends;
  std::set<std::string> threads;
  for (const auto& event : document.at("traceEvents")) {
    const auto phase = event.at("ph").get<std::string>();
    ASSERT_TRUE(event.contains("pid")) << event;
    if (phase == "M") {
      if (event.at("name") == "thread_name") threads.insert(event.at("args").at("name").get<std::string>());
      continue;
    }
    ASSERT_TRUE(event.at("ts").is_number()) << event;
    ASSERT_TRUE(event.contains("tid")) << event;
    if (phase == "X") {
      ASSERT_TRUE(event.at("dur").is_number()) << event;
      ++slices;
    } else if (phase == "s") {
      flow_ends[event.at("id").get<std::uint64_t>()] += 1;
    } else if (phase == "f") {
      EXPECT_EQ(event.at("bp"), "e");
      flow_ends[event.at("id").get<std::uint64_t>()] += 10;
    } else {
      ADD_FAILURE() << "unexpected phase " << phase;
    }
  }
  EXPECT_EQ(slices, static_cast<std::size_t>(trace.events_size()));
  EXPECT_EQ(threads.size(), shape_of(trace).lanes);
  // Each lane named by the actor's identity and its class, as the hook recorded it.
  EXPECT_EQ(threads, (std::set<std::string>{"main", "actor 0 (Server)", "actor 1 (Client)"}));
  EXPECT_EQ(flow_ends.size(), shape_of(trace).deliveries);
  for (const auto& [id, ends] : flow_ends) EXPECT_EQ(ends, 11) << "flow " << id << " needs one start and one end";
}

TEST_F(TracePictures, DotHasAClusterPerLaneAndAnEdgePerMessage) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto path = failing_trace();
  const auto trace = wire::read_trace_file(path);
  const auto exported = exocheck({"trace", "export", "--format", "dot", path.string(), "-o", "trace.dot"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::ifstream in(dir() / "trace.dot");
  const std::string dot((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(dot.rfind("digraph trace {", 0), 0u);
  EXPECT_EQ(occurrences(dot, "subgraph cluster_"), shape_of(trace).lanes);
  // A node per step, an edge per message: both labelled.
  EXPECT_EQ(occurrences(dot, " [label=\"") - static_cast<std::size_t>(trace.events_size()), shape_of(trace).deliveries);
  EXPECT_EQ(occurrences(dot, "color=red"), shape_of(trace).failed_steps);
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'), std::count(dot.begin(), dot.end(), '}'));
}

TEST_F(TracePictures, BadInputIsAnInputError) {
  const auto missing = exocheck({"trace", "view", "no-such.trace"});
  EXPECT_EQ(missing.exit_code, 2);
  const auto format = exocheck({"trace", "export", "--format", "svg", "no-such.trace"});
  EXPECT_EQ(format.exit_code, 2);
}

}  // namespace
}  // namespace exocheck::explore_test
