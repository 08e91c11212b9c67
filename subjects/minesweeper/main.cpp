// minesweeper: a minesweeper game simulated with one actor per cell (TransDPOR Section 6,
// "minesweeper": a deadlock in some orders). A cell knows only whether it is a mine itself. The
// player clicks one cell; a revealed cell learns its number by asking each neighbour IsMine, and
// when the number is 0 it reveals all its neighbours (they ask their own neighbours in turn).
//
// The bug: a cell asks with synchronous calls, one neighbour after the other, and while it waits
// for an answer it answers nobody. Two neighbouring cells revealed at the same time can each be
// waiting for the other's answer: a deadlock (cells revealed by the same zero cell are often
// neighbours). With --fixed a cell sends all its IsMine questions at once and counts the answers
// as they come, so it never blocks.
//
// The game checks that exactly the cells a sequential flood fill reveals report, each with its
// right number.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Click {
  static constexpr const char* type_name = "Click";
};
struct Reveal {
  static constexpr const char* type_name = "Reveal";
};
/// A question to a neighbour; answered by a reply (buggy) or by a MineAnswer (fixed).
struct IsMine {
  static constexpr const char* type_name = "IsMine";
};
struct MineAnswer {
  static constexpr const char* type_name = "MineAnswer";
  bool mine = false;
  void describe(exocheck::Describer& d) const { d("mine", mine); }
};
struct Revealed {
  static constexpr const char* type_name = "Revealed";
  int cell = 0;
  int number = 0;
  void describe(exocheck::Describer& d) const { d("cell", cell)("number", number); }
};

/// The board's layout, known to the game; cells are numbered row by row.
struct Layout {
  int rows;
  int cols;
  std::vector<bool> mines;

  int size() const { return rows * cols; }
  std::vector<int> neighbours(int cell) const {
    std::vector<int> result;
    const int r = cell / cols;
    const int c = cell % cols;
    for (int dr = -1; dr <= 1; ++dr) {
      for (int dc = -1; dc <= 1; ++dc) {
        const int nr = r + dr;
        const int nc = c + dc;
        if ((dr != 0 || dc != 0) && nr >= 0 && nr < rows && nc >= 0 && nc < cols) result.push_back(nr * cols + nc);
      }
    }
    return result;
  }
  int number(int cell) const {
    int n = 0;
    for (int k : neighbours(cell)) n += mines[static_cast<std::size_t>(k)] ? 1 : 0;
    return n;
  }
  /// What revealing `start` uncovers when played sequentially: -1 for a hidden cell, else its number.
  std::vector<int> flood(int start) const {
    std::vector<int> shown(static_cast<std::size_t>(size()), -1);
    std::vector<int> todo{start};
    while (!todo.empty()) {
      const int cell = todo.back();
      todo.pop_back();
      if (shown[static_cast<std::size_t>(cell)] >= 0) continue;
      shown[static_cast<std::size_t>(cell)] = number(cell);
      if (number(cell) != 0) continue;
      const auto next = neighbours(cell);
      todo.insert(todo.end(), next.begin(), next.end());
    }
    return shown;
  }
};

/// Who is next to whom: filled in by the Game in the initial step, read-only afterwards (a cell
/// cannot be told about cells spawned after it in its constructor).
struct Neighbours {
  std::vector<exocheck::ActorRef> cells;
  std::vector<std::vector<int>> of;
};

class Cell : public exocheck::Actor {
 public:
  Cell(int index, bool mine, exocheck::ActorRef game, std::shared_ptr<const Neighbours> board, bool fixed)
      : index_(index), mine_(mine), game_(game), board_(std::move(board)), fixed_(fixed) {
    on([this](const Click&) { reveal(); });
    on([this](const Reveal&) { reveal(); });
    on([this](const IsMine&) {
      if (fixed_) {
        send(sender(), MineAnswer{mine_});
      } else {
        reply(mine_);
      }
    });
    on([this](const MineAnswer& m) { count(m.mine); });
  }

  std::string final_state() const override { return revealed_ ? std::to_string(number_) : "hidden"; }

 private:
  const std::vector<int>& neighbours() const { return board_->of[static_cast<std::size_t>(index_)]; }
  const exocheck::ActorRef& cell(int index) const { return board_->cells[static_cast<std::size_t>(index)]; }

