// The page: loads Python (Pyodide) and the library from its own origin, draws what the
// Python side (tabletop_web.py) answers, and sends it the person's choices. Online (a
// link ?match=ID&seat=N or ?match=ID&watch), it loads no Python: it draws the tables a
// game server sends its seat, with the same drawing code. Every game text goes into the
// page through textContent, never as HTML.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
const PERSON = "you";
const LINK = "link"; // a seat for a person who joins an online match by its link
const MOST_SEATS = 32; // beyond every game's limit: the library says where a count is too high
const LABELS = {
  auto_chance: "Dice thrown by the page (untick to enter physical dice)",
};

// The pause before each bot's move, in ms: a person can follow the bots one move at a
// time, or have them answer at once. prefers-reduced-motion turns the flashes off (see
// style.css), not the pace: a move every so often is no motion.
const PACES = { instant: 0, normal: 700, slow: 1600 };
const PACE_KEY = "tabletop-rules-pace";
// Dice poker's coach (the best keep for each open box) is shown on request, remembered.
const COACH_KEY = "tabletop-rules-coach";

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
  $("create-online").disabled = false;
  drawForm();
  // The versions are for a bug report, not for play: a small line in the footer.
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  const library = manifest.wheels.at(-1).split("-")[1];
  $("about").textContent =
    `tabletop_rules ${library} · Python ${python} · Pyodide ${manifest.pyodide}`;
  setStatus("");
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

// A house rule's field name or choice in words: "throws_per_turn" → "throws per turn",
// "seat0" → "seat 0". The form sends the raw name and value back.
function words(name) {
  return name.replaceAll("_", " ").replace(/([a-z])(\d)/g, "$1 $2");
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A house rule's description with the game's field names and choices in words.
function describedInWords(text, game) {
  const names = new Set(game.rules.flatMap((rule) => [rule.name, ...(rule.choices ?? [])]));
  const inWords = (name) => (names.has(name) ? words(name) : name);
  return text
    .replace(/"(\w+)"/g, (quoted, name) => (names.has(name) ? `“${words(name)}”` : quoted))
    .replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, inWords)
    .replace(/([\w)]) x ([\w(])/g, "$1 × $2")
    .replaceAll("<=", "≤");
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
      input.append(new Option(words(choice), choice));
    }
    input.value = rule.default;
  } else {
    input = document.createElement("input");
    input.value = rule.default;
    if (rule.default === "null") {
      // an optional limit: left blank for none, sent as null
      input.value = "";
      input.placeholder = "none";
      input.dataset.blank = "null";
    }
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
  label.textContent = LABELS[rule.name] ?? capitalised(words(rule.name));
  const error = document.createElement("p");
  error.className = "error";
  error.id = `error-${rule.name}`;
  const about = document.createElement("small");
  about.textContent = describedInWords(rule.description, chosenGame());
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
    select.append(new Option("a person, by link", LINK));
    for (const bot of game.bots) {
      select.append(new Option(`${bot} bot`, bot));
    }
    const kept = before[seat]; // a choice of the last table, if this game offers it
    const offered = kept === PERSON || kept === LINK || game.bots.includes(kept);
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
    if (input.dataset.kind === "bool") rules[input.dataset.rule] = String(input.checked);
    else if (input.value.trim() === "" && input.dataset.blank)
      rules[input.dataset.rule] = input.dataset.blank;
    else rules[input.dataset.rule] = input.value;
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
  const request = formRequest();
  if (request.seats.includes(LINK)) {
    $("error-seats").textContent =
      "A person by link plays online: press “Create an online match” below.";
    return;
  }
  const answer = call("start", JSON.stringify(request));
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
  showGame(answer.game);
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
  drawHints(game);
  const table = $("table");
  if (table.textContent !== game.table) {
    table.textContent = game.table;
    table.classList.remove("changed");
    void table.offsetWidth; // restart the animation
    table.classList.add("changed");
  }
  // The table is the way to play; the notation is the fallback, opened where the table
  // offers no click for the moves (a game the page draws no table for, physical dice).
  if (game.board === null || game.chance) $("notation").open = true;
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
  selection = null;
  drawBoard(game);
}

// Draw an answer's game, then go on with the bots even if the drawing failed: the game's
// flow never hangs on the table drawn (the turn line and the log are drawn first).
function showGame(game) {
  try {
    drawGame(game);
  } finally {
    followBots(game);
  }
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
  if (online !== null) return sendMove(text);
  const answer = call("play", text, botsToPlay());
  if (!answer.ok) {
    $("move-error").textContent = answer.error;
    return false;
  }
  $("move-error").textContent = "";
  showGame(answer.game);
  return true;
}

// --- the table drawn ----------------------------------------------------------------------
// The Python side sends the table as data built from the person's own view ("board");
// every clickable thing carries the notation of the move it makes (data-move), or the page
// composes it from selections that the board lists as legal. Nothing here knows a rule.

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [5],
  2: [1, 9],
  3: [1, 5, 9],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

