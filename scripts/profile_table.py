#!/usr/bin/env python3
"""The tables of scripts/profile: Nsight Compute raw CSVs -> PREFIX.csv and PREFIX.md.

usage: profile_table.py MODE PREFIX TITLE RAW.csv...

MODE consecutive (lab): one row per run of identical consecutive launches (a variant's check run and timed
launches); the lab's check kernels separate variants and are left out. MODE unique (bench): one row per
distinct kernel and launch shape, the last launch kept.
"""
import csv
import os
import sys

mode, prefix, title = sys.argv[1:4]
header, data = None, []
for raw in sys.argv[4:]:
    rows = list(csv.reader(open(raw, newline="")))
    if len(rows) < 3:
        continue
    if header is None:
        header = rows[0]
    run = raw.rsplit("/", 1)[-1].replace("-raw.csv", "")
    data += [dict(zip(rows[0], r), run=run) for r in rows[2:]]  # row 1 holds the units
def num(r, name):
    try:
        return float(r.get(name, "").replace(",", ""))
    except ValueError:
        return float("nan")
def short(name):
    # "void coalesce::lab::(anonymous namespace)::f<T>(const float *, ...)" -> "f<T>"
    name = name.replace("(anonymous namespace)::", "").replace("coalesce::lab::", "").replace("coalesce::", "")
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        if name[i] == ")":
            depth += 1
        elif name[i] == "(":
            depth -= 1
            if depth == 0:
                return name[:i]
    return name
helpers = ("count_mismatches_kernel", "fill_values_kernel", "init_float4", "fill_table")
groups = []
for r in data:
    key = (r["run"], short(r.get("Kernel Name", "?")), r.get("Grid Size", ""), r.get("Block Size", ""))
    same = [g for g in groups if g[0] == key] if mode == "unique" else groups[-1:]
    if same and same[-1][0] == key:
        same[-1][1] = r  # keep the last launch: the timed one
    else:
        groups.append([key, r])
def ratio(a, b):
    return a / b if b and b == b and b > 0 else float("nan")
out = []
for (run, name, grid, block), r in groups:
    if any(h in name for h in helpers):
        continue
    out.append({
        "run": run, "kernel": name, "grid": grid, "block": block,
        "ld_sectors_per_req": ratio(num(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                                    num(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
        "st_sectors_per_req": ratio(num(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                                    num(r, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")),
        "smem_ld_conflicts": num(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        "smem_st_conflicts": num(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        "dram_read_MB": num(r, "dram__bytes_read.sum") / 1e6,
        "dram_write_MB": num(r, "dram__bytes_write.sum") / 1e6,
        "time_us": num(r, "gpu__time_duration.sum") / 1e3,
    })
keys = ["run", "kernel", "grid", "block", "ld_sectors_per_req", "st_sectors_per_req", "smem_ld_conflicts",
        "smem_st_conflicts", "dram_read_MB", "dram_write_MB", "time_us"]
def replace_file(path, write):
    # temp + rename: a failed run never leaves half a table over the previous one
    with open(path + ".tmp", "w", newline="") as f:
        write(f)
    os.replace(path + ".tmp", path)
def write_csv(f):
    w = csv.DictWriter(f, fieldnames=keys)
    w.writeheader()
    w.writerows(out)
replace_file(prefix + ".csv", write_csv)
def cell(v):
    return v if isinstance(v, str) else ("-" if v != v else ("%.0f" % v if abs(v) >= 100 else "%.2f" % v))
def write_md(f):
    f.write("### %s\n\n" % title)
    f.write("Launch order; ld/st = global sectors per request (4 = fully coalesced fp32 warp), conflicts = "
            "shared-memory bank conflicts, DRAM in MB, time in us (ncu, clocks as found).\n\n")
    f.write("| # | run | kernel | grid | block | ld sect/req | st sect/req | smem ld confl | smem st confl | DRAM rd MB | DRAM wr MB | us |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for i, o in enumerate(out, 1):
        f.write("| %d | %s |\n" % (i, " | ".join(cell(o[k]) for k in keys)))
replace_file(prefix + ".md", write_md)
print("scripts/profile: wrote %s.md and %s.csv (%d rows)" % (prefix, prefix, len(out)), file=sys.stderr)
