// seqcam page: vanilla JS, no build step, nothing from the internet.
// Every text comes from the server's catalogue (/api/i18n/<lang>); this file holds none.
"use strict";

const LANG_KEY = "seqcam/lang";
const TOKEN_PREFIX = "seqcam/token/";
const tokenKey = (tableId) => TOKEN_PREFIX + tableId;
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
const RED_SUITS = "HD";
const CAMERA_EVERY_MS = 700; // a frame at most this often (a change is stored when two agree: within a second); the next waits for the answer to the last
const CAMERA_LONG_SIDE = 1920; // phones film larger; the reading needs no more
const CAMERA_NO_BOARD = ["board_not_found", "board_unreadable", "board_cut_off"]; // normal while a hand is over the board
const PHOTO_LONG_SIDE = 4032; // a 12 MP photo goes as it is; a larger one (a 50 or 108 MP mode) is shrunk on the phone
const PHOTO_SHRINK_BYTES = 8_000_000; // ... when its file is this large: it uploads faster and stays under the server's limit

const page = {
  lang: "en",
  languages: { en: "English" }, // code -> the language's own name
  texts: {},
  layout: [],
  setup: [],
  tableId: null,
  token: null,
  table: null,
  asked: null, // [row, col] of the chip asked about
  rank: null,
  suit: null,
  picked: [], // cells of the picked card
  camera: null, // the live camera's stream while it runs
  cameraName: Math.random().toString(36).slice(2, 10), // this page's camera to the server, which keeps where each camera saw the grid
  refreshes: 0, // refreshes started: only the latest one renders
};

const $ = (id) => document.getElementById(id);

