// A crash's backtrace without a debugger (the GPU machine has no gdb, and the lexsort test's
// crash at exit does not happen under cuda-gdb; bench/NOTES.md, session 34). Preloaded, it
// prints the faulting thread's id and frames on SIGSEGV, SIGBUS or SIGABRT, then dies of the
// signal as before:
//   gcc -O1 -g -shared -fPIC bench/probes/segv_trace.c -o segv_trace.so
//   LD_PRELOAD=$PWD/segv_trace.so JET_CACHE=off build/tests/jet_gpu_tests "lexsort and
//   sort_complex"
// Frames in libjet's anonymous namespaces show as offsets: `addr2line -fCe libjet.so.0.1.0`
// over an unstripped copy of the same build names them.
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_signal(int sig, siginfo_t* info, void* context) {
  (void)context;
  char line[160];
  const int n =
      snprintf(line, sizeof line, "\n*** signal %d (%s) at %p, thread %ld of process %d\n", sig,
               strsignal(sig), info->si_addr, (long)syscall(SYS_gettid), getpid());
  if (n > 0) (void)!write(2, line, (size_t)n);
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &action, NULL);
  sigaction(SIGBUS, &action, NULL);
  sigaction(SIGABRT, &action, NULL);
  void* first[2];
  backtrace(first, 2);  // loads libgcc now, not inside the handler
}
