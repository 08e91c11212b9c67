#include "exocheck/metrics/metrics_endpoint.hpp"

#include <utility>  // before Boost.Asio 1.74, whose awaitable.hpp uses std::exchange without it

#include <spdlog/spdlog.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <stdexcept>
#include <thread>

namespace exocheck::metrics {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

// A scraper that stalls must not hold the endpoint: each connection gets this long.
constexpr std::chrono::seconds kConnectionTimeout{10};

tcp::endpoint endpoint_of(asio::io_context& io, const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("metrics address " + address + " is not host:port");
  std::string host = address.substr(0, colon);
  if (host.starts_with("[") && host.ends_with("]")) host = host.substr(1, host.size() - 2);
  tcp::resolver resolver(io);
  boost::system::error_code error;
  const auto results = resolver.resolve(host, address.substr(colon + 1), tcp::resolver::passive, error);
  if (error || results.empty()) {
    throw std::runtime_error("metrics address " + address + ": " + (error ? error.message() : "no such host"));
  }
  return results.begin()->endpoint();
}

}  // namespace

struct MetricsEndpoint::Impl {
  Impl(const std::string& address, std::function<std::string()> render_metrics)
      : render(std::move(render_metrics)), acceptor(io) {
    const auto endpoint = endpoint_of(io, address);
    boost::system::error_code error;
    acceptor.open(endpoint.protocol(), error);
    if (!error) acceptor.set_option(tcp::acceptor::reuse_address(true), error);
    if (!error) acceptor.bind(endpoint, error);
    if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
    if (error) throw std::runtime_error("cannot serve metrics on " + address + ": " + error.message());
    accept();
    thread = std::thread([this] { io.run(); });
  }

  ~Impl() {
    asio::post(io, [this] {
      boost::system::error_code ignored;
      acceptor.close(ignored);
    });
    io.stop();
    thread.join();
  }

  void accept() {
    acceptor.async_accept([this](boost::system::error_code error, tcp::socket socket) {
      if (error) return;  // closed
      serve(std::move(socket));
      accept();
    });
  }

  // One request, answered, then the connection closes: scrapes are seconds apart.
  void serve(tcp::socket socket) {
    auto stream = std::make_shared<boost::beast::tcp_stream>(std::move(socket));
    auto buffer = std::make_shared<boost::beast::flat_buffer>();
    auto request = std::make_shared<http::request<http::string_body>>();
    stream->expires_after(kConnectionTimeout);
    http::async_read(
        *stream, *buffer, *request, [this, stream, buffer, request](boost::system::error_code error, std::size_t) {
          if (error) return;
          auto response = std::make_shared<http::response<http::string_body>>();
          response->version(request->version());
          response->keep_alive(false);
          const auto target = std::string(request->target());
          if (request->method() == http::verb::get && (target == "/metrics" || target.starts_with("/metrics?"))) {
            response->result(http::status::ok);
            response->set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
            response->body() = rendered();
          } else {
            response->result(http::status::not_found);
            response->set(http::field::content_type, "text/plain");
            response->body() = "exocheck serves its metrics at /metrics\n";
          }
          response->prepare_payload();
          http::async_write(*stream, *response, [stream, response](boost::system::error_code, std::size_t) {
            boost::system::error_code ignored;
            stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
          });
        });
  }

  std::string rendered() const {
    try {
      return render();
    } catch (const std::exception& error) {
      spdlog::error("metrics: {}", error.what());
      return "";
    }
  }

  std::function<std::string()> render;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::thread thread;
};

MetricsEndpoint::MetricsEndpoint(const std::string& address, std::function<std::string()> render)
    : impl_(std::make_unique<Impl>(address, std::move(render))) {}

MetricsEndpoint::~MetricsEndpoint() = default;

int MetricsEndpoint::port() const {
  return impl_->acceptor.local_endpoint().port();
}

}  // namespace exocheck::metrics