let selection = null; // what the person has picked on the table, until the next answer

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "on") node.addEventListener("click", value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// A button that plays `move` (its notation) when pressed.
function moveButton(move, props, ...children) {
  return el(
    "button",
    { type: "button", "data-move": move, on: () => playMove(move), ...props },
    ...children,
  );
}

// A playing card: its rank and suit symbol in the corner and the symbol large in the
// middle, so the suit reads by its shape as well as by its colour.
function cardFace(card, props = {}, tag = "div") {
  const red = card.suit === "H" || card.suit === "D";
  const node = el(
    tag,
    {
      class: `card face suit-${card.suit}${red ? " red" : ""} ${props.class ?? ""}`.trim(),
      "data-card": card.text,
      "data-key": `card:${card.text}`,
      "aria-label": props.label ?? card.label,
      role: tag === "button" ? null : "img",
      ...Object.fromEntries(
        Object.entries(props).filter(([name]) => !["class", "label"].includes(name)),
      ),
    },
    el(
      "span",
      { class: "corner", "aria-hidden": "true" },
      el("b", { text: card.rank }),
      el("i", { text: card.symbol }),
    ),
    el("span", { class: "middle", "aria-hidden": "true", text: card.symbol }),
  );
  if (tag === "button") node.type = "button";
  return node;
}

function cardBack(props = {}, tag = "div") {
  const node = el(tag, {
    class: `card back ${props.class ?? ""}`.trim(),
    role: tag === "button" ? null : "img",
    "aria-label": props.label ?? "face-down card",
    ...props.attrs,
  });
  if (tag === "button") node.type = "button";
  return node;
}

function die(face, props = {}, tag = "div") {
  const node = el(tag, {
    class: `die ${props.class ?? ""}`.trim(),
    "data-face": face,
    role: tag === "button" ? null : "img",
    "aria-label": props.label ?? `die showing ${face}`,
    ...props.attrs,
  });
  if (tag === "button") node.type = "button";
  const pips = el("span", { class: "pips", "aria-hidden": "true" });
  for (let spot = 1; spot <= 9; spot += 1) {
    pips.append(el("span", { class: PIPS[face]?.includes(spot) ? "pip on" : "pip" }));
  }
  node.append(pips);
  return node;
}

function countBadge(label, value) {
  return el(
    "span",
    { class: "count" },
    el("span", { text: label }),
    " ",
    el("b", { text: String(value) }),
  );
}

function drawBoard(game) {
  const board = $("board");
  const before = rectsOf(board);
  const focused = focusKey();
  board.replaceChildren();
  $("selection").textContent = "";
  const drawn = game.board;
  board.hidden = drawn === null;
  if (drawn === null) return;
  board.className = `board ${drawn.game}`;
  const draw = { palace: drawPalace, "dice-poker": drawDicePoker, account: drawAccount }[
    drawn.game
  ];
  draw(board, drawn, game);
  restoreFocus(focused);
  if (!reducedMotion.matches) withMotion(() => travel(board, before, drawn));
}

// Redraw the table in place after a selection changed, keeping the focus where it was.
// The hints are the game's own lines. Dice poker's end with the coach's advice ("Coach
// (...): ..." and the keeps under it), shown only when the person turned the coach on.
function drawHints(game) {
  let lines = game.hints;
  const coached = lines.findIndex((line) => line.startsWith("Coach ("));
  if (coached >= 0 && !coaching()) {
    lines = lines.slice(0, coached);
  }
  $("hints").replaceChildren(
    ...lines.map((line) => el("p", { text: line })),
  );
}

function redrawBoard() {
  drawHints(shownGame);
  const focused = focusKey();
  const board = $("board");
  board.replaceChildren();
  const draw = { palace: drawPalace, "dice-poker": drawDicePoker, account: drawAccount }[
    shownGame.board.game
  ];
  draw(board, shownGame.board, shownGame);
  restoreFocus(focused);
}

function focusKey() {
  const active = document.activeElement;
  if (!active || !$("board").contains(active)) return null;
  return active.dataset.focus ?? null;
}

function restoreFocus(key) {
  if (key === null) return;
  const again = $("board").querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (again) again.focus();
}

// --- motion: what moved travels from where it was ------------------------------------------

// Motion only shows what changed: an animation the browser refuses, or one that fails,
// is left out (the console says why) and never stops the game's flow.
function withMotion(animate) {
  try {
    animate();
  } catch (error) {
    console.error("an animation was left out:", error);
  }
}

function rectsOf(board) {
  const rects = new Map();
  for (const node of board.querySelectorAll("[data-key]")) {
    const list = rects.get(node.dataset.key) ?? [];
    list.push(node.getBoundingClientRect());
    rects.set(node.dataset.key, list);
  }
  const areas = new Map();
  for (const node of board.querySelectorAll("[data-area]"))
    areas.set(node.dataset.area, node.getBoundingClientRect());
  return { rects, areas, onTurn: board.dataset.onTurn };
}

function travel(board, before, drawn) {
  const used = new Map();
  for (const node of board.querySelectorAll("[data-key]")) {
    const key = node.dataset.key;
    const list = before.rects.get(key);
    let from = null;
    if (list) {
      const index = used.get(key) ?? 0;
      used.set(key, index + 1);
      from = list[Math.min(index, list.length - 1)];
    } else if (node.dataset.arrives === "true" && before.areas.has(before.onTurn)) {
      from = before.areas.get(before.onTurn); // a card from a hand the page never saw
    }
    if (from === null) continue;
    const to = node.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) + Math.abs(dy) < 2) continue;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: 380,
      easing: "cubic-bezier(.2,.7,.3,1)",
    });
  }
  if (drawn.game === "account" && drawn.path) stepMarker(board, drawn.path);
}

// The account game's marker steps card by card along the line it just moved over.
function stepMarker(board, path) {
  const marker = board.querySelector(`[data-key="marker:${path.key}"]`);
  if (!marker) return;
  const end = marker.getBoundingClientRect();
  const frames = path.columns.map((column) => {
    const cell = board.querySelector(`[data-line="${column}"]`).getBoundingClientRect();
    return {
      transform: `translate(${cell.left + cell.width / 2 - (end.left + end.width / 2)}px, 0)`,
    };
  });
  if (frames.length < 2) return;
  frames[frames.length - 1] = { transform: "none" };
  marker.getAnimations().forEach((animation) => animation.cancel());
  // One still step per card, the start and the landing included: jump-none holds each of
  // its n steps on a keyframe (it needs n >= 2, a one-card move's two cards).
  marker.animate(frames, {
    duration: Math.min(140 * frames.length, 1000),
    easing: `steps(${frames.length}, jump-none)`,
  });
}

// --- palace --------------------------------------------------------------------------------

function drawPalace(board, drawn, game) {
  const mine = drawn.seats.find((seat) => seat.you);
  const onTurn = drawn.seats.find((seat) => seat.on_turn);
  board.dataset.onTurn = onTurn ? String(onTurn.seat) : "";
  const others = el(
    "div",
    { class: "others" },
    ...drawn.seats.filter((seat) => !seat.you).map((seat) => palaceSeat(seat, drawn)),
  );
  const pileCards = drawn.pile.top.map((card, index) =>
    cardFace(card, {
      class: "on-pile",
      "data-arrives": index === drawn.pile.top.length - 1 ? "true" : null,
      style: `--i:${index}`,
    }),
  );
  const pileBody = pileCards.length
    ? pileCards
    : [el("span", { class: "empty-slot", text: "empty" })];
  const pileLabel =
    `the pile, ${drawn.pile.size} card${drawn.pile.size === 1 ? "" : "s"}` +
    (drawn.pile.top.length ? `, ${drawn.pile.top.at(-1).label} on top` : "");
  const pile = drawn.pile.take
    ? moveButton(
        drawn.pile.take,
        {
          class: "pile takeable",
          "aria-label": `${pileLabel}: take the pile`,
          "data-focus": "pile",
        },
        ...pileBody,
      )
    : el("div", { class: "pile", role: "group", "aria-label": pileLabel }, ...pileBody);
  const centre = el(
    "div",
    { class: "centre" },
    el("div", { class: "stack" }, pile, countBadge("Pile", drawn.pile.size)),
    el(
      "div",
      { class: "stack" },
      drawn.stock
        ? cardBack({ label: `the stock, ${drawn.stock} cards` })
        : el("span", { class: "empty-slot", text: "none" }),
      countBadge("Stock", drawn.stock),
    ),
    el(
      "div",
      { class: "stack" },
      el(
        "div",
        { class: "card burned", role: "img", "aria-label": `${drawn.burned} cards burned` },
        el("span", { "aria-hidden": "true", text: drawn.burned ? String(drawn.burned) : "" }),
      ),
      countBadge("Burned", drawn.burned),
    ),
  );
  board.append(others, centre);
  if (mine) board.append(palaceSeat(mine, drawn), palaceHand(mine, drawn), palaceActions(drawn));
  else board.append(palaceActions(drawn));
}

