// The TypeScript program of `make clients` (docs/clients.md): its bodies satisfy the types
// openapi-typescript generates (./schema) and go through the SDK @hey-api/openapi-ts generates
// (./sdk, whose own types check them a second time); type-checked with
// `tsc --noEmit --strict`, then run with node against the server at TIEBREAK_URL. It prints one
// JSON object; tests/contract/test_generated_clients.py checks it.
import type { components } from "./schema";
import { compareRuleLists, computeStandings, computeStandingsBatch } from "./sdk";
import { createClient } from "./sdk/client";

type Schemas = components["schemas"];

// Only the required fields: no colour, points or rated flag on a game, no name, no regulations.
const tournament = {
  rounds: 2,
  players: [
    { id: 1, results: [{ round: 1, opponent: 2, result: "win" }, { round: 2, opponent: 3, result: "win" }] },
    { id: 2, results: [{ round: 1, opponent: 1, result: "loss" }, { round: 2, opponent: 4, result: "draw" }] },
    { id: 3, results: [{ round: 1, opponent: 4, result: "win" }, { round: 2, opponent: 1, result: "loss" }] },
    { id: 4, results: [{ round: 1, opponent: 3, result: "loss" }, { round: 2, opponent: 2, result: "draw" }] },
  ],
} satisfies Schemas["Tournament"];
const standingsRequest = { tournament, tiebreaks: ["BH"] } satisfies Schemas["StandingsRequest"];

const teamRequest = {
  team_tournament: {
    rounds: 1,
    team_size: 2,
    teams: [
      { id: 1, players: [{ id: 1 }, { id: 2 }] },
      { id: 2, players: [{ id: 3 }, { id: 4 }] },
    ],
    matches: [
      {
        round: 1,
        home: 1,
        away: 2,
        boards: [
          { board: 1, white: 1, black: 3, result: "1-0" },
          { board: 2, white: 4, black: 2, result: "1/2-1/2" },
        ],
      },
    ],
  },
} satisfies Schemas["StandingsRequest"];

const compareRequest = {
  tournament,
  lists: [
    { name: "Buchholz", tiebreaks: ["BH"] },
    { name: "FIDE Swiss", preset: "fide-swiss-traditional" },
  ],
} satisfies Schemas["CompareRequest"];

const batch = [
  { id: "good", tournament, tiebreaks: ["BH"], explain: false },
  { id: "bad", tournament, tiebreaks: ["BHX"] },
] satisfies Schemas["BatchItem"][];

async function main(): Promise<void> {
  const client = createClient({ baseUrl: process.env.TIEBREAK_URL ?? "http://127.0.0.1:8000" });

  const standings = await computeStandings({ client, body: standingsRequest });
  if (standings.data === undefined) throw new Error(`standings: ${JSON.stringify(standings.error)}`);
  const rows = standings.data.standings;

  const teams = await computeStandings({ client, body: teamRequest });
  if (teams.data === undefined) throw new Error(`team standings: ${JSON.stringify(teams.error)}`);

  const compared = await compareRuleLists({ client, body: compareRequest });
  if (compared.data === undefined) throw new Error(`compare: ${JSON.stringify(compared.error)}`);

  // NDJSON: one BatchResult a line, read as text.
  const streamed = await computeStandingsBatch({ client, body: batch, parseAs: "text" });
  const lines: Schemas["BatchResult"][] = String(streamed.data)
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Schemas["BatchResult"]);

  // A problem+json answer: the SDK gives it as `error`, typed as the Problem schema.
  const refused = await computeStandings({ client, body: { tournament, tiebreaks: ["BHX"] } });
  const problem: Schemas["Problem"] | undefined = refused.error;

  console.log(
    JSON.stringify({
      ranking: rows.map((row) => row.id),
      buchholz: Object.fromEntries(rows.map((row) => [row.id, row.values[0]])),
      team_ranking: teams.data.standings.map((row) => row.id),
      champions: compared.data.summary.champions.map((champion) => champion.ids),
      batch: lines.map((line) => [line.id, line.status]),
      problem: [refused.response.status, problem?.status, problem?.errors?.[0]?.path],
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
