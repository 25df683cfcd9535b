#!/usr/bin/env python3
"""Writes the Tipsy seeds of the tipsy fuzzer (tests/fuzz/corpus/tipsy/) byte by byte, without NumPy.

The files are committed; rerun this only to change them: python3 tests/fuzz/make_tipsy_corpus.py
"ok-*" files are states coalesce must load, "bad-*" files it must refuse with a TipsyError
(tests/sim/fuzz_regression_test.cpp checks both on every ctest run).
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "tipsy")


def tipsy(gas=(), dark=(), star=(), big=True, time=0.5, nbodies=None, ndim=3, counts=None, tail=b""):
    """Header (double time, int32 nbodies, ndim, nsph, ndark, nstar, pad), then the rows of 12, 9 and 11
    floats, every value big-endian (standard) or little-endian (native)."""
    e = ">" if big else "<"
    nsph, ndark, nstar = counts if counts is not None else (len(gas), len(dark), len(star))
    n = nsph + ndark + nstar if nbodies is None else nbodies
    data = struct.pack(e + "d6i", time, n, ndim, nsph, ndark, nstar, 0)
    for rows, width in ((gas, 12), (dark, 9), (star, 11)):
        for row in rows:
            assert len(row) == width
            data += struct.pack(e + "%df" % width, *row)
    return data + tail


# mass, pos[3], vel[3], then each family's other fields.
D1 = (0.001, 0.5, -0.25, 1.0, 0.0, 0.1, -0.1, 0.01, -1.5)
D2 = (1.0, -1.0, 2.0, 0.0, 0.5, 0.5, 0.5, 0.01, float("nan"))  # phi unknown, as coalesce writes it
G1 = (0.002, 0.1, 0.2, 0.3, -0.1, -0.2, -0.3, 1.5, 1e4, 0.05, 0.02, -2.0)
S1 = (0.003, -0.3, 0.0, 0.3, 0.0, 0.01, 0.0, 0.02, 0.7, 0.01, -1.0)
NAN = float("nan")
INF = float("inf")

FILES = {
    # Accepted: both byte orders, every family, a zero mass, an ignored NaN in a gas field.
    "ok-dark-standard.tipsy": tipsy(dark=[D1, D2]),
    "ok-dark-native.tipsy": tipsy(dark=[D1, D2], big=False),
    "ok-gas-dark-star-standard.tipsy": tipsy(gas=[G1, G1], dark=[D1], star=[S1, S1, S1]),
    "ok-gas-star-native.tipsy": tipsy(gas=[G1], star=[S1], big=False, time=12.25),
    "ok-one-star.tipsy": tipsy(star=[S1]),
    "ok-zero-mass.tipsy": tipsy(dark=[(0.0,) + D1[1:]]),
    "ok-nan-temperature-ignored.tipsy": tipsy(gas=[G1[:8] + (NAN,) + G1[9:]], big=False),
    "ok-pad-nonzero.tipsy": tipsy(dark=[D1])[:28] + b"\xde\xad\xbe\xef" + tipsy(dark=[D1])[32:],
    # Refused: the header.
    "bad-empty.tipsy": b"",
    "bad-short-header.tipsy": tipsy(dark=[D1])[:31],
    "bad-ndim-2.tipsy": tipsy(dark=[D1], ndim=2),
    "bad-ndim-3-in-neither-order.tipsy": tipsy(dark=[D1], ndim=0x03000003),
    "bad-npy-file.tipsy": b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (1, 7), }" + b" " * 54 + b"\n",
    "bad-negative-nsph.tipsy": tipsy(dark=[D1, D2], counts=(-1, 2, 0), nbodies=1),
    "bad-negative-nbodies.tipsy": tipsy(dark=[D1], nbodies=-1),
    "bad-counts-do-not-add-up.tipsy": tipsy(dark=[D1, D2], nbodies=3),
    "bad-count-sum-overflows-int32.tipsy": tipsy(counts=(0x7FFFFFFF, 0x7FFFFFFF, 2), nbodies=0),
    "bad-zero-particles.tipsy": tipsy(),
    "bad-too-many-particles.tipsy": tipsy(counts=(0, 134217729, 0)),
    "bad-nan-time.tipsy": tipsy(dark=[D1], time=NAN),
    "bad-infinite-time-native.tipsy": tipsy(dark=[D1], time=-INF, big=False),
    # Refused: the size against the counts.
    "bad-truncated.tipsy": tipsy(dark=[D1, D2])[:-1],
    "bad-trailing-bytes.tipsy": tipsy(dark=[D1], tail=b"\0\0\0\0"),
    "bad-gas-counted-as-dark.tipsy": tipsy(dark=[D1, D2, D1, D2], counts=(3, 0, 0)),
    "bad-native-header-standard-body-size.tipsy": tipsy(dark=[D1], big=False, counts=(0, 2, 0)),
    # Refused: the values.
    "bad-nan-position.tipsy": tipsy(dark=[D1, D1[:2] + (NAN,) + D1[3:]]),
    "bad-infinite-velocity-native.tipsy": tipsy(star=[S1[:5] + (INF,) + S1[6:]], big=False),
    "bad-negative-mass-gas.tipsy": tipsy(gas=[(-1.0,) + G1[1:]], dark=[D1]),
    "bad-mass-too-large-star.tipsy": tipsy(dark=[D1], star=[(1e13,) + S1[1:]]),
    "bad-nan-mass.tipsy": tipsy(dark=[(NAN,) + D1[1:]], big=False),
}

os.makedirs(OUT, exist_ok=True)
for name, data in sorted(FILES.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("wrote %d files to %s" % (len(FILES), OUT))