function seatHeading(seat, extra) {
  return el(
    "h4",
    { class: "seat-name" },
    el("span", { text: seat.name }),
    seat.on_turn ? el("span", { class: "badge turn", text: "to move" }) : null,
    seat.finished ? el("span", { class: "badge done", text: "finished" }) : null,
    extra ? el("span", { class: "muted", text: extra }) : null,
  );
}

function palaceSeat(seat, drawn) {
  const sel = selection;
  const slots = seat.face_up.map((card, slot) => {
    const down = seat.face_down[slot];
    const under = down.present
      ? down.move
        ? cardBack(
            {
              class: "under playable",
              label: `face-down card ${slot + 1}: play it blind`,
              attrs: { "data-move": down.move, "data-focus": `down-${slot}` },
            },
            "button",
          )
        : cardBack({ class: "under" })
      : el("span", { class: "card gone", "aria-hidden": "true" });
    if (under.tagName === "BUTTON") under.addEventListener("click", () => playMove(down.move));
    let over = null;
    if (card !== null) {
      over = faceUpCard(seat, card, slot, drawn, sel);
    }
    return el("div", { class: "slot" }, under, over);
  });
  const hand = seat.you
    ? null
    : el(
        "div",
        {
          class: "backs",
          role: "img",
          "aria-label": `${seat.hand_size} card${seat.hand_size === 1 ? "" : "s"} in hand`,
        },
        ...Array.from({ length: Math.min(seat.hand_size, 12) }, () =>
          el("span", { class: "mini-back" }),
        ),
        seat.hand_size > 12
          ? el("span", { class: "muted", text: `+${seat.hand_size - 12}` })
          : null,
      );
  const known = seat.known.length
    ? el(
        "div",
        { class: "known" },
        el("span", { class: "muted", text: seat.you ? "Known to all:" : "Known in hand:" }),
        ...seat.known.map((card) => cardFace(card, { class: "small" })),
      )
    : null;
  return el(
    "section",
    {
      class: `seat${seat.you ? " mine" : ""}${seat.on_turn ? " on-turn" : ""}`,
      "data-area": String(seat.seat),
      "aria-label": `${seat.name}: table and hand`,
    },
    seatHeading(seat, seat.you ? null : `hand ${seat.hand_size}`),
    el(
      "div",
      {
        class: "rows",
        role: "group",
        "aria-label": `${seat.name}: face-up cards over face-down cards`,
      },
      ...slots,
    ),
    hand,
    known,
  );
}

function faceUpCard(seat, card, slot, drawn, sel) {
  if (!seat.you) return cardFace(card, { class: "over" });
  if (drawn.phase === "swap") {
    const swaps = drawn.swaps.filter((swap) => swap.up === slot);
    if (!swaps.length) return cardFace(card, { class: "over" });
    const target = sel?.kind === "hand" ? swaps.find((swap) => swap.hand === sel.index) : null;
    const chosen = sel?.kind === "up" && sel.index === slot;
    return clickableCard(card, {
      class: `over${target ? " target" : ""}${chosen ? " selected" : ""}`,
      label: target
        ? `${card.label}: swap it for the ${drawn.hand[sel.index].label}`
        : `${card.label}, face up`,
      pressed: chosen,
      focus: `up-${slot}`,
      move: target?.move,
      click: () =>
        target ? playMove(target.move) : choose({ kind: chosen ? null : "up", index: slot }),
    });
  }
  if (drawn.play_from === "face_up") return playableCard(card, slot, drawn, "over", `up-${slot}`);
  return cardFace(card, { class: "over" });
}

function clickableCard(card, { class: extra, label, pressed, focus, click, move }) {
  const props = { class: extra, label, "data-focus": focus, "data-move": move ?? null };
  if (!move) props["aria-pressed"] = pressed ? "true" : "false";
  const node = cardFace(card, props, "button");
  node.addEventListener("click", click);
  return node;
}

// A card of a rank the person may lay: clicking it adds it to (or takes it from) the
// cards chosen of that rank; the places chosen are those the listed play of that count lays.
function playableCard(card, place, drawn, extra, focus) {
  const plays = drawn.plays[card.rank];
  if (!plays) return cardFace(card, { class: extra });
  const sel = selection?.kind === "play" && selection.rank === card.rank ? selection : null;
  const chosen = sel ? plays.find((play) => play.count === sel.count) : null;
  const isChosen = chosen ? chosen.places.includes(place) : false;
  return clickableCard(card, {
    class: `${extra} playable${isChosen ? " selected" : ""}`,
    label: `${card.label}${isChosen ? ", chosen" : ", playable"}`,
    pressed: isChosen,
    focus,
    click: () => {
      const counts = plays.map((play) => play.count);
      let count = sel ? sel.count + (isChosen ? -1 : 1) : Math.min(...counts);
      if (!counts.includes(count)) count = isChosen ? 0 : sel.count;
      choose(count > 0 ? { kind: "play", rank: card.rank, count } : null);
    },
  });
}

function palaceHand(mine, drawn) {
  const sel = selection;
  const cards = drawn.hand.map((card, index) => {
    const focus = `hand-${index}`;
    if (drawn.phase === "swap") {
      const swaps = drawn.swaps.filter((swap) => swap.hand === index);
      if (!swaps.length) return cardFace(card, { class: "in-hand" });
      const target = sel?.kind === "up" ? swaps.find((swap) => swap.up === sel.index) : null;
      const chosen = sel?.kind === "hand" && sel.index === index;
      return clickableCard(card, {
        class: `in-hand${target ? " target" : ""}${chosen ? " selected" : ""}`,
        label: target
          ? `${card.label}: swap it for the ${mine.face_up[sel.index].label}`
          : `${card.label}, in hand`,
        pressed: chosen,
        focus,
        move: target?.move,
        click: () =>
          target ? playMove(target.move) : choose({ kind: chosen ? null : "hand", index }),
      });
    }
    return drawn.play_from === "hand"
      ? playableCard(card, index, drawn, "in-hand", focus)
      : cardFace(card, { class: "in-hand" });
  });
  cards.forEach((node, index) => node.style.setProperty("--i", index));
  const fan = el(
    "div",
    {
      class: "fan",
      role: "group",
      "aria-label": `your hand, ${drawn.hand.length} card${drawn.hand.length === 1 ? "" : "s"}`,
      style: `--n:${cards.length}`,
    },
    ...cards,
  );
  return el(
    "section",
    { class: "hand", "aria-label": "your hand" },
    el("h4", { class: "seat-name", text: drawn.hand.length ? "Your hand" : "Your hand is empty" }),
    fan,
  );
}

