// Shapes, broadcasting, axes, and views over placeholders (a view never touches memory, so
// none of this needs a GPU). Expected layouts are NumPy's, with strides in elements.
#include <string>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// "shape strides +offset", e.g. "(3,) (-2,) +8". The stride of an axis of extent 0 or 1 never
// moves through memory and NumPy and Jet pick it differently, so it shows as "*".
std::string layout(const jet::array& a) {
  std::string strides = "(";
  for (int d = 0; d < a.ndim(); ++d) {
    if (d) strides += ",";
    strides += a.shape()[d] <= 1 ? "*" : std::to_string(a.strides()[d]);
  }
  if (a.ndim() == 1) strides += ",";
  return jet::to_string(a.shape()) + " " + strides + ") +" + std::to_string(a.offset());
}

}  // namespace

TEST_CASE("shapes print as NumPy prints them", "[host][shape]") {
  CHECK(jet::to_string({3, 4}) == "(3,4)");
  CHECK(jet::to_string({5}) == "(5,)");
  CHECK(jet::to_string({}) == "()");
  CHECK(jet::to_string({0, 1}) == "(0,1)");
}

TEST_CASE("broadcast_shapes follows NumPy's rules", "[host][shape]") {
  CHECK(jet::broadcast_shapes({3, 1}, {1, 4}) == jet::shape{3, 4});
  CHECK(jet::broadcast_shapes({5}, {2, 1}) == jet::shape{2, 5});
  CHECK(jet::broadcast_shapes({}, {3}) == jet::shape{3});
  CHECK(jet::broadcast_shapes({}, {}) == jet::shape{});
  CHECK(jet::broadcast_shapes({0}, {1}) == jet::shape{0});
  CHECK(jet::broadcast_shapes({0, 3}, {3}) == jet::shape{0, 3});
  CHECK(jet::broadcast_shapes({2, 1}, {0}) == jet::shape{2, 0});

  CHECK_THROWS_AS(jet::broadcast_shapes({0}, {2}), jet::shape_error);
  CHECK_THROWS_WITH(jet::broadcast_shapes({0}, {2}),
                    "operands could not be broadcast together with shapes (0,) (2,)");
  CHECK_THROWS_WITH(jet::broadcast_shapes({2, 3}, {4, 1, 2}),
                    "operands could not be broadcast together with shapes (2,3) (4,1,2)");
}

TEST_CASE("contiguous_strides are row-major, in elements", "[host][shape]") {
  CHECK(jet::contiguous_strides({2, 3, 4}) == jet::shape{12, 4, 1});
  CHECK(jet::contiguous_strides({7}) == jet::shape{1});
  CHECK(jet::contiguous_strides({}) == jet::shape{});
}

TEST_CASE("normalize_axis wraps negative axes and names bad ones", "[host][shape]") {
  CHECK(jet::normalize_axis(1, 2) == 1);
  CHECK(jet::normalize_axis(-1, 2) == 1);
  CHECK(jet::normalize_axis(-2, 2) == 0);
  CHECK_THROWS_AS(jet::normalize_axis(3, 2), jet::index_error);
  CHECK_THROWS_WITH(jet::normalize_axis(3, 2), "axis 3 is out of bounds for array of dimension 2");
  CHECK_THROWS_WITH(jet::normalize_axis(-3, 2),
                    "axis -3 is out of bounds for array of dimension 2");
  CHECK_THROWS_WITH(jet::normalize_axis(0, 0), "axis 0 is out of bounds for array of dimension 0");
}

TEST_CASE("slices take Python's meaning, negative steps included", "[host][shape]") {
  const jet::array a = jet::placeholder({10});
  CHECK(layout(a(jet::slice(8, 2, -2))) == "(3,) (-2,) +8");
  CHECK(layout(a(jet::slice(jet::none, jet::none, -1))) == "(10,) (-1,) +9");
  CHECK(layout(a(jet::slice(-1, -11, -3))) == "(4,) (-3,) +9");
  CHECK(layout(a(jet::slice(-3, jet::none))) == "(3,) (1,) +7");
  CHECK(layout(a(jet::slice(jet::none, jet::none, 3))) == "(4,) (3,) +0");
  CHECK(layout(a(jet::slice(-100, 100))) == "(10,) (1,) +0");
  CHECK(layout(a(jet::slice(100, -100, -1))) == "(10,) (-1,) +9");
  CHECK(layout(a(jet::slice(5, 1))) == "(0,) (*,) +0");
  CHECK(layout(a(jet::slice(1, 8, -1))) == "(0,) (*,) +0");

  const jet::array m = jet::placeholder({3, 4});
  CHECK(layout(m(jet::slice(jet::none, jet::none, -1), jet::slice(jet::none, jet::none, 2))) ==
        "(3,2) (-4,2) +8");
  CHECK(layout(a(jet::slice(8, 2, -2))(jet::slice(jet::none, jet::none, -1))) == "(3,) (2,) +4");

  CHECK_THROWS_AS(a(jet::slice(0, 5, 0)), jet::value_error);
  CHECK_THROWS_WITH(a(jet::slice(0, 5, 0)), "slice step cannot be zero");
}

