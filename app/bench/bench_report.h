// The bench's outputs: a table on stdout and JSON (schema: docs/bench-json.md).
#pragma once

#include <cstdio>
#include <string>

#include "app/bench/bench_types.h"

namespace coalesce {

void print_bench_table(const BenchResult& result, std::FILE* out);
std::string bench_json(const BenchResult& result);

}  // namespace coalesce
