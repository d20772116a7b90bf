// Included by model.cpp only (through the target's include directories).
#pragma once
#define MODEL_OFFSET 1.0
