#!/usr/bin/env python3
"""Writes the GADGET HDF5 seeds of the gadget fuzzer (tests/fuzz/corpus/gadget/) with h5py.

The files are committed; rerun this only to change them: /usr/bin/python3 tests/fuzz/make_gadget_corpus.py
(Debian's python3-h5py). "ok-*" files are snapshots coalesce must load, "bad-*" files it must refuse with an
Hdf5Error (tests/sim/fuzz_regression_test.cpp checks both on every ctest run). Each stays within 8192 bytes,
the gadget fuzzer's -max_len, so libFuzzer reads it whole (h5py's smallest snapshot is over 4 KB: libhdf5
sets metadata aside in 2 KB blocks).
"""
import os

import h5py
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "gadget")
P = np.array([[0.5, -0.25, 1.0, 0.0, 0.1, -0.1, 0.001],
              [-1.0, 2.0, 0.0, 0.5, 0.5, 0.5, 1.0],
              [3.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.25]])


def header(f, counts, mass_table=(0,) * 6, count_type="<u4", high_word=True, **extra):
    h = f.create_group("Header").attrs
    h["NumPart_ThisFile"] = np.array(counts, dtype=count_type)
    h["NumPart_Total"] = np.array(counts, dtype=count_type)
    if high_word:
        h["NumPart_Total_HighWord"] = np.zeros(6, dtype="<u4")
    h["MassTable"] = np.array(mass_table, dtype="<f8")
    h["Time"] = 0.5
    h["Redshift"] = 0.0
    h["BoxSize"] = 0.0
    h["NumFilesPerSnapshot"] = np.int32(extra.pop("files", 1))
    for key, value in extra.items():
        h[key] = value


def part(f, k, rows, real="<f4", masses=True, ids="<u8", **extra):
    g = f.create_group("PartType%d" % k)
    g["Coordinates"] = rows[:, 0:3].astype(real)
    g["Velocities"] = rows[:, 3:6].astype(real)
    if masses:
        g["Masses"] = rows[:, 6].astype(real)
    if ids:
        g["ParticleIDs"] = np.arange(len(rows)).astype(ids)
    for key, value in extra.items():
        g[key] = value
    return g


def write(name, build, libver="latest"):
    path = os.path.join(OUT, name)
    with h5py.File(path, "w", libver=libver) as f:
        build(f)
    size = os.path.getsize(path)
    assert size <= 8192, "%s is %d bytes, over the gadget fuzzer's -max_len" % (name, size)


def units(f, velocity):
    p = f.create_group("Parameters").attrs
    p["UnitLength_in_cm"] = 3.085678e21
    p["UnitMass_in_g"] = 1.989e43
    p["UnitVelocity_in_cm_per_s"] = velocity


FILES = {
    # Accepted.
    "ok-f4-one-type.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0]), part(f, 1, P)),
    "ok-f8-mass-table-no-ids.hdf5": lambda f: (header(f, [0, 2, 0, 0, 0, 0], (0, 0.125, 0, 0, 0, 0)),
                                               part(f, 1, P[:2], "<f8", masses=False, ids=None)),
    "ok-gas-and-halo.hdf5": lambda f: (header(f, [2, 1, 0, 0, 0, 0], (0, 0.25, 0, 0, 0, 0)),
                                       part(f, 0, P[:2], ids="<u4", Density=np.ones(2, "<f4")),
                                       part(f, 1, P[2:], "<f8", masses=False, ids="<u4")),
    "ok-gadget4-uint64-counts-units.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0], count_type="<u8",
                                                             high_word=False),
                                                      units(f, 1e5), part(f, 1, P)),
    "ok-arepo-units-in-header.hdf5": lambda f: (header(f, [0, 0, 0, 0, 3, 0], UnitLength_in_cm=3.085678e21,
                                                       UnitMass_in_g=1.989e43, UnitVelocity_in_cm_per_s=1e5),
                                                part(f, 4, P, ">f8")),
    "ok-gzip-shuffle.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0]),
                                       part(f, 1, P, masses=False, ids=None).create_dataset(
                                           "Masses", data=P[:, 6].astype("<f4"), compression="gzip", shuffle=True)),
    # Refused.
    "bad-not-hdf5.hdf5": None,
    "bad-no-header.hdf5": lambda f: part(f, 1, P),
    "bad-int-coordinates.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0]), part(f, 1, P, real="<i4")),
    "bad-two-files.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0], files=2), part(f, 1, P)),
    "bad-nan-velocity.hdf5": lambda f: (header(f, [0, 1, 0, 0, 0, 0]),
                                        part(f, 1, np.array([[0, 0, 0, np.nan, 0, 0, 1.0]]))),
    "bad-negative-id.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0]),
                                       part(f, 1, P, ids=None, ParticleIDs=np.array([1, -2, 3], "<i8"))),
    "bad-shape.hdf5": lambda f: (header(f, [0, 2, 0, 0, 0, 0]), part(f, 1, P)),
    "bad-claims-too-many.hdf5": lambda f: (header(f, [0, 1 << 28, 0, 0, 0, 0], count_type="<u8",
                                                  high_word=False), part(f, 1, P)),
    "bad-unwritten-data.hdf5": lambda f: (header(f, [0, 100000, 0, 0, 0, 0]),
                                          f.create_group("PartType1").create_dataset("Coordinates", (100000, 3), "<f4")),
    "bad-external-header.hdf5": lambda f: (f.__setitem__("Header", h5py.ExternalLink("other.hdf5", "/Header")),
                                           part(f, 1, P)),
    "bad-negative-mass-table.hdf5": lambda f: (header(f, [0, 3, 0, 0, 0, 0], (0, -1.0, 0, 0, 0, 0)),
                                               part(f, 1, P, masses=False)),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, build in FILES.items():
        if build is None:
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(b"GADGET-2 binary? no: not an HDF5 file\n")
        else:
            write(name, build)


if __name__ == "__main__":
    main()
