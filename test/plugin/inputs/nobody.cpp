#include <unfad/unfad.h>

double external(double x); // no body anywhere in this translation unit

UNFAD_GRADIENT double g(double x) {
  return 2.0 * external(x);
}
