// Where expression nodes live: per-thread lists of free blocks, one list a block size, so that
// the nodes an expression makes and frees on every call come back without malloc and free
// (glibc's own per-thread cache keeps only 7 blocks a size; an expression makes dozens).
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace jet::detail {

// Free blocks of `Size` bytes kept by the calling thread, at most `capacity`; a block freed on
// another thread joins that thread's list. The blocks go back to the heap when the thread
// ends, and blocks freed after that go straight to it.
template <std::size_t Size>
class free_blocks {
 public:
  static constexpr int capacity = 512;

  static void* take() {
    list& l = mine;
    if (l.count > 0) return l.blocks[--l.count];
    if (!l.kept && !l.closed) {
      l.kept = true;
      static thread_local closer at_thread_end;  // its destructor empties the list
      (void)at_thread_end;
    }
    return ::operator new(Size);
  }

  static void give(void* block) noexcept {
    list& l = mine;
    if (!l.kept || l.count == capacity) return ::operator delete(block);
    l.blocks[l.count++] = block;
  }

 private:
  // Plain data, so that a use costs no guard of a thread-local with a destructor.
  struct list {
    void* blocks[capacity];
    int count;
    bool kept;    // the list keeps blocks (its closer exists)
    bool closed;  // the thread is ending
  };
  struct closer {
    closer() = default;
    closer(const closer&) = delete;
    closer& operator=(const closer&) = delete;
    ~closer() {
      list& l = mine;
      l.kept = false;
      l.closed = true;
      while (l.count > 0) ::operator delete(l.blocks[--l.count]);
    }
  };
  static inline thread_local list mine{};
};

// The allocator of nodes' shared_ptr blocks (node and control block together).
template <class T>
struct node_allocator {
  using value_type = T;
  static constexpr std::size_t block_bytes = (sizeof(T) + 15) / 16 * 16;
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

  node_allocator() = default;
  template <class U>
  node_allocator(const node_allocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) {
    return static_cast<T*>(n == 1 ? free_blocks<block_bytes>::take()
                                  : ::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) return free_blocks<block_bytes>::give(p);
    ::operator delete(p);
  }
  friend bool operator==(const node_allocator&, const node_allocator&) { return true; }
};

// A new node of type T (default-made, or a copy of `from`).
template <class T, class... From>
std::shared_ptr<T> new_node(const From&... from) {
  return std::allocate_shared<T>(node_allocator<T>{}, from...);
}

}  // namespace jet::detail
