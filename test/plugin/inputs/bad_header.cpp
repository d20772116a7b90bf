#include "inc/bad_header.h"
int main() { return 0; }
