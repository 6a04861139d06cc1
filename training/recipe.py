"""Recipes: every stage that makes a shipped net, as data, run by one command.

    tradewinds train --recipe hansa_3p                 # results/recipes/hansa_3p/
    tradewinds train --recipe hansa_3p --budget 0.5    # stop after 0.5 core-hours; rerun to go on

A recipe is one TOML file in ``training/recipes/`` (or any path): the game, the player
count and its stages in order, each with every setting of its trainer (CleanRL's one
config per script). A stage is an AlphaZero run (`training.alphazero.loop`, ``algo =
"alphazero"``, its fields as in `AlphaZeroConfig`), a distillation (``algo =
"distill"``, the options of `training.alphazero.distill`, the net it distils as
``teacher``), a value refit (``algo = "value_refit"``, the options of
`training.alphazero.value_refit`, the net it refits as ``net``) or DAgger rounds (``algo =
"dagger"``, the options of `training.alphazero.dagger`, the net it starts from as
``init``). A value ``"@stage"`` names an earlier stage's output: its net (``init``,
``teacher``, ``net``; a DAgger stage's last round), or with ``init_replay`` / ``replay`` its
replay buffer; ``"@stage:36"`` names the net the stage rated at iteration 36
(``nets/net_0036.npz``), or a DAgger stage's round 36. ``continues = "@stage"`` goes on
with an earlier AlphaZero stage's run (a copy of its files, resumed with this stage's
settings: the same learner, buffer and generator, as a resumed command would).
``ship = "stage"`` (or ``"stage:36"``) says which net is the recipe's.

Each stage writes to ``<out>/<stage>/``; a finished stage is skipped and an interrupted
one resumed, so rerunning the command after any interruption goes on where it stopped.
When every stage is done the net of the ``ship`` stage is written to ``<out>/net.npz``
with the recipe's name, its text, the commit and the core-hours of all stages in its
metadata; ``tradewinds train --recipe NAME --ship`` also copies it to the shipped place.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tradewinds.training import checkpoints as ck

RECIPES = Path(__file__).parent / "recipes"
DAGGER_ROUNDS = 3                # dagger's own default for --rounds
REF_KEYS = {"init": "net", "init_replay": "replay", "teacher": "net", "net": "net",
            "az_teacher": "net",
            "replay": "replay", "continues": "run"}


@dataclass(frozen=True)
class OneFile:
    """A stage that is one command making one net file from one net: the module under
    `training.alphazero` (its `parser()` and `main(argv)`), the setting that names the net
    it starts from, and the file it writes in the stage's folder."""
    module: str
    source: str
    file: str


ONE_FILE = {"distill": OneFile("distill", "teacher", "student.npz"),
            "value_refit": OneFile("value_refit", "net", "refit.npz")}
ALGOS = ("alphazero", "dagger", *ONE_FILE)


def _toml(text: str) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:                                     # pragma: no cover - python 3.10
        import tomli as tomllib
    return tomllib.loads(text)


@dataclass(frozen=True)
class Stage:
    name: str
    algo: str
    settings: dict


@dataclass(frozen=True)
class Recipe:
    name: str
    game: str
    players: int
    stages: tuple[Stage, ...]
    ship: str                      # the stage whose net is the recipe's
    search: dict = field(default_factory=dict)   # az's settings for the shipped net
    text: str = ""

    def stage(self, name: str) -> Stage:
        for s in self.stages:
            if s.name == name:
                return s
        raise ValueError(f"recipe {self.name}: no stage {name!r} "
                         f"(stages: {', '.join(s.name for s in self.stages)})")


def names() -> list[str]:
    """The recipes that ship with the package."""
    return sorted(p.stem for p in RECIPES.glob("*.toml"))


