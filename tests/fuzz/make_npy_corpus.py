#!/usr/bin/env python3
"""Writes the .npy seeds of the npy fuzzer (tests/fuzz/corpus/npy/) byte by byte, without NumPy.

The files are committed; rerun this only to change them: python3 tests/fuzz/make_npy_corpus.py
"ok-*" files are states coalesce must load, "bad-*" files it must refuse with an NpyError
(tests/sim/fuzz_regression_test.cpp checks both on every ctest run).
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "npy")
DICT = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }"
HEADER = "{'descr': '%s', 'fortran_order': %s, 'shape': (%d, 7), }"


def npy(header, data=b"", major=1, pad=True, length=None):
    """Magic, version, header length, the header (padded with spaces + newline to 64 bytes), data."""
    prefix = 10 if major == 1 else 12
    text = header.encode("latin-1")
    if pad:
        text += b" " * ((64 - (prefix + len(text) + 1) % 64) % 64) + b"\n"
    n = len(text) if length is None else length
    size = struct.pack("<H", n) if major == 1 else struct.pack("<I", n)
    return b"\x93NUMPY" + bytes([major, 0]) + size + text + data


def rows(*particles):
    return b"".join(struct.pack("<7f", *p) for p in particles)


def state(descr, fortran, *particles, **npy_args):
    """A whole file of `particles` as `descr` ('<f4', '>f4', '<f8' or '>f8') stores them: row after row, or
    column after column in Fortran order."""
    order = [p[k] for k in range(7) for p in particles] if fortran else [v for p in particles for v in p]
    data = struct.pack("%s%d%s" % (descr[0], len(order), "f" if descr[2] == "4" else "d"), *order)
    return npy(HEADER % (descr, fortran, len(particles)), data, **npy_args)


P1 = (0.5, -0.25, 1.0, 0.0, 0.1, -0.1, 0.001)
P2 = (-1.0, 2.0, 0.0, 0.5, 0.5, 0.5, 1.0)
P3 = (3.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.0)

FILES = {
    # Accepted: every version, NumPy's spellings of the dict.
    "ok-1x7-v1.npy": npy(DICT % "1, 7", rows(P1)),
    "ok-3x7-v2.npy": npy(DICT % "3, 7", rows(P1, P2, P3), major=2),
    "ok-2x7-v3.npy": npy(DICT % "2, 7", rows(P2, P3), major=3),
    "ok-keys-reordered-double-quotes.npy": npy('{"shape": (2, 7,), "fortran_order": False, "descr": "<f4"}',
                                                rows(P1, P2)),
    "ok-python2-long.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 7L), }", rows(P3)),
    "ok-unpadded-header.npy": npy(DICT % "1, 7", rows(P1), pad=False),
    # Accepted: float64, big-endian and Fortran order, converted on load.
    "ok-f8.npy": state("<f8", False, P1, P2),
    "ok-f4-big-endian.npy": state(">f4", False, P2, P3),
    "ok-f8-big-endian-v2.npy": state(">f8", False, P1, P2, P3, major=2),
    "ok-f4-fortran-order.npy": state("<f4", True, P1, P2, P3),
    "ok-f8-big-endian-fortran-order-v3.npy": state(">f8", True, P3, P1, major=3),
    "ok-f8-beyond-float32.npy": state("<f8", False, P1, (1e300,) + P2[1:]),  # fine in fp64, refused in fp32
    # Refused.
    "bad-empty.npy": b"",
    "bad-short.npy": b"\x93NUMP",
    "bad-magic.npy": b"\x89PNG\r\n\x1a\n" + bytes(64),
    "bad-version-4.npy": npy(DICT % "1, 7", rows(P1), major=4),
    "bad-version-1-1.npy": npy(DICT % "1, 7", rows(P1)).replace(b"NUMPY\x01\x00", b"NUMPY\x01\x01", 1),
    "bad-header-length-past-end.npy": npy(DICT % "1, 7", rows(P1), length=4000),
    "bad-header-length-huge.npy": npy(DICT % "1, 7", rows(P1), major=2, length=0xFFFFFFF0),
    "bad-truncated-length.npy": b"\x93NUMPY\x02\x00\x10",
    "bad-dtype-i4.npy": npy(HEADER % ("<i4", False, 1), rows(P1)),
    "bad-dtype-f2.npy": npy(HEADER % ("<f2", False, 1), rows(P1)[:14]),
    "bad-dtype-native-order.npy": npy(HEADER % ("=f4", False, 1), rows(P1)),  # numpy.save never writes '='
    "bad-dtype-no-byte-order.npy": npy(HEADER % ("|f8", False, 1), rows(P1) * 2),  # nor '|' for floats
    "bad-f8-with-f4-data.npy": npy(HEADER % ("<f8", False, 2), rows(P1, P2)),
    "bad-f8-big-endian-nan.npy": state(">f8", False, P1, P2[:3] + (float("nan"),) + P2[4:]),
    "bad-f8-negative-tiny-mass.npy": state("<f8", True, P1, P2[:6] + (-1e-50,)),
    "bad-f4-fortran-order-negative-mass.npy": state("<f4", True, P1, P2, P3[:6] + (-1.0,)),
    "bad-shape-1d.npy": npy(DICT % "7,", rows(P1)),
    "bad-shape-scalar.npy": npy(DICT % "", b""),
    "bad-shape-8-columns.npy": npy(DICT % "1, 8", rows(P1) + b"\0\0\0\0"),
    "bad-shape-zero-rows.npy": npy(DICT % "0, 7", b""),
    "bad-shape-3d.npy": npy(DICT % "1, 1, 7", rows(P1)),
    "bad-shape-too-many-rows.npy": npy(DICT % "134217729, 7", rows(P1)),
    "bad-shape-overflow.npy": npy(DICT % "99999999999999999999, 7", rows(P1)),
    "bad-shape-negative.npy": npy(DICT % "-1, 7", rows(P1)),
    "bad-size-truncated-data.npy": npy(DICT % "3, 7", rows(P1, P2)),
    "bad-size-trailing-data.npy": npy(DICT % "1, 7", rows(P1, P2)),
    "bad-nan.npy": npy(DICT % "2, 7", rows(P1, (float("nan"),) + P2[1:])),
    "bad-infinite-velocity.npy": npy(DICT % "1, 7", rows(P1[:4] + (float("inf"),) + P1[5:])),
    "bad-negative-mass.npy": npy(DICT % "1, 7", rows(P1[:6] + (-1.0,))),
    "bad-mass-too-large.npy": npy(DICT % "1, 7", rows(P1[:6] + (1e13,))),
    "bad-header-not-a-dict.npy": npy("[1, 2, 3]", rows(P1)),
    "bad-header-unterminated-string.npy": npy("{'descr': '<f4", rows(P1)),
    "bad-header-missing-key.npy": npy("{'descr': '<f4', 'shape': (1, 7), }", rows(P1)),
    "bad-header-unknown-key.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 7), 'x': 1}",
                                      rows(P1)),
    "bad-header-text-after-dict.npy": npy(DICT % "1, 7" + " junk", rows(P1)),
    "bad-header-control-characters.npy": npy("{'descr': '\x1b[2J\x07', 'fortran_order': False, "
                                             "'shape': (1, 7), }", rows(P1)),
    # Issue 30: a NUL in the dtype must not cut the message, keys given twice must not be merged ((1,) and
    # (7,) once read as (1, 7)), and a shape of 1,200 dimensions must be reported in a short line.
    "bad-dtype-nul.npy": npy(HEADER % ("<f\x004", False, 1), rows(P1)),
    "bad-header-shape-twice.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'shape': (7,), }",
                                      rows(P1)),
    "bad-header-descr-twice.npy": npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
                                      "'shape': (1, 7), }", rows(P1)),
    "bad-shape-1200-dimensions.npy": npy(DICT % ("1, " * 1200), rows(P1)),
}

os.makedirs(OUT, exist_ok=True)
for name, data in sorted(FILES.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("wrote %d files to %s" % (len(FILES), OUT))
