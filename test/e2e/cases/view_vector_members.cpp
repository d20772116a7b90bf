// Classes holding std::vectors of views, built in their constructors'
// bodies the way GradBench's lstm builds its parameter, state and input
// wrappers: `reserve` then `emplace_back` in a loop (a vector of structs of
// views), `push_back(&seq[k * n])` (a vector of pointers), objects passed
// to helpers by const and non-const reference, their elements passed on,
// and a state updated in place through the pointers the vectors hold.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

template <typename T>
struct Weights {
  const T* scale;
  const T* shift;
  Weights(const T* p, int n) : scale(p), shift(p + n) {}
};

template <typename T>
struct Layers {
  std::vector<Weights<T>> layer;
  Layers(const T* params, int n, int depth) {
    layer.reserve(depth);
    for (int d = 0; d < depth; ++d) layer.emplace_back(&params[2 * n * d], n);
  }
};

template <typename T>
struct Slot {
  T* value;
  Slot(T* buffer, int) : value(buffer) {}
};

template <typename T>
struct States {
  std::vector<Slot<T>> slot;
  States(T* buffer, int n, int depth) {
    for (int d = 0; d < depth; ++d) slot.emplace_back(&buffer[n * d], n);
  }
};

template <typename T>
struct Sequence {
  std::vector<const T*> at;
  Sequence(const T* data, int n, int count) {
    at.reserve(count);
    for (int k = 0; k < count; ++k) at.push_back(&data[n * k]);
  }
};

template <typename T>
void layer_step(int n, const Weights<T>& w, Slot<T>& s, const T* in) {
  for (int i = 0; i < n; ++i) s.value[i] = std::tanh(w.scale[i] * in[i] + w.shift[i] * s.value[i]);
}

template <typename T>
T run_steps(int n, int depth, int count, const Layers<T>& layers, States<T>& states, const Sequence<T>& seq) {
  T total = 0;
  for (int k = 0; k < count; ++k) {
    layer_step(n, layers.layer[0], states.slot[0], seq.at[k]);
    for (int d = 1; d < depth; ++d) layer_step(n, layers.layer[d], states.slot[d], states.slot[d - 1].value);
    const T* top = states.slot[depth - 1].value;
    for (int i = 0; i < n; ++i) total += top[i] * seq.at[k][i];
  }
  return total;
}

// n <= 3 units, depth <= 2 layers, count steps of seq (count x n)
UNFAD_GRADIENT double stacked(const double* params, const double* seq, int n, int depth, int count) {
  Layers<double> layers(params, n, depth);
  std::vector<double> buffer(n * depth, 0.5);
  States<double> states(buffer.data(), n, depth);
  Sequence<double> sequence(seq, n, count);
  return run_steps(n, depth, count, layers, states, sequence) + buffer[0] * layers.layer.size();
}

/* e2e
[{"function": "stacked",
  "points": [[[0.3, -0.5, 0.8, 0.1, -0.2, 0.7, 0.4, -0.9, 0.6, 0.2, -0.3, 0.5], [0.5, -1.0, 0.25, 0.75, -0.5, 1.5, 0.2, 0.4, -0.6], 3, 2, 3],
             [[1.1, -0.4, 0.2, 0.9], [0.9, -0.7, 0.3, 0.2], 2, 1, 2]]}]
*/
