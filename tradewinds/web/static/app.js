// tradewinds in the browser: plain JavaScript and SVG, no build step.
// The page draws only what the server sends for the person's seat: the named view of the
// seat's observation, the names of its legal actions, the move log and, at the end, the
// result. Clicking a highlighted place on the board plays the legal action it stands for.
// Hansa and Voyage have boards; any other game the server offers (one a user declared)
// is shown as its observation entries by name, its legal actions as buttons.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const app = { meta: null, boards: {}, mode: null, page: null, shown: 0, timer: null,
              replay: null, busy: false };

// ------------------------------------------------------------------ helpers
async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}
function say(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}
function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function html(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function option(select, value, label) {
  const o = html("option", { value: value }, select, label === undefined ? value : label);
  return o;
}
function hasBoard(game) {
  const g = app.meta.games.find((x) => x.name === game);
  return !!(g && g.board);
}
async function board(game) {
  if (!hasBoard(game)) return null;
  if (!app.boards[game]) app.boards[game] = await api(`/api/boards/${game}`);
  return app.boards[game];
}
function playerColour(b, p) { return b.player_colours[p % b.player_colours.length]; }

// ------------------------------------------------------------------ the first start
function compiling(r) {
  // what the page says while the server compiles (first start after an install only)
  if (r.error) return `the server could not start its opponents: ${r.error}`;
  const done = (r.kernels ? 1 : 0) + r.started, steps = 1 + r.workers;
  return `compiling, first start only: step ${done} of ${steps} ` +
    `(${r.kernels ? "game kernels done; " : "game kernels; "}` +
    `${r.started} of ${r.workers} opponents' processes ready), ${Math.round(r.seconds)} s so far`;
}
async function waitReady(r) {
  // until the server is ready: the banner with progress, and no game can start
  const banner = $("compiling");
  while (!r.ready) {
    banner.hidden = false;
    banner.textContent = compiling(r);
    $("f-start").disabled = true;
    if (r.error) return false;
    await new Promise((ok) => setTimeout(ok, 1000));
    try { r = await api("/api/ready"); } catch (e) { /* the server restarting: ask again */ }
  }
  banner.hidden = true;
  $("f-start").disabled = false;
  return true;
}
function label(page, p) {
  const who = page.agents[p];
  return `player_${p} (${who})`;
}

// ------------------------------------------------------------------ setup form
function fillSetup() {
  const g = $("f-game"), players = $("f-players");
  const game = app.meta.games.find((x) => x.name === g.value) || app.meta.games[0];
  const keep = players.value;
  players.innerHTML = "";
  for (let n = game.min_players; n <= game.max_players; n++) option(players, n);
  players.value = keep && +keep <= game.max_players ? keep : game.min_players;
  fillSeats();
}
function gameMeta() {
  return app.meta.games.find((x) => x.name === $("f-game").value) || app.meta.games[0];
}
function fillSeats() {
  const n = +$("f-players").value, seat = $("f-seat"), keep = seat.value;
  const game = gameMeta(), first = game.name === "hansa";   // Voyage bids for its order
  seat.innerHTML = "";
  for (let s = 0; s < n; s++) option(seat, s, `player_${s}` + (first && s === 0 ? " (first)" : ""));
  seat.value = keep && +keep < n ? keep : 0;
  $("f-order").textContent = game.order;
  const box = $("f-opponents");
  const before = [...box.querySelectorAll("select")].map((x) => x.value);
  box.innerHTML = "";
  let k = 0;
  for (let s = 0; s < n; s++) {
    if (s === +seat.value) continue;
    const l = html("label", {}, box, `player_${s} `);
    const sel = html("select", { "data-seat": s, class: "opponent" }, l);
    // strongest first, the ladder's rating beside each rated one
    for (const a of game.agents[n]) option(sel, a.name, a.elo === null ? `${a.name} (unrated)`
      : `${a.name} (Elo ${a.elo})`);
    const offered = game.agents[n].map((a) => a.name);
    sel.value = offered.includes(before[k]) ? before[k]
      : offered.includes("heuristic") ? "heuristic" : offered[0];
    k++;
  }
}
async function startGame(ev) {
  ev.preventDefault();
  const body = { game: $("f-game").value, players: +$("f-players").value,
                 seat: +$("f-seat").value,
                 opponents: [...document.querySelectorAll("#f-opponents select")].map((x) => x.value) };
  if ($("f-seed").value !== "") body.seed = +$("f-seed").value;
  try {
    $("f-start").disabled = true;
    say("starting…");
    const page = await api("/api/games", body);
    location.hash = `#play/${page.id}`;
  } catch (e) { say(e.message, true); } finally { $("f-start").disabled = false; }
}

// ------------------------------------------------------------------ playing
async function openGame(id) {
  stopTimer();
  app.mode = "play";
  app.page = null;
  show("table");
  $("replay-controls").hidden = true;
  $("speed-row").hidden = false;
  try {
    const page = await api(`/api/games/${encodeURIComponent(id)}`);
    app.shown = page.moves;          // a reload resumes at the latest position
    await draw(page);
    app.page = page;
    say("");
    schedule(0);
  } catch (e) { say(e.message, true); }
}
function stopTimer() { if (app.timer) clearTimeout(app.timer); app.timer = null; }
function schedule(ms) { stopTimer(); app.timer = setTimeout(tick, ms); }
async function tick() {
  if (app.mode !== "play" || !app.page) return;
  const id = app.page.id;
  try {
    const latest = await api(`/api/games/${id}`);
    if (app.mode !== "play" || !app.page || app.page.id !== id) return;
    if (app.shown < latest.moves) {            // opponents moved: one move at a time
      app.shown += 1;
      const page = app.shown === latest.moves ? latest
        : await api(`/api/games/${id}?at=${app.shown}`);
      await draw(page);
      app.page = page;
      schedule(+$("speed").value);
      return;
    }
    const same = app.page.moves === latest.moves && app.page.at === latest.at &&
      app.page.status === latest.status;
    if (!same) {                    // redraw only when something changed
      await draw(latest);
      app.page = latest;
    }
    if (latest.status === "thinking") schedule(400);
  } catch (e) { say(e.message, true); schedule(2000); }
}
async function play(action) {
  const page = app.page;
  if (!page || app.busy) return;
  app.busy = true;
  $("choice").hidden = true;
  try {
    const next = await api(`/api/games/${page.id}/move`, { action: action.id, move: page.moves });
    app.shown = page.moves + 1;
    const mine = next.moves === app.shown ? next : await api(`/api/games/${page.id}?at=${app.shown}`);
    await draw(mine);
    app.page = mine;
    say(`you: ${action.name}`);
    schedule(+$("speed").value);
  } catch (e) { say(e.message, true); schedule(0); } finally { app.busy = false; }
}

// ------------------------------------------------------------------ drawing a page
async function draw(page) {
  const b = await board(page.game);
  const legal = page.legal || [];
  const act = app.mode === "play" ? play : () => {};
  $("board-wrap").hidden = !b;
  const clicks = !b ? [] : page.game === "hansa" ? drawHansa(b, page, legal)
    : drawVoyage(b, page, legal);
  wireClicks(clicks, act);
  drawPanel(b, page, legal, act);
  // for scripts and tests: where the page is
  document.body.dataset.at = page.at;
  document.body.dataset.moves = page.moves;
  document.body.dataset.status = page.at === page.moves ? page.status : "catching_up";
}
function wireClicks(clicks, act) {
  for (const [node, actions] of clicks) {
    node.classList.add("legal");
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (actions.length === 1) return act(actions[0]);
      const box = $("choice");
      box.innerHTML = "";
      html("div", {}, box, "choose:");
      for (const a of actions) html("button", { "data-action": a.name }, box, a.name).onclick = () => act(a);
      html("button", {}, box, "cancel").onclick = () => { box.hidden = true; };
      box.hidden = false;
    });
  }
}
function status(page) {
  if (page.result) {
    const w = page.result.winners.map((p) => `player_${p}`).join(", ");
    return `game over: ${w} won` + (page.result.truncated ? " (round cap)" : "");
  }
  if (page.status === "error") return `stopped: ${page.error}`;
  const v = page.view;
  const who = page.to_move === page.seat && app.mode === "play" ? "your decision"
    : `${label(page, page.to_move)} to move` + (app.mode === "play" && page.status === "thinking"
      ? ` (thinking, at most ${app.meta.deadline_seconds} s a move)` : "");
  if (v.fields) return `${page.game}, move ${page.at}: ${who}`;
  return `round ${v.round}, phase ${v.phase}: ${who}`;
}
function drawPanel(b, page, legal, act) {
  const st = $("status");
  st.innerHTML = "";
  html("span", { class: page.to_move === page.seat ? "turn" : "" }, st, status(page));
  if (page.game === "hansa") hansaPlayers(b, page);
  else if (page.game === "voyage") voyagePlayers(b, page);
  else genericFields(page);
  const box = $("legal");
  box.innerHTML = "";
  for (const a of legal) {
    const btn = html("button", { "data-action": a.name, class: "legal" }, box, a.name);
    btn.onclick = () => act(a);
  }
  if (!legal.length) html("span", { class: "hint" }, box,
    app.mode === "play" && !page.result ? "(not your move)" : "-");
  const log = $("log");
  log.innerHTML = "";
  page.log.forEach((m, i) => {
    const li = html("li", { value: m.move }, log, `${label(page, m.seat)}: ${m.action}` +
      (m.forced ? ` (forced: ${m.forced})` : ""));
    if (m.forced) li.title = m.forced;
    if (i + 1 === page.at) li.className = "current";
  });
  const cur = log.querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  const res = $("result");
  res.innerHTML = "";
  if (page.result) {
    page.result.scores.forEach((s, p) => {
      const won = page.result.winners.includes(p);
      html("div", { class: won ? "won" : "" }, res, `${label(page, p)}: ${s} VP${won ? "  winner" : ""}`);
    });
    const scoring = finalScoring(page);
    if (scoring) html("div", { id: "final-scoring", class: "hint" }, res, scoring);
    if (page.seed !== undefined) html("div", { class: "hint" }, res,
      `seed ${page.seed}` + (page.seed_chosen ? " (chosen by you)" : " (drawn by the server)"));
  }
}
function finalScoring(page) {
  // what the final scoring added to the VP of play (Voyage V51: 5 VP a target card)
  if (page.game !== "voyage") return "";
  const added = page.result.scores.map((s, p) => s - page.view.players[p].vp);
  if (added.every((x) => x === 0)) return "";
  return "final scoring (V51), 5 VP for each target card whose port carries the player's " +
    "monument: " + added.map((x, p) => `player_${p} +${x}`).join(", ") +
    " (the players table shows the VP of play)";
}
function dot(parent, colour) {
  const d = html("span", { class: "dot" }, parent);
  d.style.background = colour;
  return d;
}
function tokenChip(b, parent, name, count, actions, act) {
  const colour = b.good_colours[b.colours.indexOf(name.replace(/[0-9]/g, ""))];
  for (let i = 0; i < count; i++) {
    const t = html("span", { class: "tok", title: name, "data-token": name }, parent, name.slice(-1));
    t.style.background = colour;
    if (name.startsWith("yellow") || name.startsWith("orange")) t.style.color = "#222";
    else t.style.color = "#fff";
    if (actions && actions.length && i === 0) {
      t.classList.add("legal");
      t.onclick = () => {
        if (actions.length === 1) return act(actions[0]);
        const box = $("choice");
        box.innerHTML = "";
        html("div", {}, box, `${name}:`);
        for (const a of actions) html("button", { "data-action": a.name }, box, a.name).onclick = () => act(a);
        html("button", {}, box, "cancel").onclick = () => { box.hidden = true; };
        box.hidden = false;
      };
    }
  }
}

