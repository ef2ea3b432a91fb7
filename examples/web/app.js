// The page: loads Python (Pyodide) and the library from its own origin, draws what the
// Python side (tabletop_web.py) answers, and sends it the person's choices. Every game
// text goes into the page through textContent, never as HTML.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
const PERSON = "you";
const MOST_SEATS = 32; // beyond every game's limit: the library says where a count is too high
const LABELS = {
  auto_chance: "Dice thrown by the page (untick to enter physical dice)",
};

// The pause before each bot's move, in ms: a person can follow the bots one move at a
// time, or have them answer at once. prefers-reduced-motion turns the flashes off (see
// style.css), not the pace: a move every so often is no motion.
const PACES = { instant: 0, normal: 700, slow: 1600 };
const PACE_KEY = "tabletop-rules-pace";

let glue = null;
let games = [];
let shownLog = 0;
let shownGame = null;
let pacing = null; // the timer of the next bot's move, while bots are on turn

function setStatus(text) {
  $("status").textContent = text;
}

// One call to the Python side: its answer, or a refusal if the call itself failed.
function call(name, ...args) {
  try {
    return JSON.parse(glue[name](...args));
  } catch (error) {
    console.error(error);
    return { ok: false, error: "the rules engine did not answer; reload the page", fields: {} };
  }
}

async function boot() {
  const here = new URL(".", location.href);
  const manifest = await (await fetch(new URL("manifest.json", here))).json();
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", here).href });
  setStatus("Loading the rules engine…");
  await pyodide.loadPackage(manifest.wheels.map((name) => new URL(`wheels/${name}`, here).href));
  const source = await (await fetch(new URL("tabletop_web.py", here))).text();
  pyodide.FS.mkdirTree("/page");
  pyodide.FS.writeFile("/page/tabletop_web.py", source);
  pyodide.runPython("import sys; sys.path.insert(0, '/page')");
  glue = pyodide.pyimport("tabletop_web");
  games = call("catalogue").games;

  const select = $("game");
  for (const game of games) {
    select.append(new Option(game.title, game.name));
  }
  const asked = new URLSearchParams(location.search);
  if (games.some((game) => game.name === asked.get("game"))) {
    select.value = asked.get("game");
  }
  $("seed").value = asked.get("seed") ?? "";
  $("speed").value = chosenPace(asked.get("speed"));
  select.disabled = false;
  $("start").disabled = false;
  drawForm();
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  const library = manifest.wheels.at(-1).split("-")[1];
  setStatus(`Ready: tabletop_rules ${library} on Python ${python}, Pyodide ${manifest.pyodide}.`);
  startGame();
}

function chosenGame() {
  return games.find((game) => game.name === $("game").value);
}

// --- the new-game form, generated from the game's house rules -----------------------------

function drawForm() {
  const game = chosenGame();
  const rules = $("rules");
  rules.replaceChildren();
  for (const rule of game.rules) {
    rules.append(ruleField(rule));
  }
  drawSeats(game.players);
  clearFormErrors();
}

function ruleField(rule) {
  const field = document.createElement("div");
  field.className = rule.kind === "bool" ? "field check" : "field";
  const id = `rule-${rule.name}`;
  let input;
  if (rule.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = rule.default === "true";
  } else if (rule.kind === "choice") {
    input = document.createElement("select");
    for (const choice of rule.choices) {
      input.append(new Option(choice, choice));
    }
    input.value = rule.default;
  } else {
    input = document.createElement("input");
    input.value = rule.default;
    if (rule.kind === "number") {
      input.inputMode = "numeric";
    }
  }
  input.id = id;
  input.name = rule.name;
  input.dataset.rule = rule.name;
  input.dataset.kind = rule.kind;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = LABELS[rule.name] ?? rule.name;
  const error = document.createElement("p");
  error.className = "error";
  error.id = `error-${rule.name}`;
  const about = document.createElement("small");
  about.textContent = rule.description;
  if (rule.name === "players") {
    input.addEventListener("input", () => {
      const players = Number.parseInt(input.value, 10);
      if (players >= 1 && players <= MOST_SEATS) drawSeats(players);
    });
  }
  if (rule.kind === "bool") {
    field.append(input, label, error, about);
  } else {
    field.append(label, input, error, about);
  }
  return field;
}

