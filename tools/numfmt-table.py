#!/usr/bin/env python3
"""Print src/json/numfmt.c's g_table, the powers of ten of the Schubfach method.

Usage: tools/numfmt-table.py >table.txt
Check: sed -n '/^static const uint64_t g_table/,/^};/p' src/json/numfmt.c |
       diff - table.txt

Method (Raffaello Giulietti, "The Schubfach way to render doubles", 2020;
Java's Double.toString uses a table of this shape): for each k from K_MIN = -324 to K_MAX = 292, write 10^-k = b 2^r with
2^125 <= b < 2^126, and store g = floor(b) + 1 as its high and low 63-bit
halves, g = g1 2^63 + g0.  The arithmetic is exact (Python's integers and
fractions), so the table is the same on every machine.
"""

from fractions import Fraction

K_MIN = -324
K_MAX = 292
HALF = 63


def g_of(k):
    """floor(10^-k / 2^r) + 1, r chosen so the quotient is in [2^125, 2^126)."""
    v = Fraction(10) ** -k
    # Start from the bit lengths, then correct by one either way.
    r = v.numerator.bit_length() - v.denominator.bit_length() - 125
    while v / Fraction(2) ** r >= 2 ** 126:
        r += 1
    while v / Fraction(2) ** r < 2 ** 125:
        r -= 1
    b = v / Fraction(2) ** r
    return b.numerator // b.denominator + 1


def main():
    print("static const uint64_t g_table[K_MAX - K_MIN + 1][2] = {")
    for k in range(K_MIN, K_MAX + 1):
        g = g_of(k)
        g1, g0 = g >> HALF, g & ((1 << HALF) - 1)
        print("\t{ 0x%016x, 0x%016x }, /* %4d */" % (g1, g0, k))
    print("};")


if __name__ == "__main__":
    main()
