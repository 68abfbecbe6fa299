#!/usr/bin/env python3
"""Validate a SARIF file against the vendored SARIF 2.1.0 schema.

Usage: validate.py SCHEMA SARIF; prints one line per violation and exits
1 when there is any, 0 when the document is valid.
"""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors:
        print("/" + "/".join(str(p) for p in e.path) + ": " + e.message)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