function t(key, params = {}) {
  const template = page.texts[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

class PageError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

async function api(path, options = {}) {
  const headers = { "Accept-Language": page.lang, ...(options.headers || {}) };
  if (page.token && options.method && options.method !== "GET") headers["X-Table-Token"] = page.token;
  let response;
  try {
    response = await fetch(path, { ...options, headers });
  } catch {
    throw new PageError("network");
  }
  const isJson = (response.headers.get("content-type") || "").includes("json");
  const body = isJson ? await response.json() : await response.text();
  if (!response.ok) throw new PageError(isJson && body.code ? body.code : "unexpected", (isJson && body.params) || {});
  return body;
}

function showError(error, box = $("error")) {
  if (!error) {
    box.hidden = true;
    return;
  }
  const code = error instanceof PageError ? error.code : "unexpected";
  box.textContent = t(`error.${code}`, error.params || {});
  box.dataset.code = code;
  box.hidden = false;
}

// --- language ------------------------------------------------------------------------

function wantedLanguage() {
  // The server answers in English when it does not offer the language asked for.
  const browser = (navigator.languages || [navigator.language || "en"])[0] || "en";
  return localStorage.getItem(LANG_KEY) || browser.slice(0, 2).toLowerCase();
}

async function loadTexts(lang) {
  const answer = await api(`/api/i18n/${encodeURIComponent(lang)}`);
  page.lang = answer.language;
  page.languages = answer.languages;
  page.texts = answer.texts;
  document.documentElement.lang = page.lang;
  document.title = t("page.title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  const select = $("lang");
  select.replaceChildren();
  for (const [code, name] of Object.entries(page.languages)) select.append(new Option(name, code, false, code === page.lang));
  select.parentElement.hidden = Object.keys(page.languages).length < 2;
}

// --- helpers -------------------------------------------------------------------------

const cellIndex = ([row, col]) => row * 10 + col;
const teamName = (team) => t(`team.${team}`);
const cardName = (card) => t("card.name", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });

function cellName([row, col]) {
  const symbol = page.layout[cellIndex([row, col])].symbol;
  return t("cell.name", { row, col, card: symbol || t("cell.corner") });
}

function timeText(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(page.lang, { hour: "2-digit", minute: "2-digit" });
}

function chipNode(team, extra = "") {
  const chip = document.createElement("span");
  chip.className = `chip ${team} ${extra}`.trim();
  chip.textContent = t(`chip.${team}`);
  return chip;
}

function listItem(time, text, cls = "") {
  const item = document.createElement("li");
  const when = document.createElement("time");
  when.textContent = time;
  const what = document.createElement("span");
  what.textContent = text;
  if (cls) what.className = cls;
  item.append(when, what);
  return item;
}

// --- home: start a table -------------------------------------------------------------

function showMyTables() {
  // Tables this phone holds a player's token for, so a closed tab is never a lost table.
  const ids = Object.keys(localStorage).filter((key) => key.startsWith(TOKEN_PREFIX)).map((key) => key.slice(TOKEN_PREFIX.length));
  $("my-tables-box").hidden = ids.length === 0;
  $("my-tables").replaceChildren(
    ...ids.sort().map((id) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/t/${encodeURIComponent(id)}`;
      link.textContent = t("page.table", { table: id });
      item.append(link);
      return item;
    }),
  );
}

function showHome() {
  $("home").hidden = false;
  showMyTables();
  const players = $("start-players");
  players.replaceChildren(...page.setup.map((o) => new Option(String(o.players), String(o.players))));
  const teamsBox = $("start-teams");
  const update = () => {
    const option = page.setup.find((o) => String(o.players) === players.value);
    teamsBox.hidden = !option || option.teams.length < 2;
  };
  players.onchange = update;
  update();
  $("start-form").onsubmit = async (event) => {
    event.preventDefault();
    showError(null);
    const playersCount = Number(players.value);
    const option = page.setup.find((o) => o.players === playersCount);
    const teams = option.teams.length > 1 ? Number(new FormData(event.target).get("teams")) : option.teams[0];
    try {
      const created = await api("/api/tables", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ players: playersCount, teams }),
      });
      localStorage.setItem(tokenKey(created.id), created.token);
      location.assign(created.view_path);
    } catch (error) {
      showError(error);
    }
  };
}

// --- the table -----------------------------------------------------------------------

function adoptToken() {
  // The join link carries the token after '#k='; keep it on this phone, then hide it from the address bar.
  const match = location.hash.match(/^#k=([\w-]+)$/);
  if (match) {
    localStorage.setItem(tokenKey(page.tableId), match[1]);
    history.replaceState(null, "", location.pathname);
  }
  page.token = localStorage.getItem(tokenKey(page.tableId));
}

async function refresh() {
  const mine = ++page.refreshes;
  try {
    const view = await api(`/api/tables/${page.tableId}/view`);
    if (mine === page.refreshes) await showView(view); // else a later view is on its way
  } catch (error) {
    showError(error);
  }
}

// The table's view (GET /view, or as the live stream sends it with each change)
async function showView(view) {
  const table = view.table;
  const changed = !page.table || page.table.revision !== table.revision;
  page.table = table;
  if (changed) {
    page.asked = null;
    showError(null, $("photo-error")); // a newer reading: the last photo's error is old news
  }
  renderTable();
  renderEvents(view.events);
  renderPhotos(view.photos);
  if (changed) await renderAnswer();
  if (page.rank && page.suit) await answerCard();
}

function renderTable() {
  const table = page.table;
  const reading = table.reading;
  $("table-name").textContent = t("page.table", { table: table.id });
  $("table-setup").textContent = t("page.setup", { players: table.players, teams: table.teams });
  renderWinner(reading);
  renderScores(table, reading);
  renderBoard(reading);
  renderWarnings(reading);
  $("photo-time").textContent = reading ? t("page.photo_time", { time: timeText(table.reading_created) }) : t("page.no_photo");
  $("settings-players").value = String(table.players);
  $("settings-teams").value = String(table.teams);
}

function renderWinner(reading) {
  const banner = $("winner");
  const winners = reading ? reading.winner : [];
  banner.hidden = winners.length === 0;
  banner.replaceChildren();
  banner.className = "winner";
  if (winners.length === 1) {
    banner.classList.add(winners[0]);
    banner.append(chipNode(winners[0]), t("page.winner", { team: teamName(winners[0]) }));
  } else if (winners.length > 1) {
    banner.append(t("page.winners", { teams: winners.map(teamName).join(" · ") }));
  }
}

function renderScores(table, reading) {
  const box = $("scores");
  box.replaceChildren();
  for (const team of table.team_letters) {
    const count = reading ? reading.sequences[team] ?? 0 : 0;
    const score = document.createElement("div");
    score.className = `score ${team}`;
    if (reading && reading.winner.includes(team)) score.classList.add("won");
    const text = document.createElement("span");
    const number = document.createElement("span");
    number.className = "count";
    number.textContent = t("page.sequences", { count, target: table.win_target });
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${teamName(team)} · ${t("page.sequences_label")}`;
    text.append(number, label);
    score.append(chipNode(team), text);
    box.append(score);
  }
}

function renderBoard(reading) {
  const board = $("board");
  board.replaceChildren();
  const grid = reading ? reading.grid.join("") : page.layout.map((c) => (c.corner ? "#" : ".")).join("");
  const inRun = new Set((reading ? reading.runs : []).flatMap((run) => run.cells.map(cellIndex)));
  const definite = new Set((reading ? reading.protected.definite : []).map(cellIndex));
  const possible = new Set((reading ? reading.protected.possible : []).map(cellIndex));
  const picked = new Set(page.picked.map(cellIndex));
  // a correction is {cell, seen}; readings stored by older versions hold the bare cell
  const corrected = new Set((reading && reading.corrected ? reading.corrected : []).map((k) => cellIndex(k.cell || k)));
  const asked = page.asked ? cellIndex(page.asked) : -1;
  for (let index = 0; index < 100; index++) {
    const symbol = grid[index];
    const where = [Math.floor(index / 10), index % 10];
    const cell = document.createElement("button");
    cell.type = "button";
    cell.className = "cell";
    cell.dataset.cell = `${where[0]},${where[1]}`;
    cell.dataset.symbol = symbol;
    const printed = page.layout[index];
    let label = cellName(where);
    if (symbol === "#") cell.classList.add("corner");
    else {
      const name = document.createElement("span");
      name.className = `card-name${RED_SUITS.includes(printed.card[1]) ? " red" : ""}`;
      name.textContent = printed.symbol;
      cell.append(name);
    }
    if (symbol === "?") {
      cell.classList.add("unknown");
      label += `: ${t("cell.unknown")}`;
    } else if ("BGR".includes(symbol)) {
      const mark = definite.has(index) ? "protected" : possible.has(index) ? "possible" : "";
      cell.append(chipNode(symbol, mark));
      label += `: ${teamName(symbol)}`;
    }
    if (inRun.has(index)) cell.classList.add("run");
    if (picked.has(index)) cell.classList.add("picked");
    if (corrected.has(index)) cell.classList.add("corrected");
    if (index === asked) cell.classList.add("asked");
    cell.setAttribute("aria-label", label);
    cell.onclick = () => askRemoval(where);
    board.append(cell);
  }
}

function renderWarnings(reading) {
  const details = reading ? reading.warning_details : [];
  $("warnings-box").hidden = details.length === 0;
  $("warnings").replaceChildren(
    ...details.map((w) => {
      const item = document.createElement("li");
      item.textContent = t(`warning.${w.code}`, { text: w.text });
      return item;
    }),
  );
}

function eventText(event) {
  const params = { team: event.team ? teamName(event.team) : "", cell: event.cell ? cellName(event.cell) : "" };
  if (event.type === "violation") return t(`violation.${event.code}`, params);
  return t(`event.${event.code}`, params);
}

function renderEvents(events) {
  const list = $("events");
  if (events.length === 0) {
    list.replaceChildren(listItem("", t("page.history_empty")));
    return;
  }
  list.replaceChildren(
    ...events.map((event) => {
      const cls = event.type === "violation" || event.code.endsWith("_illegal") ? "bad" : event.type === "winner" ? "good" : "";
      return listItem(timeText(event.t), eventText(event), cls);
    }),
  );
}

function renderPhotos(photos) {
  $("photos").replaceChildren(
    ...photos.map((photo) => {
      const grid = photo.result.grid.join("");
      const chips = [...grid].filter((s) => "BGR".includes(s)).length;
      const sequences = Object.entries(photo.result.sequences)
        .map(([team, count]) => `${teamName(team)} ${count}`)
        .join(", ");
      return listItem(timeText(photo.created), t("page.photo_entry", { chips, sequences }));
    }),
  );
}

// --- disputes ------------------------------------------------------------------------

async function askRemoval(where) {
  if (!page.table || !page.table.reading) {
    showError(new PageError("no_photo_yet"));
    return;
  }
  page.asked = where;
  renderBoard(page.table.reading);
  await renderAnswer();
}

async function renderAnswer() {
  const box = $("answer");
  if (!page.asked) {
    box.hidden = true;
    return;
  }
  try {
    const [row, col] = page.asked;
    const answer = await api(`/api/tables/${page.tableId}/removal?row=${row}&col=${col}`);
    const verdict = answer.legal === true ? "yes" : answer.legal === false ? "no" : "unsure";
    box.className = `answer ${verdict}`;
    box.dataset.legal = String(answer.legal);
    $("answer-question").textContent = t("page.removal_question", { cell: cellName(answer.cell) });
    $("answer-verdict").textContent = t(`page.answer_${verdict}`);
    $("answer-reason").textContent = t(`removal.${answer.code}`, {
      cell: cellName(answer.cell),
      team: answer.team ? teamName(answer.team) : "",
    });
    renderFix(answer.cell, answer.code);
    box.hidden = false;
  } catch (error) {
    showError(error);
  }
}

function renderFix(where, code) {
  // Players may correct a misread cell; a corner is printed and never changes.
  const fix = $("fix");
  fix.hidden = !page.token || code === "corner";
  if (fix.hidden) return;
  const current = page.table.reading.grid[where[0]][where[1]];
  const choices = [...page.table.team_letters, ".", "?"];
  $("fix-buttons").replaceChildren(
    ...choices.map((symbol) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.symbol = symbol;
      button.setAttribute("aria-pressed", String(symbol === current));
      if (symbol === ".") button.textContent = t("page.fix_empty");
      else if (symbol === "?") button.textContent = t("page.fix_unknown");
      else {
        button.append(chipNode(symbol));
        button.setAttribute("aria-label", teamName(symbol));
      }
      button.onclick = () => correctCell(where, symbol);
      return button;
    }),
  );
}

async function correctCell(where, symbol) {
  const body = JSON.stringify({ row: where[0], col: where[1], symbol });
  await action(`/api/tables/${page.tableId}/corrections`, { headers: { "Content-Type": "application/json" }, body });
  await askRemoval(where);
}

function buildCardPicker() {
  const makeButton = (text, label, value, onPick, red) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.setAttribute("aria-label", label);
    button.dataset.value = value;
    button.setAttribute("aria-pressed", "false");
    if (red) button.classList.add("red");
    button.onclick = () => onPick(value);
    return button;
  };
  $("ranks").replaceChildren(...RANKS.map((r) => makeButton(r === "T" ? "10" : r, t(`rank.${r}`), r, pickRank)));
  $("suits").replaceChildren(
    ...SUITS.map(([s, symbol]) => makeButton(symbol, t(`suit.${s}`), s, pickSuit, RED_SUITS.includes(s))),
  );
}

function pressOnly(groupId, value) {
  for (const button of $(groupId).children) button.setAttribute("aria-pressed", String(button.dataset.value === value));
}

async function pickRank(rank) {
  page.rank = rank;
  pressOnly("ranks", rank);
  await answerCard();
}

async function pickSuit(suit) {
  page.suit = suit;
  pressOnly("suits", suit);
  await answerCard();
}

async function answerCard() {
  const out = $("card-answer");
  if (!page.rank || !page.suit) return;
  try {
    const card = await api(`/api/tables/${page.tableId}/cards/${page.rank}${page.suit}`);
    page.picked = card.cells;
    if (card.jack) {
      out.textContent = t(`page.card_${card.jack}`);
    } else {
      const where = t("page.card_cells", { card: card.symbol, name: cardName(card.card), cells: card.cells.map(cellName).join(" · ") });
      const state = card.dead === true ? "dead" : card.dead === false ? "alive" : "unsure";
      out.textContent = `${where} ${t(`page.card_${state}`)}`;
      out.dataset.dead = String(card.dead);
    }
    renderBoard(page.table.reading);
  } catch (error) {
    out.textContent = "";
    showError(error);
  }
}

// --- players' actions ----------------------------------------------------------------

// A large photo, at most PHOTO_LONG_SIDE pixels long, as a JPEG; the file itself when it is
// small, or when the browser cannot decode it (the server then says what is wrong with it).
async function photoToSend(file) {
  if (file.size <= PHOTO_SHRINK_BYTES || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await createImageBitmap(file); // turned upright as its EXIF orientation says
    const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const shrunk = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
    return shrunk && shrunk.size < file.size ? shrunk : file;
  } catch {
    return file;
  }
}

async function sendPhoto(file) {
  const label = $("photo-label");
  const status = $("photo-status");
  showError(null, $("photo-error"));
  label.classList.add("busy");
  status.textContent = t("page.reading_photo");
  try {
    const photo = await photoToSend(file);
    await api(`/api/tables/${page.tableId}/photos`, {
      method: "POST",
      headers: { "Content-Type": photo.type || "application/octet-stream" },
      body: photo,
    });
    status.textContent = "";
    await refresh();
  } catch (error) {
    status.textContent = "";
    showError(error, $("photo-error"));
  } finally {
    label.classList.remove("busy");
    $("photo").value = "";
  }
}

// --- calibration: the empty board, photographed once ---------------------------------------

async function showCalibration() {
  let calibration;
  try {
    calibration = await api(`/api/tables/${page.tableId}/calibration`);
  } catch (error) {
    showError(error, $("calibration-error"));
    return;
  }
  renderCalibration(calibration);
}

function renderCalibration(calibration) {
  $("calibration-status").textContent = calibration.calibrated
    ? t("page.calibration_done", { time: timeText(calibration.created), cells: calibration.clear_cells })
    : t("page.calibration_none");
  $("calibration-notes").replaceChildren(...calibration.notes.map((note) => {
    const item = document.createElement("li");
    item.textContent = t(`calibration.${note.code}`, note.params);
    return item;
  }));
  $("calibration-status").dataset.calibrated = String(calibration.calibrated);
  $("calibration-forget").hidden = !calibration.calibrated;
}

async function sendCalibration(file) {
  const label = $("calibration-label");
  showError(null, $("calibration-error"));
  label.classList.add("busy");
  $("calibration-status").textContent = t("page.calibration_working");
  try {
    renderCalibration(await api(`/api/tables/${page.tableId}/calibration`, {
      method: "POST",
      headers: { "Content-Type": file.type || "application/octet-stream" },
      body: file,
    }));
  } catch (error) {
    showError(error, $("calibration-error"));
    await showCalibration();
  } finally {
    label.classList.remove("busy");
    $("calibration-photo").value = "";
  }
}

async function forgetCalibration() {
  showError(null, $("calibration-error"));
  try {
    renderCalibration(await api(`/api/tables/${page.tableId}/calibration`, { method: "DELETE" }));
  } catch (error) {
    showError(error, $("calibration-error"));
  }
}

async function action(path, init = {}) {
  showError(null);
  try {
    await api(path, { method: "POST", ...init });
    await refresh();
  } catch (error) {
    showError(error);
  }
}

async function showJoin() {
  const asPlayer = { method: "GET", headers: { "X-Table-Token": page.token } };
  let links;
  try {
    const svg = await api(`/api/tables/${page.tableId}/join.svg`, asPlayer);
    $("qr").innerHTML = svg; // our own server's SVG, made by segno from the join link
    links = await api(`/api/tables/${page.tableId}/links`, asPlayer);
  } catch (error) {
    showError(error);
    return;
  }
  $("view-link").textContent = links.view_url;
  const copy = (text, button) => async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("page.copied");
    } catch {
      window.prompt("", text);
    }
  };
  $("copy-join").onclick = copy(links.join_url, $("copy-join"));
  $("copy-view").onclick = copy(links.view_url, $("copy-view"));
}

