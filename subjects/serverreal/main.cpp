// serverreal: the ScalaWiki inventory sample of the SEJAP thesis (Appendix A), whose simplified
// version is clientserver. A SafeServer actor keeps an inventory of items (part number, name,
// price, quantity). The application (here the Client actor, which also runs the code of the
// sample's `Server` object) sends two batches of asynchronous Updates; after each batch it prints
// the current inventory, computed from TWO synchronous "items" queries: the inventory value from
// the first answer, the listed items from the second. Then it places an order (one synchronous
// Order per line) and shuts the server down.
//
// The bug (thesis, Appendix A): channels are unordered, so an Update may be handled between the
// two "items" queries; the printed value then disagrees with the items printed next to it (the
// check fails). With --fixed, both are computed from one answer.

#include <CLI/CLI.hpp>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

/// An inventory line; immutable in the sample (add/take make new ones).
struct Item {
  std::string name;
  std::string pn;
  double price = 0;
  int qty = 0;

  Item add(int to_add) const { return {name, pn, price, qty + to_add}; }

  /// The sample's take: it uses max where min was meant, which ships more than ordered. That
  /// slip is sequential and not what the thesis found; it is kept as written.
  std::pair<int, Item> take(int how_many) const {
    const int to_take = std::max(how_many, qty);
    return {to_take, {name, pn, price, qty - to_take}};
  }

  std::string to_xml() const {
    std::ostringstream out;
    out << "<item name=\"" << name << "\" pn=\"" << pn << "\" price=\"" << price << "\" qnty=\"" << qty << "\"/>";
    return out.str();
  }

  friend std::ostream& operator<<(std::ostream& out, const Item& item) { return out << item.pn << ':' << item.qty; }
};

using Inventory = std::vector<Item>;

/// The sample's "items" query (a string message there); the reply is the inventory.
struct Items {
  static constexpr const char* type_name = "Items";
};
/// The sample's "exit".
struct Exit {
  static constexpr const char* type_name = "Exit";
};
struct Update {
  static constexpr const char* type_name = "Update";
  std::string pn;
  std::string name;
  double price = 0;
  int qty = 0;
  void describe(exocheck::Describer& d) const { d("pn", pn)("qty", qty); }
};
struct Order {
  static constexpr const char* type_name = "Order";
  std::string pn;
  int qty = 0;
  void describe(exocheck::Describer& d) const { d("pn", pn)("qty", qty); }
};

/// The answer to an Order: the sample's Option[Pair[int, Item]].
struct Taken {
  bool found = false;
  int took = 0;
  Item item;
  friend std::ostream& operator<<(std::ostream& out, const Taken& t) {
    return t.found ? out << "took " << t.took << " of " << t.item : out << "none";
  }
};

/// The sample's SafeServer: the inventory, keyed (and so listed) by part number.
class SafeServer : public exocheck::Actor {
 public:
  SafeServer() {
    on([this](const Items&) {
      Inventory values;
      for (const auto& [pn, item] : info_) values.push_back(item);
      reply(values);
    });
    on([this](const Exit&) { destroy(); });
    on([this](const Update& m) {
      const auto it = info_.find(m.pn);
      const Item item = it == info_.end() ? Item{m.name, m.pn, m.price, m.qty} : it->second.add(m.qty);
      info_[item.pn] = item;
    });
    on([this](const Order& m) {
      const auto it = info_.find(m.pn);
      if (it == info_.end()) {
        reply(Taken{});
        return;
      }
      const auto [took, rest] = it->second.take(m.qty);
      reply(Taken{true, took, rest});
      info_[rest.pn] = rest;
    });
  }

  std::string final_state() const override {
    std::string state;
    for (const auto& [pn, item] : info_) state += (state.empty() ? "" : " ") + pn + ":" + std::to_string(item.qty);
    return state.empty() ? "empty" : state;
  }

 private:
  std::map<std::string, Item> info_;
};

struct Line {
  std::string pn;
  std::string name;
  double price;
  int qty;
};