function palaceActions(drawn) {
  const bar = el("div", { class: "actions" });
  const sel = selection;
  const play =
    sel?.kind === "play" ? drawn.plays[sel.rank]?.find((entry) => entry.count === sel.count) : null;
  if (Object.keys(drawn.plays).length) {
    const label = play
      ? `Play ${Array(play.count).fill(sel.rank).join(" ")}`
      : "Play: choose cards";
    const button = play
      ? moveButton(play.move, { class: "primary", "data-focus": "play" }, label)
      : el("button", { type: "button", class: "primary", disabled: true, text: label });
    bar.append(button);
  }
  for (const action of drawn.actions)
    bar.append(moveButton(action.move, { "data-focus": action.move }, action.label));
  if (drawn.phase === "swap" && drawn.swaps.length) {
    $("selection").textContent =
      sel?.kind === "hand"
        ? "Now choose a face-up card to swap it with."
        : sel?.kind === "up"
          ? "Now choose a hand card to swap it with."
          : `Swap: choose a hand card and a face-up card (${drawn.swaps_made} swaps made), or press Ready.`;
  } else if (play) {
    $("selection").textContent =
      `Chosen: ${Array(play.count).fill(sel.rank).join(" ")}. Press Play, or choose more of that rank.`;
  } else if (Object.keys(drawn.plays).length) {
    $("selection").textContent = "Choose cards of one rank (the lit ones), then press Play.";
  }
  return bar;
}

function choose(picked) {
  selection = picked && picked.kind ? picked : null;
  redrawBoard();
}

// --- dice poker ----------------------------------------------------------------------------

function drawDicePoker(board, drawn, game) {
  board.dataset.throws = String(drawn.throws_used);
  const kept = selection?.kind === "keep" ? selection.kept : new Set();
  const canKeep = Object.keys(drawn.rolls).length > 1 && drawn.dice.length > 0;
  const keptFaces = drawn.dice
    .filter((_, index) => kept.has(index))
    .map((d) => d.face)
    .sort((a, b) => a - b);
  const throwMove = drawn.rolls[keptFaces.join(" ")];
  const tray = el("div", { class: "tray", role: "group", "aria-label": "the dice" });
  drawn.dice.forEach((d, index) => {
    const isKept = kept.has(index);
    const tumble = drawn.just_thrown && d.rolled ? " tumble" : "";
    if (!canKeep) {
      tray.append(
        die(d.face, { class: tumble.trim(), attrs: { "data-die": index, style: `--d:${index}` } }),
      );
      return;
    }
    const node = die(
      d.face,
      {
        class: `${isKept ? "kept" : ""}${tumble}`,
        label: `die showing ${d.face}, ${isKept ? "kept" : "not kept"}`,
        attrs: {
          "data-die": index,
          "aria-pressed": isKept ? "true" : "false",
          "data-focus": `die-${index}`,
          style: `--d:${index}`,
        },
      },
      "button",
    );
    node.addEventListener("click", () => {
      const next = new Set(kept);
      if (isKept) next.delete(index);
      else next.add(index);
      selection = { kind: "keep", kept: next };
      redrawBoard();
    });
    tray.append(node);
  });
  if (!drawn.dice.length)
    tray.append(
      el("p", {
        class: "muted",
        text: drawn.in_air ? "The dice are in the air." : "No dice thrown yet this turn.",
      }),
    );
  const rest = 5 - keptFaces.length;
  const throwLabel = !drawn.dice.length
    ? "Throw the dice"
    : keptFaces.length
      ? `Throw ${rest} (keep ${keptFaces.join(" ")})`
      : "Throw all five";
  const throwButton = throwMove
    ? moveButton(throwMove, { class: "primary", "data-focus": "throw" }, throwLabel)
    : el("button", {
        type: "button",
        class: "primary",
        disabled: true,
        text: Object.keys(drawn.rolls).length ? "Throw: keep fewer than five" : "Throw",
      });
  const turnSeat = drawn.seats.find((seat) => seat.on_turn);
  const info = el(
    "div",
    { class: "throws" },
    countBadge("Throw", `${drawn.throws_used} of ${drawn.throws_allowed}`),
    drawn.announced ? countBadge("Announced", drawn.announced) : null,
    ...drawn.seats.map((seat) =>
      el(
        "span",
        { class: `count seat-chip${seat.on_turn ? " on-turn" : ""}` },
        el("span", { text: seat.name }),
        " ",
        el("b", { text: String(seat.score) }),
        drawn.fences
          ? el("span", {
              class: "fences",
              title: "fences: banked throws",
              text: ` · fences ${seat.fences}`,
            })
          : null,
      ),
    ),
  );
  const coach = el("button", {
    type: "button",
    id: "coach-toggle",
    class: "coach-toggle",
    "aria-pressed": coaching() ? "true" : "false",
    title: "The coach's best keep for each open box, with its chance and points",
    "data-focus": "coach",
    text: "Coach",
  });
  coach.addEventListener("click", () => {
    coachShown = !coaching();
    try {
      localStorage.setItem(COACH_KEY, String(coachShown));
    } catch {
      // no storage: the choice holds for this visit
    }
    redrawBoard();
  });
  board.append(
    el(
      "div",
      { class: "dice-row" },
      tray,
      el("div", { class: "throw-bar" }, throwButton, info, coach),
    ),
  );
  board.append(scoreSheet(drawn));
  if (Object.keys(drawn.rolls).length && drawn.dice.length)
    $("selection").textContent = "Click dice to keep them, then throw; or fill a box on the sheet.";
  else if (drawn.rows.some((row) => row.cells.some((cell) => cell.moves)))
    $("selection").textContent = drawn.dice.length
      ? "Fill a box on the sheet."
      : "Throw, or scratch a box (✕) at once.";
  void turnSeat;
}

let coachShown = null; // whether the coach's lines are shown: read from storage once