function drawSeats(players) {
  const game = chosenGame();
  const seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map((select) => select.value);
  seats.replaceChildren();
  for (let seat = 0; seat < players; seat += 1) {
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.append(new Option("you", PERSON));
    for (const bot of game.bots) {
      select.append(new Option(`${bot} bot`, bot));
    }
    const kept = before[seat]; // a choice of the last table, if this game offers it
    const offered = kept === PERSON || game.bots.includes(kept);
    select.value = offered ? kept : seat === 0 ? PERSON : game.best_bot;
    select.addEventListener("change", () => keepOnePerson(select));
    const label = document.createElement("label");
    label.htmlFor = select.id;
    label.textContent = `P${seat}`;
    const field = document.createElement("div");
    field.className = "field";
    field.append(label, select);
    seats.append(field);
  }
}

// The page plays one seat: choosing "you" for a seat gives the other seats bots.
function keepOnePerson(chosen) {
  if (chosen.value !== PERSON) return;
  for (const select of $("seats").querySelectorAll("select")) {
    if (select !== chosen && select.value === PERSON) select.value = chosenGame().best_bot;
  }
}

function formRequest() {
  const rules = {};
  for (const input of $("rules").querySelectorAll("[data-rule]")) {
    rules[input.dataset.rule] = input.dataset.kind === "bool" ? String(input.checked) : input.value;
  }
  const seats = [...$("seats").querySelectorAll("select")].map((select) => select.value);
  return { game: $("game").value, rules, seats, seed: $("seed").value, bots: botsToPlay() };
}

function clearFormErrors() {
  for (const error of $("setup-form").querySelectorAll(".error")) error.textContent = "";
  for (const input of $("setup-form").querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
  }
}

function startGame() {
  clearFormErrors();
  const answer = call("start", JSON.stringify(formRequest()));
  if (!answer.ok) {
    for (const [name, message] of Object.entries(answer.fields ?? {})) {
      const error = $(`error-${name}`);
      if (error) error.textContent = message;
      $(`rule-${name}`)?.setAttribute("aria-invalid", "true");
    }
    $("setup-error").textContent = answer.error;
    return;
  }
  shownLog = 0;
  $("log").replaceChildren();
  $("record-error").textContent = "";
  $("move-error").textContent = "";
  $("setup").open = false;
  drawGame(answer.game);
  followBots(answer.game);
}

// --- the game ---------------------------------------------------------------------------

function drawGame(game) {
  shownGame = game;
  $("play").hidden = false;
  // The seed fixes the deal and the dice: the Python side tells it once the game is over.
  $("title").textContent = game.seed === null ? game.title : `${game.title}, seed ${game.seed}`;
  $("cast").textContent = game.seats.map((who, seat) => `P${seat}: ${who}`).join(" · ");
  if (game.over) {
    $("turn").textContent = "";
  } else if (game.chance) {
    $("turn").textContent = "Enter what the dice show.";
  } else {
    $("turn").textContent = game.to_move === PERSON ? "Your move." : `To move: ${game.to_move}.`;
  }
  drawGuide(game);
  const hints = $("hints");
  hints.replaceChildren(
    ...game.hints.map((line) => {
      const paragraph = document.createElement("p");
      paragraph.textContent = line;
      return paragraph;
    }),
  );
  const table = $("table");
  if (table.textContent !== game.table) {
    table.textContent = game.table;
    table.classList.remove("changed");
    void table.offsetWidth; // restart the animation
    table.classList.add("changed");
  }
  $("result").textContent = game.result ?? "";

  const moves = $("moves");
  moves.replaceChildren();
  game.moves.forEach((move, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.move = move;
    button.addEventListener("click", () => playMove(move));
    const hint = game.move_hints[move];
    if (hint === undefined) {
      moves.append(button);
      return;
    }
    // What the move would do, beside its button and read with it by a screen reader.
    const note = document.createElement("small");
    note.id = `move-hint-${index}`;
    note.textContent = hint;
    button.setAttribute("aria-describedby", note.id);
    const choice = document.createElement("span");
    choice.className = "choice";
    choice.append(button, note);
    moves.append(choice);
  });
  $("more-moves").textContent = game.more_moves
    ? `… and ${game.more_moves} more: type one below.`
    : "";
  $("typed").hidden = game.moves.length === 0;
  $("undo").disabled = !game.can_undo;
  $("undo").title = game.undo_refusal || "";
  drawLog(game.log);
}

