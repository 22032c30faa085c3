// A plan's key, source and NVRTC options, by what its kernel computes.
#include <string>

#include "codegen/plan/kernel_plan.hpp"
#include "codegen/render/render.hpp"

namespace jet::codegen {
namespace {

template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

// A user kernel's key: the kernel object, then the dtype and access of each parameter.
void append_user_key(const char* kind, const std::string& id, const user_binding& b,
                     const std::vector<user_access>& access, std::string& key) {
  key += kind;
  key += id;
  key += '/';
  for (std::size_t k = 0; k < access.size(); ++k) {
    key += static_cast<char>('a' + static_cast<int>(b.types[k]));
    key += static_cast<char>('0' + static_cast<int>(access[k]));
  }
  key += '/';
}

}  // namespace

const compile_extras& fixed_kernel_extras() {
  static const compile_extras extras{{"-minimal"}, {}};
  return extras;
}

const compile_extras& jet_kernel_extras() {
  static const compile_extras extras = [] {
    compile_extras e = fixed_kernel_extras();
    e.options.push_back("--fmad=false");
    return e;
  }();
  return extras;
}

void append_key(const kernel_plan& plan, std::string& key) {
  std::visit(overloaded{
                 [&](const ir::graph* g) { append_signature(*g, key); },
                 [&](const user_elementwise_spec* u) {
                   append_user_key("jet.user.elementwise/", u->id, u->binding, u->access, key);
                   key += std::to_string(u->ndim) + (u->index64 ? "L" : "I");
                 },
                 [&](const user_reduction_spec* u) {
                   append_user_key("jet.user.reduction/", u->id, u->binding, u->access, key);
                   key += std::string(name(u->reduce_type)) + "/" + std::to_string(u->kept) + "/" +
                          std::to_string(u->reduced) + "/" + std::to_string(u->group);
                 },
                 [&](const fixed_kernel* f) { key += f->key; },
             },
             plan.body);
}

kernel_source render(const kernel_plan& plan) {
  return std::visit(
      overloaded{
          [&](const ir::graph* g) {
            if (!g->reduce.active) return render_elementwise(*g, plan.params);
            return g->reduce.scan ? render_scan(*g, plan.params)
                                  : render_reduction(*g, plan.params);
          },
          [&](const user_elementwise_spec* u) { return render_user_elementwise(*u, plan.params); },
          [&](const user_reduction_spec* u) { return render_user_reduction(*u, plan.params); },
          [&](const fixed_kernel* f) { return f->render(f->name); },
      },
      plan.body);
}

}  // namespace jet::codegen