function coaching() {
  if (coachShown === null) {
    try {
      coachShown = localStorage.getItem(COACH_KEY) === "true";
    } catch {
      coachShown = false; // no storage (a private window): off, as by default
    }
  }
  return coachShown;
}

function scoreSheet(drawn) {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: "box" }),
    ...drawn.columns.map((column) =>
      el("th", { scope: "col", class: column.current ? "current" : null, text: column.label }),
    ),
  );
  const body = drawn.rows.map((row) =>
    el(
      "tr",
      { class: `${row.section}${row.box === "sixes" ? " section-end" : ""}` },
      el("th", { scope: "row", text: row.label }),
      ...row.cells.map((cell, index) => sheetCell(row, cell, drawn.columns[index])),
    ),
  );
  const sums = drawn.sums.map((sum) =>
    el(
      "tr",
      { class: "sum" },
      el("th", { scope: "row", text: sum.label }),
      ...sum.cells.map((text) => el("td", { text })),
    ),
  );
  return el(
    "div",
    { class: "sheet-wrap" },
    el(
      "table",
      { class: "sheet" },
      el("caption", { text: "Score sheet: a column per seat and stage" }),
      el("thead", {}, head),
      el("tbody", {}, ...body),
      el("tfoot", {}, ...sums),
    ),
  );
}

// A box of the sheet: its points, or for a box the person may fill now a button per move
// (write, announce, scratch) showing what it would score; `hint` is the Python side's note,
// `coach` the dice coach's best keep for the box with its chance and points, shown when
// the person turned the coach on.
function sheetCell(row, cell, column) {
  const td = el("td", { class: column.current ? "current" : null });
  if (!cell.moves) {
    td.textContent = cell.value === null ? "" : String(cell.value);
    return td;
  }
  td.classList.add("open");
  for (const move of cell.moves) {
    const label =
      cell.hint && move.kind !== "scratch" ? `${move.label} (${cell.hint})` : move.label;
    td.append(
      moveButton(
        move.move,
        {
          class: `box-move ${move.kind}`,
          "aria-label": label,
          title: cell.hint ?? move.label,
          "data-box": row.box,
          "data-focus": move.move,
        },
        move.text,
      ),
    );
  }
  if (cell.coach && coaching()) {
    td.append(el("small", { class: "coach", text: cell.coach }));
  }
  return td;
}

// --- the account game ----------------------------------------------------------------------

function drawAccount(board, drawn, game) {
  board.dataset.onTurn = String(drawn.seats.find((seat) => seat.on_turn)?.seat ?? "");
  const accounts = el(
    "div",
    { class: "accounts" },
    ...drawn.seats.map((seat) =>
      el(
        "div",
        {
          class: `account-chip seat-${seat.seat % 8}${seat.on_turn ? " on-turn" : ""}`,
          "data-area": String(seat.seat),
        },
        el("span", { text: seat.name }),
        el("b", { text: String(seat.account) }),
        el("small", { text: `${seat.markers} marker${seat.markers === 1 ? "" : "s"}` }),
      ),
    ),
  );
  const landingMarkers = [
    ...new Set(drawn.columns.flatMap((column) => column.landings.map((landing) => landing.marker))),
  ];
  const chosenMarker =
    selection?.kind === "marker" && landingMarkers.includes(selection.marker)
      ? selection.marker
      : landingMarkers[0];
  const field = el("div", {
    class: "field",
    role: "grid",
    "aria-label": "the field: the bottom line is played",
    style: `--columns:${drawn.columns.length}`,
  });
  for (let row = drawn.rows - 1; row >= 1; row -= 1) {
    const line = el("div", { class: "field-row upper", role: "row" });
    for (const column of drawn.columns) {
      const text = column.cards[row];
      line.append(
        el(
          "div",
          { class: "cell", role: "gridcell" },
          text === undefined
            ? el("span", { class: "fcard gone", "aria-label": "no card" })
            : fieldCard(text, {}),
        ),
      );
    }
    field.append(line);
  }
  const bottom = el("div", { class: "field-row bottom", role: "row" });
  for (const column of drawn.columns)
    bottom.append(bottomCell(column, chosenMarker, landingMarkers));
  field.append(bottom);
  const dieBox = el("div", { class: "die-box" });
  if (drawn.roll !== null)
    dieBox.append(
      die(drawn.roll, {
        class: drawn.rolled ? "tumble" : "",
        label: `the die shows ${drawn.roll}`,
      }),
    );
  else
    dieBox.append(el("span", { class: "die blank", role: "img", "aria-label": "no roll waiting" }));
  for (const action of drawn.actions)
    dieBox.append(
      moveButton(action.move, { class: "primary", "data-focus": action.move }, action.label),
    );
  dieBox.append(countBadge("Pack", drawn.pack), countBadge("Discard", drawn.discard));
  board.append(accounts, field, dieBox);
  const places = drawn.columns.some((column) => column.place || column.buy);
  if (landingMarkers.length)
    $("selection").textContent =
      `Rolled ${drawn.roll}: choose a lit card for m${chosenMarker}${landingMarkers.length > 1 ? " (or pick another of your markers)" : ""}.`;
  else if (drawn.columns.some((column) => column.place))
    $("selection").textContent = "Place your marker: choose a card on the bottom line.";
  else if (places)
    $("selection").textContent =
      "Roll the die, or buy a marker by choosing a card on the bottom line.";
}

function fieldCard(text, props) {
  const kind =
    text === "End"
      ? "end"
      : /^[PT]$/.test(text)
        ? "premium"
        : /^[BZ]$/.test(text)
          ? "hazard"
          : text.startsWith("-")
            ? "minus"
            : "plus";
  return el(
    "span",
    {
      class: `fcard ${kind} ${props.class ?? ""}`.trim(),
      "aria-label": props.label ?? `card ${text}`,
    },
    el("span", { "aria-hidden": "true", text }),
  );
}

