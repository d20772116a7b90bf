// Runs a function on a thread with a 1 GiB stack. The passes recurse along
// let chains and continuations; long straight-line functions need more than
// the default 8 MiB of stack (and sanitizers make frames larger), so every
// pipeline entry point, and tests of long programs, run on one.
#pragma once

#include <exception>
#include <functional>
#include <pthread.h>

namespace unfad::ir {

template <class R> R onLargeStack(const std::function<R()> &fn) {
  struct Job {
    const std::function<R()> *fn;
    R result;
    std::exception_ptr error;
  } job{&fn, R{}, nullptr};
  auto body = [](void *p) -> void * {
    auto *j = static_cast<Job *>(p);
    try {
      j->result = (*j->fn)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);
  pthread_t t;
  if (pthread_create(&t, &attr, body, &job) != 0) {
    pthread_attr_destroy(&attr);
    return fn(); // fall back to the current stack
  }
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  if (job.error) std::rethrow_exception(job.error);
  return job.result;
}

} // namespace unfad::ir
