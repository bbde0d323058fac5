"""What each player needs, as sentences (the command line's `tiebreak scenarios`):

    Kira finishes 1st if Kira wins, or Kira draws and Hugo does not beat Ana.

Every text is in TEXTS, in one place: each a message of the catalogue (texts/), rendered in the
language being made (`--lang`, the locale).
"""

from __future__ import annotations

from ..texts.catalogue import current
from ..texts.message import msg, text_id
from ..wire import scenarios as w

# why a solver's answer lists no `needs` (PlaceNeeds.needs_omitted)
NEEDS_OMITTED = text_id(
    "not listed past the games enumeration takes: `needs` names every combination of results, which grows "
    "as 3^games; `example` is one outcome that reaches the place"
)


TEXTS = {
    "place_1": text_id("finishes 1st"),
    "place_n": text_id("finishes in the top {place}"),
    "if": text_id("{name} {place} if {needs}."),
    "or": text_id(", or "),
    "and": text_id(" and "),
    "always": text_id("{name} {place} whatever the results."),
    "never": text_id("{name} cannot finish in the top {places}."),
    "never_1": text_id("{name} cannot finish 1st."),
    "ranks": text_id("{name}: best rank {best}, worst rank {worst}"),
    "clinched": text_id("; sure of the top {place}"),
    "clinched_1": text_id("; sure of 1st place (alone or shared)"),
    # a solver's answer (SPEC 3.11.1): a place is possible (with one outcome reaching it) or not;
    # the example is written as `--assume` takes it, start numbers and 1-0, 1/2, 0-1
    "possible_1": text_id("{name} can finish 1st, for example: {example}."),
    "possible_n": text_id("{name} can finish in the top {place}, for example: {example}."),
    "unsettled": text_id("{name}: whether the top {places} can be reached was not settled in time."),
    # by_own_result (SPEC 3.11.1): the place again with the player's own game won, drawn or lost
    "by_own": text_id("if {name} wins: {win}; draws: {draw}; loses: {loss}"),
    "own_certain": text_id("certain"),
    "own_possible": text_id("possible"),
    "own_impossible": text_id("out of reach"),
    "own_undecided": text_id("not settled in time"),
    "header_solver": text_id(
        "{games} open games ({outcomes} outcomes) answered by the solver; what each place takes is left out: {why}"
    ),
    "header_solver_needs": text_id("{games} open games ({outcomes} outcomes) answered by the solver"),
    "needs_omitted": NEEDS_OMITTED,
    "header": text_id("{outcomes} outcomes of {games} open games examined; {ranked} of them needed the tie-breaks"),
    # `contenders_only` after every player was too long to answer (decision 0300)
    "contenders_only": text_id(
        "Answering every player would take too long: answered for the players who can still reach the places"
        " on points ({n}); the others ({out}) cannot reach them whatever the results."
    ),
    # a condition on the player's own game, by the results allowed from their side
    "own_win": text_id("{me} wins"),
    "own_draw": text_id("{me} draws"),
    "own_loss": text_id("{me} loses"),
    "own_not_loss": text_id("{me} does not lose"),
    "own_not_win": text_id("{me} does not win"),
    "own_not_draw": text_id("{me} does not draw"),
    # a condition on another game, from white's side
    "white_wins": text_id("{white} beats {black}"),
    "black_wins": text_id("{black} beats {white}"),
    "drawn": text_id("{white} and {black} draw"),
    "white_not_loss": text_id("{black} does not beat {white}"),
    "black_not_loss": text_id("{white} does not beat {black}"),
    "not_drawn": text_id("{white} and {black} do not draw"),
}


def _t(key: str, **args: object) -> str:
    """TEXTS[key] with its arguments, in the language being made."""
    return current(msg(TEXTS[key], **args))


# results allowed, from the side of the player the condition is read for -> text key
_OWN = {
    ("win",): "own_win",
    ("draw",): "own_draw",
    ("loss",): "own_loss",
    ("draw", "win"): "own_not_loss",
    ("draw", "loss"): "own_not_win",
    ("loss", "win"): "own_not_draw",
}
_OTHER = {
    ("white",): "white_wins",
    ("black",): "black_wins",
    ("draw",): "drawn",
    ("draw", "white"): "white_not_loss",
    ("black", "draw"): "black_not_loss",
    ("black", "white"): "not_drawn",
}
_SIDE = {
    "white": {"white": "win", "draw": "draw", "black": "loss"},
    "black": {"white": "loss", "draw": "draw", "black": "win"},
}


def condition_text(condition: w.Condition, player: int, names: dict[int, str], own: bool = True) -> str:
    """One condition, read from `player`'s side when it is their game (`own`: the rows are players,
    not teams, whose ids are no start numbers)."""
    if own and player in (condition.white, condition.black):
        side = "white" if player == condition.white else "black"
        key = _OWN[tuple(sorted(_SIDE[side][r] for r in condition.results))]
        return _t(key, me=names[player])
    key = _OTHER[tuple(sorted(condition.results))]
    return _t(key, white=names[condition.white], black=names[condition.black])