def load(name_or_path: str) -> Recipe:
    """A shipped recipe by name, or a recipe file by path; a bad one raises ValueError
    naming what is wrong."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" and path.is_file()):
        if "/" in name_or_path or name_or_path not in names():
            raise ValueError(f"no recipe {name_or_path!r}: shipped recipes are "
                             f"{', '.join(names())}, or give a .toml file")
        path = RECIPES / f"{name_or_path}.toml"
    text = path.read_text()
    try:
        data = _toml(text)
    except ValueError as e:
        raise ValueError(f"recipe {path}: {e}") from None
    return parse(path.stem, data, text)


def parse(name: str, data: dict, text: str = "") -> Recipe:
    for key in ("game", "players", "stages"):
        if key not in data:
            raise ValueError(f"recipe {name}: missing {key!r}")
    unknown = set(data) - {"game", "players", "stages", "ship", "search", "description"}
    if unknown:
        raise ValueError(f"recipe {name}: unknown keys {', '.join(sorted(unknown))}")
    stages, seen = [], set()
    for raw in data["stages"]:
        raw = dict(raw)
        stage_name, algo = raw.pop("name", None), raw.pop("algo", "alphazero")
        if not stage_name or stage_name in seen:
            raise ValueError(f"recipe {name}: every stage needs a unique name, got "
                             f"{stage_name!r}")
        if algo not in ALGOS:
            raise ValueError(f"recipe {name}, stage {stage_name}: algo must be one of "
                             f"{', '.join(ALGOS)}, got {algo!r}")
        for key, value in raw.items():
            if isinstance(value, str) and value.startswith("@") and _ref(value)[0] not in seen:
                raise ValueError(f"recipe {name}, stage {stage_name}: {key} = {value!r} "
                                 f"names no earlier stage")
        seen.add(stage_name)
        stages.append(Stage(stage_name, algo, raw))
    if not stages:
        raise ValueError(f"recipe {name}: no stages")
    recipe = Recipe(name, data["game"], int(data["players"]), tuple(stages),
                    data.get("ship", stages[-1].name), dict(data.get("search", {})), text)
    recipe.stage(_ref("@" + recipe.ship)[0])
    for s in stages:                      # every setting checked before anything runs
        if s.algo == "alphazero":
            _alphazero_config(recipe, s, Path("."))
        elif s.algo == "dagger":
            _check_command(recipe, s, "dagger", "init")
        else:
            _check_command(recipe, s, ONE_FILE[s.algo].module, ONE_FILE[s.algo].source)
    return recipe


def _command(module: str):
    import importlib

    return importlib.import_module(f"tradewinds.training.alphazero.{module}")


def _check_command(recipe: Recipe, stage: Stage, module: str, source: str) -> None:
    """A stage run as a command: every setting one of its options, its source net named."""
    known = {a.dest for a in _command(module).parser()._actions} - {
        "help", "out", "resume", "device"}
    unknown = sorted(set(stage.settings) - known)
    if unknown or source not in stage.settings:
        what = (f"unknown settings {', '.join(unknown)}" if unknown
                else f"no {source} (the net it starts from)")
        raise ValueError(f"recipe {recipe.name}, stage {stage.name}: {what} ({stage.algo}'s "
                         f"options: tradewinds train {module.replace('_', '-')} --help)")


def stage_dir(out: Path, stage: Stage) -> Path:
    return Path(out) / stage.name


def _ref(value: str) -> tuple[str, int | None]:
    """'@stage' -> (stage, None); '@stage:36' -> (stage, 36)."""
    name, sep, iteration = value[1:].partition(":")
    if sep and not iteration.isdigit():
        raise ValueError(f"{value!r}: expected @stage or @stage:<iteration>")
    return name, int(iteration) if sep else None


def _output(recipe: Recipe, out: Path, ref: str, kind: str) -> str:
    name, iteration = _ref(ref)
    stage = recipe.stage(name)
    where = stage_dir(out, stage)
    if kind == "replay":
        return str(where / "replay.npz")
    if kind == "run":
        return str(where)
    if stage.algo == "dagger":
        return str(where / f"round_{_rounds(stage) if iteration is None else iteration}.npz")
    if iteration is not None:
        return str(kept_net(where / "nets", iteration))
    return str(where / "net.npz") if stage.algo == "alphazero" else str(one_file(where, stage))


def one_file(where: Path, stage: Stage) -> Path:
    """The net a one-file stage (distill, value_refit) writes in its folder."""
    return Path(where) / ONE_FILE[stage.algo].file


def _rounds(stage: Stage) -> int:
    return int(stage.settings.get("rounds", DAGGER_ROUNDS))


def kept_net(nets: Path, iteration: int) -> Path:
    """A stage's net at `iteration`: its own file, or where the gate rejected it
    (``rejected_<i>.npz``), the last kept net before it, whose weights the stage went on
    from."""
    own = nets / f"net_{iteration:04d}.npz"
    if own.is_file() or not (nets / f"rejected_{iteration:04d}.npz").is_file():
        return own
    kept = sorted(p for p in nets.glob("net_*.npz") if int(p.stem[4:]) < iteration)
    return kept[-1] if kept else own


def _resolved(recipe: Recipe, stage: Stage, out: Path) -> dict:
    settings = dict(stage.settings)
    for key, value in settings.items():
        if isinstance(value, str) and value.startswith("@"):
            settings[key] = _output(recipe, out, value, REF_KEYS.get(key, "net"))
    return settings


def _alphazero_config(recipe: Recipe, stage: Stage, out: Path, **over):
    from tradewinds.training.alphazero.loop import AlphaZeroConfig

    settings = _resolved(recipe, stage, out)
    settings.pop("continues", None)
    for key in ("game", "players", "out", "resume"):
        if key in settings:
            raise ValueError(f"recipe {recipe.name}, stage {stage.name}: {key} is the "
                             f"recipe's, not a stage setting")
    try:
        return AlphaZeroConfig(game=recipe.game, players=recipe.players,
                               out=str(stage_dir(out, stage)), **settings, **over)
    except TypeError as e:
        raise ValueError(f"recipe {recipe.name}, stage {stage.name}: {e}") from None


def stage_done(recipe: Recipe, stage: Stage, out: Path) -> bool:
    where = stage_dir(out, stage)
    if stage.algo in ONE_FILE:
        return one_file(where, stage).is_file()
    if stage.algo == "dagger":
        return (where / f"round_{_rounds(stage)}.npz").is_file()
    state = where / "state.json"
    return state.is_file() and ck.read_json(state)["iteration"] >= int(
        stage.settings.get("iterations", 10))


def continued(recipe: Recipe, stage: Stage) -> Stage | None:
    """The stage whose run `stage` continues, if any."""
    ref = stage.settings.get("continues")
    return recipe.stage(_ref(ref)[0]) if ref else None


def stage_hours(recipe: Recipe, stage: Stage, out: Path) -> float:
    """Core-hours `stage` itself spent in `out` (a continued run's own hours not counted)."""
    where = stage_dir(out, stage)
    if stage.algo in ONE_FILE:
        cost = where / "cost.json"
        return float(ck.read_json(cost)["core_hours"]) if cost.is_file() else 0.0
    if stage.algo == "dagger":
        log = where / "log.csv"
        return sum(float(r["core_hours"] or 0) for r in ck.read_rows(log)) if log.is_file() else 0.0
    if not (where / "state.json").is_file():
        return 0.0
    hours = ck.read_json(where / "state.json")["core_seconds"] / 3600
    before = continued(recipe, stage)
    if before is not None:
        hours -= ck.read_json(stage_dir(out, before) / "state.json")["core_seconds"] / 3600
    return hours


def core_hours(recipe: Recipe, out: Path) -> float:
    """Core-hours spent so far by the recipe's stages in `out`."""
    return sum(stage_hours(recipe, s, out) for s in recipe.stages)


def run(recipe: Recipe, out: Path, budget: float | None = None, actors: int = 0,
        device: str = "auto", console=None) -> Path | None:
    """Run `recipe`'s stages into `out` until done or until `budget` core-hours are spent
    (checked between iterations); the recipe's net, or None when the budget stopped it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for stage in recipe.stages:
        if stage_done(recipe, stage, out):
            continue
        if budget is not None and core_hours(recipe, out) >= budget:
            return None
        left = None if budget is None else budget - core_hours(recipe, out)
        if console is not None:
            console.print(f"recipe {recipe.name}: stage {stage.name} ({stage.algo})")
        if stage.algo == "alphazero":
            _run_alphazero(recipe, stage, out, left, actors, device, console)
        elif stage.algo == "dagger":
            _run_dagger(recipe, stage, out, device)
        else:
            _run_one_file(recipe, stage, out, device)
        if not stage_done(recipe, stage, out):
            return None
    return finish(recipe, out)


def _run_alphazero(recipe, stage, out, left, actors, device, console) -> None:
    from tradewinds.training.alphazero.loop import train

    where = stage_dir(out, stage)
    if "continues" in stage.settings and not (where / "state.json").is_file():
        import shutil

        before = Path(_resolved(recipe, stage, out)["continues"])
        shutil.rmtree(where, ignore_errors=True)
        shutil.copytree(before, where)
    over = {"resume": (where / "state.json").is_file(), "device": device}
    if actors and stage.settings.get("iterations", 10):
        over["actors"] = actors
    config = _alphazero_config(recipe, stage, out, **over)
    train(config, console=console, budget_core_hours=left)


def _run_one_file(recipe, stage, out, device) -> None:
    """Its command, writing the stage's one net; the command's own time is its cost."""
    import time

    where = stage_dir(out, stage)
    where.mkdir(parents=True, exist_ok=True)
    settings = _resolved(recipe, stage, out)
    source = settings.pop(ONE_FILE[stage.algo].source)
    argv = [source, "--out", str(one_file(where, stage)), "--device", device,
            *_flags(settings)]
    t0 = time.perf_counter()
    _command(ONE_FILE[stage.algo].module).main(argv)
    ck.write_json(where / "cost.json", {"core_hours": (time.perf_counter() - t0) / 3600})


def _run_dagger(recipe, stage, out, device) -> None:
    """Its rounds into the stage's folder; an interrupted stage resumes after its last
    written round (dagger's --resume)."""
    from tradewinds.training.alphazero import dagger

    where = stage_dir(out, stage)
    settings = _resolved(recipe, stage, out)
    argv = [settings.pop("init"), "--out", str(where), "--device", device, *_flags(settings)]
    if (where / "config.json").is_file():
        argv.append("--resume")
    dagger.main(argv)


def _flags(settings: dict) -> list[str]:
    """Command-line options from stage settings: ``key = true`` a bare flag (false: left
    out), a list its values in turn."""
    argv = []
    for key, value in settings.items():
        flag = f"--{key.replace('_', '-')}"
        if isinstance(value, bool):
            argv += [flag] if value else []
        elif isinstance(value, list):
            argv += [flag, *map(str, value)]
        else:
            argv += [flag, str(value)]
    return argv


def commit() -> str:
    """The repository's commit (with '+changes' when the tree differs), or 'unknown'."""
    root = Path(__file__).resolve().parent.parent

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                              text=True, timeout=30)
    try:
        head = git("rev-parse", "HEAD")
        if head.returncode:
            return "unknown"
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
        return head.stdout.strip() + ("+changes" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def stage_settings(recipe: Recipe) -> list[dict]:
    """Each stage's name, algorithm and settings, in order."""
    return [{"name": s.name, "algo": s.algo, **s.settings} for s in recipe.stages]


def provenance(recipe: Recipe) -> dict:
    """What a net made by `recipe` carries in its metadata: the recipe's name, text and
    stages, the commit, and the search settings `az` plays it with."""
    meta = {"recipe": recipe.name, "recipe_text": recipe.text, "commit": commit(),
            "stages": stage_settings(recipe)}
    if recipe.search:
        meta["search"] = dict(recipe.search)
    return meta


def finish(recipe: Recipe, out: Path) -> Path:
    """`<out>/net.npz`: the ship stage's net with the recipe in its metadata."""
    from tradewinds.agents import pvnet

    source = _output(recipe, out, "@" + recipe.ship, "net")
    weights, config, meta = pvnet.load(source)
    meta = {**meta, "core_hours": round(core_hours(recipe, out), 6), **provenance(recipe)}
    return pvnet.save(Path(out) / "net.npz", weights, config, meta)


def describe(recipe: Recipe) -> str:
    return json.dumps({"name": recipe.name, "game": recipe.game, "players": recipe.players,
                       "ship": recipe.ship, "stages": stage_settings(recipe)}, indent=1)
