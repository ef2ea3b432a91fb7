// Dice poker for boardgame.io: the anchor game of benchmarks/server_load.py.
//
// The same rules as tabletop_rules' dice poker under its default config, two players:
// three stages of fifteen boxes played in sequence, three throws a turn plus the banked
// fences, keeps by value, a mountain box always written, a poker box written only when the
// dice fit it, any open poker box scratched (before the first throw too), the stage's
// premium or penalty. Every move is checked against `enumerate` (the legal list, in
// boardgame.io's own AI convention) and runs on the server only (`client: false`), as an
// authoritative server's moves do; the dice come from boardgame.io's seeded random plugin.
"use strict";

const { INVALID_MOVE } = require("boardgame.io/core");

const BOXES = [
  "ones", "twos", "threes", "fours", "fives", "sixes", "pair", "two_pairs",
  "three_kind", "four_kind", "full_house", "small_straight", "large_straight", "poker",
  "chance",
];
const MOUNTAIN = 6;
const STAGES = 3;
const THROWS = 3;
const PREMIUM = 50;
const PENALTY = 20;

function counts(dice) {
  const c = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) c[d] += 1;
  return c;
}

// The points the dice score in a box, or null when they do not fit it.
function points(box, dice) {
  const c = counts(dice);
  const sum = dice.reduce((a, b) => a + b, 0);
  const faces = (n) => [6, 5, 4, 3, 2, 1].filter((f) => c[f] >= n);
  if (box < MOUNTAIN) return (c[box + 1] - 3) * (box + 1);
  switch (BOXES[box]) {
    case "pair": {
      const f = faces(2);
      return f.length ? 2 * f[0] : null;
    }
    case "two_pairs": {
      const f = faces(2);
      return f.length >= 2 ? 2 * (f[0] + f[1]) : null;
    }
    case "three_kind": {
      const f = faces(3);
      return f.length ? 3 * f[0] : null;
    }
    case "four_kind": {
      const f = faces(4);
      return f.length ? 4 * f[0] : null;
    }
    case "full_house":
      return faces(3).length && faces(2).length === 2 ? sum : null;
    case "small_straight":
      return [1, 2, 3, 4, 5].every((f) => c[f] === 1) ? 15 : null;
    case "large_straight":
      return [2, 3, 4, 5, 6].every((f) => c[f] === 1) ? 20 : null;
    case "poker":
      return faces(5).length ? 50 : null;
    default:
      return sum; // chance
  }
}

// The open boxes of the player's current stage (stages are filled in sequence).
function openBoxes(sheet) {
  for (let stage = 0; stage < STAGES; stage++) {
    const open = [];
    for (let box = 0; box < BOXES.length; box++) {
      if (sheet[stage * BOXES.length + box] === null) open.push(stage * BOXES.length + box);
    }
    if (open.length) return open;
  }
  return [];
}

// The distinct sorted keeps of the dice, all five excepted (keeping all is not a throw).
function keeps(dice) {
  const sorted = [...dice].sort();
  const seen = new Map();
  for (let mask = 0; mask < 31; mask++) {
    const keep = sorted.filter((_, i) => mask & (1 << i));
    seen.set(keep.join(","), keep);
  }
  return [...seen.values()];
}

// Every legal move of the player to move: [name, args] pairs, boardgame.io's AI form.
function enumerate(G, ctx) {
  const player = Number(ctx.currentPlayer);
  const open = openBoxes(G.sheets[player]);
  const moves = [];
  if (G.throws < THROWS + G.fences[player]) {
    for (const keep of G.throws === 0 ? [[]] : keeps(G.dice)) moves.push({ move: "roll", args: [keep] });
  }
  for (const cell of open) {
    const box = cell % BOXES.length;
    if (G.throws > 0 && points(box, G.dice) !== null) moves.push({ move: "write", args: [cell] });
    if (box >= MOUNTAIN) moves.push({ move: "scratch", args: [cell] });
  }
  return moves;
}

function isListed(G, ctx, name, arg) {
  const key = JSON.stringify(arg);
  return enumerate(G, ctx).some((m) => m.move === name && JSON.stringify(m.args[0]) === key);
}

function fill(G, ctx, events, cell, value) {
  const player = Number(ctx.currentPlayer);
  const sheet = G.sheets[player];
  sheet[cell] = value;
  const stage = Math.floor(cell / BOXES.length);
  const mountain = sheet.slice(stage * BOXES.length, stage * BOXES.length + MOUNTAIN);
  if (cell % BOXES.length < MOUNTAIN && mountain.every((v) => v !== null)) {
    const total = mountain.reduce((a, b) => a + b, 0);
    G.bonuses[player][stage] = total > 0 ? PREMIUM : total < 0 ? -PENALTY : 0;
  }
  G.fences[player] += THROWS - G.throws;
  G.throws = 0;
  G.dice = [];
  events.endTurn();
}

function score(G, player) {
  const boxes = G.sheets[player].reduce((a, b) => a + (b || 0), 0);
  return boxes + G.bonuses[player].reduce((a, b) => a + b, 0);
}

const DicePoker = {
  name: "dice-poker",
  minPlayers: 2,
  maxPlayers: 2,

  setup: ({ ctx }) => ({
    dice: [],
    throws: 0,
    fences: Array(ctx.numPlayers).fill(0),
    sheets: Array.from({ length: ctx.numPlayers }, () => Array(STAGES * BOXES.length).fill(null)),
    bonuses: Array.from({ length: ctx.numPlayers }, () => Array(STAGES).fill(0)),
  }),

  moves: {
    roll: {
      move: ({ G, ctx, random }, keep) => {
        if (!isListed(G, ctx, "roll", keep)) return INVALID_MOVE;
        const thrown = random.Die(6, 5 - keep.length);
        G.dice = [...keep, ...(Array.isArray(thrown) ? thrown : [thrown])].sort();
        G.throws += 1;
      },
      client: false,
    },
    write: {
      move: ({ G, ctx, events }, cell) => {
        if (!isListed(G, ctx, "write", cell)) return INVALID_MOVE;
        fill(G, ctx, events, cell, points(cell % BOXES.length, G.dice));
      },
      client: false,
    },
    scratch: {
      move: ({ G, ctx, events }, cell) => {
        if (!isListed(G, ctx, "scratch", cell)) return INVALID_MOVE;
        fill(G, ctx, events, cell, 0);
      },
      client: false,
    },
  },

  endIf: ({ G, ctx }) => {
    if (G.sheets.some((sheet) => sheet.includes(null))) return undefined;
    const scores = G.sheets.map((_, p) => score(G, p));
    const best = Math.max(...scores);
    return { winners: scores.flatMap((s, p) => (s === best ? [String(p)] : [])), scores };
  },

  ai: { enumerate },
};

module.exports = { DicePoker, enumerate, points, keeps, BOXES };
