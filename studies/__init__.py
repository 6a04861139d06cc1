"""Studies (floor 4 of the layering: ground `tradewinds`, the games, `tradewinds.agents`,
then this): what plays many games between agents and reports on them. The arena (`arena`:
any agents, any game, serial, process pool or Ray, every game into the results store), the
first-player-advantage study (`fpa`, its balance metrics `balance`), the seat advantage
swept over playing strength (`sweep`), head-to-head matches (`match`), rating an agent
against a fixed opponent ladder (`evaluate`, the ladders in ``studies/ladders/``) and a
human seat in the terminal (`play`).

Agents are taken by name (`agents.make_agent`) or as objects; games by name through the
`tradewinds` registry. Nothing below (the ground, the games, agents) imports from here
(tests/core/test_layers.py); the `tradewinds` command (`tradewinds.cli`) reaches these
modules inside its command functions. The study configs declare their command-line options
as fields (`studies.run_fields`, `tradewinds.cli_args.option`).
"""
