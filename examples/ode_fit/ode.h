// A damped oscillator x'' = -k x - c x', x(0) = x0, x'(0) = v0, integrated
// with the classical RK4 method at a fixed step dt. obs[j] is an observation
// of x at time (j + 1) * every * dt.
#pragma once

// Half the sum of squared residuals of the simulated x against obs.
double ode_loss(double k, double c, double x0, double v0, const double* obs, int nobs, int every,
                double dt);

// Written by `unfad -i ode.cpp` into ode.cpp (committed): returns ode_loss
// and adds its partial derivatives into *d_k, *d_c, *d_x0, *d_v0.
double ode_loss_grad(double k, double c, double x0, double v0, const double* obs, int nobs,
                     int every, double dt, double* d_k, double* d_c, double* d_x0, double* d_v0);
