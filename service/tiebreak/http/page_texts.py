"""Every text of the arbiter's page (GET /), each a message of the catalogue (texts/), and
the page's texts in one language as the page reads them (decision 0132).

A text is a template with `{name}` placeholders the page fills in; a text with a count is
given in each of the language's plural categories (CLDR's, the ones `Intl.PluralRules`
answers in the browser), each form taken from the catalogue.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec
from babel import Locale

from ..texts.catalogue import LANGUAGES, translations
from ..texts.message import ENGLISH, Msg, msg_n, text_id
from ..usecases.scenario_text import TEXTS as SCENARIO_TEXTS

TEXTS: dict[str, str | Msg] = {
    "title": text_id("Tie-break standings"),
    "apiDocs": text_id("API documentation"),
    "apiKeyLabel": text_id("API key"),
    "apiKeyHelp": text_id(
        "This server asks for a key: the one its operator gave you. It is kept in this tab only and sent with every request."
    ),
    "apiKeyRefused": text_id(
        "The server refused the request: the API key is missing or not accepted. Type the key in the API key field and try again."
    ),
    "languageLabel": text_id("Language"),
    "trfLabel": text_id("Tournament: TRF text or a JSON body"),
    "trfHelp": text_id(
        "Paste a TRF export (TRF-16 or TRF-26), a JSON tournament or a whole /v1/standings body, or pick a file below."
    ),
    "fileLabel": text_id("…or pick a file (.trf, .trfx, .json)"),
    "rulesLabel": text_id("Tie-break rules"),
    "rulesHelp": text_id(
        "Codes in order, separated by spaces or commas (BH/C1 BH SB). Empty: the file's own list (TRF record 202) or the preset."
    ),
    "presetLabel": text_id("…or a preset"),
    "noPreset": text_id("(none)"),
    "regulationsLabel": text_id("Rule set"),
    "afterRoundLabel": text_id("Standings after round"),
    "compute": text_id("Compute standings"),
    "standingsHeading": text_id("Standings"),
    "downloadCsv": text_id("Download CSV"),
    "printStandings": text_id("Print the standings"),
    "printAudit": text_id("Print this player's audit"),
    "printAuditTeam": text_id("Print this team's audit"),
    "close": text_id("Close"),
    "progressionHeading": text_id("Rank after each round"),
    "progressionHelp": text_id(
        "Each line is a player's rank after every round (rank 1 at the top): the leaders after the last round and the selected player, drawn thicker."
    ),
    "progressionAsTable": text_id("The same as a table (every player)"),
    "chartTopLabel": text_id("Lines for the top (after the last round)"),
    "compareHeading": text_id("Compare with another rule list or rule set"),
    "compareHelp": text_id(
        "The same event ranked under the rules above and under these, side by side; rows whose rank differs are marked."
    ),
    "compareRulesLabel": text_id("Other rules (empty: the same rules)"),
    "compareButton": text_id("Compare"),
    "footer": text_id(
        "Computed by this service alone: the page works without internet. Click a row (or press Enter on it) to see how each value was found."
    ),
    "reg_auto": text_id("auto (by the start date)"),
    "reg_auto-historic": text_id("auto, with fide-2009 for old events"),
    "reg_uscf": text_id("US Chess"),
    "sameRuleSet": text_id("(the same rule set)"),
    "col_rank": text_id("Rank"),
    "col_id": text_id("No."),
    "col_name": text_id("Player"),
    "col_team": text_id("Team"),
    "col_federation": text_id("Fed"),
    "col_title": text_id("Title"),
    "col_points": text_id("Pts"),
    "col_match_points": text_id("Match points"),
    "col_game_points": text_id("Game points"),
    "col_decided_by": text_id("Ahead of next by"),
    "sortBy": text_id("Sort by {column}"),
    "ruleNote": text_id("{spec} — {name} ({article}):"),
    "lowerIsBetter": text_id("Lower is better."),
    "higherIsBetter": text_id("Higher is better."),
    "sharedRank": text_id("shared rank {first} to {last}"),
    "caption": msg_n("{n} player, rule set {regulations}", "{n} players, rule set {regulations}", 1, regulations=""),
    "captionTeams": msg_n("{n} team, rule set {regulations}", "{n} teams, rule set {regulations}", 1, regulations=""),
    "summaryRanked": msg_n("{n} ranked", "{n} ranked", 1),
    "summaryRuleSet": text_id("rule set {regulations}"),
    "swiss": text_id("Swiss"),
    "roundRobin": text_id("round robin"),
    "afterRoundOf": text_id("after round {round} of {rounds}"),
    "rounds": msg_n("{n} round", "{n} rounds", 1),
    "summaryRules": text_id("rules: {rules}"),
    "pointsOnly": text_id("points only"),
    "warningsSummary": msg_n("{n} note on the file and the ranking", "{n} notes on the file and the ranking", 1),
    "noRulesOffer": text_id(
        "Neither the file nor the form gives tie-break rules: players equal on points share a rank."
    ),
    "usePreset": text_id("Rank with the preset {preset}"),
    "computing": text_id("Computing…"),
    "done": msg_n("{n} row ranked.", "{n} rows ranked.", 1),
    "noInput": text_id("Paste a TRF or JSON text, or pick a file, first."),
    "badJson": text_id("The text starts like JSON but is not: {message}"),
    "fileRead": text_id("Read {name} ({encoding})."),
    "problem": text_id("{title} ({status})"),
    "atTrfLine": text_id("TRF line {line}, column {column}"),
    "atRule": text_id("rule “{rule}”"),
    "atRuleList": text_id("the rule list"),
    "showLine": text_id("Show this line in the text"),
    "unreachable": text_id("The service did not answer."),
    "auditHeading": text_id("{name} (No. {id})"),
    "auditSummary": text_id("Rank {rank} of {of}, points: {points}"),
    "auditAhead": text_id("; ahead of the next row by {decided_by}"),
    "ruleHeading": text_id("{spec} — {name} ({article}) = {value}"),
    "dropped": text_id("Dropped: {reason}"),
    "totalBeforeCut": text_id("Sum before the cut: {total}"),
    "noContributions": text_id("No contributions."),
    "colRound": text_id("Round"),
    "colWhat": text_id("What"),
    "colOpponent": text_id("Opponent"),
    "colValue": text_id("Value"),
    "colHow": text_id("How"),
    "kind_game": text_id("game"),
    "kind_forfeit": text_id("forfeit"),
    "kind_dummy": text_id("dummy opponent"),
    "kind_unplayed": text_id("unplayed round"),
    "kind_running_score": text_id("running score"),
    "kind_encounter": text_id("direct encounter"),
    "kind_rating": text_id("rating"),
    "kind_opponent_value": text_id("opponent's value"),
    # the result of a round, as the count rules (WIN, KS, GE...) list it (engine ResultKind)
    "kind_win": text_id("win"),
    "kind_draw": text_id("draw"),
    "kind_loss": text_id("loss"),
    "kind_forfeit_win": text_id("forfeit win"),
    "kind_forfeit_loss": text_id("forfeit loss"),
    "kind_pairing_bye": text_id("pairing-allocated bye"),
    "kind_full_bye": text_id("full-point bye"),
    "kind_half_bye": text_id("half-point bye"),
    "kind_zero_bye": text_id("zero-point bye"),
    "kind_absent": text_id("absence"),
    "cut": text_id("cut: {reason}"),
    "cutDefault": text_id("removed by the rule's cut"),
    "cap": text_id("cap {cap}"),
    "capArticle": text_id("cap {cap} ({article})"),
    "counted": text_id("opponent's score {face} counted as {counted}"),
    "countedArticle": text_id("opponent's score {face} counted as {counted} ({article})"),
    "scored": text_id("scored {points}"),
    "noBreakdown": text_id("This answer has no breakdown."),
    "progressionFailed": text_id("The progression could not be computed: {detail}"),
    "roundColumn": text_id("R{k}"),
    "listA": text_id("Rules above"),
    "listB": text_id("Other rules"),
    "compareRank": text_id("Rank: {list}"),
    "moved": text_id("Moved"),
    "movedUp": text_id("▲ {n} up"),
    "movedDown": text_id("▼ {n} down"),
    "compareSummary": msg_n("{n} player changes rank.", "{n} players change rank.", 1),
    "compareSummaryTeams": msg_n("{n} team changes rank.", "{n} teams change rank.", 1),
    "compareNone": text_id("Nobody changes rank."),
    "compareNeedsStandings": text_id("Compute the standings first."),
    # "Before the last round" (issue 25); the sentences are the command line's (SCENARIO_TEXTS)
    "scHeading": text_id("Before the last round"),
    "scHelp": text_id(
        "What each player needs: every result of the open games ranked by the rules above. Take the last round's pairings from the file (its results are set aside), choose which games stay open, and the places that matter."
    ),
    "scTake": text_id("Take the last round's pairings from the file"),
    "scRound": text_id("Round {round} reopened: its results are set aside, its pairings kept."),
    "scNoRound": text_id("The file has no round with a game to reopen."),
    "scGames": text_id("The games of round {round}"),
    "scByes": text_id("Byes: {names}"),
    "colWhite": text_id("White"),
    "colBlack": text_id("Black"),
    "colResult": text_id("Result"),
    "resultFor": text_id("Result of {white} – {black}"),
    "resOpen": text_id("open"),
    "resWhite": text_id("1–0 (white wins)"),
    "resDraw": text_id("½–½ (draw)"),
    "resBlack": text_id("0–1 (black wins)"),
    "scPlaces": text_id("Places that matter"),
    "scPlayers": text_id("Only these players (start numbers; empty: everyone)"),
    "scButton": text_id("What each player needs"),
    "colBest": text_id("Best rank"),
    "colWorst": text_id("Worst rank"),
    "colClinched": text_id("Sure of"),
    "colNeeds": text_id("What it takes"),
    # The ratings policy (SPEC 3.12, issue 35): the form's fields and the audit's rating per game
    "ratingsLegend": text_id("Ratings (for ARO, TPR and the other rating rules)"),
    "ratingsSourceLabel": text_id("Rating read"),
    "ratingsAsGiven": text_id("as the request gives (FIDE)"),
    "src_fide": text_id("FIDE rating"),
    "src_national": text_id("national rating"),
    "src_fide-else-national": text_id("FIDE, else national (FIDON)"),
    "src_national-else-fide": text_id("national, else FIDE (NIDOF)"),
    "src_highest": text_id("the highest (HBFN, with the estimate)"),
    "src_lowest": text_id("the lower of FIDE and national (LBFN)"),
    "ratingsPerRound": text_id("the rating in force in each round (rating_history)"),
    "ratingsUnratedLabel": text_id("Unrated players"),
    "unr_given": text_id("as the request gives (rules dropped)"),
    "unr_drop": text_id("rating rules dropped (C.07 10)"),
    "unr_estimated": text_id("their estimated rating"),
    "unr_rating": text_id("this rating:"),
    "ratingsUnratedRating": text_id("Rating for unrated players"),
    "ratingsNeedsRating": text_id("Give the rating unrated players count as (a whole number, 0 or more)."),
    "ratingCounted": text_id("rating {rating} counted: {source}"),
    "rs_fide": text_id("FIDE rating"),
    "rs_national": text_id("national rating"),
    "rs_estimated": text_id("estimated rating"),
    "rs_unrated": text_id("the rating given to unrated players"),
    "scFolded": msg_n(
        "{n} player cannot finish in the top {places}", "{n} players cannot finish in the top {places}", 1, places=0
    ),
    "scFolded1": msg_n("{n} player cannot finish 1st", "{n} players cannot finish 1st", 1),
    "scTooMany": text_id("Fix some results above (a result instead of “open”) or list fewer players, then ask again."),
    "scTooLong": text_id(
        "Fix some results above (a result instead of “open”), ask about fewer places or list fewer players, then ask again."
    ),
}


def _forms(text: Msg, code: str) -> dict[str, str]:
    """The template of each plural category of the language (CLDR), from the catalogue's forms."""
    catalogue = translations(code)
    rule = Locale.parse(code).plural_form
    forms: dict[str, str] = {}
    assert text.plural is not None
    for n in range(200):  # every category of the five languages has a whole number below 200
        forms.setdefault(rule(n), catalogue.ngettext(text.msgid, text.plural, n))
    forms.setdefault("other", catalogue.ngettext(text.msgid, text.plural, 5))
    return forms


@functools.cache
def page_texts(code: str) -> bytes:
    """The page's texts in the language `code`, as a JSON object safe inside a <script> element."""
    catalogue = translations(code)
    texts: dict[str, Any] = {}
    for key, text in TEXTS.items():
        texts[key] = _forms(text, code) if isinstance(text, Msg) and text.plural else catalogue.gettext(text)
    texts["scenario"] = {key: catalogue.gettext(text) for key, text in SCENARIO_TEXTS.items()}
    texts["languages"] = LANGUAGES
    texts["lang"] = code
    return msgspec.json.encode(texts).replace(b"</", b"<\\/")


def english_texts() -> list[str]:
    """Every English text of the page (for the tests that look for English left on the page)."""
    out: list[str] = []
    for text in TEXTS.values():
        out.append(str(text.msgid) if isinstance(text, Msg) else text)
        if isinstance(text, Msg) and text.plural:
            out.append(text.plural)
    return out + list(SCENARIO_TEXTS.values())


__all__ = ["ENGLISH", "TEXTS", "english_texts", "page_texts"]
