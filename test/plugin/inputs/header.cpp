#include "inc/model.h"
#include "fdcheck.h"

int main() {
  const double a = 0.7, b = -1.2, h = 1e-5;
  double da = 0, db = 0;
  model_grad(a, b, &da, &db);
  int bad = fd_check("dmodel/da", da, (model(a + h, b) - model(a - h, b)) / (2 * h)) +
            fd_check("dmodel/db", db, (model(a, b + h) - model(a, b - h)) / (2 * h));
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