def _own_first(term: list[w.Condition], player: int) -> list[w.Condition]:
    return sorted(term, key=lambda c: player not in (c.white, c.black))


def place_text(place: int) -> str:
    return _t("place_1") if place == 1 else _t("place_n", place=place)


def needs_text(player: w.PlayerScenarios, needs: w.PlaceNeeds, names: dict[int, str], own: bool = True) -> str:
    place = place_text(needs.place)
    if needs.needs == [[]] or needs.certain:
        return _t("always", name=player.name, place=place)
    if needs.needs is None:  # the solver's answer (SPEC 3.11.1): no list of needs, an example
        key = "possible_1" if needs.place == 1 else "possible_n"
        return _t(key, name=player.name, place=needs.place, example=example_text(needs.example or []))
    terms = [
        _t("and").join(condition_text(c, player.id, names, own) for c in (_own_first(term, player.id) if own else term))
        for term in needs.needs
    ]
    return _t("if", name=player.name, place=place, needs=_t("or").join(terms))


SCORE = {"white": "1-0", "draw": "1/2", "black": "0-1"}


def example_text(example: list[w.GameResultOut]) -> str:
    """An outcome as `--assume` takes it: 12-34=1-0 12-35=1/2 …"""
    return " ".join(f"{g.white}-{g.black}={SCORE[g.result]}" for g in example)


def by_own_text(player: w.PlayerScenarios, own: w.OwnResults) -> str:
    """The place with the player's own game won, drawn or lost: certain, possible, out of reach."""
    return _t(
        "by_own",
        name=player.name,
        win=_t(f"own_{own.win}"),
        draw=_t(f"own_{own.draw}"),
        loss=_t(f"own_{own.loss}"),
    )


def outcomes_text(answer: w.ScenariosResponse) -> str:
    """The count of outcomes, or 3^games where it is too large for JSON (`outcomes` null)."""
    return str(answer.outcomes) if answer.outcomes is not None else f"3^{len(answer.open_games)}"


def player_text(player: w.PlayerScenarios, places: int, names: dict[int, str], own: bool = True) -> list[str]:
    """A player's ranks, then a sentence per place they can reach (the first certain one ends the
    list), each followed by what the player's own result makes of it when that changed from the
    place before (by_own_result)."""
    head = _t("ranks", name=player.name, best=player.best_rank, worst=player.worst_rank)
    if player.clinched is not None:
        head += _t("clinched_1") if player.clinched == 1 else _t("clinched", place=player.clinched)
    lines = [head]
    said = None
    for needs in player.places:
        text = needs_text(player, needs, names, own)
        if text:
            lines.append("  " + text)
        if needs.needs == [[]] or needs.certain:
            break
        if needs.by_own_result is not None and needs.by_own_result != said:
            lines.append("    " + by_own_text(player, needs.by_own_result))
            said = needs.by_own_result
    if not player.places and "best_rank" in (player.undecided or []):  # no outcome found, none proved out
        lines.append("  " + _t("unsettled", name=player.name, places=places))
    elif not player.places:
        never = "never_1" if places == 1 else "never"
        lines.append("  " + _t(never, name=player.name, places=places))
    return lines


def scenarios_text(answer: w.ScenariosResponse, places: int, names: dict[int, str]) -> str:
    """The whole answer: a line on the outcomes, then each reported player. `names`: start number -> name
    (every player a condition can name). A team event's rows are teams: a board is read from white's side."""
    why = next((p.needs_omitted for player in answer.players for p in player.places if p.needs_omitted), None)
    listed = any(p.needs is not None for player in answer.players for p in player.places)
    if answer.method == "solver" and listed and why is None:  # every place's needs listed (decision 0266)
        lines = [_t("header_solver_needs", outcomes=outcomes_text(answer), games=len(answer.open_games))]
    elif answer.method == "solver":
        why = why or current(msg(NEEDS_OMITTED))
        lines = [_t("header_solver", outcomes=outcomes_text(answer), games=len(answer.open_games), why=why)]
    else:
        lines = [
            _t(
                "header",
                outcomes=outcomes_text(answer),
                games=len(answer.open_games),
                ranked=answer.ranked_by_tiebreaks,
            )
        ]
    if answer.out_of_reach:
        lines.append(_t("contenders_only", n=len(answer.players), out=len(answer.out_of_reach)))
    for player in answer.players:
        lines += player_text(player, places, names, own=answer.entrants == "players")
    never = "never_1" if places == 1 else "never"
    for pid in answer.out_of_reach:  # behind `places` players on points whatever the results
        lines.append(_t(never, name=names.get(pid, str(pid)), places=places))
    return "\n".join(lines)