TEST_CASE("integers, newaxis and ellipsis index as in NumPy", "[host][shape]") {
  const jet::array m = jet::placeholder({3, 4});
  CHECK(layout(m(1)) == "(4,) (1,) +4");
  CHECK(layout(m(-1)) == "(4,) (1,) +8");
  CHECK(layout(m(jet::slice(), -1)) == "(3,) (4,) +3");
  CHECK(layout(m(1, 2)) == "() () +6");
  CHECK(layout(m(jet::newaxis)) == "(1,3,4) (*,4,1) +0");
  CHECK(layout(m(jet::ellipsis, jet::newaxis)) == "(3,4,1) (4,1,*) +0");
  CHECK(layout(m(jet::ellipsis, 1)) == "(3,) (4,) +1");
  CHECK(layout(m(1, jet::newaxis, jet::slice(jet::none, jet::none, -1))) == "(1,4) (*,-1) +7");
}

TEST_CASE("bad indices raise NumPy's IndexError messages", "[host][shape]") {
  const jet::array m = jet::placeholder({3, 4});
  CHECK_THROWS_AS(m(1, 2, 3), jet::index_error);
  CHECK_THROWS_WITH(m(1, 2, 3),
                    "too many indices for array: array is 2-dimensional, but 3 were indexed");
  CHECK_THROWS_WITH(m(jet::ellipsis, jet::ellipsis),
                    "an index can only have a single ellipsis ('...')");

  const jet::array v = jet::placeholder({3});
  CHECK_THROWS_AS(v(5), jet::index_error);
  CHECK_THROWS_WITH(v(5), "index 5 is out of bounds for axis 0 with size 3");
  CHECK_THROWS_WITH(v(-4), "index -4 is out of bounds for axis 0 with size 3");
  CHECK_THROWS_WITH(m(jet::slice(), -5), "index -5 is out of bounds for axis 1 with size 4");
}

TEST_CASE("transposes permute strides", "[host][shape]") {
  const jet::array t = jet::placeholder({2, 3, 4});
  CHECK(layout(t.T()) == "(4,3,2) (1,4,12) +0");
  CHECK(layout(t.transpose()) == "(4,3,2) (1,4,12) +0");
  CHECK(layout(t.transpose({1, 0, 2})) == "(3,2,4) (4,12,1) +0");
  CHECK(layout(t.transpose({-1, 0, 1})) == "(4,2,3) (1,12,4) +0");
  CHECK(layout(t.swapaxes(0, -1)) == "(4,3,2) (1,4,12) +0");
  CHECK(layout(t(1).T()) == "(4,3) (1,4) +12");

  CHECK_THROWS_AS(t.transpose({0, 1}), jet::value_error);
  CHECK_THROWS_WITH(t.transpose({0, 1}), "axes don't match array");
  CHECK_THROWS_WITH(t.transpose({0, 0, 1}), "repeated axis in transpose");
  CHECK_THROWS_AS(t.swapaxes(0, 3), jet::index_error);
  CHECK_THROWS_WITH(t.swapaxes(0, 3), "axis 3 is out of bounds for array of dimension 3");
}

TEST_CASE("reshape is a view when the strides allow it", "[host][shape]") {
  const jet::array m = jet::placeholder({3, 4});
  CHECK(layout(m.reshape({2, 6})) == "(2,6) (6,1) +0");
  CHECK(layout(m.reshape({-1})) == "(12,) (1,) +0");
  CHECK(layout(m.reshape({2, -1, 2})) == "(2,3,2) (6,2,1) +0");
  CHECK(layout(m.reshape({1, 12, 1})) == "(1,12,1) (*,1,*) +0");
  CHECK(layout(m.ravel()) == "(12,) (1,) +0");

  // Transposed and strided inputs: only splitting or keeping axes, which stays a view.
  CHECK(layout(m.T().reshape({2, 2, 3})) == "(2,2,3) (2,1,4) +0");
  CHECK(layout(m.T().reshape({1, 4, 3})) == "(1,4,3) (*,1,4) +0");
  CHECK(layout(m.T().reshape({4, 3, 1})) == "(4,3,1) (1,4,*) +0");
  const jet::array t = jet::placeholder({2, 3, 4});
  CHECK(layout(t.transpose({0, 2, 1}).reshape({2, 2, 2, 3})) == "(2,2,2,3) (12,2,1,4) +0");
  CHECK(layout(m(jet::slice(), jet::slice(jet::none, jet::none, 2)).reshape({6})) ==
        "(6,) (2,) +0");
  CHECK(layout(m(jet::slice(jet::none, jet::none, -1)).reshape({3, 2, 2})) ==
        "(3,2,2) (-4,2,1) +8");

  const jet::array v = m.reshape({6, 2});
  CHECK(v.shares_buffer_with(m));

  // These need a copy, so Jet must not hand back a view; a placeholder cannot be copied.
  CHECK_THROWS_AS(m.T().reshape({12}), jet::error);
  CHECK_THROWS_AS(m.T().reshape({2, 6}), jet::error);
  CHECK_THROWS_AS(m(jet::slice(), jet::slice(0, 3)).reshape({9}), jet::error);
}