// --- the live camera (secure pages only: browsers give the camera to HTTPS and localhost) ------

function frameJpeg(video) {
  const scale = Math.min(1, CAMERA_LONG_SIDE / Math.max(video.videoWidth, video.videoHeight));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.88));
}

async function startCamera() {
  const status = $("camera-status");
  showError(null, $("photo-error"));
  try {
    page.camera = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } },
      audio: false,
    });
  } catch {
    status.textContent = t("page.camera_denied");
    return;
  }
  const video = $("camera-video");
  video.srcObject = page.camera;
  await video.play();
  video.hidden = false;
  $("camera-start").hidden = true;
  $("camera-stop").hidden = false;
  followBoard(video);
}

function stopCamera() {
  if (page.camera) page.camera.getTracks().forEach((track) => track.stop());
  page.camera = null;
  $("camera-video").hidden = true;
  $("camera-start").hidden = false;
  $("camera-stop").hidden = true;
  $("camera-status").textContent = "";
}

async function followBoard(video) {
  const status = $("camera-status");
  while (page.camera) {
    const started = performance.now();
    try {
      const frame = await frameJpeg(video);
      await api(`/api/tables/${page.tableId}/photos?live=true&camera=${page.cameraName}`, {
        method: "POST",
        headers: { "Content-Type": "image/jpeg" },
        body: frame,
      });
      status.textContent = t("page.camera_watching", { time: new Date().toLocaleTimeString(page.lang) });
      status.dataset.state = "read";
    } catch (error) {
      const noBoard = error instanceof PageError && CAMERA_NO_BOARD.includes(error.code);
      status.textContent = noBoard ? t("page.camera_no_board") : t(`error.${error.code || "unexpected"}`, error.params || {});
      status.dataset.state = noBoard ? "no_board" : "error";
    }
    await new Promise((wake) => setTimeout(wake, Math.max(0, CAMERA_EVERY_MS - (performance.now() - started))));
  }
}

