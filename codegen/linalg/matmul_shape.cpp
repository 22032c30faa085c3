// numpy.matmul's gufunc signature (n?,k),(k,m?)->(n?,m?), with NumPy's error messages.
#include "codegen/linalg/matmul_shape.hpp"

#include <string>

#include "jet/error.hpp"

namespace jet::codegen {
namespace {

constexpr const char* signature = "(n?,k),(k,m?)->(n?,m?)";

// "(2,3,4)->(2,newaxis,newaxis)": an operand's batch axes, as NumPy's broadcast error shows them.
std::string remapped(const shape& s) {
  std::string out = to_string(s) + "->(";
  for (int d = 0; d + 2 < s.size(); ++d) out += std::to_string(s[d]) + ",";
  return out + "newaxis,newaxis)";
}

}  // namespace

shape matmul_shape(const shape& a, const shape& b) {
  for (int i = 0; i < 2; ++i) {
    const shape& s = i == 0 ? a : b;
    if (s.empty())
      throw value_error("matmul: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature " +
                        signature + " requires 1)");
  }
  const std::int64_t k_a = a.back(), k_b = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (k_a != k_b)
    throw value_error(
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
        std::string(signature) + " (size " + std::to_string(k_b) + " is different from " +
        std::to_string(k_a) + ")");
  shape batch_a, batch_b;
  for (int d = 0; d + 2 < a.size(); ++d) batch_a.push_back(a[d]);
  for (int d = 0; d + 2 < b.size(); ++d) batch_b.push_back(b[d]);
  shape out;
  try {
    out = broadcast_shapes(batch_a, batch_b);
  } catch (const shape_error&) {
    shape core;
    if (a.size() > 1) core.push_back(a[a.size() - 2]);
    if (b.size() > 1) core.push_back(b.back());
    throw value_error(
        "operands could not be broadcast together with remapped shapes [original->remapped]: " +
        remapped(a) + " " + remapped(b) + "  and requested shape " + to_string(core));
  }
  if (a.size() > 1) out.push_back(a[a.size() - 2]);
  if (b.size() > 1) out.push_back(b.back());
  return out;
}

}  // namespace jet::codegen
