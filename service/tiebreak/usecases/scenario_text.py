"""What each player needs, as sentences (the command line's `tiebreak scenarios`):

    Kira finishes 1st if Kira wins, or Kira draws and Hugo does not beat Ana.

Every text is in TEXTS, in one place, so that a translation replaces them together.
"""

from __future__ import annotations

from ..wire import scenarios as w

TEXTS = {
    "place_1": "finishes 1st",
    "place_n": "finishes in the top {place}",
    "if": "{name} {place} if {needs}.",
    "or": ", or ",
    "and": " and ",
    "always": "{name} {place} whatever the results.",
    "never": "{name} cannot finish in the top {places}.",
    "never_1": "{name} cannot finish 1st.",
    "ranks": "{name}: best rank {best}, worst rank {worst}",
    "clinched": "; sure of the top {place}",
    "clinched_1": "; sure of 1st place (alone or shared)",
    "header": "{outcomes} outcomes of {games} open games examined; {ranked} of them needed the tie-breaks",
    # a condition on the player's own game, by the results allowed from their side
    "own_win": "{me} wins",
    "own_draw": "{me} draws",
    "own_loss": "{me} loses",
    "own_not_loss": "{me} does not lose",
    "own_not_win": "{me} does not win",
    "own_not_draw": "{me} does not draw",
    # a condition on another game, from white's side
    "white_wins": "{white} beats {black}",
    "black_wins": "{black} beats {white}",
    "drawn": "{white} and {black} draw",
    "white_not_loss": "{black} does not beat {white}",
    "black_not_loss": "{white} does not beat {black}",
    "not_drawn": "{white} and {black} do not draw",
}

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


def condition_text(condition: w.Condition, player: int, names: dict[int, str]) -> str:
    """One condition, read from `player`'s side when it is their game."""
    if player in (condition.white, condition.black):
        side = "white" if player == condition.white else "black"
        key = _OWN[tuple(sorted(_SIDE[side][r] for r in condition.results))]
        return TEXTS[key].format(me=names[player])
    key = _OTHER[tuple(sorted(condition.results))]
    return TEXTS[key].format(white=names[condition.white], black=names[condition.black])


def _own_first(term: list[w.Condition], player: int) -> list[w.Condition]:
    return sorted(term, key=lambda c: player not in (c.white, c.black))


def place_text(place: int) -> str:
    return TEXTS["place_1"] if place == 1 else TEXTS["place_n"].format(place=place)


def needs_text(player: w.PlayerScenarios, needs: w.PlaceNeeds, names: dict[int, str]) -> str:
    place = place_text(needs.place)
    if needs.needs == [[]]:
        return TEXTS["always"].format(name=player.name, place=place)
    terms = [
        TEXTS["and"].join(condition_text(c, player.id, names) for c in _own_first(term, player.id))
        for term in needs.needs
    ]
    return TEXTS["if"].format(name=player.name, place=place, needs=TEXTS["or"].join(terms))


def player_text(player: w.PlayerScenarios, places: int, names: dict[int, str]) -> list[str]:
    """A player's ranks, then a sentence per place they can reach (the first certain one ends the list)."""
    head = TEXTS["ranks"].format(name=player.name, best=player.best_rank, worst=player.worst_rank)
    if player.clinched is not None:
        head += TEXTS["clinched_1"] if player.clinched == 1 else TEXTS["clinched"].format(place=player.clinched)
    lines = [head]
    for needs in player.places:
        lines.append("  " + needs_text(player, needs, names))
        if needs.needs == [[]]:
            break
    if not player.places:
        never = TEXTS["never_1"] if places == 1 else TEXTS["never"]
        lines.append("  " + never.format(name=player.name, places=places))
    return lines


def scenarios_text(answer: w.ScenariosResponse, places: int, names: dict[int, str]) -> str:
    """The whole answer: a line on the outcomes, then each reported player. `names`: start number -> name
    (every player a condition can name)."""
    lines = [
        TEXTS["header"].format(
            outcomes=answer.outcomes, games=len(answer.open_games), ranked=answer.ranked_by_tiebreaks
        )
    ]
    for player in answer.players:
        lines += player_text(player, places, names)
    return "\n".join(lines)