function wireCamera() {
  const canFilm = Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  $("camera-box").hidden = false;
  $("camera-start").hidden = !canFilm || Boolean(page.camera);
  if (!canFilm && !page.camera) $("camera-status").textContent = t("page.camera_needs_https");
  $("camera-start").onclick = startCamera;
  $("camera-stop").onclick = stopCamera;
}

function wirePlayerControls() {
  const isPlayer = Boolean(page.token);
  $("photo-box").hidden = !isPlayer;
  $("join-box").hidden = !isPlayer;
  $("admin-box").hidden = !isPlayer;
  $("calibration-box").hidden = !isPlayer;
  $("watching").hidden = isPlayer;
  if (!isPlayer) return;
  $("photo").onchange = (event) => event.target.files[0] && sendPhoto(event.target.files[0]);
  $("calibration-photo").onchange = (event) => event.target.files[0] && sendCalibration(event.target.files[0]);
  $("calibration-forget").onclick = forgetCalibration;
  showCalibration();
  wireCamera();
  $("undo").onclick = () => action(`/api/tables/${page.tableId}/undo`);
  // where no printed card shows (a board full of chips), a photo cannot tell the printed top
  $("turn").onclick = () => action(`/api/tables/${page.tableId}/turn`, {
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ quarter_turns: 1 }) });
  $("reset").onclick = () => window.confirm(t("page.reset_confirm")) && action(`/api/tables/${page.tableId}/reset`);
  $("settings-players").replaceChildren(...page.setup.map((o) => new Option(String(o.players), String(o.players))));
  $("settings-form").onsubmit = (event) => {
    event.preventDefault();
    const body = JSON.stringify({ players: Number($("settings-players").value), teams: Number($("settings-teams").value) });
    action(`/api/tables/${page.tableId}/settings`, { method: "PUT", headers: { "Content-Type": "application/json" }, body });
  };
  showJoin();
}

