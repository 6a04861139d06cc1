"""Each command's options are declared once, as fields of its config dataclasses
(`tradewinds.cli_args.option`), and the parser is built from them: for every command, what
the parser gives for an option that is not typed is the API's default."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from tradewinds import cli_args
from tradewinds.cli import main as cli
from tradewinds.cli import options
from tradewinds.cli_args import option

COMMANDS = [c for c in cli.COMMANDS if not getattr(cli.command(c), "HANDS_OVER", False)]


def _parser(name):
    return cli.build_parser(name).subcommands[name]


def _compared(name) -> dict:
    """(class, field) -> (parser's value when not given, the field's default), for every
    field of the command's configs that the parser has an option for (a field a config
    shares with another, unmarked, included)."""
    parser = _parser(name)
    classes = cli.command(name).configs()
    out, given = {}, {}
    for cls in classes:
        for dest, (value, default) in options.defaults(parser, cls).items():
            out[cls.__name__, dest] = (value, default)
            given.setdefault(dest, value)
    for cls in classes:
        for f in dataclasses.fields(cls):
            default = options.field_default(f)
            if f.name in given and (cls.__name__, f.name) not in out \
                    and default is not options.NO_DEFAULT:
                out[cls.__name__, f.name] = (given[f.name], default)
    return out


@pytest.mark.parametrize("name", COMMANDS)
def test_the_parsers_defaults_are_the_configs_defaults(name):
    compared = _compared(name)
    assert len(compared) >= 2, compared
    differ = {k: v for k, v in compared.items() if v[0] != v[1]}
    assert not differ, f"tradewinds {name}: parser default != config default: {differ}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_marked_field_is_an_option_with_help(name):
    parser = _parser(name)
    actions = {a.dest: a for a in parser._actions}
    for cls in cli.command(name).configs():
        for dest, _, spec in options.marked_fields(cls):
            assert dest in actions, (name, cls.__name__, dest)
            assert actions[dest].help and spec.help, (name, dest)


def test_a_differing_default_is_caught():
    """The comparison has teeth: a repeatable option whose conversion of "not given"
    differs from the field's default, and two configs sharing a field with two defaults."""

    @dataclasses.dataclass
    class Loose:
        tags: dict | None = option(None, help="tags", repeat=True, convert=lambda x: {})
        level: int = option(3, type=int, help="level")

    @dataclasses.dataclass
    class Other:
        level: int = option(4, type=int, help="level")

    parser = cli.ArgumentParser(prog="t")
    options.add_fields(parser, Loose)
    assert options.defaults(parser, Loose) == {"tags": ({}, None), "level": (3, 3)}
    with pytest.raises(TypeError, match=r"Other.level defaults to 4, another config to 3"):
        options.add_fields(cli.ArgumentParser(prog="t"), Loose, Other)


def test_the_config_is_built_from_what_was_typed():
    from tradewinds.studies.fpa import FpaConfig, SprtConfig

    parser = _parser("fpa")
    args = parser.parse_args(["hansa", "--seed", "7", "--no-fast", "--sprt", "--delta", "0.1",
                              "--option", "max_rounds=5", "--agent-kwargs", "mcts:50:c=2"])
    args.argv = []
    config = options.config(args, FpaConfig)
    assert (config.base_seed, config.fast, config.options) == (7, False, {"max_rounds": 5})
    assert config.sprt == SprtConfig(True, 0.1, 0.05, 0.2)
    assert config.agent_kwargs == {"mcts:50": {"c": 2}}
    default = options.config(parser.parse_args(["hansa"]), FpaConfig)
    assert default == FpaConfig("hansa")


def test_a_command_loads_only_its_own_options():
    """`tradewinds demo` does not build the study parsers (nor import their modules)."""
    parser = cli.build_parser("demo")
    assert any(a.dest == "games" for a in parser.subcommands["demo"]._actions)
    fpa = [a.dest for a in parser.subcommands["fpa"]._actions]
    assert fpa == ["help"]


@pytest.mark.parametrize("typed,steps", [("300000", 300_000), ("300k", 300_000),
                                         ("1.5M", 1_500_000), ("2_000", 2000)])
def test_step_counts_take_k_and_m(typed, steps):
    """`train --steps` and `tune --trial-steps` read 300k or 1.5M as `exploit --budget`
    does."""
    assert cli_args.steps_at_least(1)(typed) == steps
    args = _parser("train").parse_args(["hansa", "--steps", typed])
    assert args.steps == steps
    args = _parser("tune").parse_args(["hansa", "--trial-steps", typed])
    assert args.trial_steps == steps


@pytest.mark.parametrize("typed", ["1.5k5", "0.5", "-3", "2G", "", "1e6"])
def test_a_bad_step_count_names_what_was_typed(typed):
    with pytest.raises(argparse.ArgumentTypeError, match="whole number of steps|at least"):
        cli_args.steps_at_least(1)(typed)
