// Structs of doubles passed and returned by value: aggregate initialisation,
// member access, a struct-returning helper, a struct local reassigned.
#include <unfad/unfad.h>

#include <cmath>

struct Vec2 {
  double x;
  double y;
};

struct Particle {
  Vec2 pos;
  double mass;
};

static Vec2 make(double a, double b) { return Vec2{a, b}; }
static Vec2 sub(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
static double len(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }
static Vec2 polar(double r, double t) { return make(r * std::cos(t), r * std::sin(t)); }

static double gravity(Particle a, Particle b) { return -a.mass * b.mass / len(sub(a.pos, b.pos)); }

UNFAD_GRADIENT double structs(double x, double y, double m, double t) {
  Vec2 p = make(x, y);
  Vec2 q = polar(2.0, t);
  q.x = q.x + 1.0;
  p = sub(p, Vec2{0.5, -0.5});
  const Particle a{p, m};
  const Particle b = {q, 3.0};
  return gravity(a, b) + len(p) * m;
}

/* e2e
{"function": "structs",
 "points": [[0.5, 1.25, 2.0, 0.3], [-1.5, 0.75, 0.5, -1.0], [2.0, -2.5, 1.5, 2.0]]}
*/
