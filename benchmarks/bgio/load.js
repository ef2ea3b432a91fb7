// The load client of the anchor: N matches of game.js's dice poker on a boardgame.io
// server, two boardgame.io clients each (boardgame.io/client with its socket.io
// transport, WebSocket only), playing random legal moves; what benchmarks/server_load.py
// does against tabletop_rules' server, measured the same way.
//
//   node load.js --url http://127.0.0.1:8000 --matches 100 --pid SERVER_PID
//       [--warmup 2] [--seconds 10] [--think 0.5] [--seed 1] [--setup-timeout 120]
//
// Each match is made and joined through the lobby API (credentials checked on every
// move). A client whose seat is to move waits a think time drawn uniformly from 0 to
// 2 x --think seconds, then sends a random move of `enumerate`; its latency runs from
// the send to the first state with a later state id. After --warmup seconds of play the
// window opens for --seconds; the server process's RSS and CPU time are read from /proc
// when the server is idle, when the window opens and when it closes. One JSON line on
// stdout says what happened.
"use strict";

process.env.NODE_ENV = process.env.NODE_ENV || "production";

const fs = require("fs");
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { DicePoker, enumerate } = require("./game");

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const URL_ = option("url", "http://127.0.0.1:8000");
const MATCHES = Number(option("matches", "100"));
const PID = Number(option("pid", "0"));
const WARMUP = Number(option("warmup", "2"));
const SECONDS = Number(option("seconds", "10"));
const THINK = Number(option("think", "0.5"));
const SETUP_TIMEOUT = Number(option("setup-timeout", "120"));
const STALL = 10; // seconds a sent move may wait for its state before it counts as an error

let seed = Number(option("seed", "1")) >>> 0;
function random() {
  // mulberry32: the move choices and think times are reproducible; the dice are the server's
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// The server's resident memory (bytes) and CPU time (seconds, user + system), from /proc.
function serverUsage() {
  if (!PID) return { rss: null, cpu: null };
  const status = fs.readFileSync(`/proc/${PID}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)[1]) * 1024;
  const stat = fs.readFileSync(`/proc/${PID}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return { rss, cpu: ticks / 100 }; // USER_HZ is 100 on Linux
}

async function post(path, body) {
  const response = await fetch(URL_ + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

// Runs `make(i)` for i < count with at most `width` in flight.
async function pool(count, width, make) {
  const results = new Array(count);
  let next = 0;
  async function worker() {
    while (next < count) {
      const i = next++;
      results[i] = await make(i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
}

const now = () => performance.now() / 1000;

async function main() {
  const idle = serverUsage();
  const started = now();
  const seats = await pool(MATCHES, 32, async () => {
    const { matchID } = await post("/games/dice-poker/create", { numPlayers: 2 });
    const joined = [];
    for (const playerID of ["0", "1"]) {
      const { playerCredentials } = await post(`/games/dice-poker/${matchID}/join`, {
        playerID,
        playerName: `p${playerID}`,
      });
      joined.push({ matchID, playerID, credentials: playerCredentials });
    }
    return joined;
  });
  const lobbySeconds = now() - started;

  const stats = { moves: 0, bytes: 0, latencies: [], errors: 0, errorKinds: {}, gamesOver: 0 };
  let measuring = false;
  let stopped = false;
  const error = (kind) => {
    stats.errors += 1;
    stats.errorKinds[kind] = (stats.errorKinds[kind] || 0) + 1;
  };

  const clients = [];
  const synced = new Promise((resolve, reject) => {
    let waiting = MATCHES * 2;
    const timer = setTimeout(() => reject(new Error(`only ${MATCHES * 2 - waiting} clients synced`)), SETUP_TIMEOUT * 1000);
    for (const { matchID, playerID, credentials } of seats.flat()) {
      const client = Client({
        game: DicePoker,
        numPlayers: 2,
        matchID,
        playerID,
        credentials,
        debug: false,
        multiplayer: SocketIO({ server: URL_, socketOpts: { transports: ["websocket"] } }),
      });
      const me = { client, playerID, pending: null, acted: -1, ready: false };
      client.subscribe((state) => {
        if (state === null) return;
        if (!me.ready) {
          me.ready = true;
          waiting -= 1;
          if (waiting === 0) {
            clearTimeout(timer);
            resolve();
          }
        }
        onState(me, state);
      });
      clients.push(me);
    }
    for (const me of clients) {
      me.client.start();
      const socket = me.client.transport.socket;
      socket.on("connect_error", () => error("connect_error"));
      // the text of every packet received (socket.io's framing included), while measuring
      socket.io.on("open", () =>
        socket.io.engine.on("packet", (packet) => {
          if (measuring && typeof packet.data === "string") stats.bytes += packet.data.length;
        })
      );
      socket.on("disconnect", () => stopped || error("disconnect"));
    }
  });

  function onState(me, state) {
    if (me.pending && state._stateID > me.pending.stateID) {
      if (measuring) {
        stats.moves += 1;
        stats.latencies.push(now() - me.pending.sent);
      }
      me.pending = null;
    }
    if (state.ctx.gameover) {
      if (me.playerID === "0") stats.gamesOver += 1;
      return;
    }
    if (!me.playing || stopped || me.pending || state.ctx.currentPlayer !== me.playerID) return;
    if (state._stateID <= me.acted) return;
    me.acted = state._stateID;
    const send = () => {
      if (stopped) return;
      const current = me.client.getState();
      const moves = enumerate(current.G, current.ctx);
      const choice = moves[Math.floor(random() * moves.length)];
      me.pending = { stateID: current._stateID, sent: now() };
      me.client.moves[choice.move](...choice.args);
    };
    const think = THINK > 0 ? random() * 2 * THINK : 0;
    if (think > 0) setTimeout(send, think * 1000);
    else setImmediate(send);
  }

  await synced;
  const setupSeconds = now() - started;
  for (const me of clients) {
    me.playing = true;
    onState(me, me.client.getState());
  }
  const stallCheck = setInterval(() => {
    const t = now();
    for (const me of clients) {
      if (me.pending && t - me.pending.sent > STALL) {
        error("stalled move");
        me.pending.sent = Infinity;
      }
    }
  }, 1000);

  await new Promise((resolve) => setTimeout(resolve, WARMUP * 1000));
  const opened = serverUsage();
  const cpuOpened = process.cpuUsage();
  const windowStart = now();
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const windowSeconds = now() - windowStart;
  const closed = serverUsage();
  const cpuClosed = process.cpuUsage(cpuOpened);
  stopped = true;
  clearInterval(stallCheck);
  const stalled = clients.filter((me) => me.pending && now() - me.pending.sent > STALL).length;

  const report = JSON.stringify({
      matches: MATCHES,
      lobby_seconds: lobbySeconds,
      setup_seconds: setupSeconds,
      window_seconds: windowSeconds,
      moves: stats.moves,
    bytes: stats.bytes,
      latencies: stats.latencies,
      errors: stats.errors,
      error_kinds: stats.errorKinds,
      stalled,
      games_over: stats.gamesOver,
      server: { idle, opened, closed },
      client_cpu: (cpuClosed.user + cpuClosed.system) / 1e6,
  });
  for (const me of clients) me.client.stop();
  process.stdout.write(report + "\n", () => process.exit(0)); // a pipe flushes before exit
}

main().catch((err) => {
  const report = JSON.stringify({ failed: String((err && err.stack) || err) });
  process.stdout.write(report + "\n", () => process.exit(1));
});
