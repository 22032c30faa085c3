// The structural signature of a graph: the in-memory cache key.
#include <cstring>
#include <string>

#include "codegen/ir/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {

void append_signature(const ir::graph& g, std::string& key) {
  // The key is a list of 64-bit words, written into room made at once: an append per word
  // costs a long expression's host time.
  const std::size_t words = 2 + 2 * g.code.size() + 1 + g.inputs.size() + 1 + g.params.size() + 2 +
                            2 * g.more_outputs.size() + (g.reduce.active ? 1 : 0) +
                            g.reduce.more.size() + (g.shared_bins ? 1 : 0);
  const std::size_t start = key.size();
  key.resize(start + 8 * words);
  char* next = key.data() + start;
  char* const end = key.data() + key.size();
  auto put = [&](std::int64_t v) {
    if (next == end)
      throw internal_error("signature longer than its " + std::to_string(words) + " words");
    std::memcpy(next, &v, sizeof v);
    next += sizeof v;
  };
  // Version of the rendering rules: bump when codegen/render changes what it emits.
  constexpr std::int64_t render_version = 5;
  put(render_version);
  put(static_cast<std::int64_t>(g.code.size()));
  for (const ir::instr& in : g.code) {
    put(static_cast<std::int64_t>(in.op) | std::int64_t{static_cast<std::uint8_t>(in.type)} << 8 |
        std::int64_t{static_cast<std::uint16_t>(in.slot)} << 16);
    put(std::int64_t{static_cast<std::uint16_t>(in.args[0])} |
        std::int64_t{static_cast<std::uint16_t>(in.args[1])} << 16 |
        std::int64_t{static_cast<std::uint16_t>(in.args[2])} << 32);
  }
  auto put_operand = [&](const ir::operand& op) {
    put(static_cast<std::int64_t>(op.type) | static_cast<std::int64_t>(op.mode) << 8 |
        std::int64_t{op.gathered} << 16 | std::int64_t{op.drawn} << 17 |
        static_cast<std::int64_t>(op.dist) << 18);
  };
  put(static_cast<std::int64_t>(g.inputs.size()));
  for (const ir::operand& op : g.inputs) put_operand(op);
  put(static_cast<std::int64_t>(g.params.size()));
  for (const ir::param& p : g.params) put(static_cast<std::int64_t>(p.type));
  put_operand(g.output);
  put(g.extents.size() | (g.index64 ? 1 << 8 : 0) | (g.tiled ? 1 << 9 : 0) |
      static_cast<std::int64_t>(g.more_outputs.size()) << 10 | g.vector_width << 16 |
      std::int64_t{static_cast<std::uint16_t>(g.store_offset)} << 32 |
      static_cast<std::int64_t>(g.combine) << 48);
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k) {
    put_operand(g.more_outputs[k]);
    put(g.more_results[k]);
  }
  if (g.shared_bins) put(g.shared_bins);
  if (g.reduce.active) {
    const ir::reduction& r = g.reduce;
    put(static_cast<std::int64_t>(r.op) | static_cast<std::int64_t>(r.post) << 8 |
        static_cast<std::int64_t>(r.result) << 16 | std::int64_t{r.kept} << 24 |
        std::int64_t{r.geometry.columns} << 32 | std::int64_t{r.geometry.group} << 40 |
        std::int64_t{r.scan} << 52 | std::int64_t{r.scan ? r.geometry.step_loads : 0} << 56);
    for (const ir::reduce_part& m : r.more)
      put(static_cast<std::int64_t>(m.op) | static_cast<std::int64_t>(m.post) << 8 |
          static_cast<std::int64_t>(m.result) << 16);
  }
}

}  // namespace jet::codegen
