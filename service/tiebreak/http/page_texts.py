"""The texts of the arbiter's page, from the message catalogue (docs/languages.md): the page asks
for nothing but its own texts, handed over in the HTML in the reader's language (decision 0132).

A text with `{name}` places is filled by page.js (`fill`), which writes numbers in the page's
language; counts are written as "Players ranked: {n}" so that no plural form is needed.
"""

from __future__ import annotations

from ..texts.catalogue import LANGUAGES, translations
from ..texts.message import ENGLISH, text_id

PAGE_TEXTS: dict[str, str] = {
    "title": text_id("Tie-break standings"),
    "apiDocs": text_id("API documentation"),
    "languageLabel": text_id("Language"),
    "trfLabel": text_id("Tournament: TRF text or a JSON body"),
    "trfHelp": text_id(
        "Paste a TRF export (TRF-16 or TRF-26), a JSON tournament or a whole /v1/standings body, or pick a file below."
    ),
    "fileLabel": text_id("…or pick a file (.trf, .trfx, .json)"),
    "rulesLabel": text_id("Tie-break rules"),
    "rulesHelp": text_id(
        "Codes in order, separated by spaces or commas (BH/C1 BH SB). Empty: the file's own list (TRF record 202) "
        "or the preset."
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
    "close": text_id("Close"),
    "progressionHeading": text_id("Rank after each round"),
    "progressionHelp": text_id(
        "Each line is a player's rank after every round (rank 1 at the top): the leaders after the last round and "
        "the selected player, drawn thicker."
    ),
    "progressionAsTable": text_id("The same as a table (every player)"),
    "compareHeading": text_id("Compare with another rule list or rule set"),
    "compareHelp": text_id(
        "The same event ranked under the rules above and under these, side by side; rows whose rank differs are marked."
    ),
    "compareRulesLabel": text_id("Other rules (empty: the same rules)"),
    "compareButton": text_id("Compare"),
    "footer": text_id(
        "Computed by this service alone: the page works without internet. Click a row (or press Enter on it) to see "
        "how each value was found."
    ),
    "regulations.auto": text_id("auto (by the start date)"),
    "regulations.auto-historic": text_id("auto, with fide-2009 for old events"),
    "regulations.fide-2026": text_id("FIDE 2026"),
    "regulations.fide-2024": text_id("FIDE 2024"),
    "regulations.fide-2009": text_id("FIDE 2009"),
    "regulations.uscf": text_id("US Chess"),
    "sameRuleSet": text_id("(the same rule set)"),
    "columns.rank": text_id("Rank"),
    "columns.id": text_id("No."),
    "columns.name": text_id("Player"),
    "columns.federation": text_id("Fed"),
    "columns.title": text_id("Title"),
    "columns.points": text_id("Pts"),
    "columns.decided_by": text_id("Ahead of next by"),
    "sortBy": text_id("Sort by {column}"),
    "sharedRank": text_id("shared rank {first} to {last}"),
    "caption": text_id("Players: {players}; rule set {regulations}"),
    "summarySwiss": text_id("Ranked: {players} · rule set {regulations} · Swiss"),
    "summaryRoundRobin": text_id("Ranked: {players} · rule set {regulations} · round robin"),
    "summaryAfterRound": text_id(" · after round {round} of {rounds}"),
    "summaryRounds": text_id(" · rounds: {rounds}"),
    "summaryRules": text_id(" · rules: {rules}"),
    "pointsOnly": text_id("points only"),
    "computing": text_id("Computing…"),
    "done": text_id("Rows ranked: {n}."),
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
    "auditSummary": text_id("Rank {rank} of {players}, points: {points}"),
    "auditDecidedBy": text_id("; ahead of the next row by {rule}"),
    "ruleHeading": text_id("{spec} — {name} ({article}) = {value}"),
    "dropped": text_id("Dropped: {reason}"),
    "totalBeforeCut": text_id("Sum before the cut: {total}"),
    "noContributions": text_id("No contributions."),
    "contributions.round": text_id("Round"),
    "contributions.what": text_id("What"),
    "contributions.opponent": text_id("Opponent"),
    "contributions.value": text_id("Value"),
    "contributions.how": text_id("How"),
    "kinds.game": text_id("game"),
    "kinds.forfeit": text_id("forfeit"),
    "kinds.dummy": text_id("dummy opponent"),
    "kinds.unplayed": text_id("unplayed round"),
    "kinds.running_score": text_id("running score"),
    "kinds.encounter": text_id("direct encounter"),
    "kinds.rating": text_id("rating"),
    "kinds.opponent_value": text_id("opponent's value"),
    "cut": text_id("cut: {reason}"),
    "cutByRule": text_id("removed by the rule's cut"),
    "cap": text_id("cap {cap}"),
    "capAt": text_id("cap {cap} ({article})"),
    "counted": text_id("opponent's score {face} counted as {counted}"),
    "countedAt": text_id("opponent's score {face} counted as {counted} ({article})"),
    "scored": text_id("scored {points}"),
    "noBreakdown": text_id("This answer has no breakdown."),
    "progressionFailed": text_id("The progression could not be computed: {reason}"),
    "round": text_id("Round"),
    "rank": text_id("Rank"),
    "roundColumn": text_id("R{round}"),
    "progressionCell": text_id("{rank} ({points})"),
    "listA": text_id("Rules above"),
    "listB": text_id("Other rules"),
    "compare.player": text_id("Player"),
    "compare.rankA": text_id("Rank: {list}"),
    "compare.rankB": text_id("Rank: {list}"),
    "compare.moved": text_id("Moved"),
    "movedUp": text_id("▲ {n} up"),
    "movedDown": text_id("▼ {n} down"),
    "compareSummary": text_id("Players who change rank: {n}."),
    "compareNobody": text_id("Nobody changes rank."),
    "compareNeedsStandings": text_id("Compute the standings first."),
}


def page_texts(code: str) -> dict[str, str]:
    """Every text of the page in the language `code` (English where the catalogue has none)."""
    if code == ENGLISH:
        return dict(PAGE_TEXTS)
    catalogue = translations(code)
    return {key: catalogue.gettext(english) for key, english in PAGE_TEXTS.items()}


def language_names() -> dict[str, str]:
    """The page's language picker: each language by its own name."""
    return dict(LANGUAGES)
