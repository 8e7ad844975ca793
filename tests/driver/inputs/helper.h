#pragma once
// Included as "helper.h" by app.cu: ldcc compiles a translated copy elsewhere and must still
// find it.
#define FILL_VALUE 7
