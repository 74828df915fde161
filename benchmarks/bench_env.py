"""The environments' speed (``nardy_fast.env``).

Per CPU-second of this process, one thread (``--wall`` for wall-clock seconds):

1. ``VectorEnv`` in the step mode, every game playing a uniformly random legal step
   (``sample_actions``, drawn in C): steps per second, steps per game, games per second,
   at ``--envs`` games side by side (default 1,024) and at 64.
2. The afterstate mode with the net choosing at 0-ply for every game, after 150 warm-up
   batch steps: in C (``policy_actions("net")``, the rollouts' own choice), and in numpy
   (``candidates()`` of all games valued by the rollouts' net, ``Net.outputs``, each
   candidate seen from the opponent on roll, classic cubeless equity ``2 p_win - 1 +
   p_mars_win - p_mars_loss``): games per second, beside the toolkit's own C rollout loop
   playing the same net at 0-ply from the start (``engine._rollout.play_blocks``, one
   thread).
3. The Python environments, random legal actions: Gymnasium ``LongNardyEnv`` (against the
   random opponent; the agent's steps), PettingZoo ``long_nardy_v0`` (steps of both
   agents), OpenSpiel ``python_long_nardy`` (whole turns, random games).
4. Peers on the same machine, backgammon: pgx's (jax on the CPU, batch ``--envs``,
   random legal actions; per CPU-second of this process, all of jax's threads counted),
   and OpenSpiel's C++ game through pyspiel, random games.

Frameworks that are not installed are skipped (``pip install nardy_fast[rl]``).

    python benchmarks/bench_env.py [--seconds 3] [--envs 1024] [--threads 1] [--wall]
"""
import argparse
import os
import platform
import time

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")      # numpy's BLAS threads idle-spin

from nardy_fast import Position                          # noqa: E402
from nardy_fast.core import rng as nrng                  # noqa: E402
from nardy_fast.core.rules import CLASSIC                # noqa: E402
from nardy_fast.engine.play._rollout import play_blocks       # noqa: E402
from nardy_fast.engine.evaluation.evaluator import Evaluator        # noqa: E402
from nardy_fast.engine.play.policy import Policy              # noqa: E402
from nardy_fast.env import VectorEnv                     # noqa: E402

CLOCK = time.process_time


def step_mode(n_envs, seconds, threads, warmup=300):
    """Steps/s, steps per game (the mean length of the games that ended in the timed part,
    counted from their start) and games/s, after ``warmup`` batch steps."""
    env = VectorEnv(n_envs, seed=1, threads=threads)
    env.reset()
    length = np.zeros(n_envs, np.int64)
    for _ in range(warmup):
        length += 1
        term = env.step(env.sample_actions())[2]
        length[term] = 0
    steps, ended = 0, []
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        for _ in range(20):
            term = env.step(env.sample_actions())[2]
            length += 1
            ended.append(length[term].copy())
            length[term] = 0
        steps += 20 * n_envs
    dt = CLOCK() - t0
    ended = np.concatenate(ended)
    return steps / dt, ended.mean(), len(ended) / dt


def net_choice(net, boards, offsets):
    """Each game's candidate of highest equity for the mover: the candidate seen from the
    opponent on roll, its equity negated."""
    out = net.outputs(boards[:, ::-1])
    opp_eq = 2 * out[:, 0] - 1 + out[:, 1] - out[:, 4]
    n = len(offsets) - 1
    game = np.repeat(np.arange(n), np.diff(offsets))
    order = np.lexsort((opp_eq, game))           # per game, the opponent's worst first
    return order[offsets[:-1]] - offsets[:-1]


def afterstate_net(n_envs, seconds, threads, choose, warmup=150):
    """Games/s, turns per game (as ``step_mode`` counts steps) and turns/s of the
    afterstate mode with ``choose(env)`` giving the actions, after ``warmup`` batch
    steps."""
    env = VectorEnv(n_envs, seed=2, mode="afterstate", threads=threads)
    env.reset()
    length = np.zeros(n_envs, np.int64)
    for _ in range(warmup):
        length += 1
        term = env.step(choose(env))[2]
        length[term] = 0
    turns, ended = 0, []
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        for _ in range(10):
            term = env.step(choose(env))[2]
            length += 1
            ended.append(length[term].copy())
            length[term] = 0
        turns += 10 * n_envs
    dt = CLOCK() - t0
    ended = np.concatenate(ended)
    return len(ended) / dt, ended.mean(), turns / dt