  void reveal() {
    if (revealed_) return;
    revealed_ = true;
    if (fixed_) {
      for (int n : neighbours()) send(cell(n), IsMine{});
    } else {
      ask(0);
    }
  }

  /// Buggy: one synchronous question at a time.
  void ask(std::size_t next) {
    if (next == neighbours().size()) {
      done();
      return;
    }
    call<bool>(cell(neighbours()[next]), IsMine{}, [this, next](bool mine) {
      number_ += mine ? 1 : 0;
      ask(next + 1);
    });
  }

  /// Fixed: answers are counted as they arrive.
  void count(bool mine) {
    number_ += mine ? 1 : 0;
    if (++answers_ == neighbours().size()) done();
  }

  void done() {
    send(game_, Revealed{index_, number_});
    if (number_ == 0) {
      for (int n : neighbours()) send(cell(n), Reveal{});
    }
  }

  int index_;
  bool mine_;
  exocheck::ActorRef game_;
  std::shared_ptr<const Neighbours> board_;
  bool fixed_;
  bool revealed_ = false;
  int number_ = 0;
  std::size_t answers_ = 0;
};

/// Lays out the board, clicks the first cell and collects what the cells reveal.
class Game : public exocheck::Actor {
 public:
  Game(Layout layout, bool fixed) : layout_(std::move(layout)), expected_(layout_.flood(0)) {
    auto neighbours = std::make_shared<Neighbours>();
    for (int i = 0; i < layout_.size(); ++i) {
      neighbours->cells.push_back(
          spawn<Cell>(i, layout_.mines[static_cast<std::size_t>(i)], self(), neighbours, fixed));
    }
    for (int i = 0; i < layout_.size(); ++i) neighbours->of.push_back(layout_.neighbours(i));
    shown_.assign(static_cast<std::size_t>(layout_.size()), -1);
    on([this](const Revealed& m) { record(m); });
    send(neighbours->cells.front(), Click{});
  }

  std::string final_state() const override { return board(); }

 private:
  void record(const Revealed& m) {
    const auto cell = static_cast<std::size_t>(m.cell);
    exocheck::check(expected_[cell] >= 0 && shown_[cell] < 0,
                    "cell " + std::to_string(m.cell) + " revealed, but a sequential game would not reveal it now");
    shown_[cell] = m.number;
    exocheck::check(m.number == expected_[cell], "cell " + std::to_string(m.cell) + " shows " +
                                                     std::to_string(m.number) + ", but has " +
                                                     std::to_string(expected_[cell]) + " mines around it");
    if (shown_ == expected_) std::cout << board() + "\n" << std::flush;
  }

  /// The board as the player sees it: rows separated by '/', '.' for a hidden cell.
  std::string board() const {
    std::string text;
    for (int i = 0; i < layout_.size(); ++i) {
      if (i > 0 && i % layout_.cols == 0) text += '/';
      const int shown = shown_[static_cast<std::size_t>(i)];
      text += shown < 0 ? '.' : static_cast<char>('0' + shown);
    }
    return text;
  }

  Layout layout_;
  std::vector<int> expected_;
  std::vector<int> shown_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"minesweeper: a minesweeper game with one actor per cell (TransDPOR Section 6)"};
  int rows = 3;
  int cols = 3;
  int mines = 1;
  bool fixed = false;
  app.add_option("--rows", rows, "rows of the board")->check(CLI::Range(1, 8));
  app.add_option("--cols", cols, "columns of the board")->check(CLI::Range(2, 8));
  app.add_option("--mines", mines, "mines, in the last cells (bottom row, from the right)")->check(CLI::Range(0, 63));
  app.add_flag("--fixed", fixed, "cells ask their neighbours asynchronously: no deadlock");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (mines >= rows * cols) {
    std::cerr << "--mines: at most " << rows * cols - 1 << " on a " << rows << "x" << cols << " board\n";
    return 2;
  }
  Layout layout{rows, cols, std::vector<bool>(static_cast<std::size_t>(rows * cols), false)};
  for (int k = 0; k < mines; ++k) layout.mines[static_cast<std::size_t>(rows * cols - 1 - k)] = true;
  exocheck::System system;
  system.spawn<Game>(layout, fixed);
  return system.run();
}
