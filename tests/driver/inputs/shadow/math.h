// A project header named like a system one. nvcc never looks for <math.h> next to the
// source, so ldcc must not either.
#error "ldcc made <math.h> find the project's math.h"
