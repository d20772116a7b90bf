// L2-regularised logistic regression: mean cross-entropy of the labels
// y[i] in {0, 1} under p_i = sigmoid(w . X[i] + b), plus 0.5 * lambda * |w|^2.
// X is row-major, n rows of d features.
#pragma once

double logistic_loss(const double* w, double b, const double* X, const double* y, int n, int d,
                     double lambda);

// Defined by the unfad clang plugin when model.cpp is compiled with
// -fplugin=unfad-plugin.so: returns the loss and adds its gradient with
// respect to w and b into d_w and *d_b.
double logistic_loss_grad(const double* w, double b, const double* X, const double* y, int n,
                          int d, double lambda, double* d_w, double* d_b);