function bottomCell(column, chosenMarker, landingMarkers) {
  const landings = column.landings.filter((landing) => landing.marker === chosenMarker);
  const cell = el("div", {
    class: "cell line",
    role: "gridcell",
    "data-line": column.column,
    "data-column": column.column,
  });
  const text = column.cards[0];
  const card =
    text === undefined ? el("span", { class: "fcard gone", "aria-label": "no card" }) : null;
  const markerTokens = column.markers.map((marker) => {
    const choosable =
      marker.you && landingMarkers.length > 1 && landingMarkers.includes(marker.marker);
    const props = {
      class: `marker seat-${marker.seat % 8}${marker.you ? " mine" : ""}${choosable && marker.marker === chosenMarker ? " selected" : ""}`,
      "data-key": `marker:${marker.key}`,
      "aria-label": `${marker.you ? "your" : `P${marker.seat}'s`} marker m${marker.marker}${marker.moved ? ", moved this turn" : ""}`,
      text: marker.text,
    };
    if (!choosable) return el("span", { ...props, role: "img" });
    return el("button", {
      ...props,
      type: "button",
      "aria-pressed": marker.marker === chosenMarker ? "true" : "false",
      "data-focus": `marker-${marker.key}`,
      on: () => {
        selection = { kind: "marker", marker: marker.marker };
        redrawBoard();
      },
    });
  });
  const markers = el("div", { class: "markers" }, ...markerTokens);
  const direct = column.place ?? column.buy ?? (landings.length === 1 ? landings[0].move : null);
  if (card) {
    cell.append(card, markers);
  } else if (direct) {
    const what = column.place
      ? "place your marker here"
      : column.buy
        ? "buy a marker and place it here"
        : landings[0].label;
    cell.classList.add(landings.length ? "lit" : "can-place");
    cell.append(
      moveButton(
        direct,
        {
          class: "fcard-button",
          "aria-label": `card ${text}, column ${column.column}: ${what}`,
          "data-focus": `column-${column.column}`,
        },
        fieldCard(text, { label: "" }),
      ),
      markers,
    );
    if (landings.length === 1)
      cell.append(
        el("small", { class: "effect", "aria-hidden": "true", text: shortEffect(landings[0]) }),
      );
  } else {
    cell.append(fieldCard(text, { label: `card ${text}, column ${column.column}` }), markers);
    if (landings.length > 1) {
      cell.classList.add("lit");
      for (const landing of landings)
        cell.append(
          moveButton(
            landing.move,
            { class: "way", "aria-label": landing.label, "data-focus": landing.move },
            `${landing.text.split(" ").slice(1).join(" ")} ${shortEffect(landing)}`,
          ),
        );
    }
  }
  return cell;
}

function shortEffect(landing) {
  const arrow = landing.effect.match(/→ (-?\d+)$/);
  return arrow ? `→ ${arrow[1]}` : landing.effect;
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
  showGame(answer.game);
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
  showGame(answer.game);
}

// --- online: a match on the game server this page came from -----------------------------
// The server applies every move and sends each seat its own table (tabletop_rules.table);
// the page draws it with the drawing code above, as it draws the Python side's answers.

const MOVE_BUTTONS = 60; // as tabletop_web.py: the rest are counted, and may be typed
const TOKEN_KEY = "tabletop-rules-token"; // localStorage: a seat's token, per match and seat
const SEEN_KEY = "tabletop-rules-seen"; // sessionStorage: the log this tab has been sent
const CHANCE = -1;

let online = null; // the match played online: its id, seat, token, socket and last table
let clockTimer = null;

function here() {
  return new URL(".", location.href);
}

function matchLink(id, seat) {
  const link = new URL(here());
  link.search = seat === null ? `?match=${id}&watch` : `?match=${id}&seat=${seat}`;
  return link.href;
}

// One lobby request: { ok, data } or { ok: false, error, fields } with the server's reason.
async function api(path, body = null) {
  let response;
  try {
    response = await fetch(new URL(path, here()), {
      method: body === null ? "GET" : "POST",
      headers: body === null ? {} : { "Content-Type": "application/json" },
      body: body === null ? undefined : JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      error: "no game server answers here: serve the page with tabletop-rules serve --site",
      fields: {},
    };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data !== null) return { ok: true, data };
  const error =
    data?.error ??
    ([404, 405, 501].includes(response.status)
      ? "no game server answers here: serve the page with tabletop-rules serve --site"
      : `the server answered ${response.status}`);
  return { ok: false, error, fields: data?.fields ?? {} };
}

function stored(storage, key) {
  try {
    return JSON.parse(storage.getItem(key) ?? "null");
  } catch {
    return null; // no storage (a private window): nothing kept
  }
}

function store(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // no storage: the page reconnects only while it stays open
  }
}

function tokenKey(id, seat) {
  return `${TOKEN_KEY}:${id}:${seat}`;
}

function seenKey() {
  return `${SEEN_KEY}:${online.id}:${online.seat ?? "watch"}`;
}

// The clock of the form: none when both fields are blank, else both numbers of seconds.
function clockAsked() {
  const move = $("clock-move").value.trim();
  const bank = $("clock-bank").value.trim();
  if (move === "" && bank === "") return { clock: null };
  const seconds = [move || "0", bank || "0"].map(Number);
  if (seconds.some((value) => !Number.isFinite(value) || value < 0)) {
    return { error: "seconds are a number from 0, or blank for no clock" };
  }
  return { clock: { move_seconds: seconds[0], bank_seconds: seconds[1] } };
}

// Create a match from the form on the server; the page takes the seat marked "you" and
// opens that seat's link (the others get theirs from the match's page).
async function createOnline() {
  clearFormErrors();
  $("online-error").textContent = "";
  const request = formRequest();
  const asked = clockAsked();
  if (asked.error) {
    $("error-clock").textContent = asked.error;
    return;
  }
  const body = {
    game: request.game,
    rules: request.rules,
    seats: request.seats.map((choice) => (choice === PERSON || choice === LINK ? "person" : choice)),
    spectators: $("spectators").value,
    clock: asked.clock,
    timeout: $("timeout").value,
  };
  if (body.spectators === "delayed") body.delay = 3;
  const created = await api("api/matches", body);
  if (!created.ok) {
    for (const [name, message] of Object.entries(created.fields)) {
      const error = $(`error-${name}`);
      if (error) error.textContent = message;
      $(`rule-${name}`)?.setAttribute("aria-invalid", "true");
    }
    $("online-error").textContent = created.error;
    return;
  }
  const id = created.data.match.id;
  const you = request.seats.indexOf(PERSON);
  if (you >= 0) {
    const joined = await api(`api/matches/${encodeURIComponent(id)}/join`, { seat: you });
    if (!joined.ok) {
      $("online-error").textContent = joined.error;
      return;
    }
    store(localStorage, tokenKey(id, you), joined.data.token);
  }
  location.assign(matchLink(id, you >= 0 ? you : null));
}

