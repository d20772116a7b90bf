// The objective: least squares between a simulated damped oscillator and
// observations, differentiated through the fixed-step RK4 integrator.
//
// The gradient below the function was written by the refactoring command and
// is committed. After changing ode_loss, regenerate it from the repository root with
//   build/bin/unfad -i examples/ode_fit/ode.cpp -- -std=c++17 -Iinclude
// (the test suite runs `unfad --check` on this file to keep it up to date).
#include "ode.h"

#include <unfad/unfad.h>

UNFAD_GRADIENT_WRT(k, c, x0, v0)
double ode_loss(double k, double c, double x0, double v0, const double* obs, int nobs, int every,
                double dt) {
  double x = x0;
  double v = v0;
  double loss = 0.0;
  for (int j = 0; j < nobs; ++j) {
    for (int s = 0; s < every; ++s) {
      // one RK4 step of (x, v)' = (v, -k x - c v)
      const double k1x = v;
      const double k1v = -k * x - c * v;
      const double k2x = v + 0.5 * dt * k1v;
      const double k2v = -k * (x + 0.5 * dt * k1x) - c * k2x;
      const double k3x = v + 0.5 * dt * k2v;
      const double k3v = -k * (x + 0.5 * dt * k2x) - c * k3x;
      const double k4x = v + dt * k3v;
      const double k4v = -k * (x + dt * k3x) - c * k4x;
      x += dt / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
      v += dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    }
    const double r = x - obs[j];
    loss += 0.5 * r * r;
  }
  return loss;
}
// unfad:begin ode_loss_grad checksum=b0d68a7f
double ode_loss_grad(double k, double c, double x0, double v0, const double* obs, int nobs, int every, double dt, double* d_k, double* d_c, double* d_x0, double* d_v0) {
  long n;
  if (0 < nobs) {
    n = nobs;
  } else {
    n = 0;
  }
  unfad::tape_buffer<double> tape_state(n);
  unfad::tape_buffer<double> tape_state_1(n);
  const double t = -k;
  const double t_3 = 0.5 * dt;
  const double t_19 = dt / 6.0;
  double state_1_0 = x0;
  double state_1_1_1 = v0;
  double state_1_2_1 = 0.0;
  for (long j = 0; j < nobs; ++j) {
    tape_state[j] = state_1_0;
    tape_state_1[j] = state_1_1_1;
    double state_1_2_0 = state_1_0;
    double state_1_2_1_1 = state_1_1_1;
    for (long s = 0; s < every; ++s) {
      const double k1v = t * state_1_2_0 - c * state_1_2_1_1;
      const double k2x = state_1_2_1_1 + t_3 * k1v;
      const double k2v = t * (state_1_2_0 + t_3 * state_1_2_1_1) - c * k2x;
      const double k3x = state_1_2_1_1 + t_3 * k2v;
      const double k3v = t * (state_1_2_0 + t_3 * k2x) - c * k3x;
      const double k4x = state_1_2_1_1 + dt * k3v;
      const double k4v = t * (state_1_2_0 + dt * k3x) - c * k4x;
      const double t_23 = state_1_2_1_1 + 2.0 * k2x + 2.0 * k3x;
      state_1_2_0 = state_1_2_0 + t_19 * (t_23 + k4x);
      const double t_30 = k1v + 2.0 * k2v + 2.0 * k3v + k4v;
      state_1_2_1_1 = state_1_2_1_1 + t_19 * t_30;
    }
    const double r = state_1_2_0 - obs[j];
    state_1_2_1 = state_1_2_1 + 0.5 * r * r;
    state_1_0 = state_1_2_0;
    state_1_1_1 = state_1_2_1_1;
  }
  long n_1;
  if (0 < every) {
    n_1 = every;
  } else {
    n_1 = 0;
  }
  unfad::tape_buffer<double> tape_state_1_1(n_1);
  unfad::tape_buffer<double> tape_state_1_2(n_1);
  const double t_35 = -k;
  const double t_38 = 0.5 * dt;
  const double t_54 = dt / 6.0;
  const double t_69 = -k;
  const double t_72 = 0.5 * dt;
  const double t_88 = dt / 6.0;
  double d_state_loop_1_0_0 = 0.0;
  double d_state_loop_1_0_1 = 0.0;
  double d_state_loop_1_0_2 = 1.0;
  double d_state_loop_1_1 = 0.0;
  double d_state_loop_1_2 = 0.0;
  for (long j_1 = nobs - 1; j_1 >= 0; --j_1) {
    const double state_3 = tape_state[j_1];
    const double state_4 = tape_state_1[j_1];
    double state_1_5_0 = state_3;
    double state_1_5_1 = state_4;
    for (long s_1 = 0; s_1 < every; ++s_1) {
      tape_state_1_1[s_1] = state_1_5_0;
      tape_state_1_2[s_1] = state_1_5_1;
      const double k1v_1 = t_35 * state_1_5_0 - c * state_1_5_1;
      const double k2x_1 = state_1_5_1 + t_38 * k1v_1;
      const double k2v_1 = t_35 * (state_1_5_0 + t_38 * state_1_5_1) - c * k2x_1;
      const double k3x_1 = state_1_5_1 + t_38 * k2v_1;
      const double k3v_1 = t_35 * (state_1_5_0 + t_38 * k2x_1) - c * k3x_1;
      const double k4x_1 = state_1_5_1 + dt * k3v_1;
      const double k4v_1 = t_35 * (state_1_5_0 + dt * k3x_1) - c * k4x_1;
      const double t_58 = state_1_5_1 + 2.0 * k2x_1 + 2.0 * k3x_1;
      state_1_5_0 = state_1_5_0 + t_54 * (t_58 + k4x_1);
      const double t_65 = k1v_1 + 2.0 * k2v_1 + 2.0 * k3v_1 + k4v_1;
      state_1_5_1 = state_1_5_1 + t_54 * t_65;
    }
    const double r_1 = state_1_5_0 - obs[j_1];
    const double d_r_1_1 = 0.5 * r_1 * d_state_loop_1_0_2 + 0.5 * (r_1 * d_state_loop_1_0_2);
    const double d_x = d_state_loop_1_0_0 + d_r_1_1;
    double d_state_1_loop_1_0_0 = d_x;
    double d_state_1_loop_1_0_1 = d_state_loop_1_0_1;
    double d_state_1_loop_1_1 = 0.0;
    double d_state_1_loop_1_2 = 0.0;
    for (long s_2 = every - 1; s_2 >= 0; --s_2) {
      const double state_1_1 = tape_state_1_1[s_2];
      const double state_1_3 = tape_state_1_2[s_2];
      const double k1v_2 = t_69 * state_1_1 - c * state_1_3;
      const double k2x_2 = state_1_3 + t_72 * k1v_2;
      const double t_75 = state_1_1 + t_72 * state_1_3;
      const double k2v_2 = t_69 * t_75 - c * k2x_2;
      const double k3x_2 = state_1_3 + t_72 * k2v_2;
      const double t_80 = state_1_1 + t_72 * k2x_2;
      const double k3v_2 = t_69 * t_80 - c * k3x_2;
      const double k4x_2 = state_1_3 + dt * k3v_2;
      const double d_t_2 = t_88 * d_state_1_loop_1_0_1;
      const double d_k3v = 2.0 * d_t_2;
      const double d_t_4 = t_88 * d_state_1_loop_1_0_0;
      const double d_k3x = 2.0 * d_t_4;
      const double d_t_5 = -d_t_2;
      const double d_k4x_1 = d_t_4 + c * d_t_5;
      const double d_t_7 = t_69 * d_t_2;
      const double d_k3v_2 = d_k3v + dt * d_k4x_1;
      const double d_t_8 = -d_k3v_2;
      const double d_k3x_2_2 = d_k3x + dt * d_t_7 + c * d_t_8;
      const double d_t_10 = t_69 * d_k3v_2;
      const double d_k_3 = -((state_1_1 + dt * k3x_2) * d_t_2) + (-(t_80 * d_k3v_2));
      const double d_k2v_1 = d_k3v + t_72 * d_k3x_2_2;
      const double d_t_13 = -d_k2v_1;
      const double d_k2x_2_1 = d_k3x + t_72 * d_t_10 + c * d_t_13;
      const double d_c_5 = k4x_2 * d_t_5 + k3x_2 * d_t_8 + k2x_2 * d_t_13;
      const double d_t_15 = t_69 * d_k2v_1;
      const double d_k1v_1 = d_t_2 + t_72 * d_k2x_2_1;
      const double d_t_18 = -d_k1v_1;
      const double d_v_2_2_4 = d_state_1_loop_1_0_1 + d_k4x_1 + d_k3x_2_2 + d_k2x_2_1 + c * d_t_18;
      d_state_1_loop_1_0_0 = d_state_1_loop_1_0_0 + d_t_7 + d_t_10 + d_t_15 + t_69 * d_k1v_1;
      const double d_k_7 = d_k_3 + (-(t_75 * d_k2v_1)) + (-(state_1_1 * d_k1v_1));
      d_state_1_loop_1_0_1 = d_v_2_2_4 + (d_t_4 + t_72 * d_t_15);
      d_state_1_loop_1_1 = d_state_1_loop_1_1 + d_k_7;
      d_state_1_loop_1_2 = d_state_1_loop_1_2 + (d_c_5 + state_1_3 * d_t_18);
    }
    d_state_loop_1_0_0 = d_state_1_loop_1_0_0;
    d_state_loop_1_0_1 = d_state_1_loop_1_0_1;
    d_state_loop_1_1 = d_state_loop_1_1 + d_state_1_loop_1_1;
    d_state_loop_1_2 = d_state_loop_1_2 + d_state_1_loop_1_2;
  }
  *d_k += d_state_loop_1_1;
  *d_c += d_state_loop_1_2;
  *d_x0 += d_state_loop_1_0_0;
  *d_v0 += d_state_loop_1_0_1;
  return state_1_2_1;
}
// unfad:end ode_loss_grad
