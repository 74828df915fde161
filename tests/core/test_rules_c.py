"""Rules -> the C struct ``rules_t`` in one place (``_rules.pyx``, ``Rules.codes``)."""
from itertools import product

import pytest

from nardy_fast import Rules
from nardy_fast.core._rules import rules_codes  # private on purpose: the C rules_t codes
from nardy_fast.core.rules import CHOICES, CUBE_FIELDS, FLAGS, OUTCOMES

# every combination of the cubeless fields, then every cube with the cube flags (beaver and
# autodouble need a cube)
NAMES = [n for n in list(CHOICES) + list(FLAGS) if n not in CUBE_FIELDS]
VARIANTS = [Rules(**dict(zip(NAMES, values)))
            for values in product(*[CHOICES.get(n, (False, True)) for n in NAMES])]
VARIANTS += [Rules(cube=cube, beaver=beaver, autodouble=auto, draw_rule=True)
             for cube in CHOICES["cube"][1:] for beaver in (False, True)
             for auto in (False, True)]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.to_text())
def test_every_field_reaches_the_c_struct(rules):
    c = rules_codes(rules)
    assert c == rules.codes()                       # no field lost or added on the way
    for name, allowed in CHOICES.items():
        assert c[name] == allowed.index(getattr(rules, name))
    for name in FLAGS:
        assert c[name] == int(getattr(rules, name))
    for kind in OUTCOMES:
        assert c[f"pts_{kind}"] == rules.points(kind)


def test_none_dict_and_text_give_the_same_struct():
    assert rules_codes(None) == rules_codes(Rules()) == rules_codes({}) == \
        rules_codes("classic")
    r = Rules(head_rule="generalized", scoring="extended", koks_points=5)
    assert rules_codes(r.to_dict()) == rules_codes(r) == rules_codes(Rules.from_text(r.to_text()))
    with pytest.raises(ValueError, match="head_rule"):
        rules_codes({"head_rule": "clasic"})
