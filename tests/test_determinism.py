"""Invariants 3 and 4: game logic never reads the wall clock or unseeded chance,
and never touches the network or the environment. Checked on the syntax tree of
every module in bnomic/handlers/."""
import ast
import pathlib

HANDLERS = pathlib.Path(__file__).parent.parent / "bnomic" / "handlers"

FORBIDDEN_MODULES = {"time", "uuid", "secrets", "socket", "smtplib", "os", "subprocess",
                     "urllib", "http", "threading"}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "time", "urandom", "getrandbits", "SystemRandom"}
RANDOM_FUNCTIONS = {"random", "choice", "choices", "shuffle", "randint", "randrange", "sample",
                    "uniform", "seed"}


def problems(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES:
                    found.append(f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"imports from {node.module}")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            owner = getattr(f.value, "id", "") if isinstance(f, ast.Attribute) else ""
            if name in FORBIDDEN_CALLS:
                found.append(f"calls {owner + '.' if owner else ''}{name}() at line {node.lineno}")
            if owner == "random" and name in RANDOM_FUNCTIONS:
                found.append(f"calls random.{name}() (unseeded) at line {node.lineno}")
            if owner == "random" and name == "Random" and not node.args:
                found.append(f"makes an unseeded random.Random() at line {node.lineno}")
    return found


def test_handlers_do_not_read_the_wall_clock_or_unseeded_chance():
    report = {p.name: problems(p) for p in sorted(HANDLERS.glob("*.py"))}
    assert {k: v for k, v in report.items() if v} == {}


def test_the_check_itself_catches_offenders(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import uuid\nimport random\nfrom datetime import datetime\n"
                   "x = datetime.now()\ny = random.choice([1])\nz = random.Random()\n")
    assert len(problems(bad)) == 4
