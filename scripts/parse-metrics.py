#!/usr/bin/env python3
"""Parses a Prometheus text exposition (standard input) with prometheus_client's own parser,
the one Prometheus' Python client ships, and prints its families as JSON: {name: {"type": ...,
"help": ..., "samples": [[sample name, {labels}, value], ...]}}. Exits 2, saying why, when the
text does not parse. Used by the distributed test that scrapes every deployable (issue 41)."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    text = sys.stdin.read()
    families = {}
    try:
        for family in text_string_to_metric_families(text):
            if family.name in families:
                raise ValueError(f"family {family.name} appears twice")
            families[family.name] = {
                "type": family.type,
                "help": family.documentation,
                "samples": [[s.name, s.labels, s.value] for s in family.samples],
            }
    except Exception as error:  # the parser raises ValueError and others on bad input
        print(f"unparsable exposition: {error}", file=sys.stderr)
        return 2
    json.dump(families, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