// ------------------------------------------------------------------ Hansa
function drawHansa(b, page, legal) {
  const svg = $("board");
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${b.width} ${b.height}`);
  svg.style.background = "#cfe8f7";
  const v = page.view, n = page.num_players;
  const defs = el("defs", {}, svg);
  const mk = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1f5f8b" }, mk);
  const byName = {};
  for (const a of legal) byName[a.name] = a;
  const clicks = [];
  for (const [a, c] of b.routes) {
    const p = b.cities[a], q = b.cities[c];
    const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len;
    el("line", { x1: p.x + ux * 20, y1: p.y + uy * 20, x2: q.x - ux * 21, y2: q.y - uy * 21,
      stroke: "#1f5f8b", "stroke-width": 2.2, "marker-end": "url(#arrow)" }, svg);
  }
  el("text", { x: b.width - 12, y: b.height - 10, "text-anchor": "end", fill: "#7fa7c4",
    "font-size": 15 }, svg, "Baltic Sea");
  for (const c of b.cities) {
    const g = el("g", { "data-city": c.name }, svg);
    if (v.ship === c.id) {
      el("circle", { cx: c.x, cy: c.y, r: 24, fill: "none", stroke: "#c0392b", "stroke-width": 3.5 }, g);
      const sx = c.x - 44, sy = c.y - 4;
      el("path", { d: `M${sx},${sy} h26 l-5,8 h-16 z`, fill: "#8b5a2b", stroke: "#333" }, g);
      el("path", { d: `M${sx + 13},${sy - 1} v-20 l11,17 z`, fill: "#fff", stroke: "#333" }, g);
    }
    const circle = el("circle", { cx: c.x, cy: c.y, r: 17, fill: "#f4e4c1", stroke: "#333",
      "stroke-width": 1.5, class: "target" }, g);
    el("text", { x: c.x, y: c.y + 5, "text-anchor": "middle", "font-size": 14,
      "font-weight": "bold", fill: "#333" }, g, String(c.id + 1));
    el("text", { x: c.x, y: c.y - 22, "text-anchor": "middle", "font-size": 14,
      "font-weight": "bold", stroke: "#cfe8f7", "stroke-width": 3, "paint-order": "stroke" }, g, c.name);
    const acts = ["sail:", "setup:"].map((k) => byName[k + c.name]).filter(Boolean);
    if (acts.length) {
      circle.setAttribute("stroke", "#ff7f00");
      circle.setAttribute("stroke-width", 4);
      clicks.push([g, acts]);
    }
    c.slots.forEach((w, k) => {
      const x = c.x + 17 + 6 + k * 24, y = c.y - 10;
      const tok = v.warehouses[w];
      const slot = el("g", { "data-slot": `${c.name}/${k + 1}` }, svg);
      const colour = tok ? b.good_colours[b.colours.indexOf(tok.replace(/[0-9]/g, ""))] : "#fff";
      const r = el("rect", { x, y, width: 20, height: 20, rx: 3, fill: colour,
        stroke: "#5c6f80", "stroke-width": 1, class: "target" }, slot);
      if (tok) el("text", { x: x + 10, y: y + 15, "text-anchor": "middle", "font-size": 13,
        "font-weight": "bold", fill: /yellow|orange/.test(tok) ? "#222" : "#fff" }, slot, tok.slice(-1));
      const buy = byName[`buy:${c.name}/${k + 1}`];
      if (buy) {
        r.setAttribute("stroke", "#ff7f00");
        r.setAttribute("stroke-width", 4);
        clicks.push([slot, [buy]]);
      }
    });
    for (let p = 0; p < n; p++) {
      const k = v.players[p].stalls[c.id];
      if (!k) continue;
      const x = c.x + (p - (n - 1) / 2) * 25, y = c.y + 34;
      el("circle", { cx: x, cy: y, r: 11, fill: playerColour(b, p), stroke: "#333" }, svg);
      el("text", { x, y: y + 4.5, "text-anchor": "middle", "font-size": 12, "font-weight": "bold",
        fill: p === 1 ? "#fff" : p === 2 ? "#111" : "#fff" }, svg, String(k));
    }
  }
  return clicks;
}
function hansaPlayers(b, page) {
  const v = page.view, box = $("players"), legal = page.legal || [];
  box.innerHTML = "";
  const t = html("table", {}, box);
  const head = html("tr", {}, t);
  for (const h of ["player", "talers", "supply", "VP"]) html("th", {}, head, h);
  for (const pl of v.players) {
    const tr = html("tr", { class: pl.active ? "active" : "", "data-seat": pl.seat }, t);
    const td = html("td", {}, tr);
    dot(td, playerColour(b, pl.seat));
    td.appendChild(document.createTextNode(`${pl.decider ? "\u25b6 " : ""}${label(page, pl.seat)}`));
    for (const k of ["money", "stall_supply", "score"]) html("td", {}, tr, String(pl[k]));
    const hand = html("tr", {}, t);
    const cell = html("td", { colspan: 4 }, hand, "hand: ");
    const mine = pl.seat === page.seat;
    for (const [name, count] of Object.entries(pl.hand)) {
      const acts = mine ? legal.filter((a) => a.name.endsWith(":" + name) &&
        /^(build|sell:add|discard):/.test(a.name)) : [];
      tokenChip(b, cell, name, count, acts, app.mode === "play" ? play : () => {});
    }
    if (!Object.keys(pl.hand).length) cell.appendChild(document.createTextNode("-"));
    const sold = Object.values(pl.sold).reduce((x, y) => x + y, 0);
    if (sold) cell.appendChild(document.createTextNode(`  sold ${sold}`));
  }
  const p = $("private");
  p.innerHTML = "";
  const piles = v.piles.join(" ");
  html("div", {}, p, `supply piles: ${piles}` + (v.end_triggered ? "  LAST ROUND" : ""));
  if (Object.keys(v.sale).length) {
    const d = html("div", {}, p, "sale: ");
    for (const [name, c] of Object.entries(v.sale)) tokenChip(b, d, name, c);
  }
  if (v.loss_colour) html("div", {}, p, `loss: a ${v.loss_colour} token is to be given up`);
}

// ------------------------------------------------------------------ any other game
function genericFields(page) {
  // the seat's observation entries by name (the game's obs_names), no board
  const box = $("players");
  box.innerHTML = "";
  html("div", { class: "hint" }, box,
    `${page.game}: what player_${page.seat} observes (the game's own entry names)`);
  const t = html("table", { id: "fields" }, box);
  for (const [name, value] of page.view.fields) {
    const tr = html("tr", { "data-field": name }, t);
    html("td", {}, tr, name);
    html("td", {}, tr, String(value));
  }
  $("private").innerHTML = "";
}

// ------------------------------------------------------------------ Voyage
const SQ3 = Math.sqrt(3);
const SIDE = [60, 0, -60, -120, -180, 120];
function corners(x, y, s) {
  const pts = [];
  for (let a = 0; a < 360; a += 60) {
    const r = a * Math.PI / 180;
    pts.push(`${(x + s * Math.cos(r)).toFixed(3)},${(y - s * Math.sin(r)).toFixed(3)}`);
  }
  return pts.join(" ");
}
function side(h, d) {
  const a0 = SIDE[d] * Math.PI / 180, a1 = (SIDE[d] + 60) * Math.PI / 180;
  return { x1: h.x + Math.cos(a0), y1: h.y - Math.sin(a0), x2: h.x + Math.cos(a1), y2: h.y - Math.sin(a1) };
}
function voyageBackground(b) {
  // the static map once per board, kept as a <g> to clone
  if (b._bg) return b._bg.cloneNode(true);
  const g = document.createElementNS(SVGNS, "g");
  for (const [x, y, land] of b.cells)
    el("polygon", { points: corners(x, y, 1), fill: land ? "#e9dcb5" : "#d3e4ef",
      stroke: land ? "#e9dcb5" : "#d3e4ef", "stroke-width": 0.06 }, g);
  for (const h of b.hexes)
    el("polygon", { points: corners(h.x, h.y, 1), fill: h.red ? "#f1a9a0" : h.blue ? "#6fa6dc" : "#9ecae1",
      stroke: "#f4f9fc", "stroke-width": 0.08 }, g);
  for (const [x, y, text] of b.labels)
    el("text", { x, y, "text-anchor": "middle", "font-size": 0.75, "font-style": "italic",
      fill: "#5a4a2a", opacity: 0.8 }, g, text);
  for (const [hid, d] of b.walls)
    el("line", { ...side(b.hexes[hid], d), stroke: "#d9c89a", "stroke-width": 0.3 }, g);
  for (const [hid, d] of b.hemisphere_sides)
    el("line", { ...side(b.hexes[hid], d), stroke: "#c51b1b", "stroke-width": 0.2,
      "stroke-dasharray": "0.3 0.15" }, g);
  for (const h of b.hexes) {
    if (h.current >= 0) {
      const t = b.hexes[h.current];
      el("line", { x1: h.x + 0.22 * (t.x - h.x), y1: h.y + 0.22 * (t.y - h.y),
        x2: h.x + 0.72 * (t.x - h.x), y2: h.y + 0.72 * (t.y - h.y), stroke: "#08306b",
        "stroke-width": 0.11, "marker-end": "url(#cur)", opacity: 0.85 }, g);
    }
    if (h.end) el("circle", { cx: h.x, cy: h.y, r: 0.13, fill: "#08306b", opacity: 0.8 }, g);
    if (h.blue) el("text", { x: h.x - 0.42, y: h.y - 0.2, "font-size": 0.6, fill: "#0b3d91",
      "text-anchor": "middle" }, g, "\u273a");
    if (h.red) el("text", { x: h.x - 0.42, y: h.y - 0.2, "font-size": 0.6, fill: "#a50f15",
      "text-anchor": "middle" }, g, "\u2680");
    if (h.pirate) el("text", { x: h.x + 0.42, y: h.y - 0.2, "font-size": 0.6, fill: "#111",
      "text-anchor": "middle" }, g, "\u2620");
  }
  const L = b.hexes[b.lisbon];
  el("polygon", { points: corners(L.x, L.y, 0.93), fill: "none", stroke: "#f2c200", "stroke-width": 0.22 }, g);
  el("text", { x: L.x + 0.9, y: L.y - 0.5, "font-size": 0.62, "font-weight": "bold" }, g, "Lisbon");
  b._bg = g;
  return g.cloneNode(true);
}
function voyageTargets(b, v, legal, seat) {
  // legal actions by the sea space a click on it stands for
  const me = v.players[seat], at = {};
  const add = (hid, a) => { if (hid >= 0) (at[hid] = at[hid] || []).push(a); };
  for (const a of legal) {
    const [kind, dir] = a.name.split(":");
    const d = b.dirs.indexOf(dir);
    if ((kind === "move" || kind === "shield") && d >= 0) add(b.hexes[me.ship].neighbors[d], a);
    else if (kind === "black" && d >= 0 && v.black_hex >= 0) add(b.hexes[v.black_hex].neighbors[d], a);
    else if (a.name === "dock") add(b.lisbon, a);
  }
  return at;
}
function drawVoyage(b, page, legal) {
  const svg = $("board");
  svg.innerHTML = "";
  svg.setAttribute("viewBox", b.view_box.join(" "));
  svg.style.background = "#d3e4ef";
  const defs = el("defs", {}, svg);
  const mk = el("marker", { id: "cur", viewBox: "0 0 10 10", refX: 6, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#08306b" }, mk);
  svg.appendChild(voyageBackground(b));
  const v = page.view;
  for (const p of b.ports) {
    const h = b.hexes[p.hex];
    const by = v.discovered[p.id];
    const g = el("g", { "data-port": p.name }, svg);
    el("circle", { cx: h.x, cy: h.y, r: 0.42, fill: "#fff",
      stroke: by === undefined ? "#333" : playerColour(b, by), "stroke-width": by === undefined ? 0.08 : 0.2 }, g);
    el("text", { x: h.x, y: h.y + 0.18, "text-anchor": "middle", "font-size": 0.5,
      "font-weight": "bold" }, g, String(p.vp));
    if (p.good) el("rect", { x: h.x + 0.28, y: h.y - 0.56, width: 0.38, height: 0.38,
      fill: b.good_colours[b.goods.indexOf(p.good)], stroke: "#333", "stroke-width": 0.05 }, g);
    el("text", { x: h.x, y: h.y + 0.98, "text-anchor": "middle", "font-size": 0.62,
      "font-weight": "bold", fill: "#1a1a1a", stroke: "#fff", "stroke-width": 0.16,
      "paint-order": "stroke", class: "port-label" }, g, p.name);
  }
  page.view.players.forEach((pl, i) => {
    const h = b.hexes[pl.ship];
    const ox = (i % 2) * 0.56 - 0.28, oy = Math.floor(i / 2) * 0.5 - 0.12;
    const x = h.x + ox, y = h.y + oy;
    const mine = pl.seat === page.seat;
    if (mine) {     // the person's own ship: a gold ring and "you", unlike the Black Ship
      el("circle", { cx: x, cy: y - 0.05, r: 0.58, fill: "#fff8d0", "fill-opacity": 0.85,
        stroke: "#f2c200", "stroke-width": 0.14, "data-you": 1 }, svg);
      el("text", { x, y: y - 0.72, "text-anchor": "middle", "font-size": 0.5, "font-weight": "bold",
        fill: "#7a5a00", stroke: "#fff", "stroke-width": 0.12, "paint-order": "stroke" }, svg, "you");
    }
    el("polygon", { points: `${x},${y - 0.45} ${x - 0.36},${y + 0.25} ${x + 0.36},${y + 0.25}`,
      fill: playerColour(b, pl.seat), stroke: mine ? "#fff" : "#333",
      "stroke-width": mine ? 0.1 : 0.06, "data-ship": pl.seat }, svg);
  });
  if (v.black_hex >= 0) {
    const h = b.hexes[v.black_hex];
    el("circle", { cx: h.x, cy: h.y + 0.35, r: 0.25, fill: "#111", "data-black": 1 }, svg);
  }
  const clicks = [];
  if (page.to_move === page.seat && legal.length) {
    const at = voyageTargets(b, v, legal, page.seat);
    for (const hid in at) {
      const h = b.hexes[hid];
      const g = el("g", { "data-hex": hid }, svg);
      el("polygon", { points: corners(h.x, h.y, 0.9), fill: "#ffd24d", "fill-opacity": 0.35,
        stroke: "#ff7f00", "stroke-width": 0.16, class: "target" }, g);
      clicks.push([g, at[hid]]);
    }
  }
  return clicks;
}
function voyagePlayers(b, page) {
  const v = page.view, box = $("players");
  box.innerHTML = "";
  const t = html("table", {}, box);
  const head = html("tr", {}, t);
  for (const h of ["player", "order", "discs", "VP", "cards", "cargo", "tiles"]) html("th", {}, head, h);
  for (const pl of v.players) {
    const tr = html("tr", { class: pl.active ? "active" : "", "data-seat": pl.seat }, t);
    const td = html("td", {}, tr);
    dot(td, playerColour(b, pl.seat));
    td.appendChild(document.createTextNode(`${pl.decider ? "\u25b6 " : ""}${label(page, pl.seat)}`));
    html("td", {}, tr, String(pl.position || "-"));
    html("td", {}, tr, `${pl.available}/${pl.discs}`);
    html("td", {}, tr, String(pl.vp));
    html("td", {}, tr, String(pl.hand_size));
    const cargo = html("td", {}, tr);
    for (const g of pl.cubes) {
      const c = html("span", { class: "tok", title: g }, cargo, "\u00a0");
      c.style.background = b.good_colours[b.goods.indexOf(g)];
    }
    html("td", {}, tr, String(pl.tiles || "-"));
  }
  const p = $("private");
  p.innerHTML = "";
  const bits = [`deck ${v.deck_size}`, `monastery tiles left ${v.tiles_left}`];
  if (v.bid_high) bits.push(`high bid ${v.bid_high}`);
  if (v.card) bits.push(`card in play: ${v.card}`);
  if (v.end_triggered) bits.push("LAST ROUND");
  html("div", {}, p, bits.join(" \u00b7 "));
  html("div", { id: "my-hand" }, p, "your wind cards: " +
    (Object.entries(v.my_hand).map(([c, k]) => k > 1 ? `${c} x${k}` : c).join(", ") || "-"));
  html("div", { id: "my-targets" }, p, "your target ports: " + (v.my_targets.join(", ") || "-"));
}

// ------------------------------------------------------------------ watching
async function fillLibrary() {
  const s = $("w-store");
  s.innerHTML = "";
  app.meta.stores.forEach((x) => option(s, x.index, x.name));
  if (!app.meta.stores.length) option(s, "", "(no results store: serve --db FILE)");
}
async function listGames(ev) {
  if (ev) ev.preventDefault();
  const store = $("w-store").value;
  if (store === "") return say("this server was started without a results store", true);
  const q = new URLSearchParams();
  for (const [k, id] of [["game", "w-game"], ["agent", "w-agent"], ["winner", "w-winner"], ["truncated", "w-truncated"]])
    if ($(id).value !== "") q.set(k, $(id).value);
  try {
    const rows = await api(`/api/stores/${store}/games?${q}`);
    const body = $("w-list").querySelector("tbody");
    body.innerHTML = "";
    for (const r of rows) {
      const tr = html("tr", { "data-game-id": r.game_id }, body);
      for (const c of [r.game_id, `${r.game} ${r.num_players}p`, r.agents.join(", "), r.scores.join(" "),
        r.winners.map((w) => `player_${w}`).join(" "), r.steps, r.recorded ? "record" : "seed"])
        html("td", {}, tr, String(c));
      tr.onclick = () => { location.hash = `#watch/${store}/${r.game_id}`; };
    }
    say(`${rows.length} games`);
  } catch (e) { say(e.message, true); }
}
async function openReplay(store, gid, at, seat) {
  stopTimer();
  app.mode = "watch";
  show("table");
  $("replay-controls").hidden = false;
  $("speed-row").hidden = true;
  try {
    say("replaying…");
    const q = new URLSearchParams();
    if (at !== undefined) q.set("at", at);
    if (seat !== undefined) q.set("seat", seat);
    const page = await api(`/api/stores/${store}/games/${gid}?${q}`);
    app.replay = { store, gid, page };
    app.page = page;
    const sl = $("r-slider");
    sl.max = page.moves;
    sl.value = page.at;
    const rs = $("r-seat");
    if (rs.options.length !== page.num_players) {
      rs.innerHTML = "";
      for (let s = 0; s < page.num_players; s++) option(rs, s, `player_${s}`);
    }
    rs.value = page.seat;
    const m = page.at ? page.log[page.at - 1] : null;
    $("r-move").textContent = `move ${page.at}/${page.moves}` + (m ? `: ${label(page, m.seat)} ${m.action}` : " (start)");
    const chk = $("r-check");
    chk.className = page.matches ? "ok" : "bad";
    chk.textContent = (page.matches ? "replays the stored game: scores " : "does NOT replay the stored game: scores ") +
      `${page.replayed_scores.join(" ")} (stored ${page.stored.scores.join(" ")}; moves from ${page.how})`;
    await draw(page);
    say("");
  } catch (e) { say(e.message, true); }
}
function replayGo(at) {
  const r = app.replay;
  if (!r) return;
  at = Math.max(0, Math.min(r.page.moves, at));
  location.hash = `#watch/${r.store}/${r.gid}/${at}/${$("r-seat").value}`;
}

// ------------------------------------------------------------------ routing
function show(which) {
  for (const id of ["setup", "library", "table"]) $(id).hidden = id !== which &&
    !(which === "table" && id === "none");
  $("tab-play").className = app.mode === "play" || which === "setup" ? "on" : "";
  $("tab-watch").className = app.mode === "watch" || which === "library" ? "on" : "";
}
function route() {
  $("choice").hidden = true;
  const parts = location.hash.replace(/^#/, "").split("/");
  if (parts[0] === "play" && parts[1]) return openGame(parts[1]);
  if (parts[0] === "watch" && parts[2]) {
    return openReplay(parts[1], parts[2], parts[3], parts[4]);
  }
  stopTimer();
  app.page = null;
  if (parts[0] === "watch") { app.mode = "library"; show("library"); return listGames(); }
  app.mode = "setup";
  show("setup");
}
async function main() {
  try { app.meta = await api("/api/meta"); } catch (e) { return say(e.message, true); }
  for (const g of app.meta.games) option($("f-game"), g.name);
  for (const g of app.meta.games) option($("w-game"), g.name);
  $("think").textContent = app.meta.deadline_seconds;
  $("f-game").onchange = fillSetup;
  $("f-players").onchange = fillSeats;
  $("f-seat").onchange = fillSeats;
  $("setup-form").onsubmit = startGame;
  $("watch-form").onsubmit = listGames;
  $("w-open").onclick = () => { if ($("w-id").value) location.hash = `#watch/${$("w-store").value}/${$("w-id").value}`; };
  $("r-first").onclick = () => replayGo(0);
  $("r-back").onclick = () => replayGo(app.replay.page.at - 1);
  $("r-next").onclick = () => replayGo(app.replay.page.at + 1);
  $("r-last").onclick = () => replayGo(app.replay.page.moves);
  $("r-slider").onchange = () => replayGo(+$("r-slider").value);
  $("r-seat").onchange = () => replayGo(app.replay.page.at);
  fillSetup();
  fillLibrary();
  window.addEventListener("hashchange", route);
  if (!app.meta.ready.ready) {
    show(location.hash.startsWith("#watch") ? "library" : "setup");
    if (!(await waitReady(app.meta.ready))) return;
  }
  route();
}
main();