def rollout_loop(n_games):
    start = Position.initial()
    policy = Policy.of("net").c_form()
    t0 = CLOCK()
    play_blocks(start.boards, rules=CLASSIC, policies=(policy, policy), side0_white=True,
                dice=None, opening_dice=False, truncate=False, tables=None, entropy=1,
                first_block=0, n_blocks=-(-n_games // nrng.BLOCK_GAMES), n_games=n_games,
                block_games=nrng.BLOCK_GAMES, stratify=True)
    return n_games / (CLOCK() - t0)


def gymnasium_steps(seconds):
    try:
        from nardy_fast.env.gymnasium_env import LongNardyEnv
    except ImportError:
        return None
    env = LongNardyEnv(opponent="random")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if term or trunc:
            obs, _ = env.reset()
    return steps / (CLOCK() - t0)


def pettingzoo_steps(seconds):
    try:
        from nardy_fast.env import long_nardy_v0
    except ImportError:
        return None
    env = long_nardy_v0.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(rng.choice(legal)))
            steps += 1
        env.reset()
    return steps / (CLOCK() - t0)


def spiel_random_games(game, seconds):
    g = np.random.default_rng(1)
    games = decisions = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[g.choice(len(outcomes), p=probs)])
            else:
                acts = state.legal_actions()
                state.apply_action(acts[g.integers(len(acts))])
                decisions += 1
        games += 1
    dt = CLOCK() - t0
    return games / dt, decisions / dt


def pgx_backgammon(batch, seconds):
    """pgx's backgammon on the CPU (jax), random legal actions, batch ``batch`` with
    pgx's auto_reset: micro-steps (one action of one game) per second, after the jit
    compilation (not timed); None when pgx is not installed."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make("backgammon")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(state, key):
        k1, k2 = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits, axis=-1)
        return action, jax.random.split(k2, batch)

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))
    action, keys = act(state, key)
    state = step(state, action, keys)                        # compile
    jax.block_until_ready(state)
    steps = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        for _ in range(10):
            key, sub = jax.random.split(key)
            action, keys = act(state, sub)
            state = step(state, action, keys)
        jax.block_until_ready(state)
        steps += 10 * batch
    return steps / (CLOCK() - t0)


def main():
    global CLOCK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rollout-games", type=int, default=2592)
    ap.add_argument("--wall", action="store_true", help="wall-clock seconds")
    args = ap.parse_args()
    if not 0 < args.seconds < float("inf"):
        ap.error(f"--seconds {args.seconds}: expected a number of seconds > 0")
    for name in ("envs", "threads", "rollout_games"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected >= 1")
    if args.wall:
        CLOCK = time.perf_counter
    unit = "wall-second" if args.wall else "CPU-second"
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"threads={args.threads}, per {unit}")

    for n in (args.envs, 64):
        sps, spg, gps = step_mode(n, args.seconds, args.threads)
        print(f"VectorEnv step mode, {n} games, random legal steps: {sps / 1e6:.2f} M steps/s, "
              f"{spg:.1f} steps per game, {gps:,.0f} games/s")

    net = Evaluator.default().rollout_net
    for how, choose in (("in C (policy_actions)", lambda env: env.policy_actions("net")),
                        ("in numpy (Net.outputs of candidates())",
                         lambda env: net_choice(net, *env.candidates()))):
        gps, tpg, tps = afterstate_net(args.envs, args.seconds, args.threads, choose)
        print(f"VectorEnv afterstate mode, {args.envs} games, net 0-ply chooses {how}: "
              f"{gps:,.0f} games/s ({tpg:.1f} turns per game, {tps:,.0f} turns/s)")
    print(f"toolkit's C rollout loop, net 0-ply, from the start: "
          f"{rollout_loop(args.rollout_games):,.0f} games/s")

    for name, fn in (("Gymnasium LongNardyEnv", gymnasium_steps),
                     ("PettingZoo long_nardy_v0", pettingzoo_steps)):
        r = fn(args.seconds)
        print(f"{name}: " + ("not installed, skipped" if r is None else f"{r:,.0f} steps/s"))
    r = pgx_backgammon(args.envs, args.seconds)
    print(f"pgx backgammon (CPU), batch {args.envs}, random legal actions: " +
          ("not installed, skipped" if r is None else f"{r:,.0f} micro-steps/s"))
    try:
        import pyspiel
        import nardy_fast.env.openspiel  # noqa: F401  (registers the game)
    except ImportError:
        print("OpenSpiel: not installed, skipped")
        return
    gps, dps = spiel_random_games(pyspiel.load_game("python_long_nardy"), args.seconds)
    print(f"OpenSpiel python_long_nardy, random games: {gps:.1f} games/s, {dps:,.0f} turns/s")
    gps, dps = spiel_random_games(pyspiel.load_game("backgammon"), args.seconds)
    print(f"OpenSpiel C++ backgammon through pyspiel, random games: {gps:.0f} games/s, "
          f"{dps:,.0f} decisions/s")


if __name__ == "__main__":
    main()
