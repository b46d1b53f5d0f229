"""The glossary of every statistic a summary, report or comparison shows: what it means, how it
is computed, and the test behind each p-value. One source: docs/glossary.md is generated from
`TERMS` (`python -m cardsim.analysis.glossary > docs/glossary.md`; a test keeps them equal) and
the HTML report embeds the same entries."""
from __future__ import annotations

TERMS: tuple[tuple[str, str, str], ...] = (
    ("verdict",
     "The first line of a summary: the largest seat (side, in a partnership game) or first-player effect that is "
     "significant, in plain words, or that none is, with the smallest effect the sample would have detected; it "
     "names its test and correction, and says so when points and wins point in opposite directions.",
     "Each side's (or seat's) and each position's mean advantage is tested against 0 with a two-sided t test; "
     "the k p-values are adjusted with Holm's step-down correction (the 'Holm p' column; with two sides, seats "
     "or position groups the two rows, +a and -a, are one test, and the gap between their win rates is tested "
     "too: the per-deal difference of the two win indicators, t test), and an effect is "
     "significant when its Holm p < 0.05 (5% family-wise error). The detectable effect is 2.8 standard errors "
     "of the advantage (80% power, two-sided 5% level). Balance is measured between the run's agents only."),
    ("return",
     "What a seat scores in one deal (or match), in the game's unit (points, chips, game points, rank levels).",
     "Reported by the game's kernel at the end of the deal; see the game's rules document in docs/rules/."),
    ("mean return",
     "The average return of a seat (or side) per deal, with its 95% confidence interval.",
     "Student t interval: mean ± t(0.975, n-1) · sd / √n."),
    ("win rate",
     "The share of deals a seat (or side) wins. The winners of a deal are the seats with the highest return; "
     "partners share a win. A deal in which every seat has the same return is a draw and nobody wins it.",
     "Wilson score interval (95%) for a proportion."),
    ("side",
     "In a partnership game, partners score the same return in every deal; the summary then shows one row per "
     "side (its seats listed) instead of repeating identical rows.",
     "Seats whose returns are identical in every deal of the run (zero variance of the difference) form a side."),
    ("advantage",
     "A seat's mean return minus the table average (the mean of all seats' returns) per deal: positive means "
     "the seat is favoured.",
     "Per-deal contrast x_p − mean(x); t interval, two-sided one-sample t test of mean 0 (the advantage p)."),
    ("advantage p",
     "The p-value of a seat's (or position's) advantage: the probability of an advantage at least this large "
     "if the seat were not favoured. Written \"< 1e-300\" when below the smallest printable double.",
     "Two-sided one-sample t test on the per-deal advantage."),
    ("first-player advantage",
     "The advantage of the seat that acts first in the deal (and, by position, of each seat after it), "
     "whichever seat that is: it separates the effect of moving first from the effect of a fixed seat.",
     "Returns relabelled by their offset from the deal's first player, then the same contrast and t test as "
     "the advantage."),
    ("seat balance",
     "Whether all seats (or positions) have the same mean return.",
     "Hotelling T² test on the P−1 contrasts x_p − x_(P−1), with the covariance's pseudo-inverse and its rank "
     "as degrees of freedom (partners' identical returns make it singular); F distribution."),
    ("balance",
     "1 minus the gap between the highest and the lowest win rate (Ludii's \"Balance\"): 1 means every seat wins "
     "equally often.",
     "Computed from the win rates; no test (see seat balance)."),
    ("win-rate gap",
     "The highest win rate minus the lowest.",
     "Computed from the win rates."),
    ("drawishness",
     "The share of deals that are draws (every seat the same return).",
     "Wilson interval."),
    ("actions per deal",
     "How many actions (bids, plays, choices, including forced ones) a deal takes.",
     "Mean with a t interval."),
    ("decisions per deal",
     "Actions taken with more than one legal choice.",
     "Mean with a t interval."),
    ("branching factor",
     "The average number of legal actions per turn, forced turns counting 1.",
     "Ratio of totals (legal actions summed over turns / turns) with a delta-method 95% interval."),
    ("branching at decisions",
     "The average number of legal actions at turns with a real choice.",
     "Ratio of totals with a delta-method interval."),
    ("decision share",
     "The share of turns with more than one legal action (Ludii's \"DecisionMoves\").",
     "Ratio of totals (decisions / actions) with a delta-method interval."),
    ("running standing",
     "Who is ahead mid-deal: each game's provisional score, per seat (partners share their side's figure), "
     "equal to the returns once the deal ends. Hearts: the penalty points taken so far (fewest ahead); Joffre "
     "Whist: the declaring team's progress toward its contract against the defenders' toward setting it; "
     "Karnöffel: the tricks each team has won (3 win the deal); Gleek: the chips won so far (its returns, which "
     "move during the deal); Exposure: the deal's points as if it ended now (tricks, melds, the contract bonus); "
     "Basra: the points captured so far (card points, basras, the majority bonus); Tien Gow: the tricks "
     "credited so far (a chip less owed each) plus any bonus paid; Six Tigers: each player's count toward the 6 "
     "that claims the round; Zhao Pengyou: the game points the deal would give now (the declarer's side leads "
     "while the opposition's points stay below the first threshold); Samba: the points on the table (melds, "
     "canasta bonuses, red threes). Each game's info.py states it as STANDING.",
     "The game's vt.standing (its _spec.pyx), read through State.standing(); the returns at a terminal state and "
     "in a game without one."),
    ("lead changes",
     "How often the leading seat or side changes during a deal or match (a tie keeping the old leader among the "
     "leaders does not count).",
     "Counted by the kernel from the running standing after every action; mean with a t interval."),
    ("decided before the last round",
     "The share of deals whose winners (the seats with the highest returns at the end) already led on the "
     "running standing, and kept the lead, before each seat's last action (in a trick game: before the last "
     "trick), and how far into the deal that happened. Not measured in a configuration whose running standing "
     "stayed level until the deal ended.",
     "From the kernel's lead_from (the actions after which the final leaders held the lead for good on the "
     "running standing): lead_from <= actions - players, share with a Wilson interval; lead_from / actions, "
     "mean with a t interval."),
    ("category metric",
     "A game measure whose values are labels (declarer, strain, trump suit, winning team): shown as a frequency "
     "table, never averaged.",
     "Share of deals per label with a Wilson interval."),
    ("numeric metric",
     "A game measure that is a count or an amount (level, tricks, points): mean, sd, range and histogram. "
     "A measure that has the same value in every deal is left out (listed as constant).",
     "Mean with a t interval."),
    ("paired comparison",
     "Two runs of the same game over the same seed and deal indices (two variants, option values or agent "
     "line-ups on the same deals): differences are taken deal by deal (common random numbers), which gives "
     "much tighter intervals.",
     "Paired t interval and test on the per-deal differences."),
    ("independent comparison",
     "Two runs of one game that do not share their deals (different seeds or deal counts, or summaries "
     "only). Runs of different games are not compared at all.",
     "Welch's t test for means; Newcombe's hybrid (Wilson) interval and a two-proportion z test for rates."),
    ("skill gain",
     "How much a stronger agent gains over a weaker one at each seat, on the same deals (restricted-play "
     "balance analysis, Jaffe et al. 2012); in sd units it compares games.",
     "Paired t interval and test on the per-deal gain."),
)


def anchor(term: str) -> str:
    return "g-" + "".join(c if c.isalnum() else "-" for c in term.lower())


def markdown() -> str:
    out = ["# Glossary of cardsim's statistics", "",
           "What every number in `summary()`, `cardsim report` and `cardsim compare` means, how it is computed, "
           "and the test behind each p-value. All intervals are 95%. Generated from "
           "`cardsim.analysis.glossary` (`python -m cardsim.analysis.glossary > docs/glossary.md`).", ""]
    for term, meaning, how in TERMS:
        out += [f"## {term}", "", meaning, "", f"*How:* {how}", ""]
    return "\n".join(out)


def html() -> str:
    import html as _h

    rows = [f"<dt id='{anchor(t)}'>{_h.escape(t)}</dt><dd>{_h.escape(m)} <i>How:</i> {_h.escape(h)}</dd>"
            for t, m, h in TERMS]
    return "<dl class='glossary'>" + "".join(rows) + "</dl>"


if __name__ == "__main__":  # pragma: no cover
    print(markdown(), end="")
