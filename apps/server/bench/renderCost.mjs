// What the search index pays to render one demo answer's text (its eight Markdown blocks), on
// this thread: the work the search-text worker does for every reply (issue 33).
//   cd apps/server && node --import tsx bench/renderCost.mjs
// Prints each round's mean over 1,000 renders (200 different answers, five times); round 0
// includes the JIT's warm-up, so read the later rounds.
import { planDemoTurn } from "../src/providers/demo.ts";
import { searchTextOf } from "../src/storage/searchText.ts";

const ANSWERS = 200;
const REPEATS = 5;
const answers = Array.from({ length: ANSWERS }, (_, i) =>
  planDemoTurn(`run 1 client ${i} turn 3`, []).answer(),
);
console.log(`a demo answer: ${answers[0].length} characters`);
const means = [];
for (let round = 0; round < 6; round++) {
  const t0 = performance.now();
  for (let k = 0; k < REPEATS; k++) for (const answer of answers) searchTextOf("assistant", answer);
  const mean = (performance.now() - t0) / (ANSWERS * REPEATS);
  if (round > 0) means.push(mean);
  console.log(`round ${round}: ${mean.toFixed(3)} ms per answer`);
}
means.sort((a, b) => a - b);
console.log(`median of rounds 1-5: ${means[2].toFixed(3)} ms per answer`);
