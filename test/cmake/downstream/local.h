// Included with quotes from model.cpp: found next to the original source.
#pragma once
inline double sq(double v) { return v * v; }
