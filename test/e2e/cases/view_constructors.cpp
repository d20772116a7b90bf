// Structs of pointer views built by constructors, the way GradBench's lstm
// and most C++ code write them: member-initialiser lists taking `&p[k]` and
// `p + k`, a struct of const view structs built by their own constructors,
// a default member initialiser, a view into a local state buffer written
// in place through a `State&` helper parameter, and a method reading
// through the views.
#include <unfad/unfad.h>

#include <cmath>

template <typename T>
struct Gate {
  const T* w;
  const T* u;
  Gate(const T* params, int h) : w(params), u(&params[h]) {}
};

template <typename T>
struct Cell {
  const Gate<T> input;
  const Gate<T> forget;
  int h;
  Cell(const T* params, int size) : input(params, size), forget(params + 2 * size, size), h(size) {}
};

template <typename T>
struct State {
  T* hidden;
  T* memory;
  double leak = 0.25; // a default member initialiser
  State(T* buffer, int h) : hidden(buffer), memory(buffer + h) {}
  T energy(int h) const {
    T e = 0;
    for (int i = 0; i < h; ++i) e += hidden[i] * memory[i] + leak * memory[i] * memory[i];
    return e;
  }
};

template <typename T>
void step(const Cell<T>& c, State<T>& s, const T* x) {
  for (int i = 0; i < c.h; ++i) {
    const T in = std::tanh(c.input.w[i] * x[i] + c.input.u[i] * s.hidden[i]);
    const T keep = 1 / (1 + std::exp(-(c.forget.w[i] * x[i] + c.forget.u[i])));
    s.memory[i] = keep * s.memory[i] + (1 - keep) * in;
    s.hidden[i] = std::tanh(s.memory[i]);
  }
}

// h <= 3 units, n <= 4 steps of the input sequence xs (n x h)
UNFAD_GRADIENT double run(const double* params, const double* xs, int h, int n) {
  Cell<double> cell(params, h);
  double buffer[6];
  for (int i = 0; i < 2 * h; ++i) buffer[i] = 0.1 * (i + 1);
  State<double> state(buffer, h);
  for (int t = 0; t < n; ++t) step(cell, state, &xs[t * h]);
  return state.energy(h);
}

/* e2e
[{"function": "run",
  "points": [[[0.3, -0.5, 0.8, 0.1, -0.2, 0.7, 0.4, -0.9, 0.6, 0.2, -0.3, 0.5], [0.5, -1.0, 0.25, 0.75, -0.5, 1.5, 0.2, 0.4, -0.6, 1.0, 0.0, -0.3], 3, 4],
             [[1.1, -0.4, 0.2, 0.9, 0.3, -0.6, 0.5, 0.8], [0.9, -0.7, 0.3, 0.2], 2, 2]]}]
*/
