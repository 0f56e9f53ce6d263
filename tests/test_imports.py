"""Dependencies run one way (docs/architecture.md, "Layers"): the import graph of
bnomic/, read from the syntax tree with every import (inside functions too, and
under TYPE_CHECKING), has no cycle, and each module of handlers/ imports only its
own layer and those below it."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bnomic"

# handlers/: each module's layer; a module imports modules of its layer or lower
LAYERS = {
    # 0, the core: what every area is given and declares itself in
    "context": 0, "events": 0, "post": 0, "budget": 0, "registry": 0, "names": 0,
    "views": 0, "shares": 0,      # the registry of view kinds; proportions said in words
    "colors": 0,                  # the Colors of 4E68/4E69 and the Laundry Corporations' names
    # 1, the base state: time, settings, the Rules' Powers, the Ministries and their duties
    "durations": 1, "clock": 1, "settings": 1, "rules": 1, "ministries": 1,
    # 2, the reader (docs/reader.md)
    "vocabulary": 2, "lexer": 2, "frames": 2, "grammar": 2, "pinned": 2,
    # 3, the base areas every other builds on: Players and money
    "players": 3, "economy": 3,
    "entities": 3,                # Legal Entities (4E81): Players and Corporations
    # 4, the rule areas and what acting on them shares
    "acting": 4, "intents": 4, "transactions": 4, "scheduling": 4, "beast": 4, "ministers": 4,
    "obligations": 4, "changes": 4, "flags": 4, "proposals": 4, "voting": 4, "consultations": 4,
    "justice": 4, "emergency": 4, "tweaks": 4, "displays": 4, "admin": 4,
    "socks": 4,         # Socks and the Sock Market (4E68, 4E80)
    "contracts": 4,     # Contracts (4E70), Articles of Incorporation (4E79), delegation (4E45)
    "subgames": 4,      # Subgames (4E82)
    "tally": 4,         # pure: reads no state (voting.py gives it the proposals)
    # 5, the engine: moving time, applying posts and commands
    "engine": 5,
}

# No cycle is allowed (the reader's lexer.py and vocabulary.py once imported each other).
KNOWN_CYCLES: list = []


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict) -> dict[str, int]:
    """The modules of ours `name` imports, anywhere in the file: {module: first line}."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, int] = {}

    def add(target: str, line: int):
        while target and target not in known:      # a name inside a module: the module
            target = target.rpartition(".")[0]
        if target and target != name:
            found.setdefault(target, line)

    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in known else base, node.lineno)
    return found


def graph(root: Path = PACKAGE) -> dict[str, dict[str, int]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, dict[str, int]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's)."""
    index, low, stack, on_stack, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, {}):
                out.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read_from_every_import_even_inside_functions(tmp_path):
    """The reader of the graph sees a cycle made by an import inside a function."""
    pkg = tmp_path / "bnomic"
    (pkg / "handlers").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "handlers" / "__init__.py").write_text("from . import a\n")
    (pkg / "handlers" / "a.py").write_text("from .b import f\n")
    (pkg / "handlers" / "b.py").write_text("def f():\n    from . import a\n    from ..handlers.a import g\n")
    edges = graph(pkg)
    assert edges["bnomic.handlers.b"] == {"bnomic.handlers.a": 2}
    assert cycles(edges) == [{"bnomic.handlers.a", "bnomic.handlers.b"}]


def test_bnomic_has_no_import_cycle():
    found = [c for c in cycles(graph()) if c not in KNOWN_CYCLES]
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_every_handlers_module_has_a_layer():
    names = {n.rpartition(".")[2] for n in modules() if n.startswith("bnomic.handlers.")}
    assert names == set(LAYERS), "give each handlers module a layer (and docs/architecture.md)"


def test_handlers_import_only_their_layer_and_below():
    wrong = []
    for name, targets in graph().items():
        if not name.startswith("bnomic.handlers."):
            continue
        mine = LAYERS[name.rpartition(".")[2]]
        for target, line in targets.items():
            if target.startswith("bnomic.handlers."):
                theirs = LAYERS[target.rpartition(".")[2]]
                if theirs > mine:
                    wrong.append(f"{name}:{line} (layer {mine}) imports {target} (layer {theirs})")
            elif target == "bnomic.handlers":
                wrong.append(f"{name}:{line} imports the handlers package")
            elif target.startswith("bnomic.mailer"):
                wrong.append(f"{name}:{line} imports {target}: handlers/ import store only")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("package,allowed", [
    ("bnomic.store", ("bnomic.store",)),                        # store/ imports nothing of ours
    ("bnomic.config", ()),                                      # the configuration is data
    ("bnomic.ruleset", ()),
])
def test_the_bottom_imports_nothing_above_it(package, allowed):
    edges = graph()
    bad = {f"{n} -> {t}" for n, ts in edges.items() if n == package or n.startswith(package + ".")
           for t in ts if not any(t == a or t.startswith(a + ".") for a in allowed)}
    assert not bad, sorted(bad)
