// The arbiter's page (docs/page.md): a form for the service's own endpoints and what they answer,
// shown as it is. Nothing is computed here but the layout: ranks, values, notes and cut reasons
// are the API's. Every text a person reads is in TEXTS (one place, for the translations to come).
"use strict";

(() => {
  // The texts come from the message catalogue in the page's language: the server writes them
  // into index.html as a JSON block (http/page_texts.py, decision 0132); here they get their
  // arguments, numbers in the language's style and plural forms by the language's rules.
  const PAGE = JSON.parse(document.getElementById("page-texts").textContent);
  const LANG = PAGE.lang;
  const NUMBER = new Intl.NumberFormat(LANG, { maximumFractionDigits: 6, useGrouping: false });
  const PLURAL = new Intl.PluralRules(LANG);
  const show = (value) => (typeof value === "number" ? NUMBER.format(value) : String(value));
  const fill = (template, args) => template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? show(args[name]) : whole));
  const t = (key, args = {}) => fill(PAGE[key], args);
  const tn = (key, n, args = {}) => {
    const forms = PAGE[key];
    return fill(forms[PLURAL.select(n)] || forms.other, { ...args, n });
  };
  // Names in a sentence are isolated (U+2068 ... U+2069, Unicode's FSI and PDI): an unclosed
  // U+202E in a name cannot reverse the rest of the sentence.
  const NAME_ARGS = new Set(["name", "me", "white", "black"]);
  const isolated = (args) =>
    Object.fromEntries(Object.entries(args).map(([k, v]) => [k, NAME_ARGS.has(k) && typeof v === "string" ? `\u2068${v}\u2069` : v]));
  const ts = (key, args = {}) => fill(PAGE.scenario[key], isolated(args));

  // The result of a round as the count rules (WIN, KS, GE...) give it: the engine's ResultKind values.
  const RESULT_KINDS = ["win", "draw", "loss", "forfeit_win", "forfeit_loss", "pairing_bye", "full_bye", "half_bye", "zero_bye", "absent"];

  const TEXTS = {
    ...Object.fromEntries(Object.entries(PAGE).filter(([, value]) => typeof value === "string")),
    // FIDE's editions are named as FIDE names them, in every language
    regulations: Object.fromEntries(["auto", "auto-historic", "fide-2026", "fide-2024", "fide-2009", "uscf"].map((r) => [r, PAGE[`reg_${r}`] ? t(`reg_${r}`) : r.replace("fide-", "FIDE ")])),
    columns: Object.fromEntries(["rank", "id", "name", "federation", "title", "points", "decided_by"].map((c) => [c, t(`col_${c}`)])),
    sortBy: (column) => t("sortBy", { column }),
    sharedRank: (first, last) => t("sharedRank", { first, last }),
    caption: (players, regulations, teams) => tn(teams ? "captionTeams" : "caption", players, { regulations }),
    summary: (r) => [
      tn("summaryRanked", r.total_players),
      t("summaryRuleSet", { regulations: r.regulations }),
      r.system === "swiss" ? t("swiss") : t("roundRobin"),
      r.after_round ? t("afterRoundOf", { round: r.after_round, rounds: r.rounds }) : tn("rounds", r.rounds),
      t("summaryRules", { rules: r.tiebreaks.map((x) => x.spec).join(", ") || t("pointsOnly") }),
    ].join(" · "),
    done: (n) => tn("done", n),
    badJson: (message) => t("badJson", { message }),
    fileRead: (name, encoding) => t("fileRead", { name, encoding }),
    problem: (status, title) => t("problem", { status: String(status), title }),
    atTrfLine: (line, column) => t("atTrfLine", { line, column }),
    atRule: (rule) => (rule ? t("atRule", { rule }) : t("atRuleList")),
    auditHeading: (name, id) => t("auditHeading", { name, id }),
    auditSummary: (row, of) => t("auditSummary", { rank: row.rank, of, points: row.points }) +
      (row.decided_by ? t("auditAhead", { decided_by: row.decided_by }) : ""),
    ruleHeading: (x, value) => t("ruleHeading", { spec: x.spec, name: x.name, article: x.article, value: value === null ? "–" : value }),
    dropped: (reason) => t("dropped", { reason }),
    totalBeforeCut: (total) => t("totalBeforeCut", { total }),
    contributionColumns: ["colRound", "colWhat", "colOpponent", "colValue", "colHow"].map((k) => t(k)),
    kinds: Object.fromEntries(["game", "forfeit", "dummy", "unplayed", "running_score", "encounter", "rating", "opponent_value", ...RESULT_KINDS].map((k) => [k, t(`kind_${k}`)])),
    cut: (reason) => t("cut", { reason: reason || t("cutDefault") }),
    cap: (cap, article) => (article ? t("capArticle", { cap, article }) : t("cap", { cap })),
    counted: (face, counted, article) => (article ? t("countedArticle", { face, counted, article }) : t("counted", { face, counted })),
    scored: (points) => t("scored", { points }),
    progressionFailed: (detail) => t("progressionFailed", { detail }),
    round: t("colRound"),
    rank: t("col_rank"),
    roundColumn: (k) => t("roundColumn", { k }),
    progressionCell: (rank, points) => `${show(rank)} (${show(points)})`,
    compareColumns: (a, b) => [t("col_name"), t("compareRank", { list: a }), t("compareRank", { list: b }), t("moved")],
    movedUp: (n) => t("movedUp", { n }),
    movedDown: (n) => t("movedDown", { n }),
    notMoved: "—",
    compareSummary: (moves, teams) => (moves ? tn(teams ? "compareSummaryTeams" : "compareSummary", moves) : t("compareNone")),
    csvName: "standings.csv",
  };

  const REGULATIONS = ["auto", "auto-historic", "fide-2026", "fide-2024", "fide-2009", "uscf"];
  // Colour-blind-safe (Okabe-Ito), then darker tones; each passes 3:1 against white.
  const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8a6d00", "#56487a", "#a6321e", "#1d5d4a", "#7a3b63", "#4d4d4d"];
  const SHOWN_IN_CHART = 10;
  const FOLDED_WARNINGS = 3;

  const $ = (id) => document.getElementById(id);
  const state = { catalogue: new Map(), response: null, body: null, sort: null, selected: null, progression: null, chart: null, scenarios: null, presetsLoaded: false };

  // ---- the API key (TIEBREAK_API_KEYS): kept for this tab only, sent with every API request ----

  const API_KEY = "tiebreak.apiKey";

  // The field is what is sent (typed and not yet left, too); the tab's storage keeps it over a reload.
  function apiKey() {
    return $("api-key-input").value.trim();
  }

  function apiHeaders(headers) {
    const key = apiKey();
    return key ? { ...headers, "X-API-Key": key } : headers;
  }

  // A 401: the field shown (the server asks for a key even if the page did not expect it) and focused.
  function askForKey() {
    $("api-key-field").hidden = false;
    $("api-key-input").setAttribute("aria-invalid", "true");
    $("api-key-input").focus();
  }

  function keyField() {
    const input = $("api-key-input");
    const remember = () => {
      try {
        if (apiKey()) sessionStorage.setItem(API_KEY, apiKey());
        else sessionStorage.removeItem(API_KEY);
      } catch (error) {
        // storage refused (a private window's settings): the key lasts as long as the page
      }
    };
    try {
      input.value = sessionStorage.getItem(API_KEY) || "";
    } catch (error) {
      input.value = "";
    }
    input.addEventListener("input", remember);
    input.addEventListener("change", () => {
      remember();
      input.removeAttribute("aria-invalid");
      // what the page asked without the key
      if (!state.catalogue.size) state.catalogueLoaded = loadCatalogue();
      if (!state.presetsLoaded) loadPresets();
    });
  }

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  // ---- the texts and the choices ----

  function fillTexts() {
    document.title = TEXTS.title;
    for (const node of document.querySelectorAll("[data-text]")) node.textContent = TEXTS[node.dataset.text];
    for (const [id, withSame] of [["regulations-select", false], ["compare-regulations-select", true]]) {
      const select = $(id);
      if (withSame) select.append(el("option", { value: "", text: TEXTS.sameRuleSet }));
      for (const name of REGULATIONS) select.append(el("option", { value: name, text: TEXTS.regulations[name] }));
    }
  }

  // The picker: the choice is remembered (localStorage) and is the page's `?lang=`, which the
  // server renders the page in; the API calls then ask for the same language.
  const STORED = "tiebreak-page-language";
  const KEPT = "tiebreak-page-input";
  const KEPT_FIELDS = ["trf-input", "rules-input", "preset-select", "regulations-select", "after-round-input", "ratings-source", "ratings-unrated", "ratings-unrated-rating"];

  function restoreInput() {
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
      sessionStorage.removeItem(KEPT);
    } catch (error) {
      return;
    }
    if (!kept) return;
    for (const id of KEPT_FIELDS) if (typeof kept[id] === "string") $(id).value = kept[id];
    // standings shown before the switch are computed again, in the new language (issue 37, 3)
    if (kept.computed) $("input-form").requestSubmit();
  }

  function languagePicker() {
    const select = $("language-select");
    for (const [code, name] of Object.entries(PAGE.languages)) {
      select.append(el("option", { value: code, lang: code, text: name, selected: code === LANG }));
    }
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(STORED, select.value);
        // the form's input survives the reload into the other language (this tab only)
        const kept = Object.fromEntries(KEPT_FIELDS.map((id) => [id, $(id).value]));
        kept.computed = state.response !== null;
        sessionStorage.setItem(KEPT, JSON.stringify(kept));
      } catch (error) {
        // storage refused (private mode, a text too large): the query parameter still carries the choice
      }
      const url = new URL(window.location.href);
      url.searchParams.set("lang", select.value);
      window.location.assign(url.toString());
    });
  }

  // A language chosen earlier wins over the browser's, unless the address names one.
  function rememberedLanguage() {
    let stored = null;
    try {
      stored = localStorage.getItem(STORED);
    } catch (error) {
      return false;
    }
    const url = new URL(window.location.href);
    if (!stored || stored === LANG || url.searchParams.has("lang") || !(stored in PAGE.languages)) return false;
    url.searchParams.set("lang", stored);
    window.location.replace(url.toString());
    return true;
  }

  // What each rule measures, in the page's language (GET /v1/tiebreaks): the columns' notes.
  async function loadCatalogue() {
    try {
      const response = await fetch("v1/tiebreaks", { headers: apiHeaders({ Accept: "application/json", "Accept-Language": LANG }) });
      if (response.ok) state.catalogue = new Map((await response.json()).map((entry) => [entry.code, entry]));
    } catch (error) {
      // the columns keep their names and articles
    }
  }

  // "DE — Direct encounter (C.07 6): ... Lower is better." (issue 37, 9)
  function ruleNote(rule) {
    const entry = state.catalogue.get(rule.code);
    const note = t("ruleNote", { spec: rule.spec, name: rule.name, article: rule.article });
    const description = entry ? ` ${entry.description}` : "";
    return `${note}${description} ${rule.lower_is_better ? t("lowerIsBetter") : t("higherIsBetter")}`;
  }

  // A file without rules (no record 202) and an empty rules box rank by points only: one click
  // ranks it by the preset of its system, individual or team (issue 37, 6).
  function offerPreset(response) {
    const box = $("preset-offer");
    box.replaceChildren();
    box.hidden = true;
    if (!response.warnings.some((w) => w.code === "no-tiebreaks")) return;
    const roundRobin = response.system === "round_robin";
    const name = isTeams(response)
      ? (roundRobin ? "team-round-robin" : "team-swiss")
      : (roundRobin ? "round-robin" : "fide-swiss-traditional");
    const option = Array.from($("preset-select").options).find((o) => o.value === name);
    if (!option) return;
    box.append(
      el("span", { text: t("noRulesOffer") }),
      el("button", {
        type: "button",
        "data-testid": "preset-offer-button",
        "data-preset": name,
        text: t("usePreset", { preset: option.textContent }),
        onclick: () => {
          $("preset-select").value = name;
          $("input-form").requestSubmit();
        },
      }),
    );
    box.hidden = false;
  }

  function renderRuleNotes(response) {
    $("rule-notes").replaceChildren(...response.tiebreaks.map((rule) => el("li", { "data-rule": rule.spec, text: ruleNote(rule) })));
  }

  async function loadPresets() {
    try {
      const response = await fetch("v1/presets", { headers: apiHeaders({ Accept: "application/json", "Accept-Language": LANG }) });
      if (response.status === 401) $("api-key-field").hidden = false;
      if (!response.ok) return;
      if (state.presetsLoaded) return;  // two loads at once (a key typed early): the first one's options
      state.presetsLoaded = true;
      for (const preset of await response.json()) {
        for (const id of ["preset-select", "compare-preset-select"]) {
          $(id).append(el("option", { value: preset.name, text: `${preset.name} (${preset.tiebreaks.join(", ")})` }));
        }
      }
    } catch (error) {
      // the page works without presets: rules can be typed
    }
  }

  // ---- the request ----

  class Problem extends Error {
    constructor(status, problem) {
      super(problem && problem.detail ? problem.detail : TEXTS.unreachable);
      this.status = status;
      this.problem = problem || { title: TEXTS.unreachable, status, detail: "", errors: [] };
    }
  }

  function localProblem(detail, path = "") {
    return new Problem(0, { title: TEXTS.title, status: 0, detail, errors: path ? [{ path, message: detail }] : [] });
  }

  // Rules are separated by blanks or commas, but a Swiss-Manager number keeps its comma-separated
  // parameters: "SM84:0,0,1,P,-,0,1, BH" is two rules (docs/interop.md).
  const SM_RULE = /^SM\d+:(?:\d+|-|P|F|MP|GP)(?:,(?:\d+|-|P|F|MP|GP)(?=,|\s|$))*/i;

  function splitRules(text) {
    const rules = [];
    let rest = text.trim();
    while (rest) {
      const numbered = rest.match(SM_RULE);
      const rule = numbered ? numbered[0] : rest.split(/[\s,]/, 1)[0];
      if (rule) rules.push(rule);
      rest = rest.slice(Math.max(rule.length, 1)).replace(/^[\s,]+/, "");
    }
    return rules;
  }

  // The body of /v1/standings the form describes: the text (TRF, or JSON), then the form's
  // choices over the body's own, as the command line's options override a request file's.
  function baseBody() {
    const text = $("trf-input").value;
    const trimmed = text.replace(/^\uFEFF/, "").trim();
    if (!trimmed) throw localProblem(TEXTS.noInput);
    let body;
    if (trimmed.startsWith("{")) {
      let parsed;
      try {
        parsed = JSON.parse(trimmed);
      } catch (error) {
        throw localProblem(TEXTS.badJson(error.message));
      }
      if ("tournament" in parsed || "trf" in parsed || "team_tournament" in parsed) body = parsed;
      else if ("teams" in parsed) body = { team_tournament: parsed };
      else body = { tournament: parsed };
    } else {
      body = { trf: text };
    }
    const rules = splitRules($("rules-input").value);
    const preset = $("preset-select").value;
    if (rules.length) {
      body.tiebreaks = rules;
      if (!preset) delete body.preset;
    }
    if (preset) {
      body.preset = preset;
      if (!rules.length) delete body.tiebreaks;
    }
    const regulations = $("regulations-select").value;
    if (regulations !== "auto" || !body.regulations) body.regulations = regulations;
    const afterRound = $("after-round-input").value.trim();
    if (afterRound) body.after_round = Number(afterRound);
    return withRatingsPolicy(body);
  }

  // ---- the ratings policy (SPEC 3.12): the form's fields, and the rating each game counted ----

  const RATING_SOURCES = ["fide", "national", "fide-else-national", "national-else-fide", "highest", "lowest"];

  function ratingsFields() {
    const source = $("ratings-source");
    source.append(el("option", { value: "", text: TEXTS.ratingsAsGiven }));
    for (const name of RATING_SOURCES) source.append(el("option", { value: name, text: TEXTS[`src_${name}`] }));
    const unrated = $("ratings-unrated");
    for (const name of ["", "drop", "estimated", "rating"]) unrated.append(el("option", { value: name, text: TEXTS[`unr_${name || "given"}`] }));
  }

  // The form's policy over the body's own `ratings`, field by field (as the command line's options).
  function withRatingsPolicy(body) {
    const policy = { ...(body.ratings || {}) };
    const source = $("ratings-source").value;
    if (source) policy.source = source;
    if ($("ratings-per-round").checked) policy.per_round = true;
    const unrated = $("ratings-unrated").value;
    if (unrated === "rating") {
      const rating = $("ratings-unrated-rating").value.trim();
      if (!/^\d+$/.test(rating)) throw localProblem(TEXTS.ratingsNeedsRating);
      policy.unrated = Number(rating);
      delete body.unrated_rating;
    } else if (unrated) policy.unrated = unrated;
    if (Object.keys(policy).length) body.ratings = policy;
    return body;
  }

  function ratingCounted(c) {
    return t("ratingCounted", { rating: c.value, source: TEXTS[`rs_${c.rating_source}`] || c.rating_source });
  }

  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: apiHeaders({ "Content-Type": "application/json", Accept: "application/json", "Accept-Language": LANG }),
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new Problem(0, null);
    }
    const data = await response.json().catch(() => null);
    if (response.status === 401) {
      askForKey();
      // the server's detail speaks to programs (headers); the person is told where to type the key
      throw new Problem(401, { title: (data && data.title) || "", status: 401, detail: TEXTS.apiKeyRefused, errors: [] });
    }
    if (!response.ok) throw new Problem(response.status, data);
    return data;
  }

  function without(body, fields) {
    const copy = { ...body };
    for (const field of fields) delete copy[field];
    return copy;
  }

  // ---- errors, where they belong ----

  function clearErrors() {
    for (const id of ["error-box", "compare-error"]) {
      $(id).hidden = true;
      $(id).replaceChildren();
    }
    for (const id of ["rules-error", "compare-rules-error"]) {
      $(id).hidden = true;
      $(id).textContent = "";
    }
    for (const id of ["rules-input", "compare-rules-input", "trf-input"]) $(id).removeAttribute("aria-invalid");
  }

  function selectTrfLine(line) {
    const area = $("trf-input");
    const lines = area.value.split("\n");
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    const end = start + (lines[line - 1] || "").length;
    area.focus();
    area.setSelectionRange(start, end);
    const lineHeight = area.scrollHeight / Math.max(lines.length, 1);
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }

  // `lists[1].tiebreaks[0]` names a rule of the second compare list; `tiebreaks[2]` of the form's.
  function ruleOf(path, body) {
    const match = /^(?:lists\[(\d+)\]\.)?(tiebreaks|preset)(?:\[(\d+)\])?/.exec(path);
    if (!match) return null;
    const list = match[1] === undefined ? body : (body.lists || [])[Number(match[1])] || {};
    const field = list[match[2]];
    const rule = match[3] === undefined ? field : (field || [])[Number(match[3])];
    return { list: match[1] === undefined ? 0 : Number(match[1]), rule: typeof rule === "string" ? rule : rule && JSON.stringify(rule) };
  }

  function showProblem(error, body, boxId = "error-box") {
    const box = $(boxId);
    const problem = error.problem;
    box.replaceChildren(el("p", { class: "problem-title" }, el("strong", { text: TEXTS.problem(problem.status, problem.title) })));
    if (problem.detail) box.append(el("p", { text: problem.detail }));
    const items = el("ul");
    let firstLine = null;
    for (const item of problem.errors || []) {
      const trf = /^trf:(\d+):(\d+)$/.exec(item.path || "");
      const rule = body ? ruleOf(item.path || "", body) : null;
      if (trf) {
        const line = Number(trf[1]);
        const column = Number(trf[2]);
        const text = $("trf-input").value.split("\n")[line - 1] || "";
        firstLine = firstLine || line;
        items.append(
          el(
            "li",
            { "data-path": item.path, class: "trf-error" },
            el("span", { text: `${TEXTS.atTrfLine(line, column)}: ${item.message}` }),
            el("pre", { class: "trf-line" }, el("code", { text: `${text}\n${" ".repeat(Math.max(column - 1, 0))}^` })),
            el("button", { type: "button", text: TEXTS.showLine, onclick: () => selectTrfLine(line) }),
          ),
        );
        $("trf-input").setAttribute("aria-invalid", "true");
      } else if (rule) {
        const message = `${TEXTS.atRule(rule.rule)}: ${item.message}`;
        items.append(el("li", { "data-path": item.path, class: "rule-error", text: message }));
        const target = rule.list === 1 && body.lists ? "compare-rules" : "rules";
        $(`${target}-error`).hidden = false;
        // every bad rule of the list, not only the last one named
        $(`${target}-error`).textContent = [$(`${target}-error`).textContent, message].filter(Boolean).join(" ");
        $(`${target}-input`).setAttribute("aria-invalid", "true");
      } else {
        items.append(el("li", { "data-path": item.path, text: item.path ? `${item.path}: ${item.message}` : item.message }));
      }
    }
    if (items.children.length) box.append(items);
    box.hidden = false;
    if (firstLine) selectTrfLine(firstLine);
  }

  // ---- the standings table ----

  // A team event's rows carry match and game points (the API's team standings).
  const isTeams = (response) => response.standings.some((r) => r.match_points !== null && r.match_points !== undefined);

  // A rule that is the primary score itself (PTS, a team's PTS:MP or PTS:GP), without modifiers.
  function isPrimaryScore(spec, primary) {
    const code = spec.toUpperCase();
    if (primary === null) return code === "PTS";
    return code === `PTS:${primary}` || (primary === "MP" && (code === "PTS" || code === "MPTS")) || (primary === "GP" && code === "GPTS");
  }

  function columnsOf(response) {
    const rows = response.standings;
    const teams = isTeams(response);
    const columns = [
      { key: "rank", label: TEXTS.columns.rank, value: (r) => r.rank, numeric: true },
      { key: "id", label: TEXTS.columns.id, value: (r) => r.id, numeric: true },
      { key: "name", label: teams ? t("col_team") : TEXTS.columns.name, value: (r) => r.name },
    ];
    for (const field of ["federation", "title"]) {
      if (rows.some((r) => r[field])) columns.push({ key: field, label: TEXTS.columns[field], value: (r) => r[field] || "" });
    }
    // A team's primary score is named as what it is, match or game points (C.07 7.1).
    const primary = teams ? (response.primary_score === "GP" ? "GP" : "MP") : null;
    const pointsLabel = teams ? t(primary === "GP" ? "col_game_points" : "col_match_points") : TEXTS.columns.points;
    columns.push({ key: "points", label: pointsLabel, value: (r) => r.points, numeric: true });
    response.tiebreaks.forEach((t, i) => {
      if (isPrimaryScore(t.spec, primary)) return;  // the points column shows it already
      columns.push({ key: `rule-${i}`, label: t.spec, title: ruleNote(t), value: (r) => r.values[i], numeric: true, lowerIsBetter: t.lower_is_better });
    });
    columns.push({ key: "decided_by", label: TEXTS.columns.decided_by, value: (r) => r.decided_by || "" });
    return columns;
  }

  function rankText(row, counts) {
    const shared = counts.get(row.rank);
    return shared > 1 ? `${row.rank}–${row.rank + shared - 1}` : String(row.rank);
  }

  function sortedRows(response, columns) {
    const rows = [...response.standings];
    if (!state.sort) return rows;
    const column = columns.find((c) => c.key === state.sort.key);
    if (!column) return rows;
    const dir = state.sort.dir;
    return rows.sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x === y) return a.rank - b.rank;
      if (x === null || x === undefined || x === "") return 1;
      if (y === null || y === undefined || y === "") return -1;
      return (column.numeric ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }

  function renderTable() {
    const response = state.response;
    const columns = columnsOf(response);
    const counts = new Map();
    for (const row of response.standings) counts.set(row.rank, (counts.get(row.rank) || 0) + 1);
    const table = $("standings-table");
    $("standings-caption").textContent = TEXTS.caption(response.total_players, response.regulations, isTeams(response));
    const head = el("tr");
    for (const column of columns) {
      const sorted = state.sort && state.sort.key === column.key ? (state.sort.dir > 0 ? "ascending" : "descending") : "none";
      head.append(
        el(
          "th",
          { scope: "col", "aria-sort": sorted, class: column.numeric ? "num" : null, title: column.title },
          el("button", {
            type: "button",
            class: "sort",
            "data-column": column.key,
            "aria-label": TEXTS.sortBy(column.label),
            text: column.label,
            onclick: () => sortBy(column),
          }),
        ),
      );
    }
    table.tHead.replaceChildren(head);
    const body = el("tbody");
    for (const row of sortedRows(response, columns)) {
      const tr = el("tr", {
        tabindex: "0",
        "data-testid": "standings-row",
        "data-id": row.id,
        "aria-selected": String(row.id === state.selected),
        class: row.id === state.selected ? "selected" : null,
        onclick: () => openAudit(row.id),
        onkeydown: rowKeys,
      });
      for (const column of columns) {
        const value = column.value(row);
        let cell;
        if (column.key === "rank") {
          const text = rankText(row, counts);
          cell = el("td", { class: "num", "data-rank": row.rank, "aria-label": counts.get(row.rank) > 1 ? TEXTS.sharedRank(row.rank, row.rank + counts.get(row.rank) - 1) : null, text });
        } else if (column.key === "name") {
          cell = el("th", { scope: "row", class: "name", text: value });
        } else {
          cell = el("td", { class: column.numeric ? "num" : null, text: value === null || value === undefined ? "–" : show(value) });
        }
        cell.dataset.column = column.key;
        tr.append(cell);
      }
      body.append(tr);
    }
    table.tBodies[0].replaceWith(body);
  }

  function sortBy(column) {
    const same = state.sort && state.sort.key === column.key;
    // numbers sort best first: highest first, unless lower is better (and rank, start number: lowest first)
    const natural = column.numeric && !column.lowerIsBetter && !["rank", "id"].includes(column.key) ? -1 : 1;
    state.sort = { key: column.key, dir: same ? -state.sort.dir : natural };
    renderTable();
    const button = document.querySelector(`#standings-table button[data-column="${column.key}"]`);
    if (button) button.focus();
  }

  function rowKeys(event) {
    const row = event.currentTarget;
    const moves = { ArrowDown: row.nextElementSibling, ArrowUp: row.previousElementSibling, Home: row.parentNode.firstElementChild, End: row.parentNode.lastElementChild };
    if (event.key in moves) {
      event.preventDefault();
      if (moves[event.key]) moves[event.key].focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openAudit(Number(row.dataset.id));
    }
  }

  // ---- the audit panel: the API's breakdown, as it is ----

  function openAudit(id, focus = true) {
    const response = state.response;
    const row = response.standings.find((r) => r.id === id);
    if (!row) return;
    state.selected = id;
    for (const tr of document.querySelectorAll("#standings-table tbody tr")) {
      const mine = Number(tr.dataset.id) === id;
      tr.classList.toggle("selected", mine);
      tr.setAttribute("aria-selected", String(mine));
    }
    const names = new Map(response.standings.map((r) => [r.id, r.name]));
    for (const opponent of row.opponents || []) names.set(opponent.id, opponent.name);
    $("audit-heading").textContent = TEXTS.auditHeading(row.name, row.id);
    $("audit-summary").textContent = TEXTS.auditSummary(row, response.total_players);
    const rules = $("audit-rules");
    rules.replaceChildren();
    if (!row.breakdown) rules.append(el("p", { text: TEXTS.noBreakdown }));
    const breakdowns = Object.values(row.breakdown || {}).sort((a, b) => a.position - b.position);
    for (const breakdown of breakdowns) {
      const rule = response.tiebreaks[breakdown.position];
      const section = el("section", { class: "audit-rule", "data-rule": breakdown.spec || rule.spec });
      section.append(el("h3", { text: TEXTS.ruleHeading(rule, breakdown.value) }));
      if (rule.dropped) section.append(el("p", { class: "note", text: TEXTS.dropped(rule.dropped) }));
      if (breakdown.note) section.append(el("p", { class: "note", text: breakdown.note }));
      if (breakdown.total_before_cut !== null && breakdown.total_before_cut !== undefined) {
        section.append(el("p", { class: "note", text: TEXTS.totalBeforeCut(breakdown.total_before_cut) }));
      }
      if (!breakdown.contributions.length) {
        section.append(el("p", { text: TEXTS.noContributions }));
      } else {
        section.append(contributionsTable(breakdown.contributions, names));
      }
      rules.append(section);
    }
    const panel = $("audit-panel");
    panel.hidden = false;
    if (focus) {
      // The panel can be taller than the screen: focusing it would centre it, the player's name
      // and rank off-screen (issue 37, 2). It opens at its heading instead.
      panel.focus({ preventScroll: true });
      $("audit-heading").scrollIntoView({ block: "start" });
    }
    drawProgression();
  }

  function contributionsTable(contributions, names) {
    const head = el("tr");
    for (const label of TEXTS.contributionColumns) head.append(el("th", { scope: "col", text: label }));
    const body = el("tbody");
    for (const c of contributions) {
      const what = (TEXTS.kinds[c.kind] || c.kind) + (c.unplayed ? ` (${c.unplayed})` : "");
      let opponent = "";
      if (c.opponent !== null && c.opponent !== undefined) {
        const label = `${c.opponent} ${names.get(c.opponent) || ""}`.trim();
        opponent = state.response.standings.some((r) => r.id === c.opponent)
          ? el("a", { href: `#player-${c.opponent}`, "data-player": c.opponent, text: label, onclick: (event) => { event.preventDefault(); openAudit(c.opponent); } })
          : label;
      }
      const value = c.cut ? el("del", { text: show(c.value) }) : show(c.value);
      const how = el("ul", { class: "how" });
      if (c.note) how.append(el("li", { text: c.note }));
      if (c.rating_source) how.append(el("li", { class: "rating-source", text: ratingCounted(c) }));
      if (c.capped_at !== undefined && c.capped_at !== null) how.append(el("li", { class: "cap", text: TEXTS.cap(c.capped_at, c.article) }));
      else if (c.counted_score !== undefined && c.counted_score !== null) how.append(el("li", { class: "adjusted", text: TEXTS.counted(c.opponent_score, c.counted_score, c.article) }));
      if (c.result !== undefined && c.result !== null) how.append(el("li", { text: TEXTS.scored(c.result) }));
      if (c.cut) how.append(el("li", { class: "cut-reason", text: TEXTS.cut(c.cut_reason) }));
      body.append(
        el(
          "tr",
          { class: c.cut ? "cut" : null, "data-kind": c.kind, "data-cut": c.cut ? "true" : null },
          el("td", { class: "num", text: c.round === null || c.round === undefined ? "–" : String(c.round) }),
          el("td", { text: what }),
          el("td", {}, opponent),
          el("td", { class: "num" }, value),
          el("td", {}, how),
        ),
      );
    }
    return el("div", { class: "table-box" }, el("table", { class: "contributions" }, el("thead", {}, head), body));
  }

  function closeAudit() {
    $("audit-panel").hidden = true;
    const row = document.querySelector(`#standings-table tr[data-id="${state.selected}"]`);
    if (row) {
      // back to the row the audit was opened from, in the middle of the screen
      row.focus({ preventScroll: true });
      row.scrollIntoView({ block: "center" });
    }
  }

  // ---- rank progression: the chart (uPlot) and the table beside it ----

  function shownPlayers(progression) {
    const top = Number($("chart-top-input").value) || SHOWN_IN_CHART;
    const shown = progression.players.slice(0, Math.max(1, top));
    const selected = progression.players.find((p) => p.id === state.selected);
    if (selected && !shown.includes(selected)) shown.push(selected);
    return shown;
  }

  // 1, then every step to the last rank: about eight labels whatever the field's size; none
  // right after 1, where two labels would collide (15 teams: 1, 4, 6..., not 1, 2, 4; issue 37, 8)
  function rankTicks(worst) {
    const step = Math.max(1, Math.ceil(worst / 8));
    const ticks = [1];
    for (let rank = step; rank <= worst; rank += step) if (rank > 1 && (step === 1 || rank - 1 > step / 2 + 0.5)) ticks.push(rank);
    return ticks;
  }

  function drawProgression() {
    const progression = state.progression;
    const box = $("progression-chart");
    if (state.chart) {
      state.chart.destroy();
      state.chart = null;
    }
    box.replaceChildren();
    if (!progression || typeof uPlot === "undefined") return;
    const shown = shownPlayers(progression);
    const last = progression.rounds.length - 1;
    // the ranks of the players drawn, not of the field: 137 players' scale squeezed the top ten into one band
    const worst = Math.max(1, ...shown.flatMap((p) => p.ranks.filter((r) => r !== null && r !== undefined)));
    const series = [{ label: TEXTS.round }];
    shown.forEach((player, i) => {
      const selected = player.id === state.selected;
      const leader = player.ranks[last] === 1;
      series.push({
        label: player.name,
        stroke: selected ? "#000000" : COLOURS[i % COLOURS.length],
        width: selected ? 4 : leader ? 3 : 1.5,
        points: { show: true, size: selected ? 8 : 5 },
        value: (u, v) => (v === null || v === undefined ? "–" : String(v)),
      });
    });
    const options = {
      width: Math.max(280, box.clientWidth || 600),
      height: 320,
      series,
      scales: { x: { time: false }, y: { range: [0.5, worst + 0.5], dir: -1 } },  // rank 1 at the top
      axes: [
        { label: TEXTS.round, splits: () => progression.rounds },
        { label: TEXTS.rank, splits: () => rankTicks(worst) },
      ],
      legend: { live: false },
    };
    state.chart = new uPlot(options, [progression.rounds, ...shown.map((p) => p.ranks)], box);
    box.dataset.series = String(shown.length);
    box.dataset.worst = String(worst);
    box.dataset.ticks = rankTicks(worst).join(",");
    box.setAttribute("aria-label", `${TEXTS.progressionHeading}: ${shown.map((p) => p.name).join(", ")}`);
  }

  function renderProgressionTable(progression) {
    const table = $("progression-table");
    const head = el("tr", {}, el("th", { scope: "col", text: TEXTS.columns.name }));
    for (const k of progression.rounds) head.append(el("th", { scope: "col", class: "num", text: TEXTS.roundColumn(k) }));
    table.tHead.replaceChildren(head);
    const body = el("tbody");
    for (const player of progression.players) {
      const tr = el("tr", { "data-id": player.id }, el("th", { scope: "row", class: "name", text: player.name }));
      player.ranks.forEach((rank, i) => tr.append(el("td", { class: "num", text: TEXTS.progressionCell(rank, player.points[i]) })));
      body.append(tr);
    }
    table.tBodies[0].replaceWith(body);
  }

  async function loadProgression(body) {
    state.progression = null;
    $("progression-status").textContent = "";
    try {
      state.progression = await post("v1/standings/progression", without(body, ["explain", "top", "offset", "player"]));
      renderProgressionTable(state.progression);
      drawProgression();
    } catch (error) {
      drawProgression();
      $("progression-status").textContent = TEXTS.progressionFailed(error.problem ? error.problem.detail : error.message);
    }
  }

  // ---- compare ----

  function listOf(body, fallback) {
    if (body.preset) return { preset: body.preset };
    if (body.tiebreaks) return { tiebreaks: body.tiebreaks };
    return { tiebreaks: fallback };
  }

  async function compare(event) {
    event.preventDefault();
    clearErrors();
    if (!state.response || !state.body) {
      showProblem(localProblem(TEXTS.compareNeedsStandings), null);
      return;
    }
    const base = state.body;
    const first = { name: TEXTS.listA, ...listOf(base, state.response.tiebreaks.map((t) => t.spec)), regulations: state.response.regulations };
    const rules = splitRules($("compare-rules-input").value);
    const preset = $("compare-preset-select").value;
    // Neither rules nor a preset: the same rules as above, under the rule set chosen (two editions side by side).
    // Both: the preset, as /v1/standings and the form above take it (a compare list takes one of the two).
    const second = { name: TEXTS.listB, ...(preset ? { preset } : rules.length ? { tiebreaks: rules } : listOf(first, [])) };
    const regulations = $("compare-regulations-select").value;
    second.regulations = regulations || state.response.regulations;
    const body = without(base, ["tiebreaks", "preset", "explain", "top", "offset", "player", "participants"]);
    body.lists = [first, second];
    body.explain = false;
    document.documentElement.dataset.state = "busy";
    try {
      const answer = await post("v1/compare", body);
      renderCompare(answer);
      document.documentElement.dataset.state = "compared";
    } catch (error) {
      // beside the compare form, where the arbiter is looking, not at the top of the page
      $("compare-table").hidden = true;
      showProblem(error, body, "compare-error");
      document.documentElement.dataset.state = "error";
    }
  }

  function renderCompare(answer) {
    const [a, b] = answer.lists;
    const rankA = new Map(a.standings.standings.map((r) => [r.id, r.rank]));
    const table = $("compare-table");
    const describe = (list) => `${list.standings.tiebreaks.map((t) => t.spec).join(", ") || "PTS"} (${list.standings.regulations})`;
    const head = el("tr");
    const labels = TEXTS.compareColumns(describe(a), describe(b));
    if (isTeams(b.standings)) labels[0] = t("col_team");
    for (const label of labels) head.append(el("th", { scope: "col", text: label }));
    table.tHead.replaceChildren(head);
    const body = el("tbody");
    for (const row of b.standings.standings) {
      const before = rankA.get(row.id);
      const change = before - row.rank;
      const moved = change > 0 ? TEXTS.movedUp(change) : change < 0 ? TEXTS.movedDown(-change) : TEXTS.notMoved;
      body.append(
        el(
          "tr",
          { "data-id": row.id, "data-moved": change !== 0 ? String(change) : null, class: change !== 0 ? "moved" : null },
          el("th", { scope: "row", class: "name", text: row.name }),
          el("td", { class: "num", text: String(before) }),
          el("td", { class: "num", text: String(row.rank) }),
          el("td", { text: moved }),
        ),
      );
    }
    table.tBodies[0].replaceWith(body);
    table.hidden = false;
    $("status").textContent = TEXTS.compareSummary(answer.summary.moves.length, isTeams(b.standings));
  }

  // ---- before the last round: POST /v1/scenarios ----

  const BYES = new Set(["pairing_bye", "full_bye", "half_bye", "zero_bye"]);

  // The crosstable as JSON: the body's own, or the TRF read by the service (POST /v1/trf), and
  // whether the TRF is a team event's (its boards are then the games; the server reads the teams
  // from the TRF itself, docs/scenarios.md "Team events").
  async function tournamentOf(body) {
    if (body.tournament) return { tournament: body.tournament, team: false };
    if (body.team_tournament) throw localProblem(t("scNoRound"));
    const read = await post("v1/trf", { trf: body.trf });
    if (!read.tournament) throw localProblem(t("scNoRound"));
    return { tournament: read.tournament, team: !!read.team_tournament };
  }

  // The last round with a game, its results set aside and its pairings kept: what the command
  // line's `--pairings last` does (usecases/scenarios.py, opened_round). A game is listed from
  // white's side; a bye stays a bye.
  function openedRound(tournament) {
    const games = tournament.players.flatMap((p) => p.results.filter((r) => r.opponent !== null && r.opponent !== undefined));
    if (!games.length) return null;
    const round = Math.max(...games.map((r) => r.round));
    const pairings = [];
    for (const p of tournament.players) {
      for (const r of p.results) {
        if (r.round !== round) continue;
        if (r.opponent === null || r.opponent === undefined) {
          if (BYES.has(r.result)) pairings.push({ round, player: p.id, bye: r.result });
          continue;
        }
        if ((r.color || (p.id < r.opponent ? "w" : "b")) !== "w") continue;
        pairings.push({ round, white: p.id, black: r.opponent });
      }
    }
    const players = tournament.players.map((p) => ({ ...p, results: p.results.filter((r) => r.round !== round) }));
    return { round, pairings, tournament: { ...tournament, players } };
  }

  function resetScenarios() {
    state.scenarios = null;
    $("scenarios-form").hidden = true;
    $("scenarios-table").hidden = true;
    $("scenarios-folded").hidden = true;
    $("scenarios-error").hidden = true;
    $("scenarios-round").textContent = "";
    $("scenarios-summary").textContent = "";
  }

  async function takeLastRound() {
    $("scenarios-error").hidden = true;
    $("scenarios-table").hidden = true;
    $("scenarios-folded").hidden = true;
    $("scenarios-summary").textContent = "";
    if (!state.response || !state.body) {
      showProblem(localProblem(TEXTS.compareNeedsStandings), null, "scenarios-error");
      return;
    }
    let opened;
    let team = false;
    try {
      const read = await tournamentOf(state.body);
      team = read.team;
      opened = openedRound(read.tournament);
    } catch (error) {
      showProblem(error, state.body, "scenarios-error");
      return;
    }
    if (!opened) {
      $("scenarios-form").hidden = true;
      $("scenarios-round").textContent = t("scNoRound");
      return;
    }
    state.scenarios = opened;
    state.scenarios.team = team;
    const names = new Map(opened.tournament.players.map((p) => [p.id, p.name || String(p.id)]));
    state.scenarios.names = names;
    $("scenarios-round").textContent = t("scRound", { round: opened.round });
    $("scenarios-games-caption").textContent = t("scGames", { round: opened.round });
    const table = $("scenarios-games");
    const head = el("tr");
    for (const label of [t("col_id"), t("colWhite"), t("colBlack"), t("colResult")]) head.append(el("th", { scope: "col", text: label }));
    table.tHead.replaceChildren(head);
    const body = el("tbody");
    opened.pairings.filter((g) => g.white !== undefined).forEach((game, i) => {
      const white = names.get(game.white);
      const black = names.get(game.black);
      const select = el("select", { id: `scenarios-game-${i}`, "data-testid": `scenarios-game-${i}`, "data-white": game.white, "data-black": game.black, "aria-label": t("resultFor", { white, black }) });
      for (const [value, key] of [["", "resOpen"], ["white", "resWhite"], ["draw", "resDraw"], ["black", "resBlack"]]) {
        select.append(el("option", { value, text: t(key) }));
      }
      body.append(el("tr", { "data-white": game.white, "data-black": game.black },
        el("td", { class: "num", text: show(i + 1) }),
        el("td", { text: `${white} (${show(game.white)})` }),
        el("td", { text: `${black} (${show(game.black)})` }),
        el("td", {}, select)));
    });
    table.tBodies[0].replaceWith(body);
    const byes = opened.pairings.filter((g) => g.player !== undefined).map((g) => names.get(g.player));
    $("scenarios-byes").textContent = byes.length ? t("scByes", { names: byes.join(", ") }) : "";
    $("scenarios-form").hidden = false;
  }

  // The command line's sentences (usecases/scenario_text.py), from the same catalogue entries.
  const OWN = { win: "own_win", draw: "own_draw", loss: "own_loss", "draw,win": "own_not_loss", "draw,loss": "own_not_win", "loss,win": "own_not_draw" };
  const OTHER = { white: "white_wins", black: "black_wins", draw: "drawn", "draw,white": "white_not_loss", "black,draw": "black_not_loss", "black,white": "not_drawn" };
  const SIDE = { white: { white: "win", draw: "draw", black: "loss" }, black: { white: "loss", draw: "draw", black: "win" } };

  // `own`: the rows are players (a team is no player of a board: its games read from white's side)
  function conditionText(c, player, names, own = true) {
    if (own && (player === c.white || player === c.black)) {
      const side = player === c.white ? "white" : "black";
      return ts(OWN[c.results.map((r) => SIDE[side][r]).sort().join(",")], { me: names.get(player) });
    }
    return ts(OTHER[[...c.results].sort().join(",")], { white: names.get(c.white), black: names.get(c.black) });
  }

  function placeText(place) {
    return place === 1 ? ts("place_1") : ts("place_n", { place });
  }

  // A solver's answer (SPEC 3.11.1) lists no needs: one outcome reaching the place, as the
  // command line writes it (start numbers, 1-0, 1/2, 0-1).
  const SCORE = { white: "1-0", draw: "1/2", black: "0-1" };
  const exampleText = (example) => (example || []).map((g) => `${g.white}-${g.black}=${SCORE[g.result]}`).join(" ");
  const settles = (needs) => needs.certain === true || (needs.needs !== null && needs.needs.length === 1 && needs.needs[0].length === 0);

  function needsText(player, needs, names, own = true) {
    const place = placeText(needs.place);
    if (settles(needs)) return ts("always", { name: player.name, place });
    if (needs.needs === null) {
      return ts(needs.place === 1 ? "possible_1" : "possible_n", { name: player.name, place: needs.place, example: exampleText(needs.example) });
    }
    const first = (c) => (own && (c.white === player.id || c.black === player.id) ? 0 : 1);
    const terms = needs.needs.map((term) => [...term].sort((a, b) => first(a) - first(b)).map((c) => conditionText(c, player.id, names, own)).join(ts("and")));
    return ts("if", { name: player.name, place, needs: terms.join(ts("or")) });
  }

  // by_own_result (SPEC 3.11.1): the place with the player's own game won, drawn or lost
  const byOwnText = (player, o) => ts("by_own", { name: player.name, win: ts(`own_${o.win}`), draw: ts(`own_${o.draw}`), loss: ts(`own_${o.loss}`) });

  function playerSentences(player, places, names, own = true) {
    const lines = [];
    let said = "";
    for (const needs of player.places) {
      lines.push(needsText(player, needs, names, own));
      if (settles(needs)) break;
      const mine = needs.by_own_result ? byOwnText(player, needs.by_own_result) : "";
      if (mine && mine !== said) lines.push(mine); // said again only when it changed from the place before
      said = mine || said;
    }
    if (!player.places.length && (player.undecided || []).includes("best_rank")) lines.push(ts("unsettled", { name: player.name, places }));
    else if (!player.places.length) lines.push(ts(places === 1 ? "never_1" : "never", { name: player.name, places }));
    return lines;
  }

  async function askScenarios(event) {
    event.preventDefault();
    $("scenarios-error").hidden = true;
    const opened = state.scenarios;
    if (!opened) return;
    const base = state.body;
    const places = Number($("scenarios-places").value) || 1;
    // a team event: the file itself, whose boards the pairings name (the server reads its teams)
    const crosstable = opened.team ? { trf: base.trf } : { tournament: opened.tournament };
    const body = { ...crosstable, pairings: opened.pairings, places, regulations: state.response.regulations };
    if (base.preset) body.preset = base.preset;
    else body.tiebreaks = state.response.tiebreaks.map((x) => x.spec);
    if (base.unrated_rating !== undefined) body.unrated_rating = base.unrated_rating;
    const players = splitRules($("scenarios-players").value).map(Number);
    if (players.length) body.players = players;
    const assume = [];
    for (const select of document.querySelectorAll("#scenarios-games select")) {
      if (select.value) assume.push({ round: opened.round, white: Number(select.dataset.white), black: Number(select.dataset.black), result: select.value });
    }
    if (assume.length) body.assume = assume;
    document.documentElement.dataset.state = "busy";
    $("scenarios-button").disabled = true;
    try {
      let answer;
      try {
        answer = await post("v1/scenarios", body);
      } catch (error) {
        // every player too long for the solver (a 413 at `players`): ask for those who can still
        // reach the places on points; the others are listed as out of reach (decision 0300).
        // A team event reports every team asked about: its 413 is shown as it is.
        const solver = error.status === 413 && error.problem && (error.problem.errors || []).some((e) => e.path === "players");
        if (!solver || body.players || opened.team) throw error;
        body.contenders_only = true;
        answer = await post("v1/scenarios", body);
      }
      state.scenarioAnswer = answer;
      renderScenarios(answer, places, opened.names);
      document.documentElement.dataset.state = "scenarios";
    } catch (error) {
      $("scenarios-table").hidden = true;
      $("scenarios-folded").hidden = true;
      $("scenarios-summary").textContent = "";
      if (error.status === 413 && error.problem) {
        // Too many open games: the server's own words (how many are open, how many fit), then
        // what to do on this page; its API advice names request fields (decision 0230).
        const problem = error.problem;
        $("scenarios-error").replaceChildren(
          el("p", { class: "problem-title" }, el("strong", { text: TEXTS.problem(problem.status, problem.title) })),
          el("p", { class: "advice", "data-testid": "scenarios-advice", text: problem.detail || "" }),
          el("p", { class: "suggestion", text: t(body.contenders_only ? "scTooLong" : "scTooMany") }));
        $("scenarios-error").hidden = false;
      } else {
        showProblem(error, body, "scenarios-error");
      }
      document.documentElement.dataset.state = "error";
    } finally {
      $("scenarios-button").disabled = false;
    }
  }

  // Contenders first, by best rank (then worst rank, then start number); the players who cannot
  // reach the places asked for are folded away below, with their count.
  function scenarioRow(player, places, names, own) {
    const needs = el("ul", { class: "needs" });
    for (const line of playerSentences(player, places, names, own)) needs.append(el("li", { text: line }));
    return el("tr", { "data-id": player.id, "data-testid": "scenarios-row" },
      el("td", { class: "num", "data-column": "id", text: show(player.id) }),
      el("th", { scope: "row", class: "name", text: player.name }),
      el("td", { class: "num", "data-column": "best", text: player.best_rank === null ? "–" : show(player.best_rank) }),
      el("td", { class: "num", "data-column": "worst", text: player.worst_rank === null ? "–" : show(player.worst_rank) }),
      el("td", { class: "num", "data-column": "clinched", text: player.clinched === null ? "–" : show(player.clinched) }),
      el("td", { "data-column": "needs" }, needs));
  }

  function scenarioHead() {
    const head = el("tr");
    for (const label of [t("col_id"), t("col_name"), t("colBest"), t("colWorst"), t("colClinched"), t("colNeeds")]) head.append(el("th", { scope: "col", text: label }));
    return head;
  }

  // `outcomes` is null past 2^53 (decision 0267): 3^games then
  const outcomesText = (answer) => (answer.outcomes === null ? `3^${answer.open_games.length}` : String(answer.outcomes));

  function renderScenarios(answer, places, names) {
    const omitted = answer.players.flatMap((p) => p.places).find((p) => p.needs_omitted);
    const listed = answer.players.some((p) => p.places.some((x) => x.needs !== null));
    $("scenarios-summary").textContent = answer.method === "solver" && listed && !omitted
      ? ts("header_solver_needs", { outcomes: outcomesText(answer), games: answer.open_games.length })
      : answer.method === "solver"
      ? ts("header_solver", { outcomes: outcomesText(answer), games: answer.open_games.length, why: omitted ? omitted.needs_omitted : ts("needs_omitted") })
      : ts("header", { outcomes: outcomesText(answer), games: answer.open_games.length, ranked: answer.ranked_by_tiebreaks });
    const outOfReach = answer.out_of_reach || [];
    if (outOfReach.length) {
      $("scenarios-summary").textContent += " " + ts("contenders_only", { n: answer.players.length, out: outOfReach.length });
    }
    const order = (a, b) => a.best_rank - b.best_rank || a.worst_rank - b.worst_rank || a.id - b.id;
    const contenders = answer.players.filter((p) => p.places.length).sort(order);
    // the players left out (`contenders_only`): behind the places on points, no ranks asked
    const left = outOfReach.map((id) => ({ id, name: names.get(id) || String(id), best_rank: null, worst_rank: null, clinched: null, places: [] }));
    const others = [...answer.players.filter((p) => !p.places.length).sort(order), ...left];
    const table = $("scenarios-table");
    table.tHead.replaceChildren(scenarioHead());
    const body = el("tbody");
    const own = answer.entrants !== "teams";
    for (const player of contenders) body.append(scenarioRow(player, places, names, own));
    table.tBodies[0].replaceWith(body);
    table.hidden = !contenders.length;
    const folded = $("scenarios-folded");
    folded.replaceChildren();
    folded.hidden = !others.length;
    folded.open = false;
    if (others.length) {
      const label = places === 1 ? tn("scFolded1", others.length) : tn("scFolded", others.length, { places });
      const rest = el("table", { "data-testid": "scenarios-folded-table" }, el("thead", {}, scenarioHead()), el("tbody"));
      for (const player of others) rest.tBodies[0].append(scenarioRow(player, places, names, own));
      folded.append(el("summary", { "data-testid": "scenarios-folded-summary", text: label }), rest);
    }
  }

  // ---- CSV and print ----

  function csvField(value) {
    let text = value === null || value === undefined ? "" : String(value);
    // A text a spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a leading
    // apostrophe, shown as text: a player's name must not run in the arbiter's spreadsheet.
    // Numbers stay numbers (a negative value is not a formula).
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = "'" + text;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }

  function downloadCsv() {
    const response = state.response;
    const header = ["rank", "id", "name", "federation", "title", "points", ...response.tiebreaks.map((t) => t.spec), "decided_by"];
    const lines = [header.map(csvField).join(",")];
    for (const r of response.standings) {
      lines.push([r.rank, r.id, r.name, r.federation, r.title, r.points, ...r.values, r.decided_by].map(csvField).join(","));
    }
    const url = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/csv;charset=utf-8" }));
    const link = el("a", { href: url, download: TEXTS.csvName, class: "visually-hidden" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function printWith(mode) {
    document.body.classList.toggle("print-audit", mode === "audit");
    window.print();
  }

  // ---- the file and the form ----

  async function readFile() {
    const file = $("file-input").files[0];
    if (!file) return;
    const bytes = await file.arrayBuffer();
    let text;
    let encoding = "UTF-8";
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      // TRF files of older programs are often Latin-1 / Windows-1252
      text = new TextDecoder("windows-1252").decode(bytes);
      encoding = "Windows-1252";
    }
    $("trf-input").value = text.replace(/^\uFEFF/, "");
    $("status").textContent = TEXTS.fileRead(file.name, encoding);
  }

  async function compute(event) {
    event.preventDefault();
    clearErrors();
    let body;
    try {
      body = baseBody();
    } catch (error) {
      showProblem(error, null);
      return;
    }
    body = { ...body, explain: true };
    // "busy", then "done" or "error": what a test (or a screen reader's status) waits for
    document.documentElement.dataset.state = "busy";
    $("status").textContent = TEXTS.computing;
    $("compute-button").disabled = true;
    try {
      const response = await post("v1/standings", body);
      await state.catalogueLoaded;  // the columns' notes
      state.response = response;
      state.body = body;
      state.sort = null;
      if (!response.standings.some((r) => r.id === state.selected)) state.selected = null;
      $("results").hidden = false;
      $("summary").textContent = TEXTS.summary(response);
      $("audit-print").textContent = isTeams(response) ? t("printAuditTeam") : TEXTS.printAudit;
      $("warnings").replaceChildren(...response.warnings.map((w) => el("li", { "data-code": w.code, text: w.rule ? `${w.message} (${w.rule})` : w.message })));
      // many notes (the Crete cup has 26) fold away, or they push the table off a phone's screen (issue 37, 7)
      $("warnings-box").hidden = !response.warnings.length;
      $("warnings-box").open = response.warnings.length <= FOLDED_WARNINGS;
      $("warnings-summary").textContent = tn("warningsSummary", response.warnings.length);
      renderTable();
      renderRuleNotes(response);
      offerPreset(response);
      $("compare-table").hidden = true;
      resetScenarios();
      if (state.selected !== null) openAudit(state.selected, false);
      else $("audit-panel").hidden = true;
      $("status").textContent = TEXTS.done(response.standings.length);
      await loadProgression(body);
      document.documentElement.dataset.state = "done";
    } catch (error) {
      $("status").textContent = "";
      showProblem(error, body);
      document.documentElement.dataset.state = "error";
    } finally {
      $("compute-button").disabled = false;
    }
  }

  function start() {
    if (rememberedLanguage()) return;
    fillTexts();
    ratingsFields();
    languagePicker();
    keyField();
    state.catalogueLoaded = loadCatalogue();
    loadPresets().finally(restoreInput);  // a kept preset needs its option
    $("input-form").addEventListener("submit", compute);
    $("compare-form").addEventListener("submit", compare);
    $("chart-top-input").addEventListener("change", drawProgression);
    $("scenarios-take").addEventListener("click", takeLastRound);
    $("scenarios-form").addEventListener("submit", askScenarios);
    $("file-input").addEventListener("change", readFile);
    $("csv-button").addEventListener("click", downloadCsv);
    $("print-button").addEventListener("click", () => printWith("standings"));
    $("audit-print").addEventListener("click", () => printWith("audit"));
    $("audit-close").addEventListener("click", closeAudit);
    $("audit-panel").addEventListener("keydown", (event) => {
      if (event.key === "Escape") closeAudit();
    });
    window.addEventListener("afterprint", () => document.body.classList.remove("print-audit"));
    let resize = null;
    window.addEventListener("resize", () => {
      clearTimeout(resize);
      resize = setTimeout(drawProgression, 150);
    });
    document.documentElement.dataset.ready = "true";
  }

  start();
})();