/// The sample's application (Sample2) together with the code of its `Server` object, which runs
/// in the caller: update, order, currentInventory, shutdown.
class Client : public exocheck::Actor {
 public:
  Client(exocheck::ActorRef server, bool fixed) : server_(server), fixed_(fixed) {
    const std::vector<Line> inv1{{"a", "Apple", 0.25, 25}};
    const std::vector<Line> inv2{{"o", "Orange", 0.4, 45}, {"b", "Banana", 0.15, 4}};
    update(inv1, [this, inv2] {
      update(inv2, [this] { order({{"a", 20}, {"b", 10}, {"o", 35}, {"na", 23}}, 0, "<order>"); });
    });
  }

  std::string final_state() const override { return log_; }

 private:
  using Then = std::function<void()>;

  void update(const std::vector<Line>& lines, Then then) {
    for (const Line& l : lines) send(server_, Update{l.pn, l.name, l.price, l.qty});
    current_inventory([this, then](const std::string& xml) {
      std::cout << xml + "\n" << std::flush;
      then();
    });
  }

  /// The inventory's value (the sum of price * qty) and its items with qty > 0, as XML. The
  /// sample asks the server twice, once for each.
  void current_inventory(std::function<void(const std::string&)> then) {
    call<Inventory>(server_, Items{}, [this, then](const Inventory& first) {
      const double value = worth(first);
      if (fixed_) {
        then(inventory_xml(value, first));
        return;
      }
      call<Inventory>(server_, Items{},
                      [this, then, value](const Inventory& second) { then(inventory_xml(value, second)); });
    });
  }

  std::string inventory_xml(double value, const Inventory& items) {
    Inventory listed;
    for (const Item& i : items) {
      if (i.qty > 0) listed.push_back(i);
    }
    std::ostringstream out;
    out << "<inventory value=\"" << value << "\">";
    for (const Item& i : listed) out << i.to_xml();
    out << "</inventory>";
    const double listed_worth = worth(listed);
    log_ += (log_.empty() ? "inventories " : ", ") + number(value) + "/" + number(listed_worth);
    exocheck::check(
        std::abs(value - listed_worth) < 1e-9,
        "inconsistent inventory: value " + number(value) + " but the listed items are worth " + number(listed_worth));
    return out.str();
  }

  /// As Scala prints a double (close enough for these prices).
  static std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  }

  /// The sample's foldRight: the rightmost item is added first.
  static double worth(const Inventory& items) {
    return std::accumulate(items.rbegin(), items.rend(), 0.0,
                           [](double sum, const Item& i) { return sum + i.price * i.qty; });
  }

  void order(std::vector<std::pair<std::string, int>> lines, std::size_t next, std::string xml) {
    if (next == lines.size()) {
      std::cout << xml + "</order>\n" << std::flush;
      send(server_, Exit{});  // Server.shutdown
      return;
    }
    const auto [pn, qty] = lines[next];
    call<Taken>(server_, Order{pn, qty}, [this, lines, next, xml, pn, qty](const Taken& t) {
      std::ostringstream out;
      if (!t.found) {
        out << "<not_found pn=\"" << pn << "\"/>";
        log_ += "; " + pn + " not found";
      } else {
        out << "<shipped pn=\"" << pn << "\" ordered=\"" << qty << "\" shipped=\"" << t.took << "\" cost=\""
            << t.item.price * t.took << "\"/>";
        log_ += "; " + pn + " shipped " + std::to_string(t.took);
      }
      order(lines, next + 1, xml + out.str());
    });
  }

  exocheck::ActorRef server_;
  bool fixed_;
  std::string log_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"serverreal: the SEJAP thesis's ScalaWiki inventory server sample (Appendix A)"};
  bool fixed = false;
  app.add_flag("--fixed", fixed, "compute each inventory from one answer of the server: no inconsistent inventory");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  auto server = system.spawn<SafeServer>();
  system.spawn<Client>(server, fixed);
  return system.run();
}
