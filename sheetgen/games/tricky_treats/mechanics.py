"""Tricky Treats' switchable mechanics, for the report's mechanic check (sheetgen.validate.mechanics):
each a transform of the layout document, read by both engines as they read any sheet."""

from __future__ import annotations

from ...validate.mechanics import Mechanic, edit
from .board import id_power, id_reward


def _power_off(child: str):
    def off(doc):
        kids = [k.model_copy(update={"powers": []}) if k.id == child else k for k in doc.content.children]
        return edit(doc, children=kids)
    return off


def _reward_off(col: int):
    def off(doc):
        rewards = list(doc.content.stash.rewards)
        rewards[col - 1] = rewards[col - 1].model_copy(update={"kind": "none", "needs": None})
        return edit(doc, stash=doc.content.stash.model_copy(update={"rewards": rewards}))
    return off


def _action_off(action: str):
    def off(doc):
        return edit(doc, boonus_actions=[a for a in doc.content.boonus_actions if a != action])
    return off


def mechanics(doc) -> list[Mechanic]:
    c = doc.content
    out = []
    for k in sorted((ch for ch in c.children if ch.powers), key=lambda ch: ch.number):
        name = c.power_texts[k.power].name
        out.append(Mechanic(f"{name} ({k.name})", "power", _power_off(k.id), "no power symbols (powers: [])",
                            tuple(id_power(k.id, j) for j in range(1, len(k.powers) + 1))))
    for i, r in enumerate(c.stash.rewards, 1):
        if r.kind == "none":
            continue
        what = "star" if r.kind == "star" else "cauldron or pyramid"
        ids = (id_reward(i, "star"),) if r.kind == "star" else (id_reward(i, "cauldron"), id_reward(i, "pyramid"))
        out.append(Mechanic(f"stash reward {i} ({what})", "reward", _reward_off(i),
                            "the column gives no reward (kind: none)", ids))
    if len(c.boonus_actions) > 1:
        for a in c.boonus_actions:
            out.append(Mechanic(f"Boo-nus action: {a}", "reward", _action_off(a),
                                "a full Boo-nus row no longer offers it"))
    out.append(Mechanic("chocolate bars", "reward", lambda d: edit(d, points_bar=0), "every bar scores 0"))
    out.append(Mechanic("scare penalty", "penalty", lambda d: edit(d, points_scared=0),
                        "a scared child costs nothing"))
    return out