// Open the match of a link: take the seat it names (or come back to it with the token
// kept), or watch; then keep a socket to the server.
async function bootOnline(asked) {
  const id = asked.get("match");
  const seatText = asked.get("seat");
  online = {
    id,
    seat: null,
    token: null,
    cursor: 0, // the moves of the log this page has been sent
    log: [],
    table: null,
    match: null,
    socket: null,
    reason: null, // why the server said it closes the socket
    tries: 0, // reconnections tried since the socket last opened
  };
  enterOnlineMode();
  setStatus("Joining the match…");
  if (seatText !== null) {
    const seat = Number.parseInt(seatText, 10);
    if (!(seat >= 0)) {
      setStatus(`A seat is a number from 0, got “${seatText}”.`);
      return;
    }
    let token = stored(localStorage, tokenKey(id, seat));
    if (typeof token !== "string") {
      const joined = await api(`api/matches/${encodeURIComponent(id)}/join`, { seat });
      if (!joined.ok) {
        setStatus(`Seat P${seat} cannot be taken: ${joined.error}.`);
        await showLobby();
        return;
      }
      token = joined.data.token;
      store(localStorage, tokenKey(id, seat), token);
    }
    online.seat = seat;
    online.token = token;
  }
  const seen = stored(sessionStorage, seenKey());
  if (seen !== null && Number.isInteger(seen.cursor) && Array.isArray(seen.log)) {
    online.cursor = seen.cursor;
    online.log = seen.log;
  }
  setStatus("Connecting…");
  connect();
}

function enterOnlineMode() {
  $("setup").hidden = true;
  $("online").hidden = false;
  $("engine").hidden = true;
  $("engine-online").hidden = false;
  $("undo").textContent = "Take back";
  $("save").disabled = true;
  $("save").title = "the record is shown once the match is over (it tells the deal)";
  for (const node of [document.querySelector('label[for="load"]'), $("load")]) node.hidden = true;
  document.querySelector("#tools .pace").hidden = true;
}

// Without a seat to play or a table to watch: the match as the lobby shows it, its links.
async function showLobby() {
  const shown = await api(`api/matches/${encodeURIComponent(online.id)}`);
  if (shown.ok) {
    online.match = shown.data.match;
    drawInvites(online.match);
  }
}

function connect() {
  const url = new URL(`ws/${encodeURIComponent(online.id)}`, here());
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  online.socket = socket;
  socket.addEventListener("open", () => {
    online.tries = 0;
    socket.send(JSON.stringify({ type: "hello", token: online.token, cursor: online.cursor }));
  });
  socket.addEventListener("message", (event) => {
    if (online.socket === socket) received(JSON.parse(event.data));
  });
  socket.addEventListener("close", (event) => {
    if (online.socket !== socket) return;
    online.socket = null;
    const reason = online.reason ?? event.reason;
    online.reason = null;
    if (event.code === 1008 || event.code === 1009) {
      // Refused for good (a token that holds no seat, no spectators): no use trying again.
      if (/token/.test(reason) && online.seat !== null) {
        store(localStorage, tokenKey(online.id, online.seat), null);
      }
      setStatus(`The server closed the match's connection: ${reason}.`);
      if (online.match === null) showLobby();
      return;
    }
    // A drop, a restart of the server: come back with the token and the cursor.
    online.tries += 1;
    setStatus("The connection was lost; reconnecting…");
    setTimeout(connect, Math.min(500 * 2 ** online.tries, 10_000));
  });
}