function listen() {
  const live = $("live");
  live.hidden = false;
  const source = new EventSource(`/api/tables/${page.tableId}/stream`);
  const setLive = (on) => {
    live.classList.toggle("on", on);
    live.textContent = t(on ? "page.live_on" : "page.live_off");
    live.dataset.on = String(on);
  };
  source.addEventListener("hello", () => {
    setLive(true);
    refresh(); // catch up on anything missed while reconnecting
  });
  source.addEventListener("change", (message) => {
    const news = JSON.parse(message.data);
    if (!news.view) return refresh();
    page.refreshes++; // a refresh still on its way brings an older view
    showView(news.view).catch(showError);
  });
  source.onerror = () => setLive(false);
}

async function showTable() {
  $("table").hidden = false;
  adoptToken();
  buildCardPicker();
  wirePlayerControls();
  $("answer-close").onclick = () => {
    page.asked = null;
    $("answer").hidden = true;
    renderBoard(page.table.reading);
  };
  await refresh();
  listen();
}

async function main() {
  try {
    await loadTexts(wantedLanguage());
    [page.layout, page.setup] = await Promise.all([api("/api/layout"), api("/api/setup")]);
  } catch (error) {
    showError(error);
    return;
  }
  $("lang").onchange = async (event) => {
    localStorage.setItem(LANG_KEY, event.target.value);
    await loadTexts(event.target.value);
    if (page.table) {
      buildCardPicker();
      if (page.rank) pressOnly("ranks", page.rank);
      if (page.suit) pressOnly("suits", page.suit);
      await refresh();
      wirePlayerControls();
    }
  };
  const match = location.pathname.match(/^\/t\/([\w-]+)$/);
  if (match) {
    page.tableId = match[1];
    await showTable();
  } else {
    showHome();
  }
  document.body.dataset.ready = "true";
}

main();
