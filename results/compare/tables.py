"""The comparison's tables, one function per part of the report that ``compare`` compares
(results/parts.py ``compare``): each takes the two studies' summaries (``Pair``) and gives
``{table: rows}``, a row per matchup, task or card with A's and B's rates and the difference
B − A. ``results.compare.compare`` marks each table's significant rows (Holm)."""

from dataclasses import dataclass

from results import stats
from results.analysis.groups import group_index


def group_key(g) -> tuple:
    """A group as both studies name it: its mode and policy pairing."""
    return (g["mode"], g["pairing"])


@dataclass
class Pair:
    """The two summaries compared: ``sa`` (A, the baseline) and ``sb`` (B, its decks read as
    A's), and ``ga``, ``gb``: the groups both hold, by ``group_key``."""

    sa: dict
    sb: dict
    ga: dict
    gb: dict

    def label(self, k) -> str:
        a, b = self.ga[k], self.gb[k]
        if a["policies"] == b["policies"]:
            return a["label"]
        return f"{a['mode_label']} · {' vs '.join(a['policies'])} → {' vs '.join(b['policies'])}"

    def by_group(self, key: str, side: str) -> dict:
        """Summary ``key``'s entries of one side (``a`` or ``b``) by group, for common groups."""
        src = self.sa if side == "a" else self.sb
        gi = group_index(src)
        return {
            group_key(gi[x["group"]]): x for x in src[key] if group_key(gi[x["group"]]) in self.ga
        }

    def both_display(self) -> bool:
        """Is the task display recorded in both studies?"""
        return bool(self.sa["tasks"]["display_recorded"] and self.sb["tasks"]["display_recorded"])


def row(label, key, ka, na, kb, nb, **extra) -> dict:
    """One comparison of a rate: A's and B's proportions and the difference B − A."""
    return {
        "label": label,
        "key": key,
        "a": stats.proportion(ka, na),
        "b": stats.proportion(kb, nb),
        "diff": stats.difference(kb, nb, ka, na),
        **extra,
    }


def matchups(pair: Pair) -> dict:
    """Each matchup's win rate (decisive games) and draw rate, each experiment once."""
    wins, draws = [], []
    ma_, mb_ = pair.by_group("matchups", "a"), pair.by_group("matchups", "b")
    for k in pair.ga:
        if k not in ma_ or k not in mb_:
            continue
        cells_b = {(c["deck"], c["opp_deck"]): c for c in mb_[k]["cells"]}
        order = ma_[k]["decks"]
        for c in ma_[k]["cells"]:
            a_, b_ = c["deck"], c["opp_deck"]
            if pair.ga[k]["symmetric"] and order.index(a_) > order.index(b_):
                continue
            cb = cells_b.get((a_, b_))
            if cb is None:
                continue
            ra, rb = c["combined"], cb["combined"]
            what = f"{pair.label(k)}: {a_} vs {b_}" + (
                " (mirror: first mover)" if c["mirror"] else ""
            )
            key = [k[0], k[1], a_, b_]
            won = ra["wins"], ra["decisive"], rb["wins"], rb["decisive"]
            drew = ra["draws"], ra["games"], rb["draws"], rb["games"]
            wins.append(row(what, key, *won, metric="win rate (decisive games)"))
            draws.append(row(what, key, *drew, metric="draw rate"))
    return {"matchups": wins, "draws": draws}


def first_player(pair: Pair) -> dict:
    """The first mover's win rate per group."""
    first = []
    fa, fb = pair.by_group("first_player", "a"), pair.by_group("first_player", "b")
    for k in pair.ga:
        ra, rb = fa[k]["first_mover"], fb[k]["first_mover"]
        first.append(
            row(
                pair.label(k),
                list(k),
                ra["wins"],
                ra["decisive"],
                rb["wins"],
                rb["decisive"],
                metric="first mover win rate",
            )
        )
    return {"first_player": first}


