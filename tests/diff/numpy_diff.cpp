// Jet's half of the differential test against NumPy (tests/diff/numpy_diff.py writes the
// cases and compares). Reads cases.json and inputs.bin, evaluates each case's expression with
// Jet, and writes every result (dtype, shape and raw elements) or the error it raised:
//   jet_numpy_diff cases.json inputs.bin results.json outputs.bin
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/ufunc_by_name.hpp"

namespace {

using json = nlohmann::json;
using jet_test::operands;

using reduction = std::function<jet::expr(const jet::expr&, jet::axes, bool, int)>;

const std::map<std::string, reduction>& reductions() {
  static const std::map<std::string, reduction> table = {
      {"sum", [](auto& e, jet::axes a, bool k, int) { return jet::sum(e, a, k); }},
      {"prod", [](auto& e, jet::axes a, bool k, int) { return jet::prod(e, a, k); }},
      {"mean", [](auto& e, jet::axes a, bool k, int) { return jet::mean(e, a, k); }},
      {"var", [](auto& e, jet::axes a, bool k, int d) { return jet::var(e, a, d, k); }},
      {"std", [](auto& e, jet::axes a, bool k, int d) { return jet::std(e, a, d, k); }},
      {"min", [](auto& e, jet::axes a, bool k, int) { return jet::min(e, a, k); }},
      {"max", [](auto& e, jet::axes a, bool k, int) { return jet::max(e, a, k); }},
      {"ptp", [](auto& e, jet::axes a, bool k, int) { return jet::ptp(e, a, k); }},
      {"argmin", [](auto& e, jet::axes a, bool k, int) { return jet::argmin(e, a, k); }},
      {"argmax", [](auto& e, jet::axes a, bool k, int) { return jet::argmax(e, a, k); }},
      {"all", [](auto& e, jet::axes a, bool k, int) { return jet::all(e, a, k); }},
      {"any", [](auto& e, jet::axes a, bool k, int) { return jet::any(e, a, k); }},
      {"count_nonzero",
       [](auto& e, jet::axes a, bool k, int) { return jet::count_nonzero(e, a, k); }},
      {"nansum", [](auto& e, jet::axes a, bool k, int) { return jet::nansum(e, a, k); }},
      {"nanmean", [](auto& e, jet::axes a, bool k, int) { return jet::nanmean(e, a, k); }},
      {"nanmin", [](auto& e, jet::axes a, bool k, int) { return jet::nanmin(e, a, k); }},
      {"nanmax", [](auto& e, jet::axes a, bool k, int) { return jet::nanmax(e, a, k); }},
  };
  return table;
}

// A Python scalar as the C++ scalar of the same kind (weak, as NEP 50 has it).
jet::expr scalar(const json& s) {
  const std::string kind = s.at("kind");
  if (kind == "bool") return jet::expr(s.at("value").get<bool>());
  if (kind == "int") {
    if (s.at("value").is_number_unsigned() && s.at("value").get<std::uint64_t>() > INT64_MAX)
      return jet::expr(s.at("value").get<std::uint64_t>());
    return jet::expr(s.at("value").get<std::int64_t>());
  }
  if (kind == "float") return jet::expr(s.at("value").get<double>());
  return jet::expr(std::complex<double>(s.at("re").get<double>(), s.at("im").get<double>()));
}

jet::axes axes_of(const json& a) {
  if (a.is_null()) return {};
  if (a.is_number_integer()) return jet::axes(a.get<int>());
  const std::vector<int> list = a.get<std::vector<int>>();
  switch (list.size()) {
    case 1: return {list[0]};
    case 2: return {list[0], list[1]};
    default: return {list[0], list[1], list[2]};
  }
}

jet::expr build(const json& n, const std::vector<jet::array>& inputs) {
  if (n.contains("in")) return inputs.at(n.at("in").get<std::size_t>());
  if (n.contains("scalar")) return scalar(n.at("scalar"));
  operands args;
  for (const json& a : n.at("args")) args.push_back(build(a, inputs));
  const std::string op = n.at("op");
  if (op == "astype") return args[0].astype(jet::dtype_from_name(n.at("dtype").get<std::string>()));
  if (op == "reduce")
    return reductions().at(n.at("name"))(args[0], axes_of(n.at("axis")), n.at("keepdims"),
                                         n.value("ddof", 0));
  return jet_test::ufuncs().at(op)(args);
}

// An input: its base array from the bytes at `offset`, then the case's slices and transpose.
jet::array input(const json& spec, const std::vector<char>& bytes) {
  const jet::dtype t = jet::dtype_from_name(spec.at("dtype").get<std::string>());
  jet::shape base;
  for (std::int64_t d : spec.at("base")) base.push_back(d);
  const char* data = bytes.data() + spec.at("offset").get<std::size_t>();
  jet::array a = jet::from_host(data, t, base);
  std::vector<jet::index_item> items;
  for (const json& s : spec.at("slices"))
    items.push_back(jet::slice(s[0].is_null() ? jet::slice_bound(jet::none) : s[0].get<int>(),
                               s[1].is_null() ? jet::slice_bound(jet::none) : s[1].get<int>(),
                               s[2].get<int>()));
  if (!items.empty()) a = a.index(items);
  if (spec.at("transpose")) a = a.T();
  return a;
}

std::string error_class(const jet::error& e) {
  if (dynamic_cast<const jet::dtype_error*>(&e)) return "TypeError";
  if (dynamic_cast<const jet::value_error*>(&e)) return "ValueError";
  if (dynamic_cast<const jet::shape_error*>(&e)) return "ValueError";
  if (dynamic_cast<const jet::index_error*>(&e)) return "IndexError";
  return "jet::error";
}

json run_case(const json& c, const std::vector<char>& bytes, std::ofstream& out) {
  try {
    std::vector<jet::array> inputs;
    for (const json& spec : c.at("inputs")) inputs.push_back(input(spec, bytes));
    const jet::array result = build(c.at("expr"), inputs);
    std::vector<char> host(static_cast<std::size_t>(result.nbytes()));
    result.to_host(host.data(), result.dtype());
    json r = {{"ok", true},
              {"dtype", std::string(jet::name(result.dtype()))},
              {"shape", std::vector<std::int64_t>(result.shape().begin(), result.shape().end())},
              {"offset", static_cast<std::int64_t>(out.tellp())}};
    out.write(host.data(), static_cast<std::streamsize>(host.size()));
    return r;
  } catch (const jet::error& e) {
    return {{"ok", false}, {"error", error_class(e)}, {"message", e.what()}};
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s cases.json inputs.bin results.json outputs.bin\n", argv[0]);
    return 2;
  }
  const json cases = json::parse(std::ifstream(argv[1]));
  std::ifstream in(argv[2], std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::ofstream out(argv[4], std::ios::binary);
  json results = json::array();
  for (const json& c : cases) results.push_back(run_case(c, bytes, out));
  std::ofstream(argv[3]) << results.dump();
  return 0;
}
