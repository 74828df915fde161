"""``Evaluator.default(rules)``: the shipped net trained under the rules' move rules, or
the classic one with a ``RulesFallbackWarning`` that names what it was trained under."""
import os
import shutil
import warnings

import pytest

import nardy_fast as nf
from nardy_fast.engine.evaluation import evaluator as evmod, nets
from nardy_fast.engine.evaluation._net import Net
from nardy_fast.engine.evaluation.evaluator import Evaluator, RulesFallbackWarning
from nardy_fast.training.supervised import deepen, widen


@pytest.fixture
def fresh_cache(monkeypatch):
    monkeypatch.setattr(evmod, "_CACHE", {})
    monkeypatch.setattr(nets, "_CACHE", {})


def test_no_rules_is_the_classic_net_and_scoring_variants_share_it(fresh_cache):
    classic = Evaluator.default()
    assert classic is Evaluator.default() and classic.rules == nf.Rules()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RulesFallbackWarning)
        for rules in (nf.Rules(scoring="extended"), nf.Rules(draw_rule=True),
                      nf.Rules(opening_roll="opening_dice"), nf.Rules(cube="geometric")):
            ev = Evaluator.default(rules)
            assert ev.net is classic.net and ev.rules == rules
            assert "fallback" not in ev.meta


def test_other_move_rules_fall_back_with_a_warning(fresh_cache, monkeypatch):
    monkeypatch.setattr(nets, "shipped_nets", lambda: {"net_classic.nfdb": nf.Rules()})
    rules = nf.Rules(block_rule="none")
    with pytest.warns(RulesFallbackWarning, match="block_rule"):
        ev = Evaluator.default(rules)
    assert ev.net is Evaluator.default().net and ev.rules == rules
    assert ev.meta["fallback"]["block_rule"] == "ahead"
    with warnings.catch_warnings():                     # said once per rules
        warnings.simplefilter("error", RulesFallbackWarning)
        assert Evaluator.default(rules) is ev


def test_a_net_shipped_for_the_move_rules_is_picked(fresh_cache, monkeypatch, tmp_path):
    shutil.copy(evmod.DEFAULT_NET, tmp_path / "net_classic.nfdb")
    variant = nf.Rules(block_rule="home")
    Evaluator(Net.random(16, 5), rules=variant,
              meta={"training": {"rules": variant.to_dict()}}).save(tmp_path / "net_home.nfdb")
    monkeypatch.setattr(nets, "DATA", str(tmp_path))
    monkeypatch.setattr(nets, "DEFAULT_NET", str(tmp_path / "net_classic.nfdb"))
    assert list(nets.shipped_nets()) == ["net_classic.nfdb", "net_home.nfdb"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RulesFallbackWarning)
        ev = Evaluator.default(nf.Rules(block_rule="home", scoring="extended"))
    assert ev.net.n_hidden == 16 and ev.rules.scoring == "extended"
    assert ev.net is not Evaluator.default().net
    assert Evaluator.default(nf.Rules()).net is Evaluator.default().net


def test_the_classic_net_is_the_only_shipped_one_and_serves_every_variant(fresh_cache):
    """The look-ahead-trained classic net beats the nets once trained under
    ``block_rule="home"`` and ``head_rule="generalized"`` under their own rules
    (benchmarks/RESULTS.md), so it alone ships; other move rules get it with the warning."""
    assert list(evmod.shipped_nets()) == ["net_classic.nfdb"]
    for rules in (nf.Rules(block_rule="home"), nf.Rules(head_rule="generalized")):
        with pytest.warns(RulesFallbackWarning):
            ev = Evaluator.default(rules)
        assert ev.net is Evaluator.default().net and ev.rules == rules


def test_the_classic_evaluator_judges_with_the_wider_net_and_rolls_out_with_v7(fresh_cache):
    """The shipped classic evaluator: the wider two-layer net (``net_classic.nfdb``)
    judges; v7 (``rollout_classic.nfdb``, the judge up to the change after 0.3.0) plays
    the game loops, the cube rollouts' model among them; both come with every rules'
    default.  The lineage is in the files: the judge is the mean of rounds of a
    ``train-net --hidden`` run from v7, fine-tuned on rollouts (``train-rollouts``), and
    v7 was deepened from the one-layer net (``onelayer_classic.nfdb``, ``ONE_LAYER_NET``),
    which plays nothing by default."""
    from nardy_fast.engine.play import rollout as rollout_mod
    ev = Evaluator.default()
    v7 = Evaluator.load(os.path.join(nets.DATA, "rollout_classic.nfdb"))
    assert nets.rollout_file("net_classic.nfdb") == "rollout_classic.nfdb"
    assert nets.rollout_file("onelayer_classic.nfdb") is None
    assert ev.rollout_net is not ev.net and ev.rollout_net.digest() == v7.net.digest()
    assert ev.net.n_hidden > v7.net.n_hidden and ev.net.n_hidden2 > 0
    assert ev.rollout_evaluator().net is ev.rollout_net
    t = ev.meta["training"]                     # fine-tuned on rollouts, by v7, of
    assert t["method"] == "rollout labels"      # positions of its games and others'
    assert t["games"] > 0 and set(t["positions"]) == {"self-play", "greedy", "noisy", "net1"}
    t = t["init"]                               # from the mean of rounds of one run from v7
    assert t["method"] == "average" and len(t["sources"]) >= 2
    assert len({s["rounds_done"] for s in t["sources"]}) == len(t["sources"])
    for s in t["sources"]:
        assert s["init"] == widen(v7.net, s["hidden"], s["seed"]).digest()
        assert (s["hidden"], s["hidden2"]) == (ev.net.n_hidden, ev.net.n_hidden2)
    one = Evaluator.load(nets.ONE_LAYER_NET).net
    assert one.n_hidden2 == 0
    t = v7.meta["training"]                     # v7: deepened, then rounds
    assert deepen(one, t["hidden2"], t["seed"]).digest() == t["init"]
    for rules in (nf.Rules(scoring="extended"), nf.Rules(block_rule="home")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RulesFallbackWarning)
            other = Evaluator.default(rules)
        assert other.net is ev.net and other.rollout_net is ev.rollout_net
    cube = rollout_mod._cube_arrays((False, 1, -1, False, None), nf.Rules(cube="geometric"))
    assert cube.probabilities is ev.rollout_net
