// boardgame.io's own server (Koa lobby + socket.io) serving the dice poker of game.js.
//
//   node server.js --port 8000 [--storage memory|flatfile] [--dir PATH]
//
// memory: boardgame.io's InMemory storage (its default); flatfile: its FlatFile storage
// (node-persist, one file per key under --dir). Listens on 127.0.0.1 only and prints
// "ready <port>" once it accepts connections.
"use strict";

process.env.NODE_ENV = process.env.NODE_ENV || "production"; // no log line per request

const { Server, FlatFile } = require("boardgame.io/server");
const { DicePoker } = require("./game");

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main() {
  const port = Number(option("port", "8000"));
  const storage = option("storage", "memory");
  let db;
  if (storage === "flatfile") {
    db = new FlatFile({ dir: option("dir", "bgio-storage"), logging: false });
  } else if (storage !== "memory") {
    throw new Error(`unknown --storage ${storage}: memory or flatfile`);
  }
  const server = Server({ games: [DicePoker], db, origins: ["http://127.0.0.1"] });
  // koa-socket-2 owns app.server; bind it to loopback rather than every interface.
  server.app.listen = (listenPort, callback) => server.app.server.listen(listenPort, "127.0.0.1", callback);
  await server.run(port);
  console.log(`ready ${port}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
