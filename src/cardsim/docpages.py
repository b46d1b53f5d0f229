"""The documents installed with the package: the glossary of statistics and every game's rules page
(`cardsim glossary`, `cardsim rules GAME`).

The repository's `docs/glossary.md` and `docs/rules/<game>.md` are the source; the build installs
copies as package data (`cardsim/_docs/`, CMakeLists.txt), so an installed cardsim can show them
without a checkout. tests/test_docs.py checks that the installed copies equal the repository's.
"""
from __future__ import annotations

import importlib.resources
import posixpath

from cardsim.errors import ConfigError, short

PACKAGE_DIR = "_docs"


def _installed(*parts: str):
    return importlib.resources.files("cardsim").joinpath(PACKAGE_DIR, *parts)


def _read(parts, what: str) -> str:
    path = _installed(*parts)
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError) as e:
        raise ConfigError(f"{what} is not installed with this cardsim ({'/'.join(parts)} missing from the "
                          f"package data; reinstall cardsim: pip install .)") from e


def glossary_text() -> str:
    """docs/glossary.md as installed: what every number of a summary, report or comparison means."""
    return _read(("glossary.md",), "the glossary")


def rules_relpath(game: str) -> str:
    """The installed rules page of `game`, relative to cardsim/_docs (from its GameInfo.rules_doc)."""
    from cardsim.game import game_info

    return "rules/" + posixpath.basename(game_info(game).rules_doc)


def rules_text(game: str) -> str:
    """docs/rules/<game>.md as installed: the rules the engine implements, its options and decisions.
    An unknown game raises ConfigError naming the registered ones."""
    import cardsim

    if not isinstance(game, str) or game not in cardsim.GAMES:
        raise ConfigError(f"unknown game {short(game)}; one of {', '.join(cardsim.GAMES)}")
    return _read(tuple(rules_relpath(game).split("/")), f"the rules page of {game}")


def installed_files() -> dict[str, str]:
    """{path relative to cardsim/_docs: text} of every installed document."""
    import cardsim

    out = {"glossary.md": glossary_text()}
    for g in cardsim.GAMES:
        out[rules_relpath(g)] = rules_text(g)
    return out


# ---------------------------------------------------------------------------------------------
# the commands (registered in cardsim.cli.COMMANDS; built like cli._sub's, without importing cli)

def _sub(sub, name, help, examples):
    import argparse

    return sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".",
                          epilog="examples:\n" + "\n".join("  " + e for e in examples),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def glossary_parser(sub):
    sp = _sub(sub, "glossary", "print the glossary: what every statistic of a summary, report or comparison means",
              ["cardsim glossary", "cardsim glossary | less"])
    sp.set_defaults(func=cmd_glossary)


def cmd_glossary(args) -> int:
    print(glossary_text(), end="")
    return 0


def rules_parser(sub):
    sp = _sub(sub, "rules", "print a game's rules page: the rules as implemented, options, decisions, notation",
              ["cardsim rules basra", "cardsim rules tien_gow | less"])
    sp.add_argument("game", help="a registered game (list: cardsim games)")
    sp.set_defaults(func=cmd_rules)


def cmd_rules(args) -> int:
    print(rules_text(args.game), end="")
    return 0


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