TEST_CASE("reshape errors name the sizes", "[host][shape]") {
  const jet::array m = jet::placeholder({3, 4});
  CHECK_THROWS_AS(m.reshape({5}), jet::value_error);
  CHECK_THROWS_WITH(m.reshape({5}), "cannot reshape array of size 12 into shape (5,)");
  CHECK_THROWS_WITH(m.reshape({-1, 5}), "cannot reshape array of size 12 into shape (-1,5)");
  CHECK_THROWS_WITH(m.reshape({-1, -1}), "can only specify one unknown dimension");
}

TEST_CASE("squeeze and expand_dims drop and add extent-1 axes", "[host][shape]") {
  const jet::array s = jet::placeholder({1, 3, 1, 4});
  CHECK(layout(s.squeeze()) == "(3,4) (4,1) +0");
  CHECK(layout(s.squeeze(2)) == "(1,3,4) (*,4,1) +0");
  CHECK(layout(s.squeeze(-4)) == "(3,1,4) (4,*,1) +0");
  CHECK_THROWS_AS(s.squeeze(1), jet::value_error);
  CHECK_THROWS_WITH(s.squeeze(1),
                    "cannot select an axis to squeeze out which has size not equal to one");
  CHECK_THROWS_AS(s.squeeze(4), jet::index_error);
  CHECK_THROWS_WITH(s.squeeze(4), "axis 4 is out of bounds for array of dimension 4");

  const jet::array m = jet::placeholder({3, 4});
  CHECK(layout(m.expand_dims(0)) == "(1,3,4) (*,4,1) +0");
  CHECK(layout(m.expand_dims(1)) == "(3,1,4) (4,*,1) +0");
  CHECK(layout(m.expand_dims(-1)) == "(3,4,1) (4,1,*) +0");
  CHECK_THROWS_AS(m.expand_dims(3), jet::index_error);
  CHECK_THROWS_WITH(m.expand_dims(3), "axis 3 is out of bounds for array of dimension 3");
}

TEST_CASE("broadcast_to repeats with stride 0", "[host][shape]") {
  CHECK(layout(jet::placeholder({3, 1}).broadcast_to({2, 3, 4})) == "(2,3,4) (0,1,0) +0");
  CHECK(layout(jet::placeholder({4}).broadcast_to({3, 4})) == "(3,4) (0,1) +0");
  CHECK(layout(jet::placeholder({1}).broadcast_to({0})) == "(0,) (*,) +0");
  CHECK(layout(jet::placeholder({10})(jet::slice(jet::none, jet::none, -2)).broadcast_to({2, 5})) ==
        "(2,5) (0,-2) +9");

  const jet::array v = jet::placeholder({3});
  CHECK_THROWS_AS(v.broadcast_to({4}), jet::shape_error);
  CHECK_THROWS_WITH(v.broadcast_to({4}),
                    "operands could not be broadcast together with remapped shapes "
                    "[original->remapped]: (3,) and requested shape (4,)");
  CHECK_THROWS_WITH(jet::placeholder({3, 4}).broadcast_to({4}),
                    "operands could not be broadcast together with remapped shapes "
                    "[original->remapped]: (3,4) and requested shape (4,)");
}

TEST_CASE("diagonal_view steps by the sum of the strides", "[host][shape]") {
  const jet::array m = jet::placeholder({3, 4});
  CHECK(layout(m.diagonal_view()) == "(3,) (5,) +0");
  CHECK(layout(m.diagonal_view(1)) == "(3,) (5,) +1");
  CHECK(layout(m.diagonal_view(-1)) == "(2,) (5,) +4");
  CHECK(layout(m.diagonal_view(9)) == "(0,) (*,) +0");
}
