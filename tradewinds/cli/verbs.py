"""Commands that hand their arguments over to an existing command line, grouped by verb.

`tradewinds bench compare A B` is `benchmarks.compare.main(["A", "B"], prog="tradewinds
bench compare")`: the target keeps its own parser, so its options are declared once, and
its usage and errors name what the user typed. A `Verb` names the target's main
("module:function", imported on use so that `tradewinds --help` stays light) and the
arguments put before the user's (a sub-command of the target). `python -m <module>` runs
the same main under its own name, for the internals and the lab.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from dataclasses import dataclass
from importlib import import_module

from tradewinds.cli_args import EXIT_ERROR, EXIT_INTERRUPTED


@dataclass(frozen=True)
class Verb:
    """One verb of a group: `name` as typed, the `target` main it hands over to."""

    name: str
    target: str
    help: str
    before: tuple[str, ...] = ()


def hand_over(verb: Verb, argv: list[str], prog: str) -> int:
    """Run the verb's main on `argv` under the name `prog` (a main without a `prog`
    parameter keeps its own); its exit status (an argparse exit included), and 130 with
    one line on Ctrl-C."""
    module, _, function = verb.target.partition(":")
    main = getattr(import_module(module), function or "main")
    named = {"prog": prog} if "prog" in inspect.signature(main).parameters else {}
    try:
        code = main([*verb.before, *argv], **named)
    except SystemExit as e:          # --help (0), argument errors (2), exits with a text
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    return code or 0


def overview(prog: str, about: str, verbs: tuple[Verb, ...], default: str | None = None) -> str:
    """The group's --help: what it is and one line per verb."""
    width = max(len(v.name) for v in verbs)
    wrap = textwrap.TextWrapper(width=88, subsequent_indent=" " * (width + 4))
    tail = f"{prog} VERB --help for a verb's options"
    if default:
        tail += f"; with no verb named, {prog} runs {default}"
    lines = [f"usage: {prog} {'[VERB]' if default else 'VERB'} [ARGUMENTS ...]", "",
             textwrap.fill(about, 88), "", "verbs:"]
    lines += [wrap.fill(f"  {v.name:<{width}}  {v.help}") for v in verbs]
    return "\n".join(lines + ["", textwrap.fill(tail + ".", 88)])


def run_group(prog: str, about: str, verbs: tuple[Verb, ...], argv: list[str],
              default: str | None = None) -> int:
    """`prog VERB ...`: hand the rest over to the verb. -h/--help: the overview (and the
    default verb's options, when it has one). No verb named: the default verb takes every
    argument, or a one-line error naming the verbs."""
    by_name = {v.name: v for v in verbs}
    if argv and argv[0] in by_name:
        return hand_over(by_name[argv[0]], argv[1:], f"{prog} {argv[0]}")
    if argv[:1] in (["-h"], ["--help"]):
        print(overview(prog, about, verbs, default))
        if default:
            print(f"\nwith no verb named ({default}):", flush=True)
            return hand_over(by_name[default], ["--help"], prog)
        return 0
    if default:
        return hand_over(by_name[default], argv, prog)
    named = f"unknown verb {argv[0]!r}" if argv else "name a verb"
    print(f"{prog}: error: {named}; its verbs: {', '.join(by_name)} (see {prog} --help)",
          file=sys.stderr)
    return EXIT_ERROR