// The rules panel: the guide's lines for the house rules in play, the same all game.
function drawGuide(game) {
  $("guide-game").textContent = game.title;
  for (const [id, lines] of [
    ["guide-rules", game.guide.rules],
    ["guide-notation", game.guide.notation],
  ]) {
    const list = $(id);
    const shown = [...list.children].map((item) => item.textContent);
    if (shown.join("\n") === lines.join("\n")) continue;
    list.replaceChildren(
      ...lines.map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
  }
  $("guide").hidden = game.guide.rules.length === 0 && game.guide.notation.length === 0;
}

function drawLog(entries) {
  const log = $("log");
  if (entries.length < shownLog) {
    log.replaceChildren();
    shownLog = 0;
  }
  for (const entry of entries.slice(shownLog)) {
    const item = document.createElement("li");
    item.value = entry.number;
    item.className = "new";
    const move = document.createElement("span");
    move.className = "move";
    move.textContent = `${entry.who}: ${entry.move}`;
    // The game's own sentences, as the person's seat sees the events (told in Python).
    const events = document.createElement("p");
    events.className = "events";
    events.textContent = entry.events.map((sentence) => `${sentence}.`).join(" ");
    item.append(move, events);
    log.append(item);
  }
  for (const item of [...log.children].slice(0, shownLog)) item.classList.remove("new");
  shownLog = entries.length;
  log.scrollTop = log.scrollHeight;
}

function playMove(text) {
  const answer = call("play", text, botsToPlay());
  if (!answer.ok) {
    $("move-error").textContent = answer.error;
    return false;
  }
  $("move-error").textContent = "";
  drawGame(answer.game);
  followBots(answer.game);
  return true;
}

// --- the bots' pace -----------------------------------------------------------------------

function chosenPace(asked) {
  if (Object.hasOwn(PACES, asked ?? "")) return asked;
  try {
    const kept = localStorage.getItem(PACE_KEY);
    if (Object.hasOwn(PACES, kept ?? "")) return kept;
  } catch {
    // no storage (a private window): the default pace
  }
  return "normal";
}

function pause() {
  return PACES[$("speed").value] ?? 0;
}

// With no pause the Python side plays the bots' moves at once; else the page asks for
// them one at a time.
function botsToPlay() {
  return pause() === 0 ? "all" : "none";
}

// Play the bots on turn in `game`: each after a pause, or all at once with none.
function followBots(game) {
  if (pacing !== null) {
    clearTimeout(pacing);
    pacing = null;
  }
  if (!game.bot_turn) return;
  if (pause() === 0) {
    let answer;
    do {
      answer = call("bot");
    } while (answer.ok && answer.game.bot_turn);
    showBotMove(answer);
    return;
  }
  pacing = setTimeout(() => {
    pacing = null;
    showBotMove(call("bot"));
  }, pause());
}

function showBotMove(answer) {
  if (!answer.ok) {
    $("move-error").textContent = answer.error;
    return;
  }
  drawGame(answer.game);
  followBots(answer.game);
}

// --- records ----------------------------------------------------------------------------

function saveRecord() {
  const answer = call("record");
  if (!answer.ok) {
    $("record-error").textContent = answer.error;
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.record], { type: "application/json" }));
  link.download = answer.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000); // once the download has begun
}

async function loadRecord(file) {
  const answer = call("load", await file.text(), botsToPlay());
  if (!answer.ok) {
    $("record-error").textContent = `Not loaded: ${answer.error}`;
    return;
  }
  $("record-error").textContent = "";
  $("move-error").textContent = "";
  shownLog = 0;
  $("log").replaceChildren();
  drawGame(answer.game);
  followBots(answer.game);
}

// --- wiring -----------------------------------------------------------------------------

$("game").addEventListener("change", drawForm);
$("setup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  startGame();
});
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("move-text");
  if (playMove(input.value.trim())) input.value = "";
});
$("undo").addEventListener("click", () => {
  const answer = call("undo");
  if (answer.ok) {
    $("move-error").textContent = "";
    drawGame(answer.game);
    followBots(answer.game);
  } else {
    $("move-error").textContent = answer.error;
  }
});
$("save").addEventListener("click", saveRecord);
$("speed").addEventListener("change", () => {
  try {
    localStorage.setItem(PACE_KEY, $("speed").value);
  } catch {
    // no storage: the pace holds for this visit
  }
  if (pacing !== null && shownGame !== null) followBots(shownGame); // the new pace at once
});
$("load").addEventListener("change", async (event) => {
  const [file] = event.target.files;
  event.target.value = "";
  if (file) await loadRecord(file);
});

boot().catch((error) => {
  console.error(error);
  setStatus("The page could not load Python. Reload it, or see the console for why.");
});
