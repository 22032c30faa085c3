// The structural signature of a graph: the in-memory cache key.
#include "codegen/passes.hpp"

namespace jet::codegen {
namespace {

void put(std::string& key, std::int64_t v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

void append_signature(const ir::graph& g, std::string& key) {
  // Version of the rendering rules: bump when render.cpp changes what it emits.
  constexpr std::int64_t render_version = 1;
  put(key, render_version);
  put(key, static_cast<std::int64_t>(g.code.size()));
  for (const ir::instr& in : g.code) {
    put(key, static_cast<std::int64_t>(in.op) | std::int64_t{static_cast<std::uint8_t>(in.type)} << 8 |
                 std::int64_t{static_cast<std::uint16_t>(in.slot)} << 16);
    put(key, std::int64_t{static_cast<std::uint16_t>(in.args[0])} |
                 std::int64_t{static_cast<std::uint16_t>(in.args[1])} << 16 |
                 std::int64_t{static_cast<std::uint16_t>(in.args[2])} << 32);
  }
  auto put_operand = [&](const ir::operand& op) {
    put(key, static_cast<std::int64_t>(op.type) | static_cast<std::int64_t>(op.mode) << 8);
  };
  put(key, static_cast<std::int64_t>(g.inputs.size()));
  for (const ir::operand& op : g.inputs) put_operand(op);
  put(key, static_cast<std::int64_t>(g.params.size()));
  for (const ir::param& p : g.params) put(key, static_cast<std::int64_t>(p.type));
  put_operand(g.output);
  put(key, g.extents.size() | (g.index64 ? 1 << 8 : 0) | (g.tiled ? 1 << 9 : 0) | g.vector_width << 16);
  if (g.reduce.active) {
    const ir::reduction& r = g.reduce;
    put(key, static_cast<std::int64_t>(r.op) | static_cast<std::int64_t>(r.post) << 8 |
                 static_cast<std::int64_t>(r.result) << 16 | std::int64_t{r.kept} << 24 |
                 std::int64_t{r.columns} << 32 | std::int64_t{r.group} << 40);
  }
}

}  // namespace jet::codegen