function send(message) {
  const socket = online?.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    $("move-error").textContent = "Not connected to the server; reconnecting…";
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function sendMove(text) {
  if (online.table === null) return false;
  return send({ type: "move", move: text, version: online.table.version });
}

function received(message) {
  if (message.type === "error") {
    online.reason = message.reason; // the socket closes next: its close says what follows
    return;
  }
  const table = message.table;
  // The log after log_from is replaced: a move missed and a move sent twice both mend.
  online.log = online.log.filter((entry) => entry.number <= table.log_from).concat(table.log);
  online.cursor = table.version;
  store(sessionStorage, seenKey(), { cursor: online.cursor, log: online.log });
  const sameTable = online.table !== null && online.table.version === table.version;
  online.table = table;
  online.match = message.match;
  setStatus("");
  if (message.type === "refused") $("move-error").textContent = message.reason;
  else if (!sameTable) $("move-error").textContent = "";
  drawOnline(sameTable);
}

// The server's table drawn by the offline page's path: drawGame takes the same answer.
function drawOnline(sameTable) {
  const { table, match } = online;
  const kept = selection;
  if (shownLog > table.log_from) {
    $("log").replaceChildren(); // moves taken back: the log is drawn again from its start
    shownLog = 0;
  }
  drawGame(gameOfTable(table, match));
  if (sameTable && kept !== null) {
    selection = kept; // a seat joining or leaving leaves the dice chosen as they were
    redrawBoard();
  }
  const play = $("play");
  play.dataset.version = String(table.version);
  play.dataset.seat = table.seat === null ? "" : String(table.seat);
  play.dataset.toMove = table.to_move === null ? "" : String(table.to_move);
  play.dataset.status = match.status;
  if (match.status === "open") {
    const free = match.seats.filter((seat) => seat.kind === "person" && !seat.taken);
    $("turn").textContent =
      `Waiting for ${free.map((seat) => `P${seat.seat}`).join(", ")} to join: send the links above.`;
  }
  // Drawn, not played: before the match starts and once it is over, nothing on it is a move.
  $("board").inert = match.status !== "playing";
  drawInvites(match);
  drawTakeBack(match);
  drawClock(match);
  const mine = table.seat;
  const playing = match.status === "playing";
  $("resign").hidden = mine === null || !playing;
  $("undo").hidden = mine === null;
  $("resign").textContent = "Resign";
  delete $("resign").dataset.sure;
  const claimable = (match.claimable ?? []).filter((seat) => seat !== mine);
  $("claim").hidden = mine === null || !playing || claimable.length === 0;
  $("claim").textContent = claimable.length
    ? `Claim the game (P${claimable[0]} is away)`
    : "Claim the game";
  $("save").disabled = match.status !== "over";
  $("save").title = match.status === "over" ? "" : $("save").title;
}

function gameOfTable(table, match) {
  const mine = table.seat;
  const over = table.over || match.status === "over";
  const playing = match.status === "playing";
  const moves = playing ? table.moves : [];
  const moved = online.log.some((entry) => entry.seat === mine);
  const undoRefusal =
    mine === null
      ? "a spectator has no move to take back"
      : !playing
        ? "the match is not under way"
        : match.takeback
          ? "a take-back is proposed already"
          : moved
            ? null
            : "you have no move to take back yet";
  return {
    name: table.game,
    title: table.title,
    seed: null,
    seat: mine,
    seats: match.seats.map((seat) => seatLabel(seat, mine)),
    table: table.display,
    board: table.drawn,
    guide: { rules: [], notation: [] },
    hints: table.hints,
    move_hints: table.move_notes,
    to_move: toMoveText(table.to_move, match, mine),
    bot_turn: false,
    chance: false,
    moves: moves.slice(0, MOVE_BUTTONS),
    more_moves: Math.max(0, moves.length - MOVE_BUTTONS),
    log: online.log.map((entry) => ({ ...entry, who: whoMoved(entry.seat, mine) })),
    over,
    result: over ? resultText(table, match) : null,
    score: table.scores,
    can_undo: undoRefusal === null,
    undo_refusal: undoRefusal,
  };
}

function seatLabel(seat, mine) {
  if (seat.seat === mine) return PERSON;
  if (seat.kind === "bot") return `${seat.bot} bot`;
  if (!seat.taken) return "a free seat";
  const name = seat.name || "a person";
  return seat.connected ? name : `${name} (away)`;
}

function toMoveText(player, match, mine) {
  if (player === null || match.status !== "playing") return null;
  if (player === mine) return PERSON;
  if (player === CHANCE) return "chance";
  const seat = match.seats[player];
  return seat?.kind === "bot" ? `P${player} (${seat.bot} bot)` : `P${player}`;
}

function whoMoved(player, mine) {
  if (player === CHANCE) return "chance";
  return player === mine ? PERSON : `P${player}`;
}

function resultText(table, match) {
  const result = match.result;
  const winners = result?.winners ?? table.winners;
  const scores = table.scores.map((score, seat) => `P${seat} ${score}`).join(", ");
  const named = (seat) => (seat === table.seat ? "You" : `P${seat}`);
  const why = {
    resigned: `${named(result?.seat)} resigned. `,
    timeout: `${named(result?.seat)} ran out of time. `,
    claimed: `${named(result?.seat)} was away: the game was claimed. `,
  }[result?.reason];
  let who;
  if (!winners.length) who = "No winner.";
  else if (winners.includes(table.seat))
    who = winners.length === 1 ? "You win." : "You share the win.";
  else who = `Winner ${winners.map((seat) => `P${seat}`).join(", ")}.`;
  return `Game over. ${why ?? ""}${who} Scores: ${scores}.`;
}

// The links to share: one per person's seat still free, and the watch link.
function drawInvites(match) {
  const items = [];
  const link = (text, href, id) => {
    const input = el("input", { id, readonly: true, value: href, "aria-label": text });
    input.value = href;
    const copy = el("button", { type: "button", text: "Copy" });
    copy.addEventListener("click", () => {
      input.select();
      navigator.clipboard?.writeText(href).catch(() => {});
    });
    return el("li", {}, el("span", { text }), input, copy);
  };
  if (match.status === "open") {
    for (const seat of match.seats) {
      if (seat.kind === "person" && !seat.taken && seat.seat !== online.seat)
        items.push(
          link(`Link for P${seat.seat}`, matchLink(online.id, seat.seat), `invite-${seat.seat}`),
        );
    }
  }
  if (match.settings.spectators !== "none")
    items.push(link("Watch link", matchLink(online.id, null), "invite-watch"));
  $("invites").replaceChildren(...items);
  const late = match.settings.spectators === "delayed" ? `, ${match.settings.delay} moves behind` : "";
  const you = online.seat === null ? `You watch${late}` : `You play P${online.seat}`;
  const status = { open: "waiting for people", playing: "under way", over: "over" }[match.status];
  $("online-status").textContent = `${you}; the match is ${status}.`;
}

function drawTakeBack(match) {
  const proposal = match.takeback;
  $("takeback").hidden = !proposal;
  if (!proposal) return;
  const mine = online.seat;
  const asksMe = mine !== null && proposal.waiting.includes(mine);
  const others = proposal.waiting.map((seat) => `P${seat}`).join(", ");
  $("takeback-text").textContent =
    proposal.by === mine
      ? `You asked to take back your last turn; waiting for ${others}.`
      : asksMe
        ? `P${proposal.by} asks to take back their last turn, your moves since included.`
        : `P${proposal.by} asked to take back their last turn; waiting for ${others}.`;
  $("takeback-accept").hidden = !asksMe;
  $("takeback-decline").hidden = !asksMe;
}

function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The clock as the server last sent it, counted down here between its messages.
function drawClock(match) {
  if (clockTimer !== null) clearInterval(clockTimer);
  clockTimer = null;
  const clock = match.clock;
  if (!clock) {
    $("clock").textContent = "";
    return;
  }
  const since = performance.now();
  const show = () => {
    const gone = (performance.now() - since) / 1000;
    const banks = clock.banks.map((bank, seat) => `P${seat} ${clockText(bank)}`).join(" · ");
    const left =
      clock.to_move === null || clock.left === null
        ? ""
        : ` ${clock.to_move === online.seat ? "You have" : `P${clock.to_move} has`} ${clockText(clock.left - gone)} left for this move.`;
    $("clock").textContent = `Clock, the banks: ${banks}.${left}`;
  };
  show();
  if (clock.to_move !== null && match.status === "playing") clockTimer = setInterval(show, 1000);
}

// Resigning asks once more: the first press arms the button, the second resigns.
function resign() {
  const button = $("resign");
  if (button.dataset.sure !== "true") {
    button.dataset.sure = "true";
    button.textContent = "Resign: press again to confirm";
    return;
  }
  send({ type: "resign" });
}

function saveOnlineRecord() {
  const link = document.createElement("a");
  link.href = new URL(`api/matches/${encodeURIComponent(online.id)}/record`, here()).href;
  link.download = `${online.table?.game ?? "match"}.json`;
  link.click();
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
  if (online !== null) {
    send({ type: "takeback", answer: "propose" });
    return;
  }
  const answer = call("undo");
  if (answer.ok) {
    $("move-error").textContent = "";
    showGame(answer.game);
  } else {
    $("move-error").textContent = answer.error;
  }
});
$("save").addEventListener("click", () => (online !== null ? saveOnlineRecord() : saveRecord()));
$("create-online").addEventListener("click", () => {
  createOnline().catch((error) => {
    console.error(error);
    $("online-error").textContent = "the match could not be created; see the console for why";
  });
});
$("resign").addEventListener("click", resign);
$("claim").addEventListener("click", () => send({ type: "claim" }));
$("takeback-accept").addEventListener("click", () => send({ type: "takeback", answer: "accept" }));
$("takeback-decline").addEventListener("click", () =>
  send({ type: "takeback", answer: "decline" }),
);
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

const opened = new URLSearchParams(location.search);
if (opened.has("match")) {
  bootOnline(opened).catch((error) => {
    console.error(error);
    setStatus("The page could not open the match. Reload it, or see the console for why.");
  });
} else {
  boot().catch((error) => {
    console.error(error);
    setStatus("The page could not load Python. Reload it, or see the console for why.");
  });
}