def tasks(pair: Pair) -> dict:
    """Each task's claim rate per game; with the display recorded in both studies, also the
    share of games in which it was shown and its claim rate given shown."""
    claimed, shown, given = [], [], []
    display = pair.both_display()
    ta = {group_key(group_index(pair.sa)[x["group"]]): x for x in pair.sa["tasks"]["groups"]}
    tb = {group_key(group_index(pair.sb)[x["group"]]): x for x in pair.sb["tasks"]["groups"]}
    for k in pair.ga:
        if k not in ta or k not in tb:
            continue
        rows_b = {r["task"]: r for r in tb[k]["tasks"]}
        names = [r["task"] for r in ta[k]["tasks"]]
        names += [t for t in rows_b if t not in names]
        rows_a = {r["task"]: r for r in ta[k]["tasks"]}
        for t in names:
            a_, b_ = rows_a.get(t), rows_b.get(t)
            only = None if (a_ and b_) else ("A" if a_ else "B")
            label, key = f"{pair.label(k)}: {t}", [k[0], k[1], t]
            claimed.append(
                row(
                    label,
                    key,
                    a_["claim_rate"]["k"] if a_ else 0,
                    ta[k]["games"] if a_ else 0,
                    b_["claim_rate"]["k"] if b_ else 0,
                    tb[k]["games"] if b_ else 0,
                    metric="claim rate per game",
                    only_in=only,
                )
            )
            if not display:
                continue
            none = {"k": 0, "n": 0}
            for out, field, metric in (
                (shown, "shown", "share of games in which the task was shown"),
                (given, "claimed_given_shown", "claim rate given shown"),
            ):
                ra = a_[field] if a_ else none
                rb = b_[field] if b_ else none
                out.append(
                    row(label, key, ra["k"], ra["n"], rb["k"], rb["n"], metric=metric, only_in=only)
                )
    if not display:
        return {"tasks": claimed}
    return {"tasks": claimed, "tasks_shown": shown, "tasks_given_shown": given}


def cards(pair: Pair) -> dict:
    """Each card's played rate per seat-game and win rate when played; a card side is a
    policy, matched by position when the policies differ."""
    played, win_played = [], []
    gia, gib = group_index(pair.sa), group_index(pair.sb)
    ca = {(group_key(gia[x["group"]]), x["side"]): x for x in pair.sa["cards"]["groups"]}
    cb = {(group_key(gib[x["group"]]), x["side"]): x for x in pair.sb["cards"]["groups"]}
    for key in ca:
        k, side = key
        if k not in pair.ga:
            continue
        other = cb.get(key)
        if other is None and side is not None:
            pos = pair.ga[k]["policies"].index(side)
            other = cb.get((k, pair.gb[k]["policies"][pos]))
        if other is None:
            continue
        rows_b = {r["card"]: r for r in other["cards"]}
        rows_a = {r["card"]: r for r in ca[key]["cards"]}
        names = list(rows_a) + [c for c in rows_b if c not in rows_a]
        lab = pair.label(k) + (f" · cards of {side}" if side else "")
        for card in names:
            a_, b_ = rows_a.get(card), rows_b.get(card)
            only = None if (a_ and b_) else ("A" if a_ else "B")
            label, rkey = f"{lab}: {card}", [k[0], k[1], side, card]
            pa_ = a_["played"] if a_ else {"k": 0, "n": 0}
            pb_ = b_["played"] if b_ else {"k": 0, "n": 0}
            wa = a_["when_played"] if a_ else {"wins": 0, "decisive": 0}
            wb = b_["when_played"] if b_ else {"wins": 0, "decisive": 0}
            for out, counts, metric in (
                (played, (pa_["k"], pa_["n"], pb_["k"], pb_["n"]), "played rate per seat-game"),
                (
                    win_played,
                    (wa["wins"], wa["decisive"], wb["wins"], wb["decisive"]),
                    "win rate when played",
                ),
            ):
                out.append(row(label, rkey, *counts, metric=metric, only_in=only))
    return {"cards_played": played, "cards_win_when_played": win_played}
