#!/usr/bin/env bash
# H100 run of the CUPTI counters (i11-cupti, final): the counter tests, the default bench and the lab with
# counters, compute-sanitizer memcheck with counters on. Logs in $OUT/h100-counters.tar.gz, JSONs beside it.
B=$PWD/gpu-bin-cupti
R=$OUT/r; mkdir -p $R; cd $R
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout $limit "$@" > $name.log 2>&1; local rc=$?;
  printf '%-26s rc=%-3s %4ss  %s\n' "$name" "$rc" "$((SECONDS - t0))" "$(tail -n 1 $name.log | cut -c1-140)" | tee -a summary.txt; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader; } | tee summary.txt
step counter_tests 120 $B/counter_tests
step app_tests_bench 60 $B/app_tests --gtest_filter='Bench*'
step app_lab_tests 60 $B/app_lab_tests
step bench 200 $B/coalesce bench --json bench.json
step lab 150 $B/coalesce lab --json lab.json
export COALESCE_SANITIZER_QUICK=1
step sanitizer_counter_tests 90 compute-sanitizer --tool memcheck $B/counter_tests
step sanitizer_bench 120 compute-sanitizer --tool memcheck $B/coalesce bench --solver attractors --particles 65536 --repeats 2
step sanitizer_lab 120 compute-sanitizer --tool memcheck $B/coalesce lab --size 512 --only copy,strided,transpose --repeats 2
cp bench.json lab.json summary.txt $OUT/ 2>/dev/null
cd $OUT && tar czf h100-counters.tar.gz r && rm -rf r
